package limiter

import (
	"math"
	"time"
)

// Default parameters of Gradient2: those of Netflix's concurrency-limits
// (Gradient2Limit.Builder).
const (
	DefaultGradient2Initial    = 20
	DefaultGradient2MinLimit   = 20
	DefaultGradient2MaxLimit   = 200
	DefaultGradient2Smoothing  = 0.2
	DefaultGradient2QueueSize  = 4
	DefaultGradient2LongWindow = 600
	DefaultGradient2Tolerance  = 1.5
	DefaultGradient2LongDecay  = 0.95
	// gradient2Warmup is how many samples the long average is a plain mean
	// of before it turns exponential (ExpAvgMeasurement's warm-up window)
	gradient2Warmup = 10
)

// Gradient2 is Netflix's Gradient2 limit (concurrency-limits,
// Gradient2Limit): the limit follows the gradient between a long-term
// exponential average of the RTT and the current RTT, rather than a minimum,
// because RPC latency is bursty and a minimum biases towards an
// impractically low base. Each sample:
//
//	long      = exponential average of the RTT over LongWindow samples
//	            (a plain mean of the first 10)
//	if long/rtt > 2: long ·= LongDecay   (recover quickly after overload)
//	if inFlight < limit/2: no change      (app-limited: do not grow)
//	gradient  = clamp(Tolerance·long/rtt, 0.5, 1)
//	limit     = limit·(1−Smoothing) + (limit·gradient + QueueSize)·Smoothing
//	limit     = clamp(limit, MinLimit, MaxLimit)
//
// Loss events are not part of its rule (Netflix's Gradient2 ignores them);
// wrap it with a loss signal elsewhere if you need one. The min RTT it reports
// (MinRTT) is the long average, which follows the RTT: after a degradation
// its limit settles well above MinLimit rather than pinning there.
//
// A zero field takes its default at the first sample, so Gradient2{} is
// Netflix's defaults. Not safe for concurrent use; a Gate serialises it.
//
// The Go port github.com/platinummonkey/go-concurrency-limits v1.0.0 differs
// in two places, both pinned by tests: it has no tolerance (Tolerance 1) and
// decays the long average by 0.9 instead of 0.95. Set Tolerance and LongDecay
// to reproduce it.
type Gradient2 struct {
	// InitialLimit, MinLimit and MaxLimit (defaults 20, 20 and 200).
	InitialLimit, MinLimit, MaxLimit float64
	// Smoothing is the weight of the new estimate (default 0.2).
	Smoothing float64
	// QueueSize is the growth allowed per update while latency is flat
	// (default 4).
	QueueSize float64
	// LongWindow is the long average's window in samples (default 600).
	LongWindow int
	// Tolerance is how much the current RTT may exceed the long average
	// before the limit shrinks (default 1.5; at least 1).
	Tolerance float64
	// LongDecay multiplies the long average when it is over twice the
	// current RTT (default 0.95).
	LongDecay float64

	limit float64
	long  float64
	sum   float64
	count int
}

func (g *Gradient2) init() {
	orDefault(&g.MinLimit, DefaultGradient2MinLimit)
	orDefault(&g.MaxLimit, DefaultGradient2MaxLimit)
	g.MaxLimit = math.Max(g.MaxLimit, g.MinLimit)
	orDefault(&g.InitialLimit, DefaultGradient2Initial)
	orDefault(&g.Smoothing, DefaultGradient2Smoothing)
	g.Smoothing = math.Min(g.Smoothing, 1)
	orDefault(&g.QueueSize, DefaultGradient2QueueSize)
	if g.LongWindow <= 0 {
		g.LongWindow = DefaultGradient2LongWindow
	}
	orDefault(&g.Tolerance, DefaultGradient2Tolerance)
	g.Tolerance = math.Max(g.Tolerance, 1)
	orDefault(&g.LongDecay, DefaultGradient2LongDecay)
	g.LongDecay = math.Min(g.LongDecay, 1)
	g.limit = g.InitialLimit
}

// Limit returns the current limit.
func (g *Gradient2) Limit() float64 {
	if g.limit == 0 {
		g.init()
	}
	return g.limit
}

// MinRTT returns the long-term RTT average (what Gradient2 exports as its
// min RTT), 0 before the first sample.
func (g *Gradient2) MinRTT() time.Duration { return time.Duration(g.long) }

// Observe feeds one sample and returns the new limit. An RTT that is not
// positive carries no signal and is ignored.
func (g *Gradient2) Observe(_ time.Time, rtt time.Duration, inFlight int, _ bool) float64 {
	if g.limit == 0 {
		g.init()
	}
	if rtt <= 0 {
		return g.limit
	}
	r := float64(rtt)
	if g.count < gradient2Warmup {
		g.count++
		g.sum += r
		g.long = g.sum / float64(g.count)
	} else {
		f := 2 / float64(g.LongWindow+1)
		g.long = g.long*(1-f) + r*f
	}
	long := g.long
	if long/r > 2 {
		g.long *= g.LongDecay
	}
	if float64(inFlight) < g.limit/2 {
		return g.limit
	}
	gradient := math.Max(0.5, math.Min(1, g.Tolerance*long/r))
	next := g.limit*gradient + g.QueueSize
	next = g.limit*(1-g.Smoothing) + next*g.Smoothing
	g.limit = clamp(next, g.MinLimit, g.MaxLimit)
	return g.limit
}
