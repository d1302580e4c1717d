package limiter

import (
	"math"
	"time"
)

// Default parameters of Gradient: the published gradient algorithm's values.
const (
	DefaultSmoothing       = 0.2
	DefaultMinLimit        = 4
	DefaultMaxLimit        = 400
	DefaultInitialLimit    = 10
	DefaultGradientFloor   = 0.5
	DefaultGrowthThreshold = 0.8
	DefaultLossBackoff     = 0.5
	DefaultRTTWindow       = 2 * time.Minute
	DefaultProbeDepth      = 0.5
	DefaultProbeDuration   = 2 * time.Second
)

// Gradient is the gradient (TCP-Vegas-like) adaptive limit. The limit follows
//
//	gradient  = clamp(minRTT / rtt, GradientFloor, 1)
//	allowance = √limit if inFlight ≥ GrowthThreshold·limit, else 0
//	target    = limit·gradient + allowance
//	limit     = clamp(limit·(1−Smoothing) + target·Smoothing, MinLimit, MaxLimit)
//
// and a loss event multiplies the limit by LossBackoff instead.
//
// It honours the published algorithm's implementation rules: the gradient is clamped
// below so one latency spike cannot collapse the limit; the limit grows only
// while it is the binding constraint, so quiet periods do not inflate it; errors
// are loss events, so a downstream failing fast brakes the limit instead of
// accelerating it. The caller measures the RTT around the downstream call only
// (the Gate does), runs one Gradient per downstream, and keeps a static cap
// above it (Gate.Cap).
//
// The minimum RTT is windowed: every RTTWindow the minimum is forgotten and the
// limit is cut to ProbeDepth·limit for ProbeDuration, so the downstream's queue
// drains and the new minimum is taken from low-queue samples. Without the probe
// (set ProbeDepth to 1) the reset takes a queue-inflated RTT as the new minimum
// and the operating point drifts with latency noise instead of following
// capacity. During the probe the limit holds at the probe level (a loss still
// cuts it); when the probe ends the limit returns to its pre-probe value and
// adapts against the fresh minimum.
//
// A zero field takes its default when the first sample arrives, so
// Gradient{Smoothing: 0.1} is a valid limiter. Gradient is not safe for
// concurrent use; Observe does not allocate.
//
// Invalid input never poisons the state: a NaN, infinite, zero or negative RTT
// carries no latency signal and is ignored (a loss flagged with it still backs
// off), and a negative in-flight counts as zero.
type Gradient struct {
	// Smoothing is the weight of the new target in [0,1] (default 0.2). Higher
	// reacts faster and oscillates more.
	Smoothing float64
	// MinLimit and MaxLimit bound the limit (defaults 4 and 400).
	MinLimit, MaxLimit float64
	// InitialLimit is the limit before the first sample (default 10).
	InitialLimit float64
	// GradientFloor is the lowest gradient applied in one sample (default 0.5,
	// i.e. at most halving per sample).
	GradientFloor float64
	// GrowthThreshold is the fraction of the limit in flight required before the
	// limit may grow (default 0.8).
	GrowthThreshold float64
	// LossBackoff multiplies the limit on a loss event (default 0.5).
	LossBackoff float64
	// RTTWindow is how long a minimum RTT is trusted before re-probing
	// (default 2 min).
	RTTWindow time.Duration
	// ProbeDepth is the fraction of the limit kept during a re-probe
	// (default 0.5); 1 disables the limit reduction and keeps only the reset.
	ProbeDepth float64
	// ProbeDuration is how long the reduced probe limit holds (default 2 s); it
	// should cover several RTTs of the downstream.
	ProbeDuration time.Duration

	limit  float64
	rttMin float64 // ns; +Inf before the first valid sample of a window
	// fastUntil: a sample before this time (Unix ns) with a valid RTT and no
	// loss takes the common path (started, not probing, window open); every
	// other sample takes the full rules in observeSlow
	fastUntil  int64
	windowEnd  int64 // Unix ns
	probeUntil int64 // Unix ns
	savedLimit float64
	started    bool
	probing    bool
}

// NewGradient returns a Gradient with every parameter at its default.
func NewGradient() *Gradient {
	g := &Gradient{}
	g.init()
	return g
}

