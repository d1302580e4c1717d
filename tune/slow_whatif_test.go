//go:build !race

// Slow, single-threaded simulation tests: make test runs this file without
// the race detector (a second pass), where it is ten times faster.

package tune

import (
	"math"
	"testing"

	"github.com/limitscope/limitscope/limiter"
)

func TestClosedLoopPredictsOtherSettings(t *testing.T) {
	sc := validationScenario()
	rec, err := Prepare("x", recordedRun(sc, 0.2).Samples)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		g    func() *limiter.Gradient
		cap  int
	}{
		{"smoothing 0.05", func() *limiter.Gradient { return &limiter.Gradient{Smoothing: 0.05} }, 0},
		{"smoothing 0.8", func() *limiter.Gradient { return &limiter.Gradient{Smoothing: 0.8} }, 0},
		{"cap 25", func() *limiter.Gradient { return &limiter.Gradient{} }, 25},
		{"max limit 40", func() *limiter.Gradient { return &limiter.Gradient{MaxLimit: 40} }, 0},
		{"min limit 50", func() *limiter.Gradient { return &limiter.Gradient{MinLimit: 50} }, 0},
	}
	for _, c := range cases {
		truth := runWith(sc, c.g(), c.cap)
		g := c.g()
		pred := rec.Replay(Candidate{Limiter: g, Cap: float64(c.cap), Top: topOf(g, c.cap)}, ClosedLoop)
		t.Logf("%s: true utilisation %.3f, closed-loop prediction %.3f", c.name, truth.Utilisation, pred.Utilisation)
		if math.Abs(truth.Utilisation-pred.Utilisation) > 0.05 {
			t.Errorf("%s: prediction %.3f is more than 5 points from the true %.3f", c.name, pred.Utilisation, truth.Utilisation)
		}
	}
}
