//go:build !race

// randseednop=0: rand.Seed seeds the global math/rand source again (a no-op
// since Go 1.24), which thirdpartytest.SeededLimit needs to make the library
// runs repeatable.
//go:debug randseednop=0

// The third-party calibration suite: the verdicts judged on limiters nobody
// here wrote. The limit algorithms of github.com/platinummonkey/go-concurrency-limits
// v1.0.0 (Gradient2, Vegas, AIMD: a test-only dependency) run inside the
// virtual-time simulator, fed the way that library's own DefaultLimiter feeds
// them (limiter/default.go there: one OnSample per sampling window with the
// window's minimum RTT, maximum in-flight and whether anything dropped; a
// window closes after max(2 × its min RTT, 1 s) capped at 1 s once it holds
// more than 100 samples). Our own gradient limiter runs beside them.
//
// The labelled set is split by generator seed: thresholds are tuned on the
// calibration seed only; the held-out seed is judged and must reach 95 %
// recall per class for every algorithm family, and label 90 % of the time
// correctly on multi-episode traces (incidents of 1–10 minutes inside 45
// minutes of healthy load). Where a family is below either target today the
// test holds it at its level (a ratchet) and prints the gap.

package diagnose

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/limitscope/limitscope/internal/thirdpartytest"
	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/sim"
	"github.com/limitscope/limitscope/trace"
)

// Seeds of the split. Tune on calibrationSeed; never on heldOutSeed.
const (
	calibrationSeed = 20261201
	heldOutSeed     = 77003311
)

// TestLibraryRunsRepeat: a Vegas run (whose probe jitter is global
// randomness) gives the same limit series twice while other goroutines
// draw from the global source, as the suites' parallel runs do.
func TestLibraryRunsRepeat(t *testing.T) {
	run := func() []float64 {
		c := 20.0
		base := 80 * time.Millisecond
		sc := testScenario("repeat", 10*time.Minute, time.Second, 5, []sim.Step{{At: 0, Capacity: fp(c), BaseLatency: dp(base), Demand: fp(2 * c / base.Seconds()), ErrorRate: fp(0)}})
		r := sim.Run(sc, thirdpartytest.Vegas(c, 1), sim.Options{Name: "repeat"})
		out := make([]float64, len(r.Samples))
		for i := range r.Samples {
			out[i], _ = r.Samples[i].Value(trace.FieldLimit)
		}
		return out
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // another run drawing from the global source meanwhile
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				// as the suites' other runs draw: through the
				// seeded limits' lock (thirdpartytest.DrawGlobal). An unlocked draw can land between a
				// run's Seed and its own draw, which no suite does, and
				// made this test fail now and then on a busy machine
				_ = thirdpartytest.DrawGlobal()
			}
		}
	}()
	a, b := run(), run()
	close(stop)
	wg.Wait()
	if len(a) == 0 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("two runs of one Vegas trace differ:\n%v\n%v", a, b)
	}
}

// family builds a limiter of one algorithm for a downstream of capacity c.
type family struct {
	name string
	// minScale is the smallest capacity the family is run at.
	minScale float64
	// tuned is the family's well-tuned limiter (its defaults, sized for c).
	tuned func(c float64, base time.Duration) limiter.Limiter
	// swinging is the same algorithm mis-tuned so that it oscillates (nil
	// when no setting of it swings in the simulator).
	swinging func(c float64, base time.Duration) limiter.Limiter
	// floor is the family's held-out ratchet when it differs from
	// heldOutFloor (a family added later, at its first measurement).
	floor float64
}

