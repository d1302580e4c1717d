//go:build !race

// Slow, single-threaded simulation tests: make test runs this file without
// the race detector (a second pass), where it is ten times faster.

package diagnose

import (
	"testing"
	"time"

	"github.com/limitscope/limitscope/internal/thirdpartytest"
	"github.com/limitscope/limitscope/limiter/sim"
	"github.com/limitscope/limitscope/trace"
)

// TestSimulateOutputsGetSensibleVerdicts judges every limiter of the builtin
// scenarios' shoot-outs.
func TestSimulateOutputsGetSensibleVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the builtin scenarios' shoot-outs")
	}
	for _, c := range []struct {
		scenario string
		want     map[string]Class
	}{
		{"capacity-shift", map[string]Class{
			"static-low":   Healthy,       // bound by its own limit, never overloads
			"static-high":  Degraded,      // a fixed limit cannot go lower while the min RTT climbs
			"aimd":         Oscillating,   // the sawtooth
			"gradient":     PipelineBound, // demand is below capacity after the deploy
			"gradient-cap": PipelineBound,
			// after the noisy neighbour (capacity 40 → 24) these keep their
			// limits above capacity and the min RTT climbs 3–4×, as
			// static-high's does: the downstream degraded, and they show it
			"netflix-gradient2": Degraded,
			"netflix-vegas":     Degraded,
			"envoy-gradient":    Degraded,
			"vector-arc":        Degraded,
		}},
		// a pool of 16 workers in front of a downstream that takes 40:
		// every limiter's in-flight is the pool, nothing is turned away.
		// Vector's limit rides one above in-flight and dips below the pool
		// now and then (the pool's last worker queues behind it, nothing
		// rejected): in-flight at 94 % of it, it turns away no demand, and
		// is no constraint (unboundShare; it read healthy before)
		{"worker-pool", map[string]Class{
			"static-high": PipelineBound, "aimd": PipelineBound, "gradient": PipelineBound,
			"netflix-gradient2": PipelineBound, "netflix-vegas": PipelineBound, "envoy-gradient": PipelineBound,
			"vector-arc": PipelineBound,
		}},
	} {
		sc, err := sim.Load(c.scenario)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range sim.Shootout(sc, nil) {
			d := Classify(r.Limiter, r.Samples, Options{})
			t.Logf("%s %-17s %s (confidence %.2f)", c.scenario, r.Limiter, d.Class, d.Confidence)
			if d.Class != c.want[r.Limiter] {
				t.Errorf("%s, %s: %s, want %s; findings %+v", c.scenario, r.Limiter, d.Class, c.want[r.Limiter], d.Findings)
			}
			// static-high sits at 80 over a downstream of 40 until the
			// deploy: a standing queue its own min-RTT estimate (the
			// interval's minimum, queue included) cannot show, the trace's
			// later one does; the gradient limiter keeps none
			standing, any := false, false
			for _, f := range d.Findings {
				any = any || f.Class == StandingQueue
				standing = standing || f.Class == StandingQueue && f.Start.Equal(d.Start) && f.End.Sub(sim.Epoch) <= 21*time.Minute
			}
			if c.scenario == "capacity-shift" && r.Limiter == "static-high" && !standing {
				t.Errorf("%s, %s: no standing-queue finding over the first 20 minutes; findings %+v", c.scenario, r.Limiter, d.Findings)
			}
			if r.Limiter == "gradient" && any {
				t.Errorf("%s, %s: a standing-queue finding for the gradient limiter; findings %+v", c.scenario, r.Limiter, d.Findings)
			}
		}
	}
}

// A healthy AIMD saw-tooth whose band sits on the lowest limit seen is not
// pinned at a floor, whatever losses its back-offs come with:
// go-concurrency-limits' AIMD on a downstream of 150, recorded from minute
// 8 on (its ramp-up from 150 not in the recording), every minute holding
// a back-off or two.
func TestSawToothOnItsOwnLowIsNotPinned(t *testing.T) {
	const c = 150.0
	base := time.Duration(c / 250 * float64(time.Second))
	sc := testScenario("aimd", 22*time.Minute, time.Second, 7, []sim.Step{{At: 0, Capacity: fp(c), BaseLatency: dp(base), Demand: fp(1.5 * c / base.Seconds()), ErrorRate: fp(0)}})
	sc.Downstream.LatencySigma = 0.2
	sc.Client.Timeout = sim.Duration(10 * base)
	var smp []trace.Sample
	for _, s := range sim.Run(sc, thirdpartytest.AIMD(c, 0.9, 1), sim.Options{Name: "aimd"}).Samples {
		if s.Time.Sub(sim.Epoch) >= 8*time.Minute {
			smp = append(smp, s)
		}
	}
	if r := Classify("aimd", smp, Options{}); r.Class != Healthy {
		t.Errorf("%s (%+v)", r.Class, r.Findings)
	}
}

// An integer limit sitting on one value since a recording began is at its
// own equilibrium, not held at a bound, whatever a window's losses:
// go-concurrency-limits' Vegas over a downstream of 3, in the simulator
// read every 5 s and recorded from minute 8 to 22
// (testdata/gcl-vegas-equilibrium-sheds.csv, fresh draw + 131), sits at 9
// over a queue twice its min RTT, and its second window sheds 5.4 % of
// completions against none in the first. It was read "pinned at 9.0
// (floor 9.0)", degraded; the whole 30-minute run, whose floor of 5 is in
// it, was healthy. Fails if a nailed integer limit counts as a bound
// (atBound).
func TestIntegerEquilibriumIsNoBound(t *testing.T) {
	wantNoDegraded(t, "gcl-vegas", "gcl-vegas-equilibrium-sheds.csv", Healthy)
}
