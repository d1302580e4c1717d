// Package limiter is an adaptive concurrency limiter a service can import: the
// gradient (TCP-Vegas-like) algorithm, AIMD and a fixed limit for comparison, a
// concurrency-safe Gate in front of one downstream, Prometheus metrics and net/http
// middleware.
//
// The algorithms are plain state machines: time is passed in, so they are
// deterministic and can be replayed in virtual time (see limiter/sim). The Gate
// adds the real clock, the bounded wait queue and the static safety cap.
//
// Smoothing means one thing everywhere in this package: the weight of the new
// target, limit = limit·(1−s) + target·s. A higher smoothing reacts faster and
// oscillates more; lower it to calm a swinging limit.
//
// The package imports nothing else of limitscope.
package limiter

import "time"

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

func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