var families = []family{
	{
		name: "limitscope-gradient",
		tuned: func(c float64, base time.Duration) limiter.Limiter {
			return &limiter.Windowed{Limiter: &limiter.Gradient{Smoothing: 0.2, InitialLimit: c, ProbeDuration: max(2*time.Second, 5*base)}, Window: max(100*time.Millisecond, base), MinSamples: 100}
		},
		swinging: func(c float64, base time.Duration) limiter.Limiter {
			return &limiter.Windowed{Limiter: &limiter.Gradient{Smoothing: 0.9, InitialLimit: c}, Window: max(base/4, 20*time.Millisecond)}
		},
	},
	{
		name: "gcl-gradient2",
		// Gradient2 ignores drops and keeps a floor of 4: at a capacity of
		// 3 it runs into shedding (the seed's "fast errors raise the
		// limit"), which none of the four verdict labels describes
		minScale: 8,
		tuned:    func(c float64, _ time.Duration) limiter.Limiter { return thirdpartytest.Gradient2(c, 0.2, 4) },
		// at a capacity of 8 it still runs into shedding now and then
		// (losses of half of all requests in a "healthy" trace), which the
		// classifier called degraded-downstream (the downstream fails what
		// the limit lets through): 65 % held-out on that class, so the
		// ratchet is below the common one. 75 % since losses behind a
		// queue, with completions held, are a limit above capacity, not a
		// failing downstream (overloaded)
		floor: 0.70,
		// no swinging variant: Gradient2's long/short RTT ratio is gentle
		// enough that even smoothing 1 with a large queue allowance does
		// not swing in this simulator (it runs away into shedding
		// instead), so the suite does not claim an oscillating label for it
	},
	{
		name:  "gcl-vegas",
		tuned: func(c float64, _ time.Duration) limiter.Limiter { return thirdpartytest.Vegas(c, 1) },
		// no swinging variant either: Vegas' alpha/beta thresholds keep a
		// mis-tuned Vegas within a few steps of its level here
	},
	{
		name:     "gcl-aimd",
		tuned:    func(c float64, _ time.Duration) limiter.Limiter { return thirdpartytest.AIMD(c, 0.9, 1) },
		swinging: func(c float64, _ time.Duration) limiter.Limiter { return thirdpartytest.AIMD(c, 0.5, int(max(2, c/8))) },
		// raised from heldOutFloor at 95 % once a limit had to fall to half
		// (collapseDrop, not 60 %) to be pinned low: AIMD holding above a
		// capacity step to 60 % is no longer read as slower; held at the
		// target once a first window pinned on a stale min RTT took the
		// next window's verdict (settleOpening: 95 % → 100 %)
		floor: 0.95,
	},
	// Envoy's gradient controller and Vector's ARC (limiter.Envoy and
	// limiter.Vector, written from their documentation), fed every request
	// as Envoy and Vector are: they aggregate samples themselves
	// (first measured at 50–60 % and 65–85 % per class: Envoy's ×2 growth
	// per 100 ms window swings under saturation, and its periodic pin to
	// min_concurrency is left unmeasured as the envoy preset does)
	{
		name: "envoy-gradient",
		tuned: func(c float64, base time.Duration) limiter.Limiter {
			// tuned: the update interval spans a few round trips (at the
			// documented 100 ms a downstream of 40 ms–1.4 s feeds back
			// later than the controller acts, and its limit swings)
			return &limiter.Envoy{InitialLimit: c, MaxLimit: 10*c + 20, UpdateInterval: max(100*time.Millisecond, 3*base), Rand: rand.New(rand.NewPCG(uint64(c), 3))}
		},
		// 95 % held-out since its re-measuring pin's rejections no longer
		// make the limit binding; 100 % since a limit turning away most of
		// the demand with losses is degraded (swampedShare): at the
		// target, held there
		floor: 0.95,
	},
	{
		name: "vector-arc",
		tuned: func(c float64, _ time.Duration) limiter.Limiter {
			return &limiter.Vector{InitialLimit: c, MaxLimit: 10*c + 20}
		},
		// 80 % held-out on degraded (85 % on healthy) until a trace that
		// opens mid-incident at a small limit, swinging between 2 and 9
		// with 5 % lost, read as degraded by the share of demand it turns
		// away (swampedShare): degraded 100 %, healthy 85 % (its shallow
		// back-off wanders in swings read as oscillating); 95 % since slow
		// swings must halve the limit (slowSwingDepth): a trace below
		floor: 0.90,
	},
}

// suiteTrace is one labelled trace of the suite.
type suiteTrace struct {
	labelled
	family string
	// truth is the label the simulator's own counts give the trace (see
	// worldTruth.label), "" when its story fits no class (why says so)
	truth Class
	why   string
}

// generateSuite builds perClass traces per class and family from seed:
// capacities 3…350, sample intervals 1, 5 and 15 s, noise σ 0.1–0.3, and
// the scenarios: binding demand with and without capacity steps; low Poisson
// load and idle gaps; worker pools smaller than the downstream (sim's
// closed-loop Client.Workers); capacity collapse with errors and flat
// latency, latency creep, both, and traces that start mid-incident;
// mis-tuned swinging.
func generateSuite(seed uint64, perClass int) []suiteTrace {
	return generateSuiteWith(seed, perClass, nil)
}

