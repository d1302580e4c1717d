// Package limiter is an adaptive concurrency limiter a service can import: the
// gradient (TCP-Vegas-like) algorithm, AIMD and a fixed limit for comparison,
// and a concurrency-safe Gate in front of one downstream. It needs only the
// standard library; limiter/limiterprom exports a gate's series to Prometheus
// and limiter/limiterhttp puts a gate in front of an http.Handler.
//
// The algorithms are plain state machines: time is passed in, so they are
// deterministic and can be replayed in virtual time (see limiter/sim). The Gate
// adds the real clock, the bounded wait queue and the static safety cap.
//
// Smoothing means one thing everywhere in this package: the weight of the new
// target, limit = limit·(1−s) + target·s. A higher smoothing reacts faster and
// oscillates more; lower it to calm a swinging limit.
//
// # Zero values and misuse
//
//   - The zero Gradient and the zero AIMD are valid limiters: every zero
//     field takes its default at the first sample. The zero Fixed has limit
//     0, which a Gate enforces as 1 (a gate never deadlocks).
//   - The zero Windowed has no wrapped Limiter: its methods panic. Set Limiter.
//   - The zero Gate is not usable (it has no limiter; its methods panic):
//     create one with NewGate, which defaults to a Gradient.
//   - The zero Permit holds no slot: Release on it does nothing. A Permit is
//     single-use: a second Release of the same Permit does nothing. A copy of
//     a Permit is a second claim to the same slot; releasing both frees the
//     slot twice, so pass a *Permit or keep one owner.
//   - Algorithms are not safe for concurrent use; the Gate serialises them.
//     Change a gate's limiter only inside Gate.Update.
//
// # Versioning
//
// limiter lives in the limitscope module rather than a module of its own. A
// service importing it compiles only this package and the standard library
// (`go list -deps` shows nothing else): since Go 1.17 module graphs are pruned,
// so the tool's dependencies (cobra, bubbletea) are never downloaded as source
// or built; they appear only as go.mod entries in the service's module graph,
// where they could raise a shared dependency's minimum version. That cost is
// smaller today than that of a second module's release train (separate
// limiter/vX.Y.Z tags, a go.work for development, two go.mod files kept in
// step). If a user reports a version conflict through it, split the module
// (limiter/go.mod, tags limiter/vX.Y.Z) — nothing here imports the rest of
// limitscope, so the split is mechanical.
package limiter

import (
	"math"
	"time"
)

// Limiter is the small interface every algorithm here implements. Observe feeds
// one RTT sample (or the mean RTT of a sample window) measured around the
// downstream call only, with the number of requests in flight when it was taken
// and whether a loss event (error, timeout, 5xx) happened; it returns the new
// limit. Limit returns the current limit. Implementations are not safe for
// concurrent use; the Gate serialises access.
type Limiter interface {
	Observe(now time.Time, rtt time.Duration, inFlight int, dropped bool) float64
	Limit() float64
}

// MinRTTReporter is implemented by limiters that keep a minimum-RTT estimate.
type MinRTTReporter interface {
	MinRTT() time.Duration
}

// validRTT reports whether rtt can be used as a latency signal. Zero and
// negative durations come from clock steps or callers that never measured.
func validRTT(rtt time.Duration) bool { return rtt > 0 }

// orDefault gives *p the default d when it is zero, negative, NaN or
// infinite: how every algorithm here reads an unset or unusable field.
func orDefault(p *float64, d float64) {
	if *p <= 0 || math.IsNaN(*p) || math.IsInf(*p, 0) {
		*p = d
	}
}

func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
