package sim

import (
	"runtime"
	"sync"
	"time"

	"github.com/limitscope/limitscope/limiter"
)

// NewLimiter builds the limiter a spec describes. Adaptive limiters are
// wrapped in limiter.Windowed with the scenario's sample window, as a Gate in
// a real service would feed them.
func NewLimiter(spec LimiterSpec, window time.Duration) limiter.Limiter {
	switch spec.Kind {
	case "fixed":
		return &limiter.Fixed{N: spec.Limit}
	case "aimd":
		return &limiter.Windowed{Limiter: &limiter.AIMD{}, Window: window}
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
	out := make([]Result, len(sc.Limiters))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for i, spec := range sc.Limiters {
		wg.Add(1)
		go func(i int, spec LimiterSpec) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			lim := NewLimiter(spec, time.Duration(sc.Client.SampleWindow))
			out[i] = Run(sc, lim, Options{Name: spec.Name, Cap: spec.Cap})
			if progress != nil {
				mu.Lock()
				done++
				progress(done, len(sc.Limiters))
				mu.Unlock()
			}
		}(i, spec)
	}
	wg.Wait()
	return out
}
