package limiter

import "time"

// Windowed aggregates per-request samples into sample windows and feeds the
// wrapped limiter once per window: the mean RTT of the window's successful
// requests, the largest in-flight seen, and a loss if any request in it was
// dropped. Per-request RTTs are noisy; a windowed mean makes the minimum RTT a
// property of the downstream rather than of one lucky request, and a burst of
// errors in one window counts as one loss event.
//
// A window closes at the first sample that arrives at least Window after it
// opened with at least MinSamples in it (a loss closes it at once, so errors
// brake without delay). Window 0 feeds every sample through unchanged.
type Windowed struct {
	Limiter    Limiter
	Window     time.Duration
	MinSamples int

	open  bool
	start time.Time
	sum   time.Duration
	n     int
	maxIn int
}

// Limit returns the wrapped limiter's limit.
func (w *Windowed) Limit() float64 { return w.Limiter.Limit() }

// MinRTT returns the wrapped limiter's minimum RTT when it keeps one.
func (w *Windowed) MinRTT() time.Duration {
	if r, ok := w.Limiter.(MinRTTReporter); ok {
		return r.MinRTT()
	}
	return 0
}

// Observe adds one sample to the current window and feeds the wrapped limiter
// when the window closes.
func (w *Windowed) Observe(now time.Time, rtt time.Duration, inFlight int, dropped bool) float64 {
	if w.Window <= 0 {
		return w.Limiter.Observe(now, rtt, inFlight, dropped)
	}
	if !w.open {
		w.open, w.start, w.sum, w.n, w.maxIn = true, now, 0, 0, 0
	}
	if inFlight > w.maxIn {
		w.maxIn = inFlight
	}
	if validRTT(rtt) && !dropped {
		w.sum += rtt
		w.n++
	}
	if dropped {
		w.open = false
		return w.Limiter.Observe(now, w.mean(), w.maxIn, true)
	}
	if now.Sub(w.start) >= w.Window && w.n >= w.MinSamples && w.n > 0 {
		w.open = false
		return w.Limiter.Observe(now, w.mean(), w.maxIn, false)
	}
	return w.Limiter.Limit()
}

func (w *Windowed) mean() time.Duration {
	if w.n == 0 {
		return 0
	}
	return w.sum / time.Duration(w.n)
}
