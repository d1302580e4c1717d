package sim

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/limitscope/limitscope/limiter"
)

// Kinds are the limiter kinds a scenario may name.
var Kinds = []string{"fixed", "aimd", "gradient", "gradient2", "vegas", "envoy", "vector"}

func knownKind(k string) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// NewLimiter builds the limiter a spec describes, with the defaults of the
// system it comes from. Limitscope's gradient, AIMD and Netflix's Gradient2
// and Vegas are wrapped in limiter.Windowed with the scenario's sample
// window, as a Gate in a real service (or Netflix's WindowedLimit) feeds
// them; Envoy's controller and Vector's ARC aggregate per-request samples
// themselves (Envoy every 100 ms, Vector every past RTT), so they get every
// request. Random draws (probe jitter) are seeded: runs are deterministic.
func NewLimiter(spec LimiterSpec, window time.Duration) limiter.Limiter {
	seeded := rand.New(rand.NewPCG(1, 2))
	switch spec.Kind {
	case "fixed":
		return &limiter.Fixed{N: spec.Limit}
	case "aimd":
		return &limiter.Windowed{Limiter: &limiter.AIMD{}, Window: window}
	case "gradient2":
		return &limiter.Windowed{Limiter: &limiter.Gradient2{Smoothing: spec.Smoothing}, Window: window}
	case "vegas":
		return &limiter.Windowed{Limiter: &limiter.Vegas{Smoothing: spec.Smoothing, Rand: seeded}, Window: window}
	case "envoy":
		return &limiter.Envoy{Rand: seeded}
	case "vector":
		return &limiter.Vector{}
	default:
		g := limiter.NewGradient()
		if spec.Smoothing > 0 {
			g.Smoothing = spec.Smoothing
		}
		return &limiter.Windowed{Limiter: g, Window: window}
	}
}

// Shootout runs every limiter of the scenario on the same downstream and
// demand (the same seed), in parallel on all cores, and returns the results
// in the scenario's order. progress, when set, is called as runs finish.
func Shootout(sc Scenario, progress func(done, total int)) []Result {
	out, _ := ShootoutUntil(nil, sc, progress)
	return out
}

// ShootoutUntil is Shootout that stops waiting when stop closes: it returns
// the runs finished by then, in the scenario's order, and whether all were.
// (A run in progress is not interrupted; its result is dropped.)
func ShootoutUntil(stop <-chan struct{}, sc Scenario, progress func(done, total int)) ([]Result, bool) {
	if len(sc.Limiters) == 0 {
		return nil, true
	}
	res := make([]Result, len(sc.Limiters))
	finished := make([]bool, len(sc.Limiters))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var mu sync.Mutex
	done := 0
	all := make(chan struct{})
	for i, spec := range sc.Limiters {
		go func(i int, spec LimiterSpec) {
			sem <- struct{}{}
			defer func() { <-sem }()
			lim := NewLimiter(spec, time.Duration(sc.Client.SampleWindow))
			r := Run(sc, lim, Options{Name: spec.Name, Cap: spec.Cap})
			mu.Lock()
			defer mu.Unlock()
			res[i], finished[i] = r, true
			done++
			if progress != nil {
				progress(done, len(sc.Limiters))
			}
			if done == len(sc.Limiters) {
				close(all)
			}
		}(i, spec)
	}
	select {
	case <-all:
	case <-stop:
	}
	mu.Lock()
	defer mu.Unlock()
	var out []Result
	for i := range res {
		if finished[i] {
			out = append(out, res[i])
		}
	}
	return out, done == len(sc.Limiters)
}