// generateSuiteWith is generateSuite with each trace's base latency drawn
// by latency (freeLatency) instead of tied to its capacity (nil).
func generateSuiteWith(seed uint64, perClass int, latency func(c float64) time.Duration) []suiteTrace {
	rng := rand.New(rand.NewPCG(seed, 7))
	scales := []float64{3, 8, 20, 60, 150, 350}
	intervals := []time.Duration{time.Second, 5 * time.Second, 15 * time.Second}
	var specs []func() suiteTrace
	for _, fam := range families {
		for i := 0; i < perClass; i++ {
			c := max(fam.minScale, scales[rng.IntN(len(scales))])
			iv := intervals[rng.IntN(len(intervals))]
			sigma := 0.1 + 0.1*float64(rng.IntN(3))
			knee := []float64{0.15, 0.3}[rng.IntN(2)]
			s := rng.Uint64()
			variant := rng.IntN(6)
			load := 0.05 + 0.6*rng.Float64()
			base := time.Duration(c / 250 * float64(time.Second))
			if latency != nil {
				base = latency(c)
			}
			thr := c / base.Seconds()
			at := func(m float64) sim.Duration { return sim.Duration(time.Duration(m * float64(time.Minute))) }
			start := sim.Step{At: 0, Capacity: fp(c), BaseLatency: dp(base), Demand: fp(1.5 * thr), ErrorRate: fp(0)}
			mk := func(label Class, name string, steps []sim.Step, lim func() limiter.Limiter, dur, skip time.Duration, workers int) func() suiteTrace {
				return func() suiteTrace {
					sc := testScenario(name, dur, iv, s, steps)
					sc.Client.Workers = workers
					sc.Downstream.LatencySigma = sigma
					sc.Downstream.Knee = knee
					sc.Client.Timeout = sim.Duration(max(time.Second, 10*base))
					r := sim.Run(sc, lim(), sim.Options{Name: name})
					smp := r.Samples
					if skip > 0 {
						cut := sim.Epoch.Add(skip)
						k := sort.Search(len(smp), func(j int) bool { return !smp[j].Time.Before(cut) })
						smp = smp[k:]
					}
					// the truth is judged after the warm-up, and for a load
					// that falls after the demand drop (and a minute to settle)
					from := max(truthWarmup, skip)
					if label == PipelineBound && workers == 0 {
						from = max(from, 7*time.Minute)
					}
					truth, why := simTruth(r, from).label(label)
					return suiteTrace{labelled{name: fmt.Sprintf("%s/%s C=%v base=%v iv=%v σ=%v v=%d load=%.2f", fam.name, name, c, base, iv, sigma, variant, load), label: label, samples: smp}, fam.name, truth, why}
				}
			}
			tuned := func() limiter.Limiter { return fam.tuned(c, base) }
			// healthy: binding demand, perhaps one capacity step (no errors)
			hs := []sim.Step{start}
			switch variant % 3 {
			case 1:
				hs = append(hs, sim.Step{At: at(12), Capacity: fp(2 * c), Demand: fp(3 * thr)})
			case 2:
				// the simulator serves int(capacity) requests at once:
				// 0.6 × 3 would be one server, a step to a third (a
				// collapse, not a step a limiter follows); rounded, as
				// the libraries' world rounds its slots, a step to 60–67 %
				hs = append(hs, sim.Step{At: at(12), Capacity: fp(math.Round(0.6 * c))})
			}
			specs = append(specs, mk(Healthy, "healthy", hs, tuned, 30*time.Minute, 0, 0))
			// pipeline-bound: demand well below capacity, steady or in
			// batches with idle gaps
			ps := []sim.Step{start, {At: at(6), Demand: fp(load * thr)}}
			if variant%3 == 2 {
				for m := 8.0; m < 30; m += 4 {
					ps = append(ps, sim.Step{At: at(m), Demand: fp(0.01 * thr)}, sim.Step{At: at(m + 2), Demand: fp(load * thr)})
				}
			}
			specs = append(specs, mk(PipelineBound, "pipeline", ps, tuned, 30*time.Minute, 0, 0))
			// degraded: capacity collapse with errors at flat latency,
			// latency creep, or both; some traces start mid-incident
			var ds []sim.Step
			switch variant % 3 {
			case 0:
				ds = []sim.Step{start, {At: at(15), Capacity: fp(max(1, 0.3*c)), ErrorRate: fp(0.05)}}
			case 1:
				ds = []sim.Step{start, {At: at(15), BaseLatency: dp(2 * base)}, {At: at(17), BaseLatency: dp(3 * base)}, {At: at(19), BaseLatency: dp(4 * base)}}
			case 2:
				ds = []sim.Step{start, {At: at(15), Capacity: fp(max(1, 0.3*c)), BaseLatency: dp(3 * base), ErrorRate: fp(0.02)}}
			}
			skip := time.Duration(0)
			if variant == 3 || variant == 5 {
				// the trace starts already degraded: only where errors
				// show it (capacity lost with errors), since a slower
				// downstream with no fall inside the trace and no errors
				// looks like any other downstream
				skip = 17 * time.Minute
			}
			specs = append(specs, mk(Degraded, "degraded", ds, tuned, 30*time.Minute, skip, 0))
			// oscillating: the algorithm mis-tuned (or AIMD's deep sawtooth);
			// not below a capacity of 20, where a mis-tuned limiter either
			// collapses to its floor or swings within the √limit jitter of
			// a limit that small (the label would name what the series
			// cannot show)
			if c >= 20 && fam.swinging != nil {
				specs = append(specs, mk(Oscillating, "oscillating", []sim.Step{start}, func() limiter.Limiter { return fam.swinging(c, base) }, 30*time.Minute, 0, 0))
			}
			// pipeline-bound: a worker pool smaller than the downstream
			// (in-flight flat at the pool, whatever the demand behind it)
			pool := max(1, int(load*c))
			specs = append(specs, mk(PipelineBound, fmt.Sprintf("pool-%d", pool), []sim.Step{start}, tuned, 30*time.Minute, 0, pool))
		}
	}
	return runAll(specs)
}

// simTruth is what the simulator's counts say of a run from offset from:
// the demand offered, deferred, and lost to congestion (the limit read at
// the sample interval only, so no swing is judged).
func simTruth(r sim.Result, from time.Duration) worldTruth {
	var tr worldTruth
	for i, c := range r.Counts {
		if r.Samples[i].Time.Sub(sim.Epoch) < from {
			continue
		}
		tr.offered += int(c.Offered)
		tr.rejected += int(c.Deferred)
		tr.lost += int(c.Congested)
		tr.failed += int(c.Failed)
		tr.answered += int(c.Dispatched - c.Congested - c.Failed)
	}
	return tr
}