func (g *Gradient) init() {
	orDefault(&g.Smoothing, DefaultSmoothing)
	g.Smoothing = math.Min(g.Smoothing, 1)
	orDefault(&g.MinLimit, DefaultMinLimit)
	orDefault(&g.MaxLimit, DefaultMaxLimit)
	if g.MaxLimit < g.MinLimit {
		g.MaxLimit = g.MinLimit
	}
	orDefault(&g.InitialLimit, DefaultInitialLimit)
	orDefault(&g.GradientFloor, DefaultGradientFloor)
	g.GradientFloor = math.Min(g.GradientFloor, 1)
	orDefault(&g.GrowthThreshold, DefaultGrowthThreshold)
	orDefault(&g.LossBackoff, DefaultLossBackoff)
	g.LossBackoff = math.Min(g.LossBackoff, 1)
	orDefault(&g.ProbeDepth, DefaultProbeDepth)
	g.ProbeDepth = math.Min(g.ProbeDepth, 1)
	if g.RTTWindow <= 0 {
		g.RTTWindow = DefaultRTTWindow
	}
	if g.ProbeDuration <= 0 {
		g.ProbeDuration = DefaultProbeDuration
	}
	g.limit = clamp(g.InitialLimit, g.MinLimit, g.MaxLimit)
	g.rttMin = math.Inf(1)
	g.started = false
	g.probing = false
	g.fastUntil = math.MinInt64
}

// Reset forgets all state and re-applies the defaults to zero fields, as if no
// sample had been observed.
func (g *Gradient) Reset() {
	g.limit = 0
	g.init()
}

// Limit returns the current limit.
func (g *Gradient) Limit() float64 {
	if g.limit == 0 {
		g.init()
	}
	return g.limit
}

// MinRTT returns the current minimum-RTT estimate (0 before the first valid
// sample of a window).
func (g *Gradient) MinRTT() time.Duration {
	if g.rttMin > math.MaxInt64 {
		return 0
	}
	return time.Duration(g.rttMin)
}

// Observe feeds one sample and returns the new limit.
func (g *Gradient) Observe(t time.Time, rtt time.Duration, inFlight int, dropped bool) float64 {
	now := t.UnixNano()
	r := float64(rtt)
	// (started: the zero Gradient's fastUntil of 0 must not admit times
	// before 1970 to the fast path)
	if now < g.fastUntil && r > 0 && !dropped && g.started {
		if r < g.rttMin {
			g.rttMin = r
		}
		g.limit = g.next(g.limit, g.rttMin, r, float64(inFlight))
		return g.limit
	}
	return g.observeSlow(now, r, float64(inFlight), dropped)
}

// observeSlow is one sample under the full rules: start, the re-probe's
// window and probe, losses and invalid RTTs (rtt in ns, ≤ 0 when not valid).
// The common case it ends in — a valid RTT inside an open window — is the
// fast path of Observe.
func (g *Gradient) observeSlow(now int64, rtt, inFlight float64, dropped bool) float64 {
	if g.limit == 0 {
		g.init()
	}
	g.observeRules(now, rtt, inFlight, dropped)
	g.fastUntil = math.MinInt64
	if g.started && !g.probing && g.windowEnd < math.MaxInt64 {
		g.fastUntil = g.windowEnd + 1
	}
	return g.limit
}

func (g *Gradient) observeRules(now int64, rtt, inFlight float64, dropped bool) {
	if !g.started {
		g.started = true
		g.windowEnd = now + int64(g.RTTWindow)
	}
	if g.probing && now >= g.probeUntil {
		g.probing = false
		g.limit = g.savedLimit
	}
	if !g.probing && now > g.windowEnd {
		// Forced re-probe: forget the minimum and drain the queue.
		g.windowEnd = now + int64(g.RTTWindow)
		g.rttMin = math.Inf(1)
		if g.ProbeDepth < 1 {
			g.probing = true
			g.probeUntil = now + int64(g.ProbeDuration)
			g.savedLimit = g.limit
			g.limit = math.Max(g.MinLimit, g.limit*g.ProbeDepth)
		}
	}
	if dropped {
		g.limit = math.Max(g.MinLimit, g.limit*g.LossBackoff)
		if g.probing {
			g.savedLimit = math.Max(g.MinLimit, g.savedLimit*g.LossBackoff)
		}
		return
	}
	if !(rtt > 0) {
		return
	}
	if rtt < g.rttMin {
		g.rttMin = rtt
	}
	if g.probing {
		return
	}
	g.limit = g.next(g.limit, g.rttMin, rtt, inFlight)
}

// next is the limit after one sample with a valid RTT outside a probe: the
// gradient step of the type's doc comment, small enough to inline.
func (g *Gradient) next(limit, rttMin, rtt, inFlight float64) float64 {
	gradient := rttMin / rtt
	if gradient < g.GradientFloor {
		gradient = g.GradientFloor
	} else if gradient > 1 {
		gradient = 1
	}
	// limit·(1−s) + (limit·gradient + allowance)·s, arranged so that only
	// the square root and one multiply-add sit on the serial chain from one
	// sample's limit to the next
	n := limit * (1 - g.Smoothing + g.Smoothing*gradient)
	if inFlight >= limit*g.GrowthThreshold {
		n += g.Smoothing * math.Sqrt(limit)
	}
	return clamp(n, g.MinLimit, g.MaxLimit)
}
