//go:build !race

// Slow, single-threaded simulation tests: make test runs this file without
// the race detector (a second pass), where it is ten times faster.

package sim

import (
	"math"
	"testing"
	"time"

	"github.com/limitscope/limitscope/limiter"
)

func TestGradientWithProbeTracksCapacity(t *testing.T) {
	sc := stepScenario()
	run := func(depth float64) Result {
		g := &limiter.Gradient{ProbeDepth: depth}
		return Run(sc, &limiter.Windowed{Limiter: g, Window: 100 * time.Millisecond}, Options{Name: "g"})
	}
	probe := run(0)
	for _, ph := range []struct {
		from time.Duration
		c    float64
	}{{5 * time.Minute, 40}, {15 * time.Minute, 80}, {25 * time.Minute, 24}} {
		m := meanLimit(probe, ph.from, ph.from+5*time.Minute)
		t.Logf("capacity %v: mean limit with probe %.1f", ph.c, m)
		if m < 0.8*ph.c || m > 1.6*ph.c {
			t.Errorf("capacity %v: mean limit %.1f outside [0.8C, 1.6C]: the limit does not track capacity", ph.c, m)
		}
	}
	// The seed's sample code only resets the minimum: the new minimum is a
	// queue-inflated RTT, so the limit drifts away from capacity.
	reset := run(1)
	for _, from := range []time.Duration{5 * time.Minute, 15 * time.Minute, 25 * time.Minute} {
		t.Logf("reset-only (the seed's sample code): mean limit %.1f", meanLimit(reset, from, from+5*time.Minute))
	}
	if m := meanLimit(reset, 25*time.Minute, 30*time.Minute); m < 2*24 {
		t.Errorf("reset-only limit %.1f at capacity 24: expected it to drift far above (the failure the probe fixes)", m)
	}
}

func TestShootoutReproducesTheSeedsOrdering(t *testing.T) {
	if testing.Short() {
		t.Skip("the full hour takes seconds")
	}
	sc, err := Load("capacity-shift")
	if err != nil {
		t.Fatal(err)
	}
	res := map[string]Result{}
	for _, r := range Shootout(sc, nil) {
		res[r.Limiter] = r
		t.Logf("%-13s util %.3f p50 %.1f p99 %.1f episodes %d deferred %d maxlimit %.0f", r.Limiter, r.Utilisation, r.P50Ms, r.P99Ms, r.OverloadEpisodes, r.Deferred, r.MaxLimit)
	}
	lo, hi, aimd, g, gc := res["static-low"], res["static-high"], res["aimd"], res["gradient"], res["gradient-cap"]
	for _, r := range []Result{hi, aimd, g, gc} {
		if lo.Utilisation >= r.Utilisation || lo.Deferred <= r.Deferred {
			t.Errorf("static-low must have the lowest utilisation and defer the most (vs %s)", r.Limiter)
		}
		if r.Limiter != "static-high" && (hi.P99Ms <= r.P99Ms || hi.OverloadEpisodes < r.OverloadEpisodes) {
			t.Errorf("static-high must have the highest p99 and the most overload episodes (vs %s)", r.Limiter)
		}
	}
	if aimd.P99Ms <= g.P99Ms {
		t.Error("AIMD's p99 must lie above gradient's")
	}
	if math.Abs(g.Utilisation-hi.Utilisation) > 0.10 && g.Utilisation < hi.Utilisation {
		t.Errorf("gradient utilisation %.3f not within 10 points of static-high %.3f", g.Utilisation, hi.Utilisation)
	}
	if g.P99Ms > 2*lo.P99Ms {
		t.Errorf("gradient p99 %.1f above 2x static-low's %.1f", g.P99Ms, lo.P99Ms)
	}
	if gc.MaxLimit > 100 {
		t.Errorf("gradient-cap's limit reached %.0f above its cap 100", gc.MaxLimit)
	}
	if g.OverloadEpisodes != 0 {
		t.Errorf("gradient overloaded %d minutes", g.OverloadEpisodes)
	}
}