// judgeSuite prints the confusion matrix per family (names, in order) and
// returns each family's recall per class: by the label each trace was meant
// to have, or (byTruth) by what its run did, leaving out what fits no class.
func judgeSuite(t *testing.T, set []suiteTrace, byTruth bool, names []string) map[string]map[Class]float64 {
	classes := []Class{Healthy, PipelineBound, Degraded, Oscillating}
	cols := append(append([]Class{}, classes...), Insufficient, StandingQueue)
	byFam := map[string]map[Class]map[Class]int{}
	var wrong, out []string
	for _, l := range set {
		r := Classify(l.name, l.samples, Options{})
		meant := ""
		if byTruth {
			if l.truth == "" {
				out = append(out, fmt.Sprintf("%s: left out (%s); verdict %s", l.name, l.why, r.Class))
				continue
			}
			if l.truth != l.label {
				meant = fmt.Sprintf(" (meant %s)", l.label)
			}
			l.label = l.truth
		}
		if byFam[l.family] == nil {
			byFam[l.family] = map[Class]map[Class]int{}
		}
		m := byFam[l.family]
		if m[l.label] == nil {
			m[l.label] = map[Class]int{}
		}
		m[l.label][r.Class]++
		if r.Class != l.label {
			var fs []string
			for _, f := range r.Findings {
				fs = append(fs, fmt.Sprintf("%s %s–%s[%s]", f.Class, f.Start.Format("15:04:05"), f.End.Format("15:04:05"), f.Evidence.Summary))
			}
			wrong = append(wrong, fmt.Sprintf("%s: want %s%s got %s (%d samples): %s", l.name, l.label, meant, r.Class, len(l.samples), strings.Join(fs, "; ")))
		}
	}
	recall := map[string]map[Class]float64{}
	var b strings.Builder
	for _, name := range names {
		m := byFam[name]
		recall[name] = map[Class]float64{}
		fmt.Fprintf(&b, "\n%s\n%-22s", name, "label \\ verdict")
		for _, c := range cols {
			fmt.Fprintf(&b, "%14s", shortClass(c))
		}
		b.WriteString("  recall\n")
		for _, l := range classes {
			total := 0
			for _, n := range m[l] {
				total += n
			}
			if total == 0 {
				continue // the family has no trace of this class
			}
			fmt.Fprintf(&b, "%-22s", l)
			for _, c := range cols {
				fmt.Fprintf(&b, "%14d", m[l][c])
			}
			recall[name][l] = float64(m[l][l]) / float64(total)
			fmt.Fprintf(&b, "  %.1f%%\n", 100*recall[name][l])
		}
	}
	t.Log(b.String())
	sort.Strings(wrong)
	for _, w := range wrong {
		t.Log(w)
	}
	if byTruth {
		sort.Strings(out)
		t.Logf("%d of %d traces left out: their run's story fits no class", len(out), len(set))
		for _, o := range out {
			t.Log(o)
		}
	}
	return recall
}

// labelledOf returns the labelled traces of a suite (for dumpSuite).
func labelledOf(set []suiteTrace) []labelled {
	out := make([]labelled, len(set))
	for i, l := range set {
		out[i] = l.labelled
	}
	return out
}

// worstRecall is the lowest recall of any class.
func worstRecall(recall map[Class]float64) float64 {
	worst := 1.0
	for _, r := range recall {
		worst = min(worst, r)
	}
	return worst
}

// heldOutSuite is the held-out half, simulated once for the tests that
// judge it.
var heldOutSuite = sync.OnceValue(func() []suiteTrace { return generateSuite(heldOutSeed, 20) })

func shortClass(c Class) string {
	if len(c) > 13 {
		return string(c[:13])
	}
	return string(c)
}

// TestThirdPartyCalibrationSplit is where thresholds are tuned: it reports
// the calibration half only.
func TestThirdPartyCalibrationSplit(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the calibration half of the third-party suite")
	}
	set := generateSuite(calibrationSeed, 20)
	dumpSuite(t, labelledOf(set))
	for fam, recall := range judgeSuite(t, set, false, familyNames()) {
		t.Logf("%s: worst per-class recall on the calibration half: %.1f%%", fam, 100*worstRecall(recall))
	}
	for fam, recall := range judgeSuite(t, set, true, familyNames()) {
		t.Logf("%s: worst per-class recall on the calibration half by truth: %.1f%%", fam, 100*worstRecall(recall))
	}
}

// heldOutFloor is the worst per-class recall the held-out half reaches
// today for the limitscope gradient and the three go-concurrency-limits
// families (85–90 %, by intent), less a trace (first set at 70 %, when
// Vegas' runs differed by a trace or two: SeededLimit made them
// repeatable; raised to 80 % at Vegas' 85 %, and to 85 % at ours 93.8 %
// and Vegas' 90 % once swings over a standing queue had to be half of
// the trace). The target is
// 95 % (issue: verdicts that hold on limiters we did not write); it is not
// met yet, so this test is a ratchet that fails on any regression below
// today's level, and it prints the gap. Raise it as the classifier
// improves; never lower it.
const heldOutFloor = 0.85

// TestThirdPartyHeldOut judges the held-out half per algorithm family.
func TestThirdPartyHeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the held-out half of the third-party suite")
	}
	recall := judgeSuite(t, heldOutSuite(), false, familyNames())
	for _, fam := range families {
		floor := heldOutFloor
		if fam.floor > 0 {
			floor = fam.floor
		}
		worst := worstRecall(recall[fam.name])
		t.Logf("%-20s worst per-class recall on the held-out half: %.1f%% (target 95%%, ratchet %.0f%%)", fam.name, 100*worst, 100*floor)
		if worst < floor {
			t.Errorf("%s: worst per-class recall on the held-out half is %.1f%%, below the ratchet %.0f%%", fam.name, 100*worst, 100*floor)
		}
	}
}

// truthFloor is the per-class recall a family keeps on the held-out half
// labelled by truth (the simulator's counts: a "healthy" run whose limiter
// let the downstream shed or time out 5 % of what it sent, or a "pipeline"
// run whose limit turned away 5 % of a light load, fits no class and is
// left out). The target is 95 % for every family; where a family is below
// it today, this is its ratchet.
//
// First measured (worst class, held-out, by truth): limitscope-gradient
// 90 %, gcl-gradient2 93 %, gcl-vegas 89 % (±a trace), gcl-aimd 97.5 %,
// envoy-gradient 95 %, vector-arc 70 % (healthy: its limit wanders in slow
// swings the classifier calls oscillating). Ratchets a trace below;
// Vegas' raised to 85 % at 94 % once its runs repeated (SeededLimit).
// envoy-gradient reached 100 % (swampedShare) and is held at the target.
// vector-arc raised to 85 % at 90 % once slow swings had to halve the
// limit (slowSwingDepth): its shallow wandering is no longer oscillating.
// gcl-gradient2 raised to 90 % at 95 % once swings over a standing queue
// had to recur (oscQueuedShare). gcl-vegas reached 100 % once those swings
// had to be half of the trace (oscQueuedShare at a half) and is held at
// the target. gcl-gradient2 reached 100 % once four fifths of demand turned
// away with losses at a flat latency was swamped (swampedFlatShare) and is
// held at the target.
var truthFloor = map[string]float64{"limitscope-gradient": 0.85, "vector-arc": 0.85}

