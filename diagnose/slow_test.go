//go:build !race

// Slow, single-threaded simulation tests: make test runs this file without
// the race detector (a second pass), where it is ten times faster.

package diagnose

import (
	"testing"

	"github.com/limitscope/limitscope/limiter/sim"
)

func TestSimulateOutputsGetSensibleVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the hour-long shoot-out")
	}
	sc, err := sim.Load("capacity-shift")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Class{
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
	}
	for _, r := range sim.Shootout(sc, nil) {
		d := Classify(r.Limiter, r.Samples, Options{})
		t.Logf("%-17s %s (confidence %.2f)", r.Limiter, d.Class, d.Confidence)
		if d.Class != want[r.Limiter] {
			t.Errorf("%s: %s, want %s; findings %+v", r.Limiter, d.Class, want[r.Limiter], d.Findings)
		}
	}
}

// A pool of 16 workers in front of a downstream that takes 40: every
// limiter's in-flight is the pool, nothing is turned away — pipeline-bound.
// Vector's limit rides one above in-flight and dips below the pool now and
// then (the pool's last worker queues behind it, nothing rejected), which
// the series cannot tell from a limit that binds: healthy.
func TestWorkerPoolScenarioIsPipelineBound(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the 40-minute worker-pool shoot-out")
	}
	sc, err := sim.Load("worker-pool")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range sim.Shootout(sc, nil) {
		want := PipelineBound
		if r.Limiter == "vector-arc" {
			want = Healthy
		}
		if d := Classify(r.Limiter, r.Samples, Options{}); d.Class != want {
			t.Errorf("%s: %s, want %s; findings %+v", r.Limiter, d.Class, want, d.Findings)
		}
	}
}
