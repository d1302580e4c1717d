package limiter

import (
	"math"
	"time"
)

// AIMD is additive increase, multiplicative decrease on loss: the limit grows by
// Increase per successful sample while at least half of it is in use, and is
// multiplied by Backoff on a loss event, at most once per Cooldown so one burst
// of errors counts as one congestion signal. A sample slower than Timeout (when
// set) is a loss. Feed it windowed samples (Windowed), so one step is one
// sample window, as Netflix's concurrency-limits does.
//
// It reacts only to errors, which is its weakness: by the time a downstream
// sheds or times out, its queue is already full. It is here for comparison.
//
// Against Netflix's AIMDLimit (concurrency-limits): the growth rule is the
// same (+1 while in-flight ≥ limit/2); the differences are the Cooldown (Netflix
// backs off on every dropped sample, so a burst of errors counts many times),
// a fractional limit (Netflix truncates to whole requests on backoff) and the
// defaults (Netflix: initial and minimum 20, maximum 200, backoff 0.9,
// timeout 5 s). AIMD{InitialLimit: 20, MinLimit: 20, MaxLimit: 200,
// Backoff: 0.9, Timeout: 5 * time.Second, Cooldown: time.Nanosecond} is
// Netflix's except for the truncation. The Go port
// github.com/platinummonkey/go-concurrency-limits v1.0.0 grows only while
// in-flight ≥ limit, a test pins that difference.
type AIMD struct {
	// InitialLimit (default 10), MinLimit (default 4), MaxLimit (default 400).
	InitialLimit, MinLimit, MaxLimit float64
	// Increase is the additive step per sample (default 1).
	Increase float64
	// Backoff multiplies the limit on loss (default 0.5).
	Backoff float64
	// Cooldown is the shortest time between two backoffs (default 1 s).
	Cooldown time.Duration
	// Timeout, when positive, turns a slower sample into a loss event.
	Timeout time.Duration

	limit       float64
	lastBackoff time.Time
	backedOff   bool
}

func (a *AIMD) init() {
	orDefault(&a.MinLimit, DefaultMinLimit)
	orDefault(&a.MaxLimit, DefaultMaxLimit)
	if a.MaxLimit < a.MinLimit {
		a.MaxLimit = a.MinLimit
	}
	orDefault(&a.InitialLimit, DefaultInitialLimit)
	orDefault(&a.Increase, 1)
	orDefault(&a.Backoff, 0.5)
	a.Backoff = math.Min(a.Backoff, 1)
	if a.Cooldown <= 0 {
		a.Cooldown = time.Second
	}
	a.limit = clamp(a.InitialLimit, a.MinLimit, a.MaxLimit)
}

// Limit returns the current limit.
func (a *AIMD) Limit() float64 {
	if a.limit == 0 {
		a.init()
	}
	return a.limit
}

// Observe feeds one sample and returns the new limit.
func (a *AIMD) Observe(now time.Time, rtt time.Duration, inFlight int, dropped bool) float64 {
	if a.limit == 0 {
		a.init()
	}
	if a.Timeout > 0 && rtt > a.Timeout {
		dropped = true
	}
	if dropped {
		if !a.backedOff || now.Sub(a.lastBackoff) >= a.Cooldown {
			a.limit = math.Max(a.MinLimit, a.limit*a.Backoff)
			a.lastBackoff = now
			a.backedOff = true
		}
		return a.limit
	}
	if float64(inFlight) >= a.limit*0.5 {
		a.limit = math.Min(a.MaxLimit, a.limit+a.Increase)
	}
	return a.limit
}

// Fixed is a static limit: the baseline an adaptive limiter is compared with.
type Fixed struct {
	// N is the limit.
	N float64
}

// Limit returns N.
func (f *Fixed) Limit() float64 { return f.N }

// Observe ignores the sample and returns N.
func (f *Fixed) Observe(time.Time, time.Duration, int, bool) float64 { return f.N }