// TestThirdPartyHeldOutByTruth judges the held-out half against what each
// run did rather than what it was meant to show.
func TestThirdPartyHeldOutByTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the held-out half of the third-party suite")
	}
	recall := judgeSuite(t, heldOutSuite(), true, familyNames())
	for _, fam := range families {
		floor, ok := truthFloor[fam.name]
		if !ok {
			floor = 0.95
		}
		worst := worstRecall(recall[fam.name])
		t.Logf("%-20s worst per-class recall on the held-out half by truth: %.1f%% (target 95%%, ratchet %.0f%%)", fam.name, 100*worst, 100*floor)
		if worst < floor {
			t.Errorf("%s: worst per-class recall on the held-out half by truth is %.1f%%, below %.0f%%", fam.name, 100*worst, 100*floor)
		}
	}
}

// withoutCountersFloor is the per-class recall every family keeps on the
// held-out half when its trace has no loss or rejection counters (limit,
// in-flight, min RTT and RTT only, as many exporters publish): today's
// worst per class less a trace or two.
// Degraded is low by design: a third of the suite's incidents lose
// capacity with errors at a flat latency, which only the loss counter
// shows; Envoy runs its limit to the maximum on fast errors, which
// without the counter reads as pipeline-bound. A ratchet: raise it as the
// classifier improves. Later raised: healthy to 65 % (Gradient2's 70 %
// of 20, less a trace) and degraded to 50 % (ours 55 % of 20, less a
// trace; Vector 60 %, Envoy 65 %, Gradient2 75 %, Vegas and AIMD 85 %).
var withoutCountersFloor = map[Class]float64{Healthy: 0.65, PipelineBound: 0.75, Degraded: 0.50, Oscillating: 0.85}

// TestThirdPartyWithoutCounters judges the held-out half with the dropped
// and rejected series removed: the binding constraint is then judged by
// how often in-flight reaches the limit, and a limit that fell and is
// nailed to its minimum stands in for the losses that pressed it there.
func TestThirdPartyWithoutCounters(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the held-out half of the third-party suite")
	}
	const keep = trace.FieldLimit | trace.FieldInFlight | trace.FieldRTTMin | trace.FieldRTT
	var set []suiteTrace
	for _, l := range heldOutSuite() {
		smp := make([]trace.Sample, len(l.samples))
		for i, s := range l.samples {
			s.Fields &= keep
			s.Dropped, s.Rejected = 0, 0
			smp[i] = s
		}
		l.samples = smp
		set = append(set, l)
	}
	for fam, recall := range judgeSuite(t, set, false, familyNames()) {
		for c, r := range recall {
			if r < withoutCountersFloor[c] {
				t.Errorf("%s without loss and rejection counters: %s recall %.1f%%, below the ratchet %.0f%%", fam, c, 100*r, 100*withoutCountersFloor[c])
			}
		}
	}
}

// episodeTrace is a multi-episode trace: a healthy saturated downstream
// with incidents of 1–10 minutes, each labelled degraded-downstream over
// its span.
type episodeTrace struct {
	name      string
	family    string
	samples   []trace.Sample
	incidents [][2]time.Duration // from, to (since the trace's start)
	interval  time.Duration
	// why, when set, is why the trace is left out of the score: its world's
	// healthy time was not healthy
	why string
}

// generateEpisodes builds n multi-episode traces per family from seed:
// 45 minutes at capacities 8…350 and 1, 5 or 15 s sampling; one to three
// incidents of 1–10 minutes (capacity lost with errors at flat latency, or
// latency tripled) separated by at least 6 healthy minutes.
func generateEpisodes(seed uint64, n int) []episodeTrace {
	rng := rand.New(rand.NewPCG(seed, 11))
	scales := []float64{8, 20, 60, 150, 350}
	intervals := []time.Duration{time.Second, 5 * time.Second, 15 * time.Second}
	var specs []func() episodeTrace
	for _, fam := range families {
		for i := 0; i < n; i++ {
			c := max(fam.minScale, scales[rng.IntN(len(scales))])
			iv := intervals[rng.IntN(len(intervals))]
			sigma := 0.1 + 0.1*float64(rng.IntN(3))
			s := rng.Uint64()
			base := time.Duration(c / 250 * float64(time.Second))
			thr := c / base.Seconds()
			steps := []sim.Step{{At: 0, Capacity: fp(c), BaseLatency: dp(base), Demand: fp(1.5 * thr), ErrorRate: fp(0)}}
			incidents, capacityLost := drawIncidents(rng)
			for k, in := range incidents {
				if capacityLost[k] {
					steps = append(steps, sim.Step{At: sim.Duration(in[0]), Capacity: fp(max(1, 0.3*c)), ErrorRate: fp(0.05)})
				} else {
					steps = append(steps, sim.Step{At: sim.Duration(in[0]), BaseLatency: dp(3 * base)})
				}
				steps = append(steps, sim.Step{At: sim.Duration(in[1]), Capacity: fp(c), BaseLatency: dp(base), ErrorRate: fp(0)})
			}
			name := fmt.Sprintf("%s/episodes C=%v iv=%v σ=%.1f %v", fam.name, c, iv, sigma, incidents)
			specs = append(specs, func() episodeTrace {
				sc := testScenario("episodes", 45*time.Minute, iv, s, steps)
				sc.Downstream.LatencySigma = sigma
				sc.Client.Timeout = sim.Duration(max(time.Second, 10*base))
				r := sim.Run(sc, fam.tuned(c, base), sim.Options{Name: "episodes"})
				return episodeTrace{name: name, family: fam.name, samples: r.Samples, incidents: incidents, interval: iv}
			})
		}
	}
	return runAll(specs)
}

