package limiter

import (
	"math"
	"math/rand/v2"
	"time"
)

// Default parameters of Vegas: those of Netflix's concurrency-limits
// (VegasLimit.Builder).
const (
	DefaultVegasInitial         = 20
	DefaultVegasMaxLimit        = 1000
	DefaultVegasSmoothing       = 1.0
	DefaultVegasProbeMultiplier = 30
)

// Vegas is Netflix's Vegas limit (concurrency-limits, VegasLimit), after TCP
// Vegas: it estimates the queue in the downstream as
//
//	queue = ⌈limit·(1 − rttNoLoad/rtt)⌉
//
// and keeps it between alpha and beta requests, all log-scaled by the limit
// (log = max(1, ⌊log10 limit⌋)):
//
//	loss:                   limit − log
//	inFlight < limit/2:     no change (app-limited)
//	queue ≤ log:            limit + 6·log   (no queue: grow fast)
//	queue < 3·log (alpha):  limit + log
//	queue > 6·log (beta):   limit − log
//	otherwise:              no change
//
// then clamps to [1, MaxLimit] and smooths by Smoothing (default 1: none).
// rttNoLoad is the lowest RTT seen; a sample below it only lowers it. Every
// jitter·ProbeMultiplier·limit samples (jitter uniform in [0.5, 1)) the next
// RTT becomes the new rttNoLoad, so a downstream that got slower is learnt.
//
// A zero field takes its default at the first sample, so Vegas{} is Netflix's
// defaults. Not safe for concurrent use; a Gate serialises it.
//
// The Go port github.com/platinummonkey/go-concurrency-limits v1.0.0 grows
// fast only while queue < log (strictly; Netflix: ≤): StrictGrowth
// reproduces it, and a test pins the difference.
type Vegas struct {
	// InitialLimit (default 20) and MaxLimit (default 1000).
	InitialLimit, MaxLimit float64
	// Smoothing is the weight of the new limit (default 1).
	Smoothing float64
	// ProbeMultiplier sets how often rttNoLoad is re-probed, in multiples
	// of the limit (default 30).
	ProbeMultiplier float64
	// StrictGrowth grows fast only while queue < log, as the Go port
	// github.com/platinummonkey/go-concurrency-limits does (Netflix: ≤);
	// set it to replay that port exactly.
	StrictGrowth bool
	// Rand draws the probe jitter (default: a generator seeded from the
	// runtime); tests and the simulator pass a seeded one.
	Rand *rand.Rand

	limit      float64
	noLoad     float64 // ns; 0 until the first sample
	probeCount float64
	jitter     float64
}

func (v *Vegas) init() {
	orDefault(&v.InitialLimit, DefaultVegasInitial)
	orDefault(&v.MaxLimit, DefaultVegasMaxLimit)
	orDefault(&v.Smoothing, DefaultVegasSmoothing)
	v.Smoothing = math.Min(v.Smoothing, 1)
	orDefault(&v.ProbeMultiplier, DefaultVegasProbeMultiplier)
	if v.Rand == nil {
		v.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	v.limit = v.InitialLimit
	v.resetJitter()
}

func (v *Vegas) resetJitter() { v.jitter = 0.5 + v.Rand.Float64()/2 }

// vegasLog is Netflix's Log10RootFunction: max(1, ⌊log10 n⌋).
func vegasLog(limit float64) float64 {
	return math.Max(1, math.Floor(math.Log10(math.Floor(limit))))
}

// Limit returns the current limit.
func (v *Vegas) Limit() float64 {
	if v.limit == 0 {
		v.init()
	}
	return v.limit
}

// MinRTT returns the no-load RTT estimate (0 before the first sample).
func (v *Vegas) MinRTT() time.Duration { return time.Duration(v.noLoad) }

// Observe feeds one sample and returns the new limit. An RTT that is not
// positive carries no signal and is ignored.
func (v *Vegas) Observe(_ time.Time, rtt time.Duration, inFlight int, dropped bool) float64 {
	if v.limit == 0 {
		v.init()
	}
	if rtt <= 0 {
		return v.limit
	}
	r := float64(rtt)
	v.probeCount++
	if v.jitter*v.ProbeMultiplier*v.limit <= v.probeCount {
		v.resetJitter()
		v.probeCount = 0
		v.noLoad = r
		return v.limit
	}
	if v.noLoad == 0 || r < v.noLoad {
		v.noLoad = r
		return v.limit
	}
	queue := math.Ceil(v.limit * (1 - v.noLoad/r))
	lg := vegasLog(v.limit)
	var next float64
	switch {
	case dropped:
		next = v.limit - lg
	case float64(inFlight)*2 < v.limit:
		return v.limit
	case queue < lg || queue == lg && !v.StrictGrowth:
		next = v.limit + 6*lg
	case queue < 3*lg:
		next = v.limit + lg
	case queue > 6*lg:
		next = v.limit - lg
	default:
		return v.limit
	}
	next = math.Max(1, math.Min(v.MaxLimit, next))
	v.limit = (1-v.Smoothing)*v.limit + v.Smoothing*next
	return v.limit
}
