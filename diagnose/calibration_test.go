//go:build !race

// The calibration set is generated, not committed: make test runs this file
// without the race detector (it is single-threaded simulation, and -race
// would make it ten times slower).

package diagnose

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/sim"
	"github.com/limitscope/limitscope/trace"
)

// labelled is one generated trace and the whole-series verdict it must get.
type labelled struct {
	name    string
	label   Class
	samples []trace.Sample
}

// generate builds n traces per class from seed: scales (capacity 8…350),
// sample intervals 1–15 s, latency noise σ 0.1–0.3, capacity steps, and mixed
// episodes (healthy first, then the labelled story).
func generate(seed uint64, perClass int) []labelled {
	rng := rand.New(rand.NewPCG(seed, 1))
	scales := []float64{8, 20, 60, 150, 350}
	intervals := []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second}
	sigmas := []float64{0.1, 0.2, 0.3}
	var specs []func() labelled
	for i := 0; i < perClass; i++ {
		i := i
		c := scales[i%len(scales)]
		iv := intervals[(i/len(scales))%len(intervals)]
		sigma := sigmas[i%len(sigmas)]
		s := rng.Uint64()
		// base latency so that capacity throughput is ~250 req/s at any scale
		base := time.Duration(c / 250 * float64(time.Second))
		thr := c / base.Seconds()
		mk := func(label Class, name string, steps []sim.Step, lim limiter.Limiter, dur time.Duration) func() labelled {
			return func() labelled {
				sc := testScenario(name, dur, iv, s, steps)
				sc.Downstream.LatencySigma = sigma
				sc.Downstream.Knee = []float64{0.15, 0.3}[i%2]
				sc.Client.Timeout = sim.Duration(max(time.Second, 10*base))
				r := sim.Run(sc, lim, sim.Options{Name: name})
				return labelled{name: fmt.Sprintf("%s C=%v iv=%v σ=%v", name, c, iv, sigma), label: label, samples: r.Samples}
			}
		}
		// a limiter tuned for the downstream: the sample window spans at
		// least one RTT and the re-probe several
		grad := func(s float64, w time.Duration) limiter.Limiter {
			return &limiter.Windowed{Limiter: &limiter.Gradient{Smoothing: s, InitialLimit: c, ProbeDuration: max(2*time.Second, 5*base)}, Window: w, MinSamples: 100}
		}
		win := max(100*time.Millisecond, base)
		start := sim.Step{At: 0, Capacity: fp(c), BaseLatency: dp(base), Demand: fp(1.5 * thr)}
		at := func(m int) sim.Duration { return sim.Duration(time.Duration(m) * time.Minute) }
		// healthy: binding demand, optionally one capacity step that settles
		var hsteps []sim.Step
		switch i % 3 {
		case 0:
			hsteps = []sim.Step{start}
		case 1:
			hsteps = []sim.Step{start, {At: at(12), Capacity: fp(2 * c), Demand: fp(3 * thr)}}
		case 2:
			hsteps = []sim.Step{start, {At: at(12), Capacity: fp(0.6 * c)}}
		}
		// healthy means a well-tuned limiter: the default smoothing or lower
		specs = append(specs, mk(Healthy, "healthy", hsteps, grad(0.1+0.1*float64(i%2), win), 30*time.Minute))
		// pipeline-bound: demand falls to 5–20 % of capacity
		specs = append(specs, mk(PipelineBound, "pipeline", []sim.Step{start, {At: at(8), Demand: fp((0.05 + 0.05*float64(i%4)) * thr)}}, grad(0.2, win), 30*time.Minute))
		// degraded: capacity collapses below the limiter's floor, or latency
		// triples while capacity falls
		var dsteps []sim.Step
		if i%2 == 0 {
			dsteps = []sim.Step{start, {At: at(15), Capacity: fp(2)}}
		} else {
			dsteps = []sim.Step{start, {At: at(15), Capacity: fp(max(2, 0.3*c)), BaseLatency: dp(3 * base)}}
		}
		specs = append(specs, mk(Degraded, "degraded", dsteps, grad(0.2, win), 30*time.Minute))
		// oscillating: smoothing too high for the feedback delay (sample
		// window a quarter of the RTT), or AIMD's sawtooth
		if i%3 == 2 || c < 60 {
			specs = append(specs, mk(Oscillating, "oscillating-aimd", []sim.Step{start}, &limiter.Windowed{Limiter: &limiter.AIMD{InitialLimit: c, MaxLimit: 10 * c, Increase: max(1, c/50)}, Window: win, MinSamples: 20}, 30*time.Minute))
		} else {
			// mis-tuned: high smoothing, a short window with no minimum
			// sample count
			mistuned := &limiter.Windowed{Limiter: &limiter.Gradient{Smoothing: 0.8 + 0.2*float64(i%2), InitialLimit: c}, Window: max(base/4, 20*time.Millisecond)}
			specs = append(specs, mk(Oscillating, "oscillating", []sim.Step{start}, mistuned, 30*time.Minute))
		}
		// insufficient: fewer than shortTraceSamples samples (a recording
		// of 20 s at 1 s sampling is judged)
		specs = append(specs, mk(Insufficient, "short", []sim.Step{start}, grad(0.2, win), time.Duration(6+i%5)*iv))
	}
	return runAll(specs)
}

// runAll runs the generators on every core, results in order.
func runAll[T any](specs []func() T) []T {
	out := make([]T, len(specs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, f := range specs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			out[i] = f()
			<-sem
		}()
	}
	wg.Wait()
	return out
}

func TestCalibrationConfusionMatrix(t *testing.T) {
	set := generate(20261130, 50)
	classes := []Class{Healthy, PipelineBound, Degraded, Oscillating, Insufficient}
	confusion := map[Class]map[Class]int{}
	var wrong []string
	for _, l := range set {
		r := Classify(l.name, l.samples, Options{})
		if confusion[l.label] == nil {
			confusion[l.label] = map[Class]int{}
		}
		confusion[l.label][r.Class]++
		if r.Class != l.label {
			var fs []string
			for _, f := range r.Findings {
				fs = append(fs, fmt.Sprintf("%s[%s]", f.Class, f.Evidence.Summary))
			}
			wrong = append(wrong, fmt.Sprintf("%s: want %s got %s: %s", l.name, l.label, r.Class, strings.Join(fs, "; ")))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d traces\n%-22s", len(set), "label \\ verdict")
	for _, c := range classes {
		fmt.Fprintf(&b, "%20s", c)
	}
	b.WriteString("  accuracy\n")
	failed := false
	for _, l := range classes {
		fmt.Fprintf(&b, "%-22s", l)
		total := 0
		for _, c := range classes {
			fmt.Fprintf(&b, "%20d", confusion[l][c])
			total += confusion[l][c]
		}
		for c, n := range confusion[l] {
			if Rank(c) == 0 && c != Insufficient {
				total += n
			}
		}
		acc := float64(confusion[l][l]) / float64(total)
		fmt.Fprintf(&b, "  %.1f%%\n", 100*acc)
		if acc < 0.95 {
			failed = true
		}
	}
	t.Log("\n" + b.String())
	sort.Strings(wrong)
	for _, w := range wrong {
		t.Log(w)
	}
	if failed {
		t.Fatal("a class is below 95 % accuracy")
	}
}