// drawIncidents draws a multi-episode trace's incidents from rng: one to
// three of 1–10 minutes from minute 8, ending by minute 40, at least 6
// healthy minutes apart; each loses capacity with errors (capacityLost) or
// triples the latency.
func drawIncidents(rng *rand.Rand) (incidents [][2]time.Duration, capacityLost []bool) {
	at := 8 * time.Minute
	for k := 1 + rng.IntN(3); k > 0 && at < 38*time.Minute; k-- {
		d := time.Duration(1+rng.IntN(10)) * time.Minute
		if at+d > 40*time.Minute {
			d = 40*time.Minute - at
		}
		capacityLost = append(capacityLost, rng.IntN(2) == 0)
		incidents = append(incidents, [2]time.Duration{at, at + d})
		at += d + time.Duration(6+rng.IntN(5))*time.Minute
	}
	return incidents, capacityLost
}

// timeLabelledCorrectly is the share of a trace's samples whose verdict
// (the verdict finding covering the sample) is their label: degraded
// within an incident, healthy outside. Samples within one interval plus
// 30 s of a label change are not scored (the boundary tolerance the
// episodes are held to).
func timeLabelledCorrectly(e episodeTrace) float64 {
	r := Classify(e.name, e.samples, Options{})
	tol := e.interval + 30*time.Second
	good, scored := 0, 0
	for _, smp := range e.samples {
		at := smp.Time.Sub(sim.Epoch)
		want, near := Healthy, false
		for _, in := range e.incidents {
			if at >= in[0] && at < in[1] {
				want = Degraded
			}
			near = near || (at-in[0]).Abs() < tol || (at-in[1]).Abs() < tol
		}
		if near {
			continue
		}
		scored++
		if verdictAt(r, smp.Time) == want {
			good++
		}
	}
	return float64(good) / float64(max(scored, 1))
}

// episodeFloor is the share of time labelled correctly a family must keep
// on the held-out multi-episode traces when it is below the 90 % target
// today (a ratchet at today's level less a margin): AIMD 89 % (a
// 1-minute incident at 15 s sampling is four samples in a five-minute
// window), Vegas 84–96 % (from run to run, before SeededLimit). Empty
// since every family reaches the target (AIMD 95 %, Vegas 98 %): a family
// that falls below it fails.
var episodeFloor = map[string]float64{}

func judgeEpisodes(t *testing.T, set []episodeTrace, names []string) map[string]float64 {
	sum, n := map[string]float64{}, map[string]int{}
	var worst []string
	var out []string
	for _, e := range set {
		if e.why != "" {
			out = append(out, fmt.Sprintf("%s: left out (%s)", e.name, e.why))
			continue
		}
		acc := timeLabelledCorrectly(e)
		sum[e.family] += acc
		n[e.family]++
		if acc < 0.9 {
			worst = append(worst, fmt.Sprintf("%.2f %s", acc, e.name))
		}
	}
	sort.Strings(worst)
	for _, w := range worst {
		t.Log(w)
	}
	sort.Strings(out)
	for _, o := range out {
		t.Log(o)
	}
	mean := map[string]float64{}
	for _, name := range names {
		if n[name] == 0 {
			t.Errorf("%s: no multi-episode trace was scored (every one was left out)", name)
			continue
		}
		mean[name] = sum[name] / float64(n[name])
		t.Logf("%-20s time labelled correctly on multi-episode traces: %.1f%% (target 90%%, %d traces)", name, 100*mean[name], n[name])
	}
	return mean
}

func familyNames() []string { return namesOf(families, func(f family) string { return f.name }) }

// namesOf lists the names of a suite's families, in order.
func namesOf[F any](fs []F, name func(F) string) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = name(f)
	}
	return out
}

// TestMultiEpisodeCalibration judges the calibration half's multi-episode
// traces: thresholds are tuned here, never on the held-out seed. Each
// family keeps the 90 % target here too, so a change that costs episode
// time fails before any held-out run (lossyFallWindows' rule without its
// "still falling" condition gained 8 single-class traces and took
// go-concurrency-limits' AIMD here from 98.8 % to 82.6 %, its Vegas from
// 93.5 % to 85.9 %).
func TestMultiEpisodeCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the multi-episode calibration traces")
	}
	wantEpisodes(t, judgeEpisodes(t, generateEpisodes(calibrationSeed, 8), familyNames()), nil, "calibration")
}

// TestMultiEpisodeHeldOut judges the held-out multi-episode traces: each
// family must label 90 % of the time correctly, or stay at its ratchet
// (episodeFloor) until it does.
func TestMultiEpisodeHeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the multi-episode held-out traces")
	}
	wantEpisodes(t, judgeEpisodes(t, generateEpisodes(heldOutSeed, 8), familyNames()), episodeFloor, "held-out")
}

// wantEpisodes fails t for each family in means (the share of time
// labelled correctly) below 90 %, or below its ratchet in floors, on the
// half named.
func wantEpisodes(t *testing.T, means, floors map[string]float64, half string) {
	t.Helper()
	for name, acc := range means {
		floor := 0.90
		if f, ok := floors[name]; ok {
			floor = f
		}
		if acc < floor {
			t.Errorf("%s: %.1f%% of the time labelled correctly on %s multi-episode traces, below %.0f%%", name, 100*acc, half, 100*floor)
		}
	}
}

