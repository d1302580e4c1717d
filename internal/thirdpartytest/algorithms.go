package thirdpartytest

import (
	mathrand "math/rand"
	"sync"
	"time"

	"github.com/platinummonkey/go-concurrency-limits/core"
	gcl "github.com/platinummonkey/go-concurrency-limits/limit"

	"github.com/limitscope/limitscope/limiter"
)

// SimLimit drives a go-concurrency-limits core.Limit in virtual time, inside
// limiter/sim, fed the way that library's own DefaultLimiter feeds it
// (limiter/default.go there): one OnSample per sampling window with the
// window's minimum RTT, maximum in-flight and whether anything dropped; a
// window closes after max(2 × its min RTT, 1 s) capped at 1 s once it holds
// more than 100 samples, and RTTs under 100 µs are ignored.
type SimLimit struct {
	lim    core.Limit
	minRTT func() int64 // ns; nil when the algorithm keeps none

	nextUpdate int64
	n          int
	candidate  int64
	maxIn      int
	drop       bool
}

// NewSimLimit drives lim; minRTT reads the algorithm's own min-RTT estimate
// in nanoseconds (nil when it keeps none).
func NewSimLimit(lim core.Limit, minRTT func() int64) *SimLimit {
	return &SimLimit{lim: lim, minRTT: minRTT}
}

// The library's DefaultLimiter defaults (limiter/default.go).
const (
	gclMinWindow  = int64(time.Second)
	gclMaxWindow  = int64(time.Second)
	gclWindowSize = 100
	gclMinRTT     = int64(100 * time.Microsecond)
)

// Observe implements limiter.Limiter.
func (g *SimLimit) Observe(now time.Time, rtt time.Duration, inFlight int, dropped bool) float64 {
	end := now.UnixNano()
	if inFlight > g.maxIn {
		g.maxIn = inFlight
	}
	if dropped {
		g.drop = true
	} else {
		if int64(rtt) < gclMinRTT {
			return g.Limit()
		}
		if g.n == 0 || int64(rtt) < g.candidate {
			g.candidate = int64(rtt)
		}
		g.n++
	}
	if end > g.nextUpdate && g.n > gclWindowSize {
		w := min(max(2*g.candidate, gclMinWindow), gclMaxWindow)
		g.nextUpdate = end + w
		g.lim.OnSample(end, g.candidate, g.maxIn, g.drop)
		g.n, g.maxIn, g.drop = 0, 0, false
	}
	return g.Limit()
}

// Limit implements limiter.Limiter.
func (g *SimLimit) Limit() float64 { return float64(g.lim.EstimatedLimit()) }

// MinRTT is the algorithm's own min-RTT estimate (0 when it keeps none).
func (g *SimLimit) MinRTT() time.Duration { return Nanos(g.minRTT) }

// Nanos reads a library's min-RTT estimate in nanoseconds (0 when it keeps
// none: f is nil).
func Nanos(f func() int64) time.Duration {
	if f == nil {
		return 0
	}
	return time.Duration(f())
}

// LastValueRegistry is a go-concurrency-limits MetricRegistry that keeps the
// last value of each distribution: the library's own exported min RTT.
type LastValueRegistry struct {
	core.EmptyMetricRegistry
	last map[string]*lastValue
}

type lastValue struct{ v float64 }

func (l *lastValue) AddSample(v float64, _ ...string) { l.v = v }

// RegisterDistribution implements core.MetricRegistry.
func (r *LastValueRegistry) RegisterDistribution(id string, _ ...string) core.MetricSampleListener {
	if r.last == nil {
		r.last = map[string]*lastValue{}
	}
	lv := &lastValue{}
	r.last[id] = lv
	return lv
}

// MinRTT reads the last min RTT the library named name reported to r: its
// exported min RTT, in nanoseconds.
func (r *LastValueRegistry) MinRTT(name string) func() int64 {
	id := core.PrefixMetricWithName(core.MetricMinRTT, name)
	return func() int64 {
		if v, ok := r.last[id]; ok {
			return int64(v.v)
		}
		return 0
	}
}

// globalRand serialises the go-concurrency-limits algorithms' draws from the
// global math/rand source: Gradient's probe countdown and Vegas' probe jitter
// (limit/gradient.go nextProbeCountdown, limit/vegas.go newProbeJitter, at
// construction and after every probe). Without it parallel runs share one
// source and the suites' held-out figures of those families moved by 5–10
// points from run to run.
var globalRand sync.Mutex

// DrawGlobal draws from the global math/rand source as the seeded limits do,
// under the same lock: what another run beside them may do.
func DrawGlobal() float64 {
	globalRand.Lock()
	defer globalRand.Unlock()
	return mathrand.Float64()
}

// SeededLimit makes a go-concurrency-limits core.Limit repeatable: the
// global source is seeded from the limit's seed and its call count before
// each OnSample (and before the constructor's draw, in Seeded), so a run
// draws the same numbers whatever runs beside it. A test binary using it
// needs //go:debug randseednop=0 (rand.Seed is a no-op since Go 1.24
// otherwise).
type SeededLimit struct {
	core.Limit
	seed, calls int64
}

// Seeded builds a limit with the global source seeded from seed.
func Seeded[L core.Limit](seed int64, build func() L) (L, *SeededLimit) {
	globalRand.Lock()
	defer globalRand.Unlock()
	//lint:ignore SA1019 the library draws from the global source: only its seed makes the draws repeatable (randseednop=0)
	mathrand.Seed(seed)
	l := build()
	return l, &SeededLimit{Limit: l, seed: seed}
}

// OnSample implements core.Limit.
func (s *SeededLimit) OnSample(startTime, rtt int64, inFlight int, didDrop bool) {
	globalRand.Lock()
	defer globalRand.Unlock()
	s.calls++
	//lint:ignore SA1019 as in Seeded
	mathrand.Seed(s.seed*1_000_003 + s.calls)
	s.Limit.OnSample(startTime, rtt, inFlight, didDrop)
}

// Seed is the seed of a library limit sized for capacity c: a function of
// the trace (not of what else runs), different across capacities.
func Seed(c float64) int64 { return int64(c * 1000) }

// Gradient2 is go-concurrency-limits' Gradient2 for a downstream of capacity
// c (limits 4 to 10c+20), exporting its own min RTT: the long-window
// average it keeps.
func Gradient2(c float64, smoothing float64, queue int) *SimLimit {
	reg := &LastValueRegistry{}
	l, _ := gcl.NewGradient2Limit("g2", int(c), int(10*c)+20, 4, func(int) int { return queue }, smoothing, 600, nil, reg)
	return NewSimLimit(l, reg.MinRTT("g2"))
}

// Vegas is go-concurrency-limits' Vegas for a downstream of capacity c
// (limits up to 10c+20), its probe jitter seeded (Seeded).
func Vegas(c float64, smoothing float64) *SimLimit {
	l, seeded := Seeded(Seed(c), func() *gcl.VegasLimit {
		return gcl.NewVegasLimitWithRegistry("vegas", int(c), nil, int(10*c)+20, smoothing, nil, nil, nil, nil, nil, -1, nil, nil)
	})
	return NewSimLimit(seeded, l.RTTNoLoad)
}

// AIMD is go-concurrency-limits' AIMD starting at c.
func AIMD(c float64, backoff float64, inc int) *SimLimit {
	return NewSimLimit(gcl.NewAIMDLimit("aimd", int(c), backoff, inc, nil), nil)
}

var _ limiter.Limiter = (*SimLimit)(nil)