// incidentsFound scores each incident of e apart (the issue: an incident
// of a minute or more is found with default settings, its edges within one
// sample interval plus 30 s): found where degraded-downstream findings
// cover half of it or more, edged where the degraded findings overlapping
// it begin and end within that tolerance of its edges.
func incidentsFound(e episodeTrace) (n, found, edged int) {
	r := Classify(e.name, e.samples, Options{})
	tol := e.interval + 30*time.Second
	for _, in := range e.incidents {
		_, f, ed := judgeIncident(r, sim.Epoch.Add(in[0]), sim.Epoch.Add(in[1]), tol)
		n++
		if f {
			found++
			if ed {
				edged++
			}
		}
	}
	return n, found, edged
}

// incidentFloor is the share of incidents a family's held-out multi-episode
// traces must have found, and found with both edges in tolerance
// (incidentsFound): ratchets at their first measurement (40 traces a
// family) less a margin of about two incidents; the target is every
// incident. First measured: found 87.0–100 % (go-concurrency-limits' AIMD
// the lowest: 72 % read every 15 s), edged 45.5–92.9 % (AIMD again: its
// limit regrows for minutes after capacity returns); edged 63.6–92.9 %
// since the end of an episode decided on losses goes back to where its
// recovery began (recoveryStart: AIMD 45.5 → 63.6 %, Vegas 58.6 → 72.9 %,
// ours 79.7 → 91.3 %), and the ratchet with it; found 89.6–100 % since a
// short incident is bounded by readings at twice its limit where the
// limiter's calm level loses as much (slowRun.edge: AIMD 87.0 → 89.6 %,
// Vector's ARC 87.3 → 89.9 %); edged 72.7–92.9 % since an edge the limit
// or the min RTT placed takes the RTT's where it shifted the same way
// first (changePoint: AIMD 66.2 → 72.7 %, Vegas 72.9 → 78.6 %, Envoy's
// 70.1 → 76.1 %, which found one incident fewer, 89.6 → 88.1 %); edged
// 75.3–92.9 % since a degraded episode after healthy time begins where its
// change began, and an end goes back over readings whose limit is not
// measured (declineStart, recoveryStart: AIMD 72.7 → 75.3 %, found 89.6 →
// 92.2 %; Vegas 78.6 → 81.4 %, found 92.9 → 94.3 %; Envoy's 76.1 →
// 77.6 %), and the edged ratchet from 70 to 72 %; edged 76.6–92.9 % since
// a latency rise under a limit that climbed below its level, or with fewer
// requests in flight than the downstream took at a calm RTT, reads slower
// (slowerFar: AIMD 75.3 → 76.6 %, found 92.2 → 93.5 %; Vector's ARC 83.5 →
// 86.1 %), and the edged ratchet from 72 to 74 %; edged 84.4–98.8 % since
// an episode's end goes back to where the limiter overshot the downstream
// that came back (overshootStart: Envoy's 79.1 → 86.6 %), and the edged
// ratchet from 74 to 82 % (AIMD's 84.4 % less two incidents); found
// 95.5–100 %, edged 89.6–100 % since an episode's edges come from the
// data (changePoint, lossHead, joinEpisode, extendEpisode) and a limit
// held low after a lossy fall is that incident (heldAfterLosses: Vector's
// ARC 94.9 → 96.2 % found), and the ratchets from 87 and 82 % to 92 and
// 86 % (Envoy's 95.5 % found and AIMD's 89.6 % edged, less two or three
// incidents).
var incidentFloor = struct{ found, edged float64 }{0.92, 0.86}

// judgeIncidents logs, per family and sample interval, the share of
// incidents found and edged, and returns each family's shares.
func judgeIncidents(t *testing.T, set []episodeTrace, names []string) (found, edged map[string]float64) {
	type tally struct{ n, found, edged int }
	byFamily, byInterval := map[string]*tally{}, map[string]*tally{}
	for _, e := range set {
		if e.why != "" {
			continue
		}
		n, f, ed := incidentsFound(e)
		for _, k := range []string{e.family, fmt.Sprintf("%s every %v", e.family, e.interval)} {
			m := byFamily
			if k != e.family {
				m = byInterval
			}
			if m[k] == nil {
				m[k] = &tally{}
			}
			m[k].n, m[k].found, m[k].edged = m[k].n+n, m[k].found+f, m[k].edged+ed
		}
	}
	keys := make([]string, 0, len(byInterval))
	for k := range byInterval {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c := byInterval[k]
		t.Logf("%-34s incidents found %5.1f%%, edges within an interval + 30 s %5.1f%% (%d)", k, 100*share(c.found, c.n), 100*share(c.edged, c.n), c.n)
	}
	found, edged = map[string]float64{}, map[string]float64{}
	for _, name := range names {
		c := byFamily[name]
		if c == nil || c.n == 0 {
			t.Errorf("%s: no incident was scored", name)
			continue
		}
		found[name], edged[name] = share(c.found, c.n), share(c.edged, c.n)
		t.Logf("%-20s incidents found %5.1f%%, edges within an interval + 30 s %5.1f%% (%d incidents)", name, 100*found[name], 100*edged[name], c.n)
	}
	return found, edged
}

// TestMultiEpisodeIncidentsCalibration scores the calibration half's
// multi-episode incidents one by one (40 traces a family): where the
// rules for incidents shorter than a window and for episode edges are
// tuned (shortSlowdowns, keptEpisode, changePoint's loss series).
func TestMultiEpisodeIncidentsCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the multi-episode calibration traces")
	}
	judgeIncidents(t, generateEpisodes(calibrationSeed, 40), familyNames())
}

// TestMultiEpisodeIncidentsHeldOut scores the held-out half's incidents one
// by one and fails a family below incidentFloor.
func TestMultiEpisodeIncidentsHeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the multi-episode held-out traces")
	}
	found, edged := judgeIncidents(t, generateEpisodes(heldOutSeed, 40), familyNames())
	for _, name := range familyNames() {
		if found[name] < incidentFloor.found || edged[name] < incidentFloor.edged {
			t.Errorf("%s: held-out incidents found %.1f%%, edged %.1f%%; ratchets %.0f%% and %.0f%%", name, 100*found[name], 100*edged[name], 100*incidentFloor.found, 100*incidentFloor.edged)
		}
	}
}

// perturbations are what real recordings do to a trace: start late and
// stop early, miss scrapes, land scrapes off their beat. Each carries its
// per-family ratchet (vector-arc's raised from 65 and 75 % to 85 % at 90 %
// once slow swings had to halve the limit).
var perturbations = []struct {
	name  string
	apply func(smp []trace.Sample, rng *rand.Rand) []trace.Sample
	// floor is the worst per-class recall by truth each family keeps
	// under it on the held-out half: a ratchet at its first measurement
	// less a trace (the target is the unperturbed one's); Vegas' first at
	// 65 %, set when it moved 74–94 % from run to run (its probe jitter
	// drawn from a global source the parallel runs shared), raised to
	// 70/80/80 % once SeededLimit made its runs repeat (78/89/89 %), and
	// held at the 95 % target at 100 % once swings over a standing queue
	// had to be half of the trace (oscQueuedShare) and an integer limit on
	// one value since the recording began stopped counting as a bound
	// (atBound in the pinned-with-losses case). Floors more than a trace
	// behind their measurement were then raised to it less a trace of
	// their worst class (the runs repeat exactly): cut,
	// Gradient2 90 % (20 degraded) to 85 %, Vector 90 % (10 healthy) to
	// 80 %, Envoy 100 % to the target; scrapes missed, Gradient2 95 % to
	// 90 %; off their beat, ours 90 % (20 healthy) to 85 %, Gradient2 95 %
	// to 90 %
	floor map[string]float64
}{
	{"cut to minutes 8–22", func(smp []trace.Sample, _ *rand.Rand) []trace.Sample {
		var out []trace.Sample
		for _, s := range smp {
			if at := s.Time.Sub(sim.Epoch); at >= 8*time.Minute && at < 22*time.Minute {
				out = append(out, s)
			}
		}
		return out
	}, // a recording that starts after the ramp-up: AIMD over a capacity
		// step it does not follow reads like Vector over the shoot-out's
		// noisy neighbour (degraded), first 67 % for AIMD; 78 % once a
		// limit had to fall to half to be pinned low (ratchet 70 %)
		map[string]float64{"limitscope-gradient": 0.75, "gcl-gradient2": 0.85, "gcl-vegas": 0.95, "gcl-aimd": 0.70, "envoy-gradient": 0.95, "vector-arc": 0.80}},
	{"10 % of scrapes missed", func(smp []trace.Sample, rng *rand.Rand) []trace.Sample {
		var out []trace.Sample
		for _, s := range smp {
			if rng.Float64() >= 0.1 {
				out = append(out, s)
			}
		}
		return out
	}, map[string]float64{"limitscope-gradient": 0.85, "gcl-gradient2": 0.90, "gcl-vegas": 0.95, "gcl-aimd": 0.95, "envoy-gradient": 0.95, "vector-arc": 0.85}},
	{"scrapes ±30 % off their beat", func(smp []trace.Sample, rng *rand.Rand) []trace.Sample {
		out := append([]trace.Sample(nil), smp...)
		for i := 1; i < len(out); i++ {
			iv := out[i].Time.Sub(smp[i-1].Time)
			out[i].Time = out[i].Time.Add(time.Duration((rng.Float64()*0.6 - 0.3) * float64(iv)))
			if out[i].Time.Before(out[i-1].Time) {
				out[i].Time = out[i-1].Time
			}
		}
		return out
	}, map[string]float64{"limitscope-gradient": 0.85, "gcl-gradient2": 0.90, "gcl-vegas": 0.95, "gcl-aimd": 0.95, "envoy-gradient": 0.95, "vector-arc": 0.85}},
}

// TestThirdPartyHeldOutPerturbed judges the held-out half by truth after
// each perturbation: verdicts that hold only on whole, punctual traces are
// not verdicts a recording can trust.
func TestThirdPartyHeldOutPerturbed(t *testing.T) {
	if testing.Short() {
		t.Skip("judges the held-out half of the third-party suite, perturbed")
	}
	for _, p := range perturbations {
		rng := rand.New(rand.NewPCG(heldOutSeed, 13))
		var set []suiteTrace
		for _, l := range heldOutSuite() {
			l.samples = p.apply(l.samples, rng)
			set = append(set, l)
		}
		t.Run(p.name, func(t *testing.T) {
			recall := judgeSuite(t, set, true, familyNames())
			for _, fam := range families {
				worst, floor := worstRecall(recall[fam.name]), p.floor[fam.name]
				t.Logf("%-20s %s: worst per-class recall by truth %.1f%% (ratchet %.0f%%)", fam.name, p.name, 100*worst, 100*floor)
				if worst < floor {
					t.Errorf("%s, %s: worst per-class recall by truth %.1f%%, below %.0f%%", fam.name, p.name, 100*worst, 100*floor)
				}
			}
		})
	}
}
