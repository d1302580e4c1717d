package diagnose

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/limitscope/limitscope/limiter/sim"
	"github.com/limitscope/limitscope/trace"
)

// Envoy's gradient controller pins concurrency to its minimum every
// min_rtt_calc interval (60 s, plus jitter) while it re-measures the min
// RTT; a scrape that lands in it reads the pinned limit. Those dips are the
// controller working, not a verdict: a healthy and a pipeline-bound series
// with them keep their verdicts, and a degraded one stays degraded, at 1,
// 5 and 15 s sampling.
func TestPeriodicPinsToTheMinimumAreNotAVerdict(t *testing.T) {
	for _, iv := range []time.Duration{time.Second, 5 * time.Second, 15 * time.Second} {
		n := int(40 * time.Minute / iv)
		pinned := func(i int) bool {
			// one sample in each minute (plus 7 s of jitter a minute)
			at := time.Duration(i) * iv
			period := 67 * time.Second
			return at%period < iv
		}
		cases := []struct {
			name string
			row  func(i int) (float64, float64, float64, float64, float64, float64)
			want Class
		}{
			{"healthy", func(i int) (float64, float64, float64, float64, float64, float64) {
				if pinned(i) {
					return 3, 3, 20, 21, 0, 400
				}
				return 100 + wobble3(i), 100, 20, 24, 0, 300
			}, Healthy},
			{"pipeline-bound", func(i int) (float64, float64, float64, float64, float64, float64) {
				if pinned(i) {
					return 3, 3, 20, 21, 0, 0
				}
				return 100 + wobble3(i), 30 + wobble3(i), 20, 20, 0, 0
			}, PipelineBound},
			{"degraded", func(i int) (float64, float64, float64, float64, float64, float64) {
				at := time.Duration(i) * iv
				if pinned(i) {
					return 3, 3, 20, 21, 0, 400
				}
				if at > 20*time.Minute {
					return 10 + wobble3(i), 10, 60, 70, 0, 900
				}
				return 100 + wobble3(i), 100, 20, 24, 0, 300
			}, Degraded},
		}
		for _, c := range cases {
			r := Classify("x", synth(n, iv, c.row), Options{})
			if r.Class != c.want {
				t.Errorf("%v sampling, %s: %s; findings %+v", iv, c.name, r.Class, r.Findings)
			}
		}
	}
}

// An AIMD limiter keeps no min RTT: its trace has limit, in-flight and RTT
// only. The RTT's level stands in for the min RTT's, guarded by the
// completion rate: the RTT quadrupling at a held limit while completions
// fall to a quarter is a slower downstream; the RTT rising with in-flight
// (the limiter filling its own queue, completions held) is not, nor is it
// doubling at a held limit (completions at half: the limiter's own queue
// above a downstream that stepped down).
func TestRTTStandsInForAMissingMinRTT(t *testing.T) {
	mk := func(row func(i int) (limit, inFlight, rtt float64)) []trace.Sample {
		out := make([]trace.Sample, 1800)
		for i := range out {
			l, f, r := row(i)
			s := trace.Sample{Time: sim.Epoch.Add(time.Duration(i) * time.Second), Target: "aimd"}
			s.Set(trace.FieldLimit, l)
			s.Set(trace.FieldInFlight, f)
			s.Set(trace.FieldRTT, r)
			s.Set(trace.FieldDropped, 0)
			s.Set(trace.FieldRejected, 50)
			out[i] = s
		}
		return out
	}
	slower := mk(func(i int) (float64, float64, float64) {
		if i >= 900 {
			return 100 + wobble3(i), 100, 80
		}
		return 100 + wobble3(i), 100, 20
	})
	r := Classify("aimd", slower, Options{})
	if r.Class != Degraded {
		t.Fatalf("the RTT quadrupled at a held limit: %s (%+v)", r.Class, r.Findings)
	}
	if !degradedSaying(r, "no min-RTT series") {
		t.Errorf("the evidence does not say the RTT stood in for the min RTT: %+v", r.Findings)
	}
	for _, u := range r.Unreachable {
		if u.Class == Degraded {
			t.Errorf("degraded-downstream listed as unreachable with an RTT series: %q", u.Reason)
		}
	}
	ownQueue := mk(func(i int) (float64, float64, float64) {
		if i >= 900 {
			return 400 + wobble3(i), 400, 80 // 4× the in-flight at 4× the RTT: as many completions
		}
		return 100 + wobble3(i), 100, 20
	})
	if r := Classify("aimd", ownQueue, Options{}); r.Class == Degraded {
		t.Fatalf("the limiter filling its own queue: %s (%+v)", r.Class, r.Findings)
	}
	// AIMD holding its limit above a downstream that stepped down to 60 %
	// (no errors): its own queue doubles the RTT, and Little's law reads
	// that as completions at 48 % — not far enough for an RTT that
	// includes the limiter's queue
	aboveStep := mk(func(i int) (float64, float64, float64) {
		if i >= 900 {
			return 100 + wobble3(i), 100, 42
		}
		return 100 + wobble3(i), 100, 20
	})
	if r := Classify("aimd", aboveStep, Options{}); r.Class == Degraded {
		t.Fatalf("the limiter holding above a downstream that stepped down: %s (%+v)", r.Class, r.Findings)
	}
	// a mis-tuned AIMD's deep saw-tooth (go-concurrency-limits' AIMD,
	// backoff 0.5): it grows into its own queue for four minutes (the RTT
	// rising with it, completions held), then halves on every loss down to
	// a few percent of its top, where its queue drains and the RTT is back
	// at its base. The window of the collapse has a risen median RTT and
	// few completions at its end, yet its last third says the queue was
	// the limiter's own
	tooth := mk(func(i int) (float64, float64, float64) {
		if i < 300 {
			return 100 + wobble3(i), 100, 20
		}
		switch p := (i - 300) % 360; {
		case p < 255:
			l := 100 + 300*float64(p)/255
			return l, l, 20 * l / 100
		case p < 330:
			// the RTT lags the limit: what sat in the queue completes late
			l := max(12, 400*math.Pow(0.5, float64(p-255)/3))
			return l, l, max(20, 80*math.Pow(0.5, float64(p-255)/15))
		default:
			l := 12 + 88*float64(p-330)/30
			return l, l, 20
		}
	})
	if r := Classify("aimd", tooth, Options{}); r.Class != Oscillating {
		t.Fatalf("a saw-tooth collapsing below its own queue: %s (%+v)", r.Class, r.Findings)
	}
	// the same collapse with the RTT still risen at its end, and staying
	// there at the low limit, is a downstream that got slower
	stuck := mk(func(i int) (float64, float64, float64) {
		switch {
		case i < 555:
			return 100 + wobble3(i), 100, 20
		case i < 630:
			return max(12, 100*math.Pow(0.5, float64(i-555)/3)), 12, 80
		default:
			return 12 + wobble3(i)/10, 12, 80
		}
	})
	if r := Classify("aimd", stuck, Options{}); r.Class != Degraded {
		t.Fatalf("a limit collapsing as the RTT rose and stayed: %s (%+v)", r.Class, r.Findings)
	}
}

// A mis-tuned limiter can wander slower than one judging window: at 1 s
// sampling the window is a minute, and a level that moves between 60 and
// 140 every two minutes looks settled inside each window. The window
// medians show it. One capacity step that settles is a single move, not a
// swing.
func TestSwingsSlowerThanAWindow(t *testing.T) {
	wander := synth(1800, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		l := 140.0
		if (i/120)%2 == 1 {
			l = 60
		}
		return l + wobble3(i), l, 20, 22, 0, 300
	})
	r := Classify("x", wander, Options{})
	if r.Class != Oscillating {
		t.Fatalf("a level swinging every two minutes: %s (%+v)", r.Class, r.Findings)
	}
	step := synth(1800, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		l := 140.0
		if i >= 600 {
			l = 60
		}
		return l + wobble3(i), l, 20, 22, 0, 300
	})
	if r := Classify("x", step, Options{}); r.Class != Healthy {
		t.Fatalf("one step that settles: %s (%+v)", r.Class, r.Findings)
	}
	// the same moves between 60 and 100 (of 50 % of the median, yet never
	// halving the limit) are a healthy limiter's wandering: Vector's
	// shallow back-off under a noisy RTT
	shallow := synth(1800, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		l := 100.0
		if (i/120)%2 == 1 {
			l = 60
		}
		return l + wobble3(i), l, 20, 22, 0, 300
	})
	if r := Classify("x", shallow, Options{}); r.Class != Healthy {
		t.Fatalf("a level wandering between 60 and 100: %s (%+v)", r.Class, r.Findings)
	}
	// a level that drifts down by a factor of three and then wanders by
	// under 1.5×: the factor of two is the drift's (the first leg), not
	// the swing's (slowProperDepth). The simulator's Vector ARC at 350,
	// read every 15 s (seed 515151, a healthy run), drifted from 318 to 76
	// at a flat RTT, losing nothing, and wandered 74–110 after: window
	// medians 248, 138, 83, 76, 97, 110, 74, read oscillating for its last
	// 6½ minutes
	drift := readTestdata(t, "vector-arc-drift-then-wandering-15s.csv")
	if r := Classify("vector-arc", drift, Options{}); r.Class != Healthy {
		t.Fatalf("a drift down, then wandering between 74 and 110: %s (%s)", r.Class, describeFindings(r.Findings, r.Start, 0))
	}
}

// A controller fed fast errors (Envoy samples every response's latency,
// 503s included) runs its limit to the maximum while the downstream fails a
// large share of what it lets through: in-flight far below the limit, yet
// losses well above their calm level. That is a failing downstream, not a
// healthy limiter. The same losses behind a queue the limit let in — the
// RTT tripled while the downstream completes what it completed at its
// best (a limiter deaf to losses running away above capacity:
// go-concurrency-limits' Gradient2 after an incident) — are the excess of
// an overloaded downstream, not one failing what it is sent.
func TestLossesWithTheLimitFarFromBindingAreDegraded(t *testing.T) {
	for _, c := range []struct {
		name          string
		inFlight, rtt float64
		degraded      bool
	}{
		// 30 in flight at 24 ms complete 1250 a second (a third of the
		// calm 3750); 400 lost is 24 %
		{"fast errors, completions fallen", 30, 24, true},
		// 300 in flight at 72 ms complete 4167 a second, as many as at
		// the best; 400 lost is 9 %
		{"a queue's timeouts, completions held", 300, 72, false},
	} {
		r := Classify("x", synth(1200, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			if i < 600 {
				return 100 + wobble3(i), 90, 20, 24, 0, 200 // calm: nothing lost
			}
			return 1000, c.inFlight + wobble3(i), 20, c.rtt, 400, 0
		}), Options{})
		wantDegradedFinding(t, c.name, r, c.degraded)
		if c.degraded && !degradedSaying(r, "fails what the limit lets through") {
			t.Errorf("%s: the evidence does not say the downstream fails what the limit lets through: %+v", c.name, r.Findings)
		}
		if !c.degraded {
			// the healthy finding still names the losses and the cause
			said := false
			for _, f := range r.Findings {
				said = said || f.Class == Healthy && strings.Contains(f.Evidence.Summary, "losses made 8.8% of completions") &&
					strings.Contains(f.Evidence.Summary, "the limit sits above what the downstream takes") && strings.Contains(f.Recommendation, "loss events")
			}
			if !said {
				t.Errorf("%s: no healthy finding names the losses and the limit above capacity: %+v", c.name, r.Findings)
			}
		}
	}
}

// A limiter that swings at half its best level or less while the RTT
// tripled and completions fell far is slower, not oscillating: a limit that
// halved cannot have deepened its own queue (go-concurrency-limits' Vegas
// wobbling 7–12, down from 20, with its min-RTT estimate stale, above the
// floor of 4 it started from). The same swing at its best level is
// oscillation: its windows are oscillating findings, and none is degraded.
// Over the standing queue its stale min RTT shows, they are 9 of 20 judged
// windows, under half: the whole-series verdict stays healthy
// (oscQueuedShare). Where only the RTT stands in for a min RTT no queue is
// measured, and they make the verdict.
func TestSwingingAtHalfItsLevelWhileSlowerIsDegraded(t *testing.T) {
	for _, c := range []struct {
		name   string
		lo, hi float64 // the limit swings between these every 20 s
		rttMin float64 // -1: no min-RTT series (the RTT stands in for it)
		window Class   // the class of the swinging windows' findings
		want   Class   // the whole-series verdict
	}{
		{"at half its level, the RTT tripled", 7, 12, 10, Degraded, Degraded},
		{"at its level, the RTT tripled", 15, 25, 10, Oscillating, Healthy},
		// where only the RTT stands in, it still holds the queue the
		// limit built before it fell (a mis-tuned AIMD's tooth)
		{"at half its level, no min-RTT series", 7, 12, -1, Oscillating, Oscillating},
	} {
		r := Classify("x", synth(1200, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			switch {
			case i < 40: // starting from a low initial limit: the floor is 4
				return 4, 4, c.rttMin, 20, 0, 200
			case i < 600:
				return 20 + wobble3(i), 20, c.rttMin, 20, 0, 200 // binding, 1000 completions a second
			}
			l := c.lo + (c.hi-c.lo)*float64((i/20)%2)
			return l, l, c.rttMin, 60, 0, 200 // the min-RTT estimate stale at 10 ms
		}), Options{})
		if r.Class != c.want {
			t.Errorf("%s: %s, want %s (%+v)", c.name, r.Class, c.want, r.Findings)
		}
		swung := false
		for _, f := range r.Findings {
			swung = swung || f.Class == c.window && !f.Start.Before(sim.Epoch.Add(10*time.Minute))
		}
		if !swung {
			t.Errorf("%s: no %s finding over the swing (%+v)", c.name, c.window, r.Findings)
		}
		if c.window != Degraded {
			wantDegradedFinding(t, c.name, r, false)
		}
	}
}

// A window whose limit fell once — 20 to 13, not to half — as the RTT
// tripled and completions fell to a fifth spreads its values as widely as
// a swing does, but one move is no swing: slower, not calm.
func TestOneFallInsideAWindowIsNoSwing(t *testing.T) {
	r := Classify("x", synth(121, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		if i < 80 {
			return 20 + wobble3(i), 20, 10, 20, 0, 200 // binding, 1000 completions a second
		}
		return 13, 13, 10, 60, 0, 200 // the min-RTT estimate stale at 10 ms
	}), Options{})
	if r.Class != Degraded {
		t.Errorf("%s, want %s (%+v)", r.Class, Degraded, r.Findings)
	}
}

// A healthy limiter whose downstream fails a steady share of requests at a
// flat RTT (losses at their calm level) has its finding name the losses,
// but not blame the limit: with no queue behind them they are not the
// excess of a limit above capacity.
func TestSteadyLossesAtAFlatRTTAreNamedNotBlamed(t *testing.T) {
	r := Classify("x", synth(1200, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		// 100 in flight at 24 ms complete 4167 a second; 250 lost is 5.7 %
		return 100 + wobble3(i), 100 + wobble3(i), 20, 24, 250, 2000
	}), Options{})
	if r.Class != Healthy {
		t.Fatalf("%s, want healthy (%+v)", r.Class, r.Findings)
	}
	f := r.Findings[0]
	if !strings.Contains(f.Evidence.Summary, "losses made 5.") || strings.Contains(f.Evidence.Summary, "above what the downstream takes") || f.Recommendation != "Nothing to do." {
		t.Errorf("the healthy finding should name the losses without blaming the limit: %q / %q", f.Evidence.Summary, f.Recommendation)
	}
}

// Without a loss counter, a limit nailed to its minimum says so in words:
// after a fall it names the earlier level, from the trace's start it says
// since when.
func TestHeldAtItsMinimumSaysSo(t *testing.T) {
	for _, c := range []struct {
		name string
		row  func(i int) (float64, float64, float64, float64, float64, float64)
		want string
	}{
		{"after a fall", func(i int) (float64, float64, float64, float64, float64, float64) {
			if i < 600 {
				return 60 + 0.37*wobble3(i), 59, 20, 21, -1, -1
			}
			return 4, 4, 20, 21, -1, -1
		}, "fell to 4.0"},
		{"from the start", func(int) (float64, float64, float64, float64, float64, float64) {
			return 1, 1, 20, 21, -1, -1
		}, "nailed at 1.0 with in-flight at 100% of it since the trace began"},
	} {
		r := Classify("x", synth(1200, time.Second, c.row), Options{})
		found := degradedSaying(r, c.want, "held at its minimum (losses not measured)")
		if r.Class != Degraded || !found {
			t.Errorf("%s: %s, findings %+v; want a degraded finding saying %q", c.name, r.Class, r.Findings, c.want)
		}
	}
}

// A downstream that loses most of what it is sent while completions fall
// to a third is failing wherever the limit sits: AIMD's limit stays frozen
// when every request of a window times out (it hears of a loss only with a
// success in the same window).
func TestMostLostWithTheLimitFrozenIsDegraded(t *testing.T) {
	r := Classify("x", synth(1200, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		if i < 600 {
			return 100 + wobble3(i), 100, 20, 21, 0, 500
		}
		// 60 in flight at 38 ms complete 1,579 a second, a third of before;
		// 2000 lost a second is 56 % of what the limit lets through; the
		// limit is not at its floor and the min RTT follows the RTT, up
		// under 2× (a slower downstream's rise is the other rule)
		return 120, 60, 36, 38, 2000, 0
	}), Options{})
	found := degradedSaying(r, "completions fell to 33% of their best: the downstream fails what the limit lets through")
	if r.Class != Degraded || !found {
		t.Errorf("%s (%+v)", r.Class, r.Findings)
	}
}

// A downstream four times slower completes a quarter of what it did,
// wherever a limit that did not grow sits: here a limiter that tolerates
// twice the latency cuts to 64 % (gcl's Vegas and Gradient), while its
// min-RTT estimate, never re-probed, stays flat. The RTT's rise decides,
// and the sentence says so.
func TestSlowerWhereverTheLimitSits(t *testing.T) {
	r := Classify("x", synth(1200, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		if i < 600 {
			return 11 + 0.3*wobble3(i), 11, 40, 150, 0, 900
		}
		return 7, 7, 40, 380, 0, 1400 // 7 / 0.38 s = 18 a second, a quarter of 73
	}), Options{})
	found := degradedSaying(r, "the RTT rose 2.53× (from 150.0 ms to 380.0 ms; the min-RTT estimate moved 1.00×)", "completions fell to 25% of their best")
	if r.Class != Degraded || !found {
		t.Errorf("%s (%+v)", r.Class, r.Findings)
	}
}

// A limiter deaf to latency (AIMD backs off on drops only) grew its limit
// by half and later the downstream got slower: completions at a fifth of
// their best with the RTT up 5× are degraded although the limit sits above
// its level at the baseline. A limit growing to 3× over its own queue (the
// RTT tripled, completions held) is not.
func TestSlowerWhileTheLimitGrew(t *testing.T) {
	for _, c := range []struct {
		name     string
		row      func(i int) (limit, rtt float64)
		degraded bool
	}{
		{"completions at a fifth", func(i int) (float64, float64) {
			l := min(30, 20+float64(max(0, i-300))/20) // 20 → 30 over minutes 5–8
			if i >= 700 {
				return l, 800 // 30 / 0.8 s = 37 a second: a fifth of 200
			}
			return l, 1000 * l / 200 // its own queue: 200 a second complete
		}, true},
		{"own queue, completions held", func(i int) (float64, float64) {
			l := min(60, 20+float64(max(0, i-300))/10) // 20 → 60 over minutes 5–12
			return l, 1000 * l / 200
		}, false},
	} {
		r := Classify("x", synth(1200, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			l, rtt := c.row(i)
			return l, l, rtt - 10, rtt, 0, 300
		}), Options{})
		wantDegradedFinding(t, c.name, r, c.degraded)
	}
}

// A trace that opens on an incident's first minutes (capacity lost with
// errors), sampled every 15 s, shows the limit falling to a third inside
// its first window with in-flight pressed against it and losses at 6 %:
// degraded from that window, in its own words. Demand falling away at the
// same losses (in-flight leaving the limit) is not that.
func TestFallToHalfWithLossesOpensATrace(t *testing.T) {
	fall := func(i int) float64 { return max(4, 14-1.5*float64(i)) } // 14 → 4 in 100 s
	for _, c := range []struct {
		name     string
		inFlight func(i int) float64
		degraded bool
	}{
		{"capacity lost", fall, true},
		{"demand fell away", func(i int) float64 { return max(0, 14-3*float64(i)) }, false},
	} {
		r := Classify("x", synth(40, 15*time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			f := c.inFlight(i)
			return fall(i), f, 500, 1200, 0.06 * f / 1.2 * 15, 100 // losses 6 % of completions
		}), Options{})
		found := degradedSaying(r, "capacity lost with errors")
		if found != c.degraded {
			t.Errorf("%s: a capacity-lost finding is %v, want %v (%s: %+v)", c.name, found, c.degraded, r.Class, r.Findings)
		}
	}
}

// A limit that fell from 390 to 20 in one move with losses is capacity lost
// with errors even where the window holding the fall opens on a rise: a
// swing is counted against the level the limit fell from, not against the
// median of a window that is mostly the fallen level.
func TestFallAfterARiseIsOneMove(t *testing.T) {
	// the window of minutes 7:30–11:15 (15 samples at 15 s): 376, 389, then
	// the fall (its median, 57, makes the 13 up a swing of 20 %)
	fall := []float64{376, 389, 255, 207, 150, 110, 87, 57, 46, 37, 30, 27, 24, 22, 20}
	r := Classify("x", synth(60, 15*time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		l := 380 + 4*wobble3(i)
		if k := i - 30; k >= 0 {
			l = fall[min(k, len(fall)-1)]
		}
		if i < 32 {
			return l, l, 1250, 4800, 0, 1100
		}
		return l, l, 1250, 3300, 0.2 * l / 3.3 * 15, 2000 // losses 20 % of completions
	}), Options{})
	found := degradedSaying(r, "capacity lost with errors")
	if !found {
		t.Errorf("%s (%+v)", r.Class, r.Findings)
	}
}

// A trace that opens on a failing downstream (failsafe-go's limit, deaf to
// drops, climbing while seven of every eight requests are lost) is
// degraded: a window losing half of what completes is never the calm
// level later windows are judged against.
func TestOpeningOnAFailingDownstream(t *testing.T) {
	r := Classify("x", synth(96, 5*time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		// 36 in flight at 1.9 s complete 95 in 5 s; 680 lost is 88 %
		return min(55+2*float64(i), 185), 36, -1, 1900, 680, 0
	}), Options{})
	if r.Class != Degraded {
		t.Fatalf("%s (%+v)", r.Class, r.Findings)
	}
}

// An interval with losses and no RTT completed nothing (the RTT is the mean
// of its successes): a downstream in congestion collapse, shedding every
// request while it works on abandoned ones, completes none — not the
// hundred a second a stale min RTT would say — and is degraded.
func TestNoRTTWithLossesCompletedNothing(t *testing.T) {
	r := Classify("x", synth(80, 15*time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		if i < 40 {
			return 370 + 5*wobble3(i), 370, 1250, 4900, 0, 1100
		}
		return 238, 130, 1250, -1, 2200, 0 // the RTT cell empty: no successes
	}), Options{})
	found := degradedSaying(r, "completions fell to 0% of their best")
	if r.Class != Degraded || !found {
		t.Errorf("%s (%+v)", r.Class, r.Findings)
	}
}

// A limit that fell to a fifth, completing a seventh of its best at an RTT
// up 1.4×, is a slower downstream: gcl's Gradient sat above its downstream
// with a standing queue, so the RTT rises less than the downstream's
// latency did. The same fall at a flat RTT with no losses is a limiter
// following a smaller downstream (healthy), as is a step to 60 % at a
// higher RTT.
func TestFallenFarWithTheRTTUp(t *testing.T) {
	for _, c := range []struct {
		name     string
		limit    float64 // after minute 10, with in-flight at the limit
		rtt      float64 // ms; 640 before
		degraded bool
	}{
		{"a fifth, RTT up 1.4×", 12, 905, true},
		{"a fifth, RTT flat", 12, 640, false},
		{"60 %, RTT up 1.4×", 34, 905, false},
	} {
		r := Classify("x", synth(1200, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			if i < 600 {
				return 56 + wobble3(i), 56, 230, 640, 0, 300
			}
			return c.limit + wobble3(i)/2, c.limit, 230, c.rtt, 0, 300
		}), Options{})
		wantDegradedFinding(t, c.name, r, c.degraded)
	}
}

// A limit sinking through every window while losses stay at 4–6 % (Vegas in
// a trace that opens mid-incident) sets no calm level of losses: once it is
// at half its earlier level it is degraded, with no calm level to cite.
// Losses at the same share while the limit held first are the calm level,
// and the same fall at that level is not an error rise.
func TestSinkingWithLossesIsNoCalmLevel(t *testing.T) {
	for _, c := range []struct {
		name     string
		samples  int // at 5 s
		limit    func(i int) float64
		degraded bool
	}{
		{"sinking from the start", 105, func(i int) float64 { return 81 * math.Pow(0.989, float64(i)) }, true},
		{"held, then sinking", 165, func(i int) float64 { return 81*math.Pow(0.989, float64(max(0, i-60))) + 2*wobble3(min(i, 60)) }, false},
	} {
		r := Classify("x", synth(c.samples, 5*time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			l := math.Round(c.limit(i))
			// losses 5 % of completions; half of demand turned away, below
			// swampedShare (a limit turning most of it away is judged by that)
			return l, l, 3410, 4220, 0.05 * l / 4.22 * 5, l / 4.22 * 5
		}), Options{})
		wantDegradedFinding(t, c.name, r, c.degraded)
		if c.degraded && !degradedSaying(r, "no calm level in the trace") {
			t.Errorf("%s: no degraded finding says it had no calm level (%+v)", c.name, r.Findings)
		}
	}
}

// wantDegradedFinding fails the test when r's having a degraded finding is
// not want.
func wantDegradedFinding(t *testing.T, name string, r Result, want bool) {
	t.Helper()
	if found := degradedSaying(r); found != want {
		t.Errorf("%s: a degraded finding is %v, want %v (%s: %+v)", name, found, want, r.Class, r.Findings)
	}
}

// degradedSaying reports whether a degraded finding of r says every part.
func degradedSaying(r Result, parts ...string) bool { return saying(r, Degraded, parts...) }

// saying reports whether a finding of class c of r says every part.
func saying(r Result, c Class, parts ...string) bool {
	for _, f := range r.Findings {
		if f.Class != c {
			continue
		}
		all := true
		for _, p := range parts {
			all = all && strings.Contains(f.Evidence.Summary, p)
		}
		if all {
			return true
		}
	}
	return false
}

// A pipeline idle between batches completes next to nothing, so the few
// requests that time out in the gap are "100 % of completions": a trickle
// (a fifth of a request a second against a best of 1000 completions a
// second) is not a failing downstream. The same gap losing 40 requests a
// second — everything sent, at 4 % of the best load, so no success and no
// RTT — is.
func TestTrickleOfLossesIsNotFailing(t *testing.T) {
	for _, c := range []struct {
		name     string
		lostPerS float64
		degraded bool
	}{
		{"a trickle", 0.2, false},
		{"everything sent at 4 % of the best load", 40, true},
	} {
		r := Classify("x", synth(240, 5*time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			if i < 60 { // busy: half the limit in use, 1000 completions a second
				return 20, 10, 10, 10, 0, 0
			}
			return 20 + 3*wobble3(i), 0, 10, -1, c.lostPerS * 5, 0 // idle, losing lostPerS, nothing succeeding
		}), Options{})
		wantDegradedFinding(t, c.name, r, c.degraded)
	}
}

// A downstream that loses a steady few percent spreads them over windows:
// failsafe-go's queueing limiter over a downstream of 1 under a light load
// (queueing limiters' calibration draw, read every 5 s) loses 2.2–5.9 % of
// what completes window by window, its limit at 25 with one request in
// flight. Against the lowest of those windows as the calm level, the 5.9 %
// window read "losses twice their calm level" and, with the limit far from
// binding, a failing downstream (calmLevelDepth). The same trace with its
// losses tripled from minute 10 on is a downstream that began to fail.
func TestSteadyLossesSpreadOverWindowsAreTheCalmLevel(t *testing.T) {
	recorded := readTestdata(t, "failsafe-queued-steady-losses-far-from-binding-5s.csv")
	from := recorded[0].Time.Add(10 * time.Minute)
	for _, c := range []struct {
		name     string
		k        float64
		degraded bool
	}{
		{"as recorded", 1, false},
		{"tripled from minute 10", 3, true},
	} {
		r := Classify("failsafe-queued", lossesScaled(recorded, from, c.k), Options{})
		wantDegradedFinding(t, c.name, r, c.degraded)
		if !c.degraded && r.Class != PipelineBound {
			t.Errorf("%s: %s, want pipeline-bound", c.name, r.Class)
		}
		if c.degraded && !degradedSaying(r, "fails what the limit lets through") {
			t.Errorf("%s: the evidence does not say the downstream fails what the limit lets through: %+v", c.name, r.Findings)
		}
	}
}

// lossesScaled returns a copy of recorded with the losses (Dropped) of
// every sample from from on scaled by k.
func lossesScaled(recorded []trace.Sample, from time.Time, k float64) []trace.Sample {
	smp := append([]trace.Sample(nil), recorded...)
	for i := range smp {
		if !smp[i].Time.Before(from) {
			smp[i].Dropped *= k
		}
	}
	return smp
}

// A downstream that already shed a steady share while the limit sat above
// it and then lost capacity raises that share without doubling it: the
// simulator's Vector ARC held at 23–24 over a downstream of 8 (read every
// 15 s) loses 17 % of what completes window after window; cut to a
// quarter, its limit falls to 6 and losses make 21–31 %. That read healthy
// ("fell … with no verdict against the downstream", lossRiseShare), in
// both draws. The same fall with the losses after it scaled to 60 % (near
// their calm level, 15–19 %) is a limit following a smaller downstream,
// and keeps no degraded finding (TestHealthyStepDownIsNamed).
func TestLossesRisingOverASheddingLevelAreCapacityLost(t *testing.T) {
	for _, c := range []struct {
		file, fell string
		k          float64
		degraded   bool
	}{
		{"vector-arc-step-down-to-a-quarter-15s.csv", "25% of its earlier 24.0, while losses made", 1, true},
		{"vector-arc-step-down-swinging-at-its-new-level-15s.csv", "25% of its earlier 24.0, while losses made", 1, true},
		{"vector-arc-step-down-swinging-at-its-new-level-15s.csv", "", 0.6, false},
	} {
		name := fmt.Sprintf("%s, losses after the fall ×%g", c.file, c.k)
		recorded := readTestdata(t, c.file)
		r := Classify("vector-arc", lossesScaled(recorded, recorded[0].Time.Add(15*time.Minute), c.k), Options{})
		wantDegradedFinding(t, name, r, c.degraded)
		if c.degraded && !degradedSaying(r, c.fell) {
			t.Errorf("%s: the evidence does not say the limit fell with losses up: %+v", name, r.Findings)
		}
	}
}

// A loss-based limiter backs off only on losses, so its fall and its
// losses come windows apart: go-concurrency-limits' AIMD (v1.0.0, run for
// real) at 115 over a downstream of 30 whose latency crept to 4× lost
// 6.4 % of what completed (calm level 2.2 %) in the window it began to
// fall, then fell from 51 to 31 losing 1.6 % while turning away 84 % of
// demand, completions at a third, and read healthy (lossyFallWindows). The
// same fall with nothing turned away after it is demand falling away; the
// same limit held at 32–36 from minute 11 is no longer falling (as a
// limiter regrowing after a short incident is not): neither keeps a
// degraded finding.
func TestFallAfterALossBurstIsCapacityLost(t *testing.T) {
	recorded := readTestdata(t, "gcl-aimd-latency-creep-fell-after-losses-15s.csv")
	from := recorded[0].Time.Add(11 * time.Minute)
	for _, c := range []struct {
		name     string
		after    func(i int, s *trace.Sample)
		degraded bool
	}{
		{"as recorded", func(int, *trace.Sample) {}, true},
		{"nothing turned away from minute 11", func(_ int, s *trace.Sample) { s.Rejected = 0 }, false},
		{"held at 32-36 from minute 11", func(i int, s *trace.Sample) { s.Limit, s.InFlight = float64(32+4*(i%2)), float64(32+4*(i%2)) }, false},
	} {
		smp := append([]trace.Sample(nil), recorded...)
		for i := range smp {
			if !smp[i].Time.Before(from) {
				c.after(i, &smp[i])
			}
		}
		r := Classify("gcl-aimd", smp, Options{})
		wantDegradedFinding(t, c.name, r, c.degraded)
		if c.degraded && !degradedSaying(r, "the limit fell to 36.0, 31% of its earlier 115.0, still falling (51.0 to 31.0 in the window) with completions at 34% of their best while it turns away 83% of demand, after losses made 6.4% of completions (calm level 2.2%) as it began to fall") {
			t.Errorf("%s: the evidence does not say the limit is still falling after a loss burst: %+v", c.name, r.Findings)
		}
	}
}

// A pipeline that holds a steady few requests far under the limit keeps
// them in flight while its downstream slows: failsafe-go's queueing
// limiter at its maximum of 25 over a downstream of 1, 4 in flight before
// and after a latency creep to 4×, its RTT 5× up and completions at a
// fifth. Without the loss columns nothing else shows the incident, and it
// read pipeline-bound (steadySlower). A batch pipeline's idle gaps empty
// in-flight while the queue a burst built raises the RTT: go-concurrency-
// limits' Vegas at 3, its scrapes 10 % missed, stays pipeline-bound.
func TestSlowerBehindASteadyPipeline(t *testing.T) {
	for _, c := range []struct {
		file, target string
		want         Class
	}{
		{"failsafe-queued-latency-creep-no-loss-columns-5s.csv", "failsafe-queued", Degraded},
		{"gcl-vegas-batches-scrapes-missed-5s.csv", "pipeline", PipelineBound},
	} {
		r := Classify(c.target, readTestdata(t, c.file), Options{})
		if r.Class != c.want {
			t.Errorf("%s: %s, want %s (%+v)", c.file, r.Class, c.want, r.Findings)
		}
		wantDegradedFinding(t, c.file, r, c.want == Degraded)
		// and says why in-flight far under the limit is no pipeline
		if c.want == Degraded && !degradedSaying(r, "the RTT (no min-RTT series) rose", "with as many requests in flight", "completions fell to", "with in-flight at 16% of the limit: the downstream slowed, not the demand") {
			t.Errorf("%s: the evidence does not state the RTT's rise at as many requests in flight: %+v", c.file, r.Findings)
		}
	}
}

// A limiter leaving its initial limit overshoots and turns back a few times
// before it settles: a swinging first window followed by a calm one is that
// warm-up, not oscillation. Swings that go on into the second window are
// oscillation, and a short trace's calm tail settles the first window too.
func TestWarmUpIsNotOscillation(t *testing.T) {
	for _, c := range []struct {
		name    string
		n       int
		swingTo int // the limit swings until this sample
		want    Class
	}{
		{"one swinging window, then calm", 1800, 60, Healthy},
		{"two swinging windows, then calm", 1800, 120, Oscillating},
		{"one swinging window and a calm tail", 118, 60, Healthy},
		{"swinging throughout", 1800, 1800, Oscillating},
	} {
		r := Classify("x", synth(c.n, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			l := 120 + wobble3(i)
			if i < c.swingTo {
				l = 100 + 40*float64((i/10)%2)
			}
			return l, l, 20, 22, 0, 300
		}), Options{})
		if r.Class != c.want {
			t.Errorf("%s: %s, want %s (%+v)", c.name, r.Class, c.want, r.Findings)
		}
		if c.want == Healthy {
			for _, f := range r.Findings {
				if f.Class == Oscillating {
					t.Errorf("%s: an oscillating finding %s–%s remains", c.name, f.Start, f.End)
				}
			}
			if len(r.Findings) == 0 || !r.Findings[0].Start.Equal(r.Start) || r.Findings[0].Class != Healthy {
				t.Errorf("%s: the healthy finding does not open the trace: %+v", c.name, r.Findings)
			}
		}
	}
}

// A limit that sits above its downstream's capacity from the start (half of
// what it sends is lost at its calmest: gcl's Gradient at a capacity of 1)
// and holds while the RTT rises 4.5× and completions fall to a fifth is a
// slower downstream: the limiter's own queue deepens only as in-flight
// grows, and neither did. The same trace with the RTT held is no incident.
func TestSlowerAboveCapacityWithTheLimitHeld(t *testing.T) {
	for _, c := range []struct {
		name     string
		rttAfter float64
		degraded bool
	}{
		{"the RTT up 4.5× at a held limit", 250, true},
		{"the RTT held", 56, false},
	} {
		r := Classify("x", synth(240, 5*time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			rtt, lost := 56.0, 0.5
			if i >= 120 {
				rtt, lost = c.rttAfter, 0.84
			}
			done := 5 / (rtt / 1000) * 5 // Little's law over the interval
			return 5 + wobble3(i), 5, 50, rtt, done * lost / (1 - lost), 50
		}), Options{})
		wantDegradedFinding(t, c.name, r, c.degraded)
	}
}

// A limit that falls to less than half inside a window while the RTT rises
// 1.5× is an incident starting inside the recording — unless the window
// before swung: then the fall is a tooth of the swing (a mis-tuned AIMD
// halving at the top of its saw-tooth as its queue and RTT peak).
func TestAFallRightAfterASwingIsATooth(t *testing.T) {
	for _, c := range []struct {
		name     string
		swinging bool
		degraded bool
	}{
		{"after calm windows", false, true},
		{"right after swinging windows", true, false},
	} {
		r := Classify("x", synth(240, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			l, rtt := 200.0, 20.0
			switch {
			case i < 180 && c.swinging && (i/15)%2 == 1:
				l = 100
			case i >= 210: // the fall, in the last window
				l, rtt = 80, 45
			}
			return l, l, -1, rtt, 0, 50
		}), Options{})
		wantDegradedFinding(t, c.name, r, c.degraded)
	}
}

// A limit turning away most of the demand while what gets through fails is
// a downstream that takes a small share of the traffic, wherever the limit
// sits and however it moves: Vector's ARC after a collapse, swinging 2–8 in
// a trace that opens mid-incident. Without the losses it is a limiter
// holding back an overload, and a quarter let through with a tenth lost is a
// limiter probing a small downstream's shed point.
func TestMostDemandTurnedAwayWithLosses(t *testing.T) {
	levels := []float64{3, 5, 8, 6, 4, 7, 2, 6, 8, 5}
	for _, c := range []struct {
		name           string
		rejected, lost float64 // shares of demand and of completions
		degraded       bool
	}{
		{"93% turned away, 5% of completions lost", 0.93, 0.05, true},
		{"93% turned away, nothing lost", 0.93, 0, false},
		{"75% turned away, 10% lost", 0.75, 0.10, false},
	} {
		r := Classify("x", synth(60, 15*time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			l := levels[i%len(levels)]
			done := l / 0.245 * 15 // Little's law over the interval
			return l, l, 245, 245, done * c.lost, done * c.rejected / (1 - c.rejected)
		}), Options{})
		wantDegradedFinding(t, c.name, r, c.degraded)
		if c.degraded && !degradedSaying(r, "turned away 93% of demand", "losses made 4.8% of completions") {
			t.Errorf("%s: the finding does not name the shares: %+v", c.name, r.Findings)
		}
	}
}

// A limit walking by a step or two per update (go-concurrency-limits'
// Vegas moves by log10(limit)), read every 15 s, turns direction at every
// scrape while its middle half spans about one jitter (√limit): no swing.
// The same turns with the middle half at 2.4 jitters are one.
func TestTurningWithinAJitterIsNoSwing(t *testing.T) {
	for _, tc := range []struct {
		name      string
		lo, hi    float64 // the limit alternates between lo or lo+1 and hi or hi+1
		want      Class
		iqrJitter string
	}{
		{"a walk within 1.1 jitters", 20, 25, Healthy, "1.1"},
		{"a swing of 2.4 jitters", 16, 28, Oscillating, "2.4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			walk := synth(120, 15*time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
				l := tc.lo + float64((i/2)%2)
				if i%2 == 1 {
					l = tc.hi + float64((i/2)%2)
				}
				return l, l, 20, 22, 0, 300
			})
			if r := Classify("x", walk, Options{}); r.Class != tc.want {
				t.Fatalf("the limit turning every scrape between %v and %v (middle half %s jitters): %s, want %s (%+v)", tc.lo, tc.hi, tc.iqrJitter, r.Class, tc.want, r.Findings)
			}
		})
	}
}

// A trace that opens on a swamped downstream (failsafe-go at 370 over a
// downstream cut to 75) may start a hair under swampedShare: its first
// window, turning away 84 % of demand while losses make half or more of
// what it lets through, is no calm level of losses, so the windows after
// it, turning away 86 %, are swamped. At 75 % turned away the same losses
// are as likely a limiter probing a small downstream's shed point: the
// first window is their calm level, and nothing is degraded. (That
// failsafe-go window lost 64 %, which lostMostOpening now calls degraded by
// itself; the losses here are 55 %, under it, so that swampedCalm alone
// decides.)
func TestOpeningJustUnderSwampedIsNoCalmLevel(t *testing.T) {
	for _, c := range []struct {
		name               string
		rejFirst, rejLater float64 // shares of demand turned away
		degraded           bool
	}{
		{"84% then 86% turned away", 0.84, 0.86, true},
		{"75% turned away throughout", 0.75, 0.75, false},
	} {
		r := Classify("x", synth(240, 5*time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			l := 370 - float64(i)/10     // sinking slowly, well under 5 % a window
			rej, lost := c.rejLater, 1.2 // dropped per completion: 55 % of what it lets through
			if i < 15 {
				rej = c.rejFirst
			}
			done := l / 20 * 5 // Little's law over the interval, the RTT 20 s
			return l, l, -1, 20000, done * lost, done * rej / (1 - rej)
		}), Options{})
		wantDegradedFinding(t, c.name, r, c.degraded)
	}
}

// Four fifths of demand turned away with losses is swamped where the
// latency stayed flat (swampedFlatShare), and not over a queue the limit
// built:
//   - go-concurrency-limits v1.0.0's Gradient2, in the simulator read every
//     5 s, in a recording that opens at minute 17 of a downstream of 150
//     collapsed with errors (testdata/gcl-gradient2-swamped-flat.csv, the
//     draw at seed + 97), sits at 53–57 turning away 81 % while losses
//     make 5 %, the latency flat. It read healthy: 81 % is under
//     swampedShare, and its first window is the calm level every later
//     window is compared with.
//   - go-concurrency-limits' Gradient, run for real at 8–10 over a
//     downstream stepped down to 2.4 (testdata/gcl-gradient-probes-small-downstream.csv,
//     minutes 5–12 of the draw at seed + 9), turns away 80 % and loses
//     16 % in one window with the RTT twice its min RTT throughout: a
//     limiter probing a small downstream's shed point over its own queue,
//     healthy.
//
// The first fails without swampedFlatShare; the second fails where it holds
// without the flat-latency guard.
func TestSwampedAtAFlatLatency(t *testing.T) {
	r := Classify("gcl-gradient2", readTestdata(t, "gcl-gradient2-swamped-flat.csv"), Options{})
	if r.Class != Degraded || !degradedSaying(r, "turned away 8", "the latency flat") {
		t.Errorf("Gradient2 swamped at a flat latency: %s, want a degraded finding naming it (%+v)", r.Class, r.Findings)
	}
	wantNoDegraded(t, "gcl-gradient", "gcl-gradient-probes-small-downstream.csv", Healthy)
}

// A limit at its floor with losses and the RTT standing well above a stale
// min RTT, in a trace with no calm level of losses, is degraded only with
// demand pressed against it: go-concurrency-limits v1.0.0's Vegas, run for
// real at 4–5 over a downstream of 1 under light load, read every 15 s
// (testdata/gcl-vegas-light-load-stale-min.csv, the draw at seed + 191),
// keeps a min RTT of 5 ms against an RTT of 27 ms and uses a fifth of its
// limit while timeouts make 3–5 % of completions. Every window read
// "pinned at 4.0 with losses", so none became the calm level and the whole
// trace was degraded at confidence 1.00. Fails if the opening queue path
// ignores in-flight (pipelineUtil).
func TestPinnedWithLossesNeedsDemandAgainstIt(t *testing.T) {
	wantNoDegraded(t, "gcl-vegas", "gcl-vegas-light-load-stale-min.csv", PipelineBound)
}

// A trace's first window read "pinned with losses" before any calm level,
// on the RTT standing 1.5× a min-RTT estimate taken before the limiter's
// queue formed, takes the verdict of the window after it where that one
// reads healthy at the same limit with the losses going on:
// go-concurrency-limits v1.0.0's AIMD in the simulator, at 9 over a
// capacity of 3 read every 5 s (testdata/gcl-aimd-opening-stale-min.csv,
// the draw at seed + 167), loses a third of what it sends for six minutes
// before its demand falls; its first window read degraded and the next
// four, at the same limit and losses, healthy. The same opening whose
// losses stop after the first window stays degraded there (a downstream
// that recovered). Fails without settleOpening, or without its guard on
// the losses going on.
func TestOpeningPinnedOnAStaleMinRTTSettles(t *testing.T) {
	wantNoDegraded(t, "gcl-aimd", "gcl-aimd-opening-stale-min.csv", PipelineBound)
	smp := readTestdata(t, "gcl-aimd-opening-stale-min.csv")
	recovered := make([]trace.Sample, len(smp))
	for i, s := range smp {
		if s.Time.Sub(smp[0].Time) >= 75*time.Second {
			s.Dropped = 0
		}
		recovered[i] = s
	}
	r := Classify("gcl-aimd", recovered, Options{})
	if r.Class != Degraded || !degradedSaying(r, "pinned at 9.0", "losses made 3") {
		t.Errorf("losses that stop after the first window: %s, want its degraded finding kept (%+v)", r.Class, r.Findings)
	}
}

// A limit riding one above in-flight (Vector's adaptive request concurrency
// grows only when in-flight reaches it) and turning away 1 % of demand is
// no constraint: pipeline-bound, however close in-flight sits to it. At
// the limit in most samples, or turning away a material share, it binds.
func TestTurningAwayLittleIsNoConstraint(t *testing.T) {
	for _, c := range []struct {
		name            string
		limit, rejected float64 // in-flight is 16, 800 completions a second
		want            Class
	}{
		{"one above in-flight, 1 % turned away", 17, 8, PipelineBound},
		{"at in-flight, 1 % turned away", 16, 8, Healthy},
		{"one above in-flight, 9 % turned away", 17, 80, Healthy},
	} {
		r := Classify("x", synth(600, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			return c.limit, 16, 20, 20, 0, c.rejected
		}), Options{})
		if r.Class != c.want {
			t.Errorf("%s: %s, want %s (%+v)", c.name, r.Class, c.want, r.Findings)
		}
	}
}

// A limit nailed at its initial value (no earlier level in the trace) with
// losses at 3 % of completions is pinned low only where demand presses
// against it: with in-flight at 5 % of it, a limiter that had no load to
// grow on (failsafe-go at its initial 20 over a downstream of 1); with
// in-flight at the limit, a downstream holding it down.
func TestPinnedWithLossesNeedsLoadAgainstIt(t *testing.T) {
	// in-flight (of a limit of 20) → whether a degraded finding is wanted
	for inFlight, degraded := range map[float64]bool{1: false, 20: true} {
		r := Classify("x", synth(600, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			done := inFlight / 0.01 // completions a second at 10 ms
			return 20, inFlight, 10, 10, 0.03 * done, 0
		}), Options{})
		wantDegradedFinding(t, fmt.Sprintf("in-flight %v of a limit of 20", inFlight), r, degraded)
	}
}

// A min-RTT estimate that moves under a flat RTT is no slower downstream:
// go-concurrency-limits' Vegas, run for real behind a 500-ms downstream
// that never changes, took a noise minimum of 125 ms for its no-load RTT,
// cut its limit from 450 to 12 at a flat 525-ms RTT, and reset the
// estimate to 200–230 ms at minute 6, which read as the min RTT 1.6× up
// with completions at 3 % of their best (estimateMoved). The RTT
// following the estimate up is a slower downstream; an RTT that fell as
// much from a queued baseline may hide one (the limit's fall drained its
// own queue); an estimate that more than doubled is one catching up with a
// downstream that slowed before the recording opened; and an RTT under
// twice the estimate is no longer far above it. The last three cases each
// fail when their condition is removed; the RTT following the estimate up
// reads slower by its own rise too (slowerFallenFar), so that case holds
// without the RTT condition, and only asserts the verdict.
func TestEstimateResetUnderAFlatRTTIsNoSlowdown(t *testing.T) {
	recorded := readTestdata(t, "gcl-vegas-estimate-reset-flat-rtt-5s.csv")
	reset := recorded[0].Time.Add(6 * time.Minute)
	for _, c := range []struct {
		name          string
		before, after func(s *trace.Sample)
		degraded      bool
	}{
		{"as recorded", func(*trace.Sample) {}, func(*trace.Sample) {}, false},
		{"the RTT 1.3x up from the reset", func(*trace.Sample) {}, func(s *trace.Sample) { s.RTTMs *= 1.3 }, true},
		{"a queue before the reset", func(s *trace.Sample) { s.RTTMs *= 1.3 }, func(*trace.Sample) {}, true},
		{"the estimate past twofold", func(*trace.Sample) {}, func(s *trace.Sample) { s.RTTMinMs *= 1.3; s.RTTMs *= 1.2 }, true},
		{"the RTT under twice the estimate", func(*trace.Sample) {}, func(s *trace.Sample) { s.RTTMinMs, s.RTTMs = 240, s.RTTMs*0.88 }, true},
	} {
		smp := append([]trace.Sample(nil), recorded...)
		for i := range smp {
			if smp[i].Time.Before(reset) {
				c.before(&smp[i])
			} else {
				c.after(&smp[i])
			}
		}
		wantDegradedFinding(t, c.name, Classify("gcl-vegas", smp, Options{}), c.degraded)
	}
}

// An RTT rise under a limit that grew is the limiter's own queue:
// go-concurrency-limits' Vegas, run for real at a capacity of 1 behind an
// unchanged 500-ms downstream, stepped from 1 to 2 at minute 3 and its RTT
// rose 1.6–1.9× with its min RTT unmoved — one request queued behind the
// one served — which read as a downstream slower under a limit pinned low
// (ownQueueRise). The same RTT with the limit held at 1 is slower, and so
// is the min RTT rising with it. The first case fails without the
// condition, each of the others without its part of it (the limit above
// its baseline level; the min RTT not up).
func TestRTTRiseUnderAGrownLimitIsOwnQueue(t *testing.T) {
	recorded := readTestdata(t, "gcl-vegas-own-queue-at-one-1s.csv")
	for _, c := range []struct {
		name     string
		edit     func(at time.Duration, s *trace.Sample)
		degraded bool
	}{
		{"as recorded", func(time.Duration, *trace.Sample) {}, false},
		{"the limit held at 1 to minute 5", func(at time.Duration, s *trace.Sample) {
			if at < 5*time.Minute {
				s.Limit, s.InFlight = 1, min(s.InFlight, 1)
			}
		}, true},
		{"the min RTT 1.8x up from minute 4", func(at time.Duration, s *trace.Sample) {
			if at >= 4*time.Minute {
				s.RTTMinMs *= 1.8
			}
		}, true},
	} {
		smp := append([]trace.Sample(nil), recorded...)
		for i := range smp {
			c.edit(smp[i].Time.Sub(recorded[0].Time), &smp[i])
		}
		wantDegradedFinding(t, c.name, Classify("gcl-vegas", smp, Options{}), c.degraded)
	}
}

// An integer limit that held still for the first window is no configured
// minimum: the simulator's Vector-style ARC probing the shed point of a
// downstream of 3 sat on 9 for its first window, losing half of what
// completed, and flipped 8–10 in the next at the same losses; judged
// pinned at its floor before any calm level of losses, the first window
// alone read degraded (nailedOpening). A continuous limit (9.5: a nailed
// value is a bound), losses that stop after the first window (a
// recovery), or a next window at 13 (past a jitter of 9) keep it
// degraded; each case fails when its condition is removed.
func TestIntegerLimitStillForAWindowIsNoFloor(t *testing.T) {
	recorded := readTestdata(t, "vector-arc-nailed-opening-5s.csv")
	after := func(edit func(s *trace.Sample)) func(time.Duration, *trace.Sample) {
		return func(at time.Duration, s *trace.Sample) {
			if at >= 75*time.Second {
				edit(s)
			}
		}
	}
	for _, c := range []struct {
		name     string
		edit     func(at time.Duration, s *trace.Sample)
		degraded bool
	}{
		{"as recorded", func(time.Duration, *trace.Sample) {}, false},
		{"a continuous limit", func(_ time.Duration, s *trace.Sample) { s.Limit += 0.5 }, true},
		{"no losses after the first window", after(func(s *trace.Sample) { s.Dropped = 0 }), true},
		{"at 13 after the first window", after(func(s *trace.Sample) {
			if s.Limit >= 8 {
				s.Limit, s.InFlight = s.Limit+4, s.InFlight+4
			}
		}), true},
	} {
		smp := append([]trace.Sample(nil), recorded...)
		for i := range smp {
			c.edit(smp[i].Time.Sub(recorded[0].Time), &smp[i])
		}
		r := Classify("vector-arc", smp, Options{})
		wantDegradedFinding(t, c.name, r, c.degraded)
		if !c.degraded && r.Class != PipelineBound {
			t.Errorf("%s: %s, want pipeline-bound", c.name, r.Class)
		}
	}
}

// A window whose limit went unmeasured in most samples is judged on the
// few it has: the simulator's Envoy-style controller behind a 2-s
// downstream whose latency crept to 4×, read every 15 s, pinned its
// concurrency to re-measure the min RTT for 10–12 of each window's 15
// samples after minute 15, a scrape reading no limit then, and the whole
// incident went unjudged (minPinnedLimitSamples). With every limit after
// minute 15 unmeasured, or in windows of 2.5 minutes (10 samples), those
// windows stay unjudged: no verdict from two limit samples or fewer, nor
// from a window holding fewer than twice the samples one needs. In windows
// of 2.5 minutes the readings themselves still find the incident's end
// (slowReader.read: the pins' RTT at twice the reference, beside readings
// with a limit), and only they; with no limit at all after minute 15 no
// run has a limit to be said against.
func TestWindowsMostlyPinnedAreJudged(t *testing.T) {
	recorded := readTestdata(t, "envoy-remeasuring-most-of-the-incident-15s.csv")
	from := recorded[0].Time.Add(15 * time.Minute)
	noLimit := append([]trace.Sample(nil), recorded...)
	for i := range noLimit {
		if !noLimit[i].Time.Before(from) {
			noLimit[i].Fields &^= trace.FieldLimit
			noLimit[i].Limit = 0
		}
	}
	for _, c := range []struct {
		name     string
		samples  []trace.Sample
		window   time.Duration
		degraded bool
	}{
		{"as recorded", recorded, 0, true},
		{"no limit after minute 15", noLimit, 0, false},
		{"windows of 2.5 minutes", recorded, 150 * time.Second, true},
	} {
		r := Classify("envoy-gradient", c.samples, Options{Window: c.window})
		wantDegradedFinding(t, c.name, r, c.degraded)
		byReadings := c.window != 0
		for _, f := range r.Findings {
			if byReadings && f.Class == Degraded && !strings.Contains(f.Evidence.Summary, "read reading by reading") {
				t.Errorf("%s: a degraded finding %s read by windows, want only reading by reading: %s", c.name, f.Start.Format("15:04:05"), f.Evidence.Summary)
			}
		}
		if c.degraded && !byReadings && !degradedSaying(r, "min RTT rose") {
			t.Errorf("%s: the degraded finding does not name the min-RTT rise: %+v", c.name, r.Findings)
		}
	}
}

// Losses that fell while the limit bound are no failing downstream, though
// the window reads light: the simulator's go-concurrency-limits AIMD at
// 23–25 over a downstream of 8, read every 75 s, turned demand away and
// lost a fifth of completions in the 5 readings of a 6-minute overload,
// then held one or two requests of a light load, and its first window
// (overload and light load together, in-flight at 4 % of the limit by
// median) read failing (lostBindingShare). The same losses in the light
// readings, where nothing was turned away, are failing; so are they where
// the rejected column is gone and the last overload reading, its in-flight
// already down to 3, carries a sixth of them: in-flight read at one instant
// does not show that the limit bound over the interval. With that reading's
// losses in the one before it, in-flight at the limit says so. (Losses past
// lostMostOpening: TestTenReadingsOverElevenMinutesAreJudged.)
func TestLossesWhileTheLimitBoundAreNoFailing(t *testing.T) {
	recorded := readTestdata(t, "gcl-aimd-overload-then-light-75s.csv")
	edit := func(f func(smp []trace.Sample)) []trace.Sample {
		smp := append([]trace.Sample(nil), recorded...)
		f(smp)
		return smp
	}
	noRejected := func(smp []trace.Sample) {
		for i := range smp {
			smp[i].Fields &^= trace.FieldRejected
			smp[i].Rejected = 0
		}
	}
	for _, c := range []struct {
		name     string
		samples  []trace.Sample
		degraded bool
	}{
		{"as recorded", recorded, false},
		{"the losses in the light readings", edit(func(smp []trace.Sample) {
			for i := 0; i < 5; i++ {
				smp[i+6].Dropped, smp[i].Dropped = smp[i].Dropped, 0
			}
		}), true},
		{"without the rejected column", edit(noRejected), true},
		{"without the rejected column, the losses at the limit", edit(func(smp []trace.Sample) {
			noRejected(smp)
			smp[3].Dropped += smp[4].Dropped
			smp[4].Dropped = 0
		}), false},
	} {
		r := Classify("pipeline", c.samples, Options{})
		wantDegradedFinding(t, c.name, r, c.degraded)
		if !c.degraded && r.Class != PipelineBound {
			t.Errorf("%s: %s, want pipeline-bound", c.name, r.Class)
		}
	}
}

// A recording of 10 readings over 11 minutes is judged: the simulator's
// Envoy-style controller, read every 75 s from minute 17 of an incident
// (a downstream cut to 30 % with 5 % errors), its limit run away to 1520
// with 135 in flight and losses 5.8 times its completions, read
// insufficient data for want of 12 readings (shortSpanSamples). Its
// readings each turned demand away (while it pinned its concurrency to
// re-measure), yet losses that large are no overload of a binding limit
// (lostBindingShare stops short of lostMostOpening). Judged too: nine
// readings (10 minutes); eight in all (a first default window too short to
// judge stays open until the adaptive window is sized: probeWindow); eight
// after a window that went unjudged (no limit read in it); eight one or
// two minutes apart (the held readings are all kept; the README says 8
// readings a minute apart are judged). Not judged: seven (7 minutes 30 s,
// short of shortSpanSamples), and the ten read a second apart (a 9-s
// recording).
func TestTenReadingsOverElevenMinutesAreJudged(t *testing.T) {
	recorded := readTestdata(t, "envoy-runaway-failing-75s.csv")
	// 12 readings (a 15-minute window) with no limit, then 8 as recorded
	var afterUnmeasured []trace.Sample
	for i := 0; i < 20; i++ {
		smp := recorded[i%len(recorded)]
		smp.Time = recorded[0].Time.Add(time.Duration(i) * 75 * time.Second)
		if i < 12 {
			smp.Fields &^= trace.FieldLimit
			smp.Limit = 0
		}
		afterUnmeasured = append(afterUnmeasured, smp)
	}
	apart := func(n int, d time.Duration) []trace.Sample {
		smp := append([]trace.Sample(nil), recorded[:n]...)
		for i := range smp {
			smp[i].Time = recorded[0].Time.Add(time.Duration(i) * d)
		}
		return smp
	}
	for _, c := range []struct {
		name    string
		samples []trace.Sample
		want    Class
	}{
		{"as recorded", recorded, Degraded},
		{"nine readings", recorded[:9], Degraded},
		{"eight readings", recorded[:8], Degraded},
		{"seven readings", recorded[:7], Insufficient},
		{"eight readings after a window without a limit", afterUnmeasured, Degraded},
		{"eight readings a minute apart", apart(8, time.Minute), Degraded},
		{"eight readings two minutes apart", apart(8, 2*time.Minute), Degraded},
		{"read a second apart", apart(len(recorded), time.Second), Insufficient},
	} {
		r := Classify("degraded", c.samples, Options{})
		if r.Class != c.want {
			t.Errorf("%s: %s, want %s (%+v)", c.name, r.Class, c.want, r.Findings)
		}
		if c.want == Insufficient && c.samples[1].Time.Sub(c.samples[0].Time) == 75*time.Second {
			if want := "read every 1m15s, 1 more reading (1m15s) would make"; !strings.Contains(r.Findings[0].Recommendation, want) {
				t.Errorf("%s recommends %q, want it to say %q", c.name, r.Findings[0].Recommendation, want)
			}
		}
		if c.want == Degraded && !degradedSaying(r, "the downstream fails what the limit lets through") {
			t.Errorf("%s: no failing finding: %+v", c.name, r.Findings)
		}
	}
}

// Read every 45 s, the default 5-minute window closes on 7 readings and is
// judged before 8 intervals size the window (9 minutes); the sized window
// begins where that one ended, so no reading is judged twice
// (fixAutoWindow). The opening window's min RTT (328 ms, before AIMD's own
// queue built) is the baseline the fall at minute 16 is judged against:
// degraded, the min RTT 1.9× up. Judged again inside a 9-minute window
// from the start, the opening minutes counted twice; held until the window
// was sized, the baseline read 545 ms and the fall healthy.
func TestSizedWindowBeginsWhereTheFirstEnded(t *testing.T) {
	smp := readTestdata(t, "gcl-aimd-degraded-45s.csv")
	st := NewStream("degraded", Options{})
	for _, s := range smp[:10] {
		st.Push(s)
	}
	if want := smp[0].Time.Add(14 * time.Minute).UnixNano(); st.window != int64(9*time.Minute) || st.next != want || st.windows != 1 {
		t.Fatalf("window %v, next window ends %v after the first sample, %d closed; want 9m0s, 14m0s, 1", time.Duration(st.window), time.Duration(st.next-smp[0].Time.UnixNano()), st.windows)
	}
	r := Classify("degraded", smp, Options{})
	if r.Class != Degraded || !degradedSaying(r, "min RTT rose") {
		t.Fatalf("%s, want degraded-downstream on the min RTT's rise: %+v", r.Class, r.Findings)
	}
}

// TestLastFiveMinutesOfMinuteReadingsAreJudged: read every 60 s, the
// window holds 12 readings (12 minutes), and a 30-minute recording closes
// two of them. Its last 5 minutes, under half a window, are judged all the
// same (tailJudged: half a window, or DefaultWindow where that is
// shorter): the incident from minute 16 on shares the second window with
// the minutes before it, its losses diluted, and only the tail reads it;
// the finding then begins at the reading before the one where the limit
// fell (lossHead: that reading's losses fell in the minute since it),
// minute 15, where the simulator's downstream degraded. A tail of 4
// minutes is too short to judge as a window, but a window's length of
// readings up to its end reads degraded, and that it may say (shortTail):
// the finding begins within a reading of the fall.
func TestLastFiveMinutesOfMinuteReadingsAreJudged(t *testing.T) {
	smp := readTestdata(t, "gradient-degraded-60s.csv")
	fell := smp[0].Time.Add(15 * time.Minute)
	if smp[15].Time != fell || smp[15].Limit != 4 || smp[14].Limit < 150 {
		t.Fatalf("the fixture's limit falls at %v (%v → %v), want %v, 150 or more → 4", smp[15].Time, smp[14].Limit, smp[15].Limit, fell)
	}
	r := Classify("degraded", smp, Options{})
	if r.Stats.WindowS != 720 {
		t.Fatalf("window %v s, want 720 (12 readings a minute apart)", r.Stats.WindowS)
	}
	found := false
	for _, f := range r.Findings {
		found = found || f.Class == Degraded && f.Start.Equal(smp[14].Time) && !f.End.Before(r.End) && strings.Contains(f.Evidence.Summary, "the limit fell to 4.0")
	}
	if r.Class != Degraded || !found {
		t.Fatalf("%s, want degraded-downstream from %v (the reading before the fall) to the end saying the limit fell to 4.0: %s", r.Class, smp[14].Time, describeFindings(r.Findings, r.Start, 0))
	}
	short := Classify("degraded", smp[:len(smp)-1], Options{})
	found = false
	for _, f := range short.Findings {
		found = found || f.Class == Degraded && f.Start.Sub(fell) <= time.Minute && fell.Sub(f.Start) <= time.Minute && !f.End.Before(short.End)
	}
	if short.Class != Degraded || !found || short.Stats.JudgedWindows != 3 {
		t.Fatalf("a tail of 4 minutes: %s, %d windows judged; want degraded-downstream from a minute of %v to the end, 3 windows: %s", short.Class, short.Stats.JudgedWindows, fell, describeFindings(short.Findings, short.Start, 0))
	}
}

// TestAMinuteOfSlowerDownstreamReadEvery15sIsFound: read every 15 s, the
// window holds 15 readings (3¾ minutes), and a minute of tripled latency
// is 4 of them: no window's medians move. The readings themselves show it
// (shortSlowdowns): the RTT at twice the window's or more, completions
// (in-flight / RTT) at half or less, for a minute, rising from and falling
// back to readings under the same load. The finding runs from the first
// slow reading to the first after them, within one interval plus 30 s of
// the incident's edges (minutes 8 and 9), and the rest stays healthy.
// Two minutes of it are 8 of the window's 15 readings and its median: the
// readings are judged against the window before. The same rise with
// three times as many in flight is the limiter's own
// queue (completions held), two slow readings are half a minute, and a
// rise whose recovery came with demand falling away may have been the
// load's: none of them is found.
func TestAMinuteOfSlowerDownstreamReadEvery15sIsFound(t *testing.T) {
	smp := readTestdata(t, "gradient-minute-slower-15s.csv")
	const first, after = 32, 36 // the readings at 08:15 and 09:15
	at := func(i int) time.Time { return smp[0].Time.Add(time.Duration(i) * 15 * time.Second) }
	if smp[first].Time != at(first) || smp[first].RTTMs < 2.5*smp[first-1].RTTMs || smp[after].RTTMs > 1.5*smp[first-1].RTTMs {
		t.Fatalf("the fixture's RTT does not triple at %v for a minute: %v → %v … %v", at(first), smp[first-1].RTTMs, smp[first].RTTMs, smp[after].RTTMs)
	}
	cases := []struct {
		name  string
		edit  func(s []trace.Sample)
		until int // the first reading after the finding; 0: none found
	}{
		{"as recorded", func([]trace.Sample) {}, after},
		{"two minutes", func(s []trace.Sample) {
			for i := after; i < after+4; i++ {
				s[i].Limit, s[i].InFlight, s[i].RTTMinMs, s[i].RTTMs, s[i].Rejected = s[i-4].Limit, s[i-4].InFlight, s[i-4].RTTMinMs, s[i-4].RTTMs, s[i-4].Rejected
			}
		}, after + 4},
		{"its own queue: three times as many in flight", func(s []trace.Sample) {
			for i := first; i < after; i++ {
				s[i].Limit, s[i].InFlight = 3*s[i].Limit, 3*s[i].InFlight
			}
		}, 0},
		{"half a minute", func(s []trace.Sample) {
			for i := first + 2; i < after; i++ {
				s[i].RTTMs, s[i].RTTMinMs = s[first-1].RTTMs, s[first-1].RTTMinMs
			}
		}, 0},
		{"demand fell away as it recovered", func(s []trace.Sample) { s[after].InFlight = 10 }, 0},
	}
	for _, c := range cases {
		r := classifyEdited(smp, c.edit)
		degraded := degradedDuring(r, r.Start, r.End.Add(time.Second))
		if c.until == 0 {
			if len(degraded) > 0 || r.Class != Healthy {
				t.Errorf("%s: %s, want healthy with no degraded finding: %s", c.name, r.Class, describeFindings(r.Findings, r.Start, 0))
			}
			continue
		}
		named := fmt.Sprintf("for %d readings in a row", c.until-first)
		if r.Class != Degraded || len(degraded) != 1 || !degraded[0].Start.Equal(at(first)) || !degraded[0].End.Equal(at(c.until)) || !strings.Contains(degraded[0].Evidence.Summary, named) {
			t.Fatalf("%s: %s, want one degraded-downstream finding %v–%v saying %q: %s", c.name, r.Class, at(first), at(c.until), named, describeFindings(r.Findings, r.Start, 0))
		}
		for _, f := range r.Findings {
			if Rank(f.Class) > 0 && f.Class != Degraded && f.Start.Before(at(c.until)) && at(first).Before(f.End) {
				t.Errorf("%s: %s %v–%v overlaps the incident", c.name, f.Class, f.Start, f.End)
			}
		}
	}
}

// TestAMinuteReadOffItsBeatIsFound: a scrape's readings come early or late
// by a part of their interval, so the four readings of a one-minute
// incident read every 15 s span 57–62 s from the first to the one after
// them; a run spans a minute less a quarter of its mean interval (spans).
// Both libraries run for real; neither incident was found.
func TestAMinuteReadOffItsBeatIsFound(t *testing.T) {
	for _, c := range []incidentFinding{
		// go-concurrency-limits' Gradient2: 25:16–26:13, 57 s
		{incidentEdges{"gcl-gradient2-capacity-lost-a-minute-read-off-the-beat-15s.csv", "for 4 readings in a row", 25 * time.Minute, 26 * time.Minute}, 25*time.Minute + 16*time.Second, 26*time.Minute + 13*time.Second},
		// failsafe-go: 8:16–9:15 across both edges, 59 s
		{incidentEdges{"failsafe-latency-tripled-a-minute-read-off-the-beat-15s.csv", "for 3 readings in a row", 8 * time.Minute, 9 * time.Minute}, 8*time.Minute + 16*time.Second, 9*time.Minute + 15*time.Second},
	} {
		c.checkFinding(t)
	}
}

// TestAShortIncidentReadAcrossItsEdges: a reading averages the requests
// that completed over its interval, and where the RTT is a good part of
// the interval the reading taken across an incident's edge holds both
// sides: neither slow nor back. The run of slow or lossy readings is
// bounded by the reading beyond it (rose), begins at the reading across
// its start and ends at the one across its end — where that reading is
// under the run's load (pressed): demand that fell away across the start
// is no edge (nor across the end: TestAMinuteOfSlowerDownstreamReadEvery15sIsFound).
// Each fixture is a third-party limiter whose incident no window's
// medians showed, found by no rule without it: run for real and read every
// 15 s, or (go-concurrency-limits' AIMD, in virtual time, read every 5 s)
// held open through the incident's last readings at 1.8× the RTT before
// it (shortSlowHold) to the reading across its end. A queue that drains
// within the run's RTT — one reading at 1.9× after a minute at 3×, its
// Gradient2 run for real — ends it at its first (drained).
func TestAShortIncidentReadAcrossItsEdges(t *testing.T) {
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []incidentFinding{
		// failsafe-go: the reading across the end (11:16) at 4.1 s,
		// between the incident's 8 s and the 3 s before it
		{incidentEdges{"failsafe-latency-tripled-3-minutes-reading-across-its-end-15s.csv", "the RTT rose", 8 * time.Minute, 11 * time.Minute}, 8*time.Minute + 14*time.Second, 11*time.Minute + 16*time.Second},
		// go-concurrency-limits' Gradient2: one across each edge
		{incidentEdges{"gcl-gradient2-latency-2-minutes-readings-across-its-edges-15s.csv", "the RTT rose", 8 * time.Minute, 10 * time.Minute}, 8*time.Minute + 15*time.Second, 10*time.Minute + 13*time.Second},
		// its Gradient: the reading across the start lost its first
		// requests with in-flight off its limit, neither under the run's
		// load nor at its limit (edge)
		{incidentEdges{"gcl-gradient-capacity-lost-a-minute-reading-across-its-start-15s.csv", "for 4 readings in a row", 8 * time.Minute, 9 * time.Minute}, 8 * time.Minute, 9*time.Minute + 16*time.Second},
		// its AIMD read every 5 s: the incident's last three readings at
		// 1.8× the RTT before it (shortSlowHold), 10 s against a run's RTT
		// of 5 s: the level it held, no drain; the one across its end at
		// 1.3× (31:05)
		{incidentEdges{"gcl-aimd-capacity-lost-a-minute-held-at-the-lower-bar-to-its-end-5s.csv", "for 11 readings in a row", 30 * time.Minute, 31 * time.Minute}, 30*time.Minute + 5*time.Second, 31*time.Minute + 5*time.Second},
		// its Gradient2: the queue drained in one reading (9:15) after
		// three at 3×
		{incidentEdges{"gcl-gradient2-latency-a-minute-queue-drained-in-one-reading-15s.csv", "for 3 readings in a row", 8 * time.Minute, 9 * time.Minute}, 8*time.Minute + 29*time.Second, 9*time.Minute + 15*time.Second},
	} {
		c.checkFinding(t)
	}
	// the reading across the start with demand fallen away (10 in flight
	// under its limit of 153): the run may have been the load's
	const file = "gcl-gradient-capacity-lost-a-minute-reading-across-its-start-15s.csv"
	r := classifyEdited(readTestdata(t, file), func(s []trace.Sample) {
		for i := range s {
			if at := s[i].Time.Sub(day); at >= 8*time.Minute && at < 8*time.Minute+5*time.Second {
				s[i].InFlight = 10
			}
		}
	})
	if in := degradedDuring(r, day.Add(8*time.Minute), day.Add(9*time.Minute)); len(in) > 0 {
		t.Errorf("%s, 10 in flight at 08:00: want no degraded finding: %s", file, describeFindings(r.Findings, r.Start, 0))
	}
	// failsafe-go's queued limiter, run for real over a healthy downstream
	// of 30 read every 15 s, swings its RTT 2.7× with its own queue: a run
	// held open at 1.5× would read 8 of its readings an incident, so a
	// window read oscillating holds none open (shortSlowHold)
	const swinging = "failsafe-queued-healthy-swinging-with-its-queue-15s.csv"
	r = Classify("swinging", readTestdata(t, swinging), Options{})
	if in := degradedDuring(r, r.Start, r.End); len(in) > 0 {
		t.Errorf("%s: its RTT swings with its own queue: want no degraded finding: %s", swinging, describeFindings(r.Findings, r.Start, 0))
	}
}

// TestReadingsFailingMoreThanTheyCompleteAreAnIncident: a short incident
// whose readings lose more requests than they complete is read reading by
// reading wherever the limit sits, a reading that completed none (no RTT)
// among them, and its readings across its edges count towards its minute.
// go-concurrency-limits' AIMD hears of a loss only with successes in the
// same window and holds its limit while every request times out;
// its Gradient2 slides, but not to half at each reading, with its RTT
// 1.6× up; failsafe-go's slow readings span 44 s without the reading
// across the incident's start. Losses beside completions held as before
// are a limit's excess timing out, not an incident.
func TestReadingsFailingMoreThanTheyCompleteAreAnIncident(t *testing.T) {
	for _, c := range []incidentFinding{
		{incidentEdges{"gcl-aimd-capacity-lost-a-minute-nothing-completing-15s.csv", "losses outnumbered completions for 4 readings in a row (3 of them completed none)", 8 * time.Minute, 9 * time.Minute}, 8*time.Minute + 15*time.Second, 9*time.Minute + 15*time.Second},
		{incidentEdges{"gcl-gradient2-capacity-lost-a-minute-losses-outnumbering-completions-15s.csv", "losses outnumbered completions for 4 readings", 16 * time.Minute, 17 * time.Minute}, 16*time.Minute + 15*time.Second, 17*time.Minute + 15*time.Second},
		{incidentEdges{"failsafe-latency-tripled-a-minute-readings-across-its-edges-15s.csv", "the RTT rose", 16 * time.Minute, 17 * time.Minute}, 16*time.Minute + 14*time.Second, 17*time.Minute + 14*time.Second},
	} {
		c.checkFinding(t)
	}
	const healthy = "gcl-gradient2-healthy-excess-timing-out-15s.csv"
	r := Classify("healthy", readTestdata(t, healthy), Options{})
	if in := degradedDuring(r, r.Start, r.End); len(in) > 0 {
		t.Errorf("%s: its excess timing out beside completions held: want no degraded finding: %s", healthy, describeFindings(r.Findings, r.Start, 0))
	}
}

// TestAnOvershootAfterAnIncidentIsNotThatIncident: a gradient whose min
// RTT was measured during a latency incident overshoots the downstream
// that came back, queueing at it with the incident's RTT and losing to
// timeouts until its next measurement; the incident ends where the
// overshoot begins (overshootStart). The simulator's Envoy-style
// controller, read every 5 s and every 15 s, its overshoot on both sides
// of a min-RTT measurement, and, read every second, running to its
// maximum inside the incident with nothing completing: that is no
// overshoot of a downstream that came back, and the incident's end stays
// after it. Read every 5 s through an incident in which nearly every
// request timed out, the overshoot completes 1.2 times what the
// incident's few readings with an RTT did, and twice what the incident
// did with its readings that completed none counted (completedNone). The
// overshoot is named (standing-queue), and a min RTT measured in the
// incident at twice its earlier level with it. An overshoot that outlasts
// the two windows the stream keeps (read every 5 s, 2½ minutes of it
// across min-RTT measurements) is still compared with the incident before
// it (episodeKeep): before, its episode ran on to 20:15, 195 s late. One
// whose calm windows all ran at 1.3 times the RTT of its first, ramping
// window (the baseline), so that none counted as calm, is measured
// against the highest level it held outside an incident (overshootLevel):
// before, its episode ran on to 9:50, 50 s late.
func TestAnOvershootAfterAnIncidentIsNotThatIncident(t *testing.T) {
	// the min RTT the overshoot ran on against its level before: 734
	// against 229 ms, 1,655 against 573, 1,747 against 579; 1,328 against
	// 1,321 and 690 against 606 are no stale estimate
	staleMin := map[string]bool{"envoy-latency-overshoot-after-it-5s.csv": true, "envoy-latency-overshoot-inside-it-1s.csv": true, "envoy-latency-overshoot-after-nothing-completed-5s.csv": true}
	for _, c := range []incidentFinding{
		{incidentEdges{"envoy-latency-overshoot-after-it-5s.csv", "min RTT rose 3.21×", 8 * time.Minute, 10 * time.Minute}, 8*time.Minute + 5*time.Second, 10*time.Minute + 5*time.Second},
		{incidentEdges{"envoy-latency-overshoot-after-it-15s.csv", "losses made 53.8% of completions", 8 * time.Minute, 9 * time.Minute}, 8 * time.Minute, 9*time.Minute + 15*time.Second},
		{incidentEdges{"envoy-latency-overshoot-across-a-remeasurement-5s.csv", "losses made 63.2% of completions", 8 * time.Minute, 15 * time.Minute}, 8 * time.Minute, 15*time.Minute + 5*time.Second},
		{incidentEdges{"envoy-latency-overshoot-inside-it-1s.csv", "turned away 89% of demand", 30 * time.Minute, 37 * time.Minute}, 30*time.Minute + 2*time.Second, 37*time.Minute + 6*time.Second},
		{incidentEdges{"envoy-latency-overshoot-after-nothing-completed-5s.csv", "losses made 91.2% of completions", 8 * time.Minute, 16 * time.Minute}, 8*time.Minute + 5*time.Second, 16*time.Minute + 10*time.Second},
		{incidentEdges{"envoy-latency-overshoot-outlasting-the-buffer-5s.csv", "losses made 50.2% of completions", 8 * time.Minute, 17 * time.Minute}, 8 * time.Minute, 17*time.Minute + 35*time.Second},
		{incidentEdges{"envoy-latency-overshoot-no-calm-window-5s.csv", "losses made 61.9% of completions", 8 * time.Minute, 9 * time.Minute}, 8 * time.Minute, 9*time.Minute + 5*time.Second},
	} {
		r, _, ok := c.checkFinding(t)
		if !ok {
			continue
		}
		// the overshoot's minute after the incident reads healthy (from
		// the finding's end where that is later), and a standing-queue
		// finding from the incident's end names it
		day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for at := max(c.to+30*time.Second, c.end); at < c.to+90*time.Second; at += 15 * time.Second {
			if got := verdictAt(r, day.Add(at)); got != Healthy {
				t.Errorf("%s: at %v, after the incident, the verdict is %s, want healthy: %s", c.file, at, got, describeFindings(r.Findings, r.Start, 0))
			}
		}
		named := false
		for _, f := range r.Findings {
			if f.Class == StandingQueue && f.Start.Equal(day.Add(c.end)) && strings.Contains(f.Evidence.Summary, "the limit overshot the downstream that came back") {
				named = true
				if stale := strings.Contains(f.Evidence.Summary, "was measured while the downstream was slow"); stale != staleMin[c.file] {
					t.Errorf("%s: its min RTT named stale %v, want it only where it is twice its level before the incident: %s", c.file, stale, f.Evidence.Summary)
				}
			}
		}
		if !named {
			t.Errorf("%s: want a standing-queue finding of the overshoot from %v: %s", c.file, c.end, describeFindings(r.Findings, r.Start, 0))
		}
	}
}

// TestAStreamKeepsAnOpenEpisodeUpToEpisodeKeep: while a degraded episode
// is open the stream keeps its samples from a window before the episode's
// start, no further back than episodeKeep; once it closes, only the
// trailing windows again.
func TestAStreamKeepsAnOpenEpisodeUpToEpisodeKeep(t *testing.T) {
	const file = "envoy-latency-overshoot-outlasting-the-buffer-5s.csv"
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := NewStream("episodes", Options{})
	checked := map[time.Duration]bool{}
	for _, smp := range readTestdata(t, file) {
		s.Push(smp)
		at := smp.Time.Sub(day)
		kept := time.Duration(s.last - s.buf[s.oldest].t)
		trailing := time.Duration(s.last - s.buf[s.head].t)
		switch {
		case at == 17*time.Minute:
			// the episode open since 8:05: kept from before its start
			checked[at] = true
			if first := time.Unix(0, s.buf[s.oldest].t).UTC(); first.After(day.Add(8*time.Minute+5*time.Second)) || kept > episodeKeep {
				t.Errorf("%s at %v: kept from %v (%v), want from before the episode's start at 8:05 and no more than %v", file, at, first.Sub(day), kept, episodeKeep)
			}
			if kept <= trailing {
				t.Errorf("%s at %v: kept %v, no more than the trailing %v", file, at, kept, trailing)
			}
		case at == 45*time.Minute-5*time.Second:
			// healthy since 27:05: the trailing windows only
			checked[at] = true
			if s.oldest != s.head {
				t.Errorf("%s at %v: kept %v before the trailing %v with no episode open", file, at, kept, trailing)
			}
		}
	}
	if len(checked) != 2 {
		t.Fatalf("%s: checked at %v, want 17:00 and 44:55", file, checked)
	}
}

// TestAMeasurementAfterAnOvershootDoesNotHideIt: the readings after an
// overshoot that outnumber it are those that read a limit; a min-RTT
// measurement at the pinned minimum between the overshoot and the
// window's edge is none of them. The Envoy-style controller, read every
// second after five minutes of tripled latency, overshot for 12 readings
// (24:07–24:18) and re-measured its min RTT for 29 (24:19–24:47, no limit
// exported); counting those, the incident ended at 24:48, 48 s late.
func TestAMeasurementAfterAnOvershootDoesNotHideIt(t *testing.T) {
	c := incidentFinding{incidentEdges{"envoy-latency-overshoot-before-a-remeasurement-1s.csv", "min RTT rose 3.34×", 19 * time.Minute, 24 * time.Minute}, 19*time.Minute + 3*time.Second, 24*time.Minute + 7*time.Second}
	r, _, ok := c.checkFinding(t)
	if !ok {
		return
	}
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, f := range r.Findings {
		if f.Class == StandingQueue && f.Start.Equal(day.Add(c.end)) && f.End.Equal(day.Add(24*time.Minute+19*time.Second)) && strings.Contains(f.Evidence.Summary, "the limit overshot the downstream that came back") {
			return
		}
	}
	t.Errorf("%s: want a standing-queue finding of the overshoot 24:07–24:19: %s", c.file, describeFindings(r.Findings, r.Start, 0))
}

// TestAnOvershootIntoSwingsIsNotThatIncident: an overshoot whose fall
// swings the window after the incident (oscillating) is no more the
// incident's than one into healthy time (overshootStart). The
// Envoy-style controller, read every 5 s after two minutes of tripled
// latency, ran at its maximum of 1,520 from 10:15 to 10:30 with 449 in
// flight and fell to 118 by 10:40; asked only before healthy time, the
// episode ended at 10:35, and the window after it read oscillating until
// 11:30.
func TestAnOvershootIntoSwingsIsNotThatIncident(t *testing.T) {
	c := incidentFinding{incidentEdges{"envoy-latency-overshoot-into-swings-5s.csv", "losses made 61.3% of completions", 8 * time.Minute, 10 * time.Minute}, 8 * time.Minute, 10*time.Minute + 10*time.Second}
	r, _, ok := c.checkFinding(t)
	if !ok {
		return
	}
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	named := false
	for _, f := range r.Findings {
		named = named || f.Class == StandingQueue && f.Start.Equal(day.Add(c.end)) && strings.Contains(f.Evidence.Summary, "the limit overshot the downstream that came back")
	}
	if !named {
		t.Errorf("%s: want a standing-queue finding of the overshoot from %v: %s", c.file, c.end, describeFindings(r.Findings, r.Start, 0))
	}
	// the level it fell back to is calm: no swing is named after the overshoot
	for at := 10*time.Minute + 45*time.Second; at <= 11*time.Minute+15*time.Second; at += 15 * time.Second {
		if got := verdictAt(r, day.Add(at)); got != Healthy {
			t.Errorf("%s: at %v, back at the calm level, the verdict is %s, want healthy: %s", c.file, at, got, describeFindings(r.Findings, r.Start, 0))
		}
	}
}

// TestAShortEpisodeKeepsTheEdgeWhereItsLossesStopped: an episode decided
// on losses ends where they stopped (recoveryStart), however short of
// its window that leaves it, where every reading after the edge ran at
// the calm RTT (keptEpisode, calmAfter). go-concurrency-limits' Vegas,
// read every 15 s through a minute of capacity lost, regrew at its calm
// RTT from 9:15; held to half its window, its episode ended at 11:30. With the
// RTT after 9:15 doubled (the downstream still slow), the edge stays
// where the window put it.
func TestAShortEpisodeKeepsTheEdgeWhereItsLossesStopped(t *testing.T) {
	c := incidentFinding{incidentEdges{"gcl-vegas-capacity-lost-a-minute-regrowing-at-its-rtt-15s.csv", "the limit fell to 15.0, 36% of its earlier 42.0", 8 * time.Minute, 9 * time.Minute}, 8 * time.Minute, 9*time.Minute + 15*time.Second}
	if _, _, ok := c.checkFinding(t); !ok {
		return
	}
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := classifyEdited(readTestdata(t, c.file), func(s []trace.Sample) {
		for i := range s {
			if at := s[i].Time.Sub(day); at >= 9*time.Minute+15*time.Second && at < 11*time.Minute+30*time.Second {
				s[i].RTTMs *= 2
			}
		}
	})
	if in := degradedDuring(r, day.Add(8*time.Minute), day.Add(9*time.Minute)); len(in) != 1 || !in[0].End.Equal(day.Add(11*time.Minute+30*time.Second)) {
		t.Errorf("%s with the RTT doubled 9:15–11:30: want one degraded finding ending at 11:30: %s", c.file, describeFindings(r.Findings, r.Start, 0))
	}
}

// TestAnEpisodeBeginsWhereTheDownstreamChangedNotOnARamp: where a
// degraded episode begins, the losses are a candidate series of
// changePoint, and the RTT's shift takes precedence over theirs where it
// came first. go-concurrency-limits' AIMD crept from 392 to 430 in the
// two minutes before a capacity incident at 8:00 (its additive increase),
// and the best split of that ramp put the start at 7:15; the RTT rose
// from 8:05 and the losses began at 8:10.
func TestAnEpisodeBeginsWhereTheDownstreamChangedNotOnARamp(t *testing.T) {
	c := incidentFinding{incidentEdges{"gcl-aimd-capacity-lost-after-its-ramp-5s.csv", "losses made 60.5% of completions", 8 * time.Minute, 13 * time.Minute}, 8*time.Minute + 5*time.Second, 13*time.Minute + 10*time.Second}
	c.checkFinding(t)
}

// TestReadingsThatCompletedNoneAreNoRecovery: the walk back to where a
// recovery began (recoveryStart) stops at a reading that lost requests
// and measured no RTT: it completed none, whatever lossShare reads
// without a min-RTT series to count by. go-concurrency-limits' AIMD, run
// for real, lost every request from 8:14 to 14:00; walking across those
// readings, the episode ended at 11:44.
func TestReadingsThatCompletedNoneAreNoRecovery(t *testing.T) {
	c := incidentFinding{incidentEdges{"gcl-aimd-real-capacity-lost-nothing-completing-15s.csv", "losses made 95.9% of completions", 8 * time.Minute, 14 * time.Minute}, 8*time.Minute + 14*time.Second, 14*time.Minute + 14*time.Second}
	c.checkFinding(t)
}

// TestAnEstimateReadLowIsNoBaseline: a min-RTT estimate read low at the
// limit's floor through a capacity incident sets no baseline
// (baseline.take, estimateReadLow), and no degraded finding follows the
// incident by more than an interval + 30 s. Our gradient limiter in both:
//   - Inside the incident: a degraded window whose min RTT fell further
//     than its RTT did, the estimate read at 931 ms against the calm
//     windows' 1,348–1,442 ms while the RTT stayed flat. Judged against
//     that, the estimate read afresh after the incident (1,419 ms) was
//     1.5× up and the limit regrowing from its floor was pinned low:
//     before the rule, degraded to 40:35 and again from 42:51 to the
//     recording's end, five minutes after the downstream came back.
//   - The window that closes the incident, and the first after it, still
//     hold that estimate; the estimate read afresh is judged against the
//     calm windows', not the window's own first third. Read every second,
//     through a capacity incident 19:00–27:00: before the rule the incident
//     read "min RTT rose 1.61× (from 966.5 ms to 1559.9 ms)" and ended at
//     27:33, 33 s late, and the limit regrowing from its floor 16 minutes
//     later read degraded again at 43:01 against the incident's estimate.
func TestAnEstimateReadLowIsNoBaseline(t *testing.T) {
	for _, c := range []incidentFinding{
		{incidentEdges{"gradient-capacity-lost-estimate-low-at-its-floor-1s.csv", "losses made", 37 * time.Minute, 40 * time.Minute}, 37*time.Minute + time.Second, 40*time.Minute + time.Second},
		{incidentEdges{"gradient-capacity-lost-estimate-read-afresh-after-it-1s.csv", "the limit fell to 4.0", 19 * time.Minute, 27 * time.Minute}, 19 * time.Minute, 26*time.Minute + 54*time.Second},
	} {
		r, _, ok := c.checkFinding(t)
		if !ok {
			continue
		}
		day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		if after := degradedDuring(r, day.Add(c.to+31*time.Second), day.Add(45*time.Minute)); len(after) > 0 {
			t.Errorf("%s: no degraded-downstream after the incident ended at %v (an interval + 30 s): %s", c.file, c.to, describeFindings(r.Findings, r.Start, 0))
		}
	}
}

// TestARunIntoADegradedWindowIsThatEpisode: a run of slow readings that
// runs into a window read degraded begins that episode (joinEpisode).
// go-concurrency-limits' Vegas in the simulator, read every 15 s, through
// a latency incident 26:00–34:00: its limit cut from 13 to 8–9 held the
// windows' medians under the rules' bars until it climbed back at 28:30,
// and the run that began at 26:15, overlapping that degraded window, was
// dropped: healthy to 28:30, 150 s late.
func TestARunIntoADegradedWindowIsThatEpisode(t *testing.T) {
	c := incidentFinding{incidentEdges{"gcl-vegas-latency-run-into-a-degraded-window-15s.csv", "min RTT rose 4.68×", 26 * time.Minute, 34 * time.Minute}, 26*time.Minute + 15*time.Second, 34*time.Minute + 15*time.Second}
	c.checkFinding(t)
}

// TestAnEstimateStepIsNoIncidentStart: where a degraded episode begins, a
// min-RTT step small against the RTT's shift after it is the estimate
// re-read, not the incident's start (changePoint, estimateStepShare): the
// edge is the first shift of another series after it. Both min-RTT
// series are flat steps, so the step, a few percent, explained more of
// their variance than the RTT's tripling did of the RTT's.
func TestAnEstimateStepIsNoIncidentStart(t *testing.T) {
	for _, c := range []incidentFinding{
		// go-concurrency-limits' Vegas, run for real: its estimate re-read
		// 726 -> 665 ms at 13:16, the RTT level; the episode began there,
		// 164 s early
		{incidentEdges{"gcl-vegas-latency-estimate-stepped-before-it-15s.csv", "the RTT rose 2.97×", 16 * time.Minute, 25 * time.Minute}, 16 * time.Minute, 25*time.Minute + 16*time.Second},
		// go-concurrency-limits' AIMD in the simulator: the window's
		// minimum stepped 93 -> 113 ms at 16:10 under a level RTT of
		// 121 ms; the episode began at 16:08, 52 s early
		{incidentEdges{"gcl-aimd-latency-estimate-stepped-before-it-1s.csv", "min RTT rose 9.51×", 17 * time.Minute, 21 * time.Minute}, 17 * time.Minute, 21*time.Minute + 1*time.Second},
	} {
		c.checkFinding(t)
	}
}

// TestALossyRunPastItsEpisodeIsThatEpisode: a run of slow or lossy
// readings that begins inside a degraded episode and goes on for
// shortSlowReadings readings or more past its end ends that episode
// (extendEpisode), the mirror of joinEpisode; dropped, the incident's
// last minutes read healthy. Not where those readings are a queue
// draining (drainedPast): the RTT falling by a third or more, losing a
// trickle.
func TestALossyRunPastItsEpisodeIsThatEpisode(t *testing.T) {
	for _, c := range []incidentFinding{
		// go-concurrency-limits' Gradient, run for real: its limit cut
		// from 48 to 4 emptied the queue, the RTT fell under its calm
		// level from 26:29, and every reading lost 2–8 requests until
		// 27:05; the episode ended on the RTT's fall at 25:54, 66 s early
		{incidentEdges{"gcl-gradient-latency-lossy-run-past-its-fall-5s.csv", "the RTT rose 2.17×", 25 * time.Minute, 27 * time.Minute}, 25*time.Minute + 4*time.Second, 27*time.Minute + 5*time.Second},
		// the simulator's Vector-style ARC at a capacity of 8: its limit
		// at 4–8 through 20:05; the episode ended at 18:50, 70 s early
		{incidentEdges{"vector-capacity-lossy-run-past-its-episode-5s.csv", "the limit fell to 6.0, 25% of its earlier 24.0", 17 * time.Minute, 20 * time.Minute}, 17*time.Minute + 5*time.Second, 20*time.Minute + 5*time.Second},
		// not a queue draining past it (drainedPast): go-concurrency-
		// limits' Gradient2, run for real, its RTT falling from 16.8 s to
		// its calm 6.0 s at a limit of 35-37 while a request a reading
		// timed out; the episode ran on over the drain to 18:15, 75 s late
		{incidentEdges{"gcl-gradient2-latency-queue-drained-past-its-end-15s.csv", "the RTT rose 2.27×", 8 * time.Minute, 17 * time.Minute}, 8*time.Minute + 29*time.Second, 17*time.Minute + 14*time.Second},
	} {
		c.checkFinding(t)
	}
}

// TestALimitStillFallingIsNoSmallerDownstream: a limit fallen to half
// that is still falling in one move, with in-flight against it, its RTT
// held up and completions fallen far, is a downstream that got slower
// (slowerFallenFar's fellFar), though none of its windows is calm: a
// limiter following a smaller downstream would have brought the RTT back.
func TestALimitStillFallingIsNoSmallerDownstream(t *testing.T) {
	for _, c := range []incidentFinding{
		// go-concurrency-limits' Gradient, run for real: its limit slid
		// from 183 to 18 over the incident at 1.46× its calm RTT, losing
		// nothing; read healthy throughout
		{incidentEdges{"gcl-gradient-capacity-lost-limit-still-falling-15s.csv", "the RTT rose 1.46×", 8 * time.Minute, 16 * time.Minute}, 8*time.Minute + 14*time.Second, 16*time.Minute + 16*time.Second},
		// its Gradient2, run for real: the limit slid from 111 to 12
		// through a tripled latency; the episode was 28:59–33:44
		{incidentEdges{"gcl-gradient2-latency-limit-still-falling-15s.csv", "rose 3.04×", 28 * time.Minute, 38 * time.Minute}, 28*time.Minute + 13*time.Second, 38*time.Minute + 15*time.Second},
	} {
		c.checkFinding(t)
	}
}

// TestAShortRunBeginsWhereItsLossesOrItsPaceChanged: a run of slow or
// lossy readings too short to move a window's median is an incident where
// a reading bounds its start — by losses that began in the reading across
// it (lossesBegan), though that reading holds fewer in flight than its
// limit, or by a pace the run fell from (outpaced), though its RTT rose
// less than twice, or by a reading with more in flight than the run
// (heavier), though under its limit — and it runs to where the downstream
// came back: readings at the run's level past its one reading at twice
// the RTT are that level, not its queue draining (drained).
// go-concurrency-limits' Gradient and Vegas run for real: each of these
// incidents was found by no rule.
func TestAShortRunBeginsWhereItsLossesOrItsPaceChanged(t *testing.T) {
	for _, c := range []incidentFinding{
		// capacity lost with errors for two minutes, 7.4 % lost with 36
		// of the limit's 47 in flight across the start
		{incidentEdges{"gcl-gradient-capacity-lost-losses-began-across-its-start-15s.csv", "the limit fell to 16.4, 34% of its earlier 48.0", 26 * time.Minute, 28 * time.Minute}, 26 * time.Minute, 28*time.Minute + 14*time.Second},
		// the same, 18.6 % lost with 120 of 161 in flight
		{incidentEdges{"gcl-gradient-two-short-incidents-15s.csv", "the limit fell to 51.6, 30% of its earlier 175.0", 8 * time.Minute, 10 * time.Minute}, 8*time.Minute + time.Second, 10*time.Minute + 14*time.Second},
		// two minutes slower: one reading at 2× the calm RTT, seven at
		// 1.6× as the limit fell from 124 to 36
		{incidentEdges{"gcl-gradient-two-short-incidents-15s.csv", "the RTT rose 1.69×", 18 * time.Minute, 20 * time.Minute}, 18*time.Minute + 15*time.Second, 20*time.Minute + 13*time.Second},
		// its Vegas: 20 in flight before the run, 10 in it on average
		{incidentEdges{"gcl-vegas-capacity-lost-fewer-in-flight-than-before-it-15s.csv", "for 8 readings in a row", 8 * time.Minute, 10 * time.Minute}, 8*time.Minute + 16*time.Second, 10*time.Minute + 13*time.Second},
	} {
		c.checkFinding(t)
	}
}

// TestALimitClimbingInOneMoveIsNoSwing: a limit that spreads by one climb
// through the window is regrowing, not swinging (grewInOneMove), and a
// latency rise under it is judged as under a limit that held, where it
// stays under the level it held calm. go-concurrency-limits' AIMD run for
// real, regrowing from 1 after a capacity incident while its downstream's
// latency tripled for seven minutes: read healthy throughout.
func TestALimitClimbingInOneMoveIsNoSwing(t *testing.T) {
	incidentEdges{"gcl-aimd-latency-tripled-as-its-limit-regrew-15s.csv", "the RTT (no min-RTT series) rose", 31 * time.Minute, 38 * time.Minute}.check(t)
}

// TestAShortRunIsSlowAgainstTheFasterPace: readings are judged slower
// against the lower of two windows' RTTs at the faster of their paces
// (shortSlowdowns): the window with the lower RTT may be one whose limit
// was still regrowing after an incident, holding a quarter of the
// requests. go-concurrency-limits' Vegas run for real: two minutes of a
// tripled latency right after such a window were not found.
func TestAShortRunIsSlowAgainstTheFasterPace(t *testing.T) {
	c := incidentFinding{incidentEdges{"gcl-vegas-latency-two-minutes-after-a-window-still-regrowing-15s.csv", "for 8 readings in a row", 23 * time.Minute, 25 * time.Minute}, 23*time.Minute + 16*time.Second, 25*time.Minute + 14*time.Second}
	c.checkFinding(t)
}

// TestTheWindowAfterASlowerOneHoldingItIsThatIncident: a window right
// after one read slower at an incident's onset (the window before it at
// the calm RTT), or in its middle, is the same incident where it holds its
// story (slowerStill): the RTT still 1.25× the baseline's, over the window
// and its last third, completions under 80 % of their best, its limit no
// higher. go-concurrency-limits' Gradient run for real through seven
// minutes of tripled latency, its limit cut from about 20 to 11–12: read
// every 15 s, the window holding the incident's second half completed 47 %
// of its best (over the 40 % that opened it) and read healthy; read every
// 5 s, the RTT stood at 1.43–1.52× its calm level and windows under 1.5×
// read healthy between those over it. Neither incident was found (degraded
// for under half of it). A climb in one move as the incident ends is no
// swing (grewInOneMove): its Gradient2, read every 15 s, ended its
// incident 139 s early. A window holding the incident's end and the minute
// its slowest requests drained in, its last third back at the calm RTT, is
// not the incident: its Vegas behind a 6-s downstream would end 79 s late.
func TestTheWindowAfterASlowerOneHoldingItIsThatIncident(t *testing.T) {
	for _, c := range []incidentFinding{
		{incidentEdges{"gcl-gradient-latency-the-window-after-the-slower-one-15s.csv", "the RTT rose 1.55×", 8 * time.Minute, 15 * time.Minute}, 8*time.Minute + 15*time.Second, 15*time.Minute + 15*time.Second},
		{incidentEdges{"gcl-gradient-latency-windows-at-the-slower-bar-and-under-it-5s.csv", "the RTT rose 1.63×", 8 * time.Minute, 15 * time.Minute}, 8*time.Minute + 5*time.Second, 15*time.Minute + 5*time.Second},
		// its Gradient2 through six minutes of capacity lost with errors,
		// the window holding the incident's end climbing back in one move
		{incidentEdges{"gcl-gradient2-capacity-lost-the-window-holding-its-end-15s.csv", "min RTT rose 1.52×", 8 * time.Minute, 14 * time.Minute}, 8*time.Minute + 15*time.Second, 14*time.Minute + 15*time.Second},
		// its Vegas behind a 6-s downstream: the window after the slower
		// one holds the minute its 17-s requests drained in, the RTT's last
		// third back at its calm level — not the incident (ended 79 s late)
		{incidentEdges{"gcl-vegas-latency-the-window-after-holding-its-drain-5s.csv", "the RTT rose 2.92×", 22 * time.Minute, 25 * time.Minute}, 22*time.Minute + 9*time.Second, 25*time.Minute + 10*time.Second},
	} {
		c.checkFinding(t)
	}
}

// TestALimitSteppedDownAsErrorsAppearedIsDegraded: a limiter deaf to
// losses cuts only as far as its downstream's capacity went, and a
// downstream that lost a part of it and fails a share of what it is sent
// steps its limit down by a fifth, not to half, at a flat RTT
// (steppedLossy). go-concurrency-limits' Gradient2 run for real, its
// limit at 93 over a downstream of 250 cut to 75 with 5 % errors, read
// healthy for all nine minutes. The same step without errors stays
// healthy (TestHealthyStepDownIsNamed).
func TestALimitSteppedDownAsErrorsAppearedIsDegraded(t *testing.T) {
	c := incidentFinding{incidentEdges{"gcl-gradient2-capacity-lost-stepped-down-a-fifth-as-errors-appeared-15s.csv", "as losses appeared: 4.9% of completions", 8 * time.Minute, 17 * time.Minute}, 7*time.Minute + 59*time.Second, 17*time.Minute + 14*time.Second}
	c.checkFinding(t)
}

// TestAShortRunRisesOverItsRTT: the requests in flight as a downstream
// slows complete within their RTT, so a reading's mean RTT rises over
// about the run's RTT. The readings across the start are those of the
// rise: read every second, the reading the run rose from is the last at
// half its RTT within an RTT before it (rose's ramp); read every 15 s, a
// reading already risen by the lower bar an open run goes on at
// (shortSlowHold) is across the start though at half the run's RTT, and
// the reading before it bounds the run. failsafe-go run for real: neither
// incident was found.
func TestAShortRunRisesOverItsRTT(t *testing.T) {
	for _, c := range []incidentFinding{
		// 4.2–4.5 s calm, six readings rising 5.9 → 8.7 s before 60 at
		// 9.5–15 s: the rise begins at 23:05
		{incidentEdges{"failsafe-latency-tripled-a-minute-risen-over-its-rtt-1s.csv", "for 60 readings in a row", 23 * time.Minute, 24 * time.Minute}, 23*time.Minute + 6*time.Second, 24*time.Minute + 12*time.Second},
		// 3.1 s calm, 6.2 s across the start, three readings at 13–14 s
		{incidentEdges{"failsafe-latency-tripled-a-minute-risen-half-across-its-start-15s.csv", "for 3 readings in a row", 8 * time.Minute, 9 * time.Minute}, 8*time.Minute + 15*time.Second, 9*time.Minute + 16*time.Second},
	} {
		c.checkFinding(t)
	}
}

// TestALimitHeldLowAfterALossyFallIsThatIncident: a limit that fell to
// half or less with its losses up and holds there, demand pressing on it,
// completions at half their best or less and losses still present, is the
// same incident of capacity lost (heldAfterLosses), though the losses are
// no higher than their calm level — also where the limit fell at a
// window's edge, and the window after it read it already fallen (the
// smaller rule): read every second, the simulator's Vector ARC fell from
// 23 to 7 in the second between two windows, and its five-minute incident
// read degraded for its first minute only. With the losses removed after
// the fall it is a limiter following a smaller downstream: the incident
// ends where they stop.
func TestALimitHeldLowAfterALossyFallIsThatIncident(t *testing.T) {
	edge := incidentFinding{incidentEdges{"vector-arc-capacity-held-low-after-a-fall-at-a-window-edge-1s.csv", "30% of its earlier 23.0", 8 * time.Minute, 13 * time.Minute}, 8*time.Minute + time.Second, 13*time.Minute + time.Second}
	edge.checkFinding(t)
	// a fall read that way is over: a dip in the regrowth after the
	// incident is no limit still falling (fellAfterLosses). Our gradient,
	// at its floor of 4 after capacity lost 21:00–30:00, regrew from 32:00
	// dipping 8.1 → 4.7 at a re-probe, and read degraded 32:01–33:01
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := Classify("episodes", readTestdata(t, "limitscope-gradient-capacity-back-regrowing-dip-after-a-fall-at-a-window-edge-1s.csv"), Options{})
	if in := degradedDuring(r, day.Add(31*time.Minute), day.Add(36*time.Minute)); len(in) != 0 {
		t.Errorf("regrowing after the incident: degraded %s: %s", in[0].Start.Format("15:04:05"), in[0].Evidence.Summary)
	}
	c := incidentFinding{incidentEdges{"vector-arc-capacity-held-low-after-a-lossy-fall-5s.csv", "29% of its earlier 24.0", 8 * time.Minute, 18 * time.Minute}, 8*time.Minute + 5*time.Second, 18*time.Minute + 5*time.Second}
	c.checkFinding(t)

	smp := readTestdata(t, c.file)
	r = Classify("episodes", lossesScaled(smp, day.Add(10*time.Minute), 0), Options{})
	if in := degradedDuring(r, day.Add(11*time.Minute), day.Add(18*time.Minute)); len(in) != 0 {
		t.Errorf("losses removed from 10:00: degraded %s: %s", in[0].Start.Format("15:04:05"), in[0].Evidence.Summary)
	}
}

// TestALimitGrownUnderItsCalmLevelIsNoQueueOfItsOwn: a limit that grew
// inside a window, to hold no more requests than the deepest calm window
// held, with its RTT doubled against that window's, is slower
// (grewUnderDeepest). The simulator's Vector-style ARC through a latency
// incident 8:00–12:00 wobbled 37–45 under the 45–51 it held calm; where
// it grew inside a window, past 1.1× the level of the window that set the
// RTT's baseline (37–42, its first), no rule saw a downstream that got
// slower, and the incident ended at 10:05, 115 s early.
func TestALimitGrownUnderItsCalmLevelIsNoQueueOfItsOwn(t *testing.T) {
	c := incidentFinding{incidentEdges{"vector-latency-limit-grown-under-its-calm-level-5s.csv", "min RTT rose 3.51×", 8 * time.Minute, 12 * time.Minute}, 8*time.Minute + 5*time.Second, 12*time.Minute + 5*time.Second}
	c.checkFinding(t)
}

// TestBaselineTakesNoEstimateReadLow: which windows baseline.take makes
// the baseline that later windows' min-RTT rise is judged against. The
// calm baseline: min RTT 1,300 ms, RTT 1,450 ms.
func TestBaselineTakesNoEstimateReadLow(t *testing.T) {
	calm := baseline{rttMin: 1300, limit: 180, rtt: 1450}
	for _, c := range []struct {
		name          string
		class         Class
		afterDegraded bool
		rttMin, rtt   float64
		taken         bool
	}{
		{"a healthy window with a lower estimate", Healthy, false, 970, 1450, true},
		{"a degraded window whose estimate read low, the RTT level", Degraded, false, 970, 1450, false},
		{"a degraded window behind its incident's queue, the estimate a hair lower", Degraded, false, 1290, 4000, false},
		{"a degraded window whose RTT fell as far as its estimate (a limit at its floor)", Degraded, false, 1000, 1100, true},
		{"the window after an incident, still on the incident's estimate", Healthy, true, 978, 1460, false},
		{"the window after an incident, re-read 1.4 % lower, the RTT level", Healthy, true, 1282, 1450, true},
		{"the window after an incident, the estimate 4 % lower, the RTT 2 % lower", Healthy, true, 1248, 1421, true},
		{"a degraded window after another, the estimate read low", Degraded, true, 970, 1450, false},
	} {
		b := calm
		w := windowStats{class: c.class, hasRTTMin: true, rttMinMed: c.rttMin, rttMed: c.rtt, limitMed: 4}
		b.take(&w, c.afterDegraded)
		want := calm
		if c.taken {
			want = baseline{rttMin: c.rttMin, limit: 4, rtt: c.rtt}
		}
		if b != want {
			t.Errorf("%s (min RTT %.0f ms, RTT %.0f ms): baseline %+v, want %+v", c.name, c.rttMin, c.rtt, b, want)
		}
	}
}

// TestARunEndsWhereItsLevelsPaceCameBack: a run of slow readings ends at
// a reading that completes (in-flight / RTT) at the calm level's pace or
// faster with as many in flight or more, though its RTT is still high
// (regained), and a slow reading after it is not the run going on where
// that reading overshot the level's in-flight. The Envoy-style controller,
// read every 15 s, after a minute of tripled latency: 1,048 in flight (437
// calm) at 3.1 s (1.8 s calm) at 9:30, then 265 at 4.5 s as it cut its
// limit; our gradient limiter after two minutes of doubled latency: 15 in
// flight (10–11 calm) at 63 ms (45 ms calm). Both were found by no rule.
// The calm after our limiter's first incident names no standing queue: the
// RTT of the window it kept (138 ms) is the incident's (holdsMostOf).
func TestARunEndsWhereItsLevelsPaceCameBack(t *testing.T) {
	const overshoot = "envoy-latency-minute-overshoot-15s.csv"
	for _, c := range []incidentFinding{
		{incidentEdges{overshoot, "losses outnumbered completions for 3 readings in a row", 8 * time.Minute, 9 * time.Minute}, 8*time.Minute + 15*time.Second, 9*time.Minute + 30*time.Second},
		{incidentEdges{"gradient-latency-regained-with-more-in-flight-15s.csv", "for 8 readings in a row", 21 * time.Minute, 23 * time.Minute}, 21*time.Minute + 15*time.Second, 23*time.Minute + 15*time.Second},
	} {
		r, _, ok := c.checkFinding(t)
		if !ok {
			continue
		}
		for _, f := range r.Findings {
			if f.Class == StandingQueue {
				t.Errorf("%s: no standing queue is named: %s", c.file, describeFindings(r.Findings, r.Start, 0))
			}
		}
	}
	// at the level's in-flight, the reading at 9:30 completes at 0.6 of
	// the level's pace: the run drains through it and the slow reading
	// after it, and ends at 10:00
	smp := readTestdata(t, overshoot)
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := classifyEdited(smp, func(s []trace.Sample) {
		for i := range s {
			if s[i].Time.Equal(day.Add(9*time.Minute + 30*time.Second)) {
				s[i].InFlight = 437
			}
		}
	})
	if in := degradedDuring(r, day.Add(8*time.Minute), day.Add(9*time.Minute)); len(in) != 1 || !in[0].End.Equal(day.Add(10*time.Minute)) {
		t.Errorf("%s with 437 in flight at 9:30: want one degraded-downstream finding ending at 10:00: %s", overshoot, describeFindings(r.Findings, r.Start, 0))
	}
}

// TestPinnedReadingsInAShortRunAreSlow: readings at a concurrency pinned
// to re-measure the min RTT (no limit measured) are read reading by
// reading where their RTT stands at twice the reference (slowReader.read):
// at a pin's few requests no queue of the limiter's own is behind it. The
// Envoy-style controller through a minute of tripled latency read every
// 15 s: one reading at a limit of 127, three pinned at 3 in flight with
// the RTT 2.3× up — skipped, the run was one reading, and the minute read
// oscillating. A calm pin (18:00, 18:15, at the calm RTT) begins nothing,
// and a pin's losses are no share of its few completions: the first
// incident's losses make 496 % of what completes, not 5859 %.
func TestPinnedReadingsInAShortRunAreSlow(t *testing.T) {
	first := incidentFinding{incidentEdges{"envoy-latency-a-minute-remeasuring-through-it-15s.csv", "at 496% of them", 8 * time.Minute, 9 * time.Minute}, 8*time.Minute + 15*time.Second, 9*time.Minute + 30*time.Second}
	first.checkFinding(t)
	c := incidentFinding{incidentEdges{"envoy-latency-a-minute-remeasuring-through-it-15s.csv", "for 4 readings in a row while 127.0 were in flight (limit 127.0)", 19 * time.Minute, 20 * time.Minute}, 19*time.Minute + 15*time.Second, 20*time.Minute + 15*time.Second}
	r, _, ok := c.checkFinding(t)
	if !ok {
		return
	}
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if in := degradedDuring(r, day.Add(10*time.Minute), day.Add(18*time.Minute+45*time.Second)); len(in) != 0 {
		t.Errorf("calm pins at 18:00 and 18:15: degraded %s: %s", in[0].Start.Format("15:04:05"), in[0].Evidence.Summary)
	}
}

// TestARemeasurementInsideAnIncidentIsThatIncident: a window with no limit
// reading (the Envoy-style controller re-measuring its min RTT at its
// pinned concurrency) between a degraded episode and the next is that
// episode's where the pinned requests' RTT stands at twice the baseline's
// (remeasuredIn); at the calm RTT it is nobody's.
func TestARemeasurementInsideAnIncidentIsThatIncident(t *testing.T) {
	const file = "envoy-latency-remeasuring-through-it-5s.csv"
	c := incidentFinding{incidentEdges{file, "the limit fell from 424.0 to 6.0", 8 * time.Minute, 10 * time.Minute}, 8*time.Minute + 5*time.Second, 10*time.Minute + 10*time.Second}
	r, _, ok := c.checkFinding(t)
	if !ok {
		return
	}
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pinned := func(at time.Duration) bool {
		return at > 8*time.Minute+50*time.Second && at <= 10*time.Minute+5*time.Second
	}
	for at := 8*time.Minute + 55*time.Second; pinned(at); at += 5 * time.Second {
		if got := verdictAt(r, day.Add(at)); got != Degraded {
			t.Errorf("%s: at %v, re-measuring at 3 in flight, the verdict is %q, want degraded: %s", file, at, got, describeFindings(r.Findings, r.Start, 0))
		}
	}
	// the same measurement at the calm RTT: the episode is not extended
	r = classifyEdited(readTestdata(t, file), func(s []trace.Sample) {
		for i := range s {
			if pinned(s[i].Time.Sub(day)) {
				s[i].RTTMs = 1400
			}
		}
	})
	if got := verdictAt(r, day.Add(9*time.Minute+30*time.Second)); got == Degraded {
		t.Errorf("%s re-measuring at 1.4 s: at 9:30 the verdict is degraded: %s", file, describeFindings(r.Findings, r.Start, 0))
	}
}

// TestAShortIncidentInsideSwingsIsFound: a short incident read reading by
// reading splits an oscillating episode as it does a healthy one
// (splitEpisode), and one that spans the end of one episode and the start
// of the next is cut out of both. go-concurrency-limits' Vegas, driven in
// virtual time over a downstream of 60 read every 15 s, falls from 24 to
// 1 through three minutes of capacity lost (18:00–21:00), across the end
// of an oscillating episode and into a healthy one at its floor. Its
// regrowth swings 21–29, and with that incident's losses taken away its
// windows read oscillating through a third one (minute 30 to 31), in
// which its limit fell from 21 to 2.
func TestAShortIncidentInsideSwingsIsFound(t *testing.T) {
	const file = "gcl-vegas-capacity-lost-a-minute-inside-swings-15s.csv"
	across := incidentFinding{incidentEdges{file, "for 11 readings in a row", 18 * time.Minute, 21 * time.Minute}, 18*time.Minute + 15*time.Second, 21*time.Minute + 15*time.Second}
	across.checkFinding(t)
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := classifyEdited(readTestdata(t, file), func(s []trace.Sample) {
		for i := range s {
			if at := s[i].Time.Sub(day); at >= 18*time.Minute && at < 22*time.Minute {
				s[i].Dropped = 0
			}
		}
	})
	in := degradedDuring(r, day.Add(30*time.Minute), day.Add(31*time.Minute))
	if len(in) != 1 || !in[0].Start.Equal(day.Add(30*time.Minute+15*time.Second)) || !in[0].End.Equal(day.Add(31*time.Minute+15*time.Second)) {
		t.Fatalf("%s without losses 18:00–22:00: want one degraded finding 30:15–31:15: %s", file, describeFindings(r.Findings, r.Start, 0))
	}
	var before, after bool
	for _, f := range r.Findings {
		before = before || f.Class == Oscillating && f.End.Equal(in[0].Start)
		after = after || f.Class == Oscillating && f.Start.Equal(in[0].End)
	}
	if !before || !after {
		t.Errorf("%s without losses 18:00–22:00: want the oscillating episode split around the incident (before %v, after %v): %s", file, before, after, describeFindings(r.Findings, r.Start, 0))
	}
}

// TestLossesAtAFloorByChanceHoldTheIncident: a limiter pinned at its floor
// completes a few dozen requests a reading, and a downstream failing 5 %
// of them loses a few a reading, or by chance none: such a reading goes
// on with the run (lossByChance) until the quiet readings in a row were
// expected to lose quietEnough, and the first of them is its end. Our
// gradient limiter over a downstream of 150 cut to 45 with 5 % errors,
// each found by no rule without it: read every 15 s, twice (5 and 4
// minutes; in the second, one reading lost 1 of ~95); read every 5 s,
// one minute (two readings at its end lost none, 3.2 expected); and
// go-concurrency-limits' Vegas read every 5 s, one minute.
func TestLossesAtAFloorByChanceHoldTheIncident(t *testing.T) {
	const floor15 = "gradient-capacity-lost-at-its-floor-losing-a-few-a-reading-15s.csv"
	for _, c := range []incidentFinding{
		{incidentEdges{floor15, "for 20 readings in a row", 20 * time.Minute, 25 * time.Minute}, 20*time.Minute + 15*time.Second, 25*time.Minute + 15*time.Second},
		{incidentEdges{floor15, "for 16 readings in a row", 31 * time.Minute, 35 * time.Minute}, 31*time.Minute + 15*time.Second, 35*time.Minute + 15*time.Second},
		{incidentEdges{"gradient-capacity-lost-a-minute-at-its-floor-5s.csv", "for 9 readings in a row", 8 * time.Minute, 9 * time.Minute}, 8*time.Minute + 5*time.Second, 8*time.Minute + 55*time.Second},
		// go-concurrency-limits' Vegas, in virtual time over a downstream
		// of 20: at 4, 4 lost of ~230 (1.7 %) where its run lost 6 %
		{incidentEdges{"gcl-vegas-capacity-lost-a-minute-losing-fewer-by-chance-5s.csv", "for 12 readings in a row", 8 * time.Minute, 9 * time.Minute}, 8*time.Minute + 5*time.Second, 9*time.Minute + 5*time.Second},
	} {
		c.checkFinding(t)
	}
}

// TestALossByChanceIsJudgedOnTheRunsShare: a reading that lost under
// shortLossShare in a run losing 5 % is lossy where it lost some within
// three standard deviations of what the run's share expects; one that lost
// fewer is quiet, held while the quiet readings in a row were expected to
// lose under quietEnough, and the run ends at the first of them.
func TestALossByChanceIsJudgedOnTheRunsShare(t *testing.T) {
	const s = int64(time.Second)
	has := trace.FieldLimit | trace.FieldInFlight | trace.FieldRTT | trace.FieldDropped
	// 4 in flight at an RTT of rtt ms, dropped lost
	at := func(rtt, dropped float64) point {
		return point{t: 60 * s, has: has, limit: 4, inFlight: 4, rtt: rtt, dropped: dropped}
	}
	for _, c := range []struct {
		name          string
		p             point
		dt            int64
		quiet         int64   // the run's first quiet reading before p
		quietExpected float64 // and what its quiet readings were expected to lose
		lossy, held   bool
		wantQuiet     int64
	}{
		{"1 of 100 lost, 5 expected: within chance", at(600, 1), 15 * s, 0, 0, true, false, 0},
		{"none of 100 lost, 5 expected: the run ends here", at(600, 0), 15 * s, 0, 0, false, false, 60 * s},
		{"none of 33 lost, 1.7 expected: held", at(600, 0), 5 * s, 0, 0, false, true, 60 * s},
		{"none of 33 lost after one such: 3.3 expected, ends at the first", at(600, 0), 5 * s, 55 * s, 1.67, false, false, 55 * s},
		{"1 of 33 lost after one such: within chance", at(600, 1), 5 * s, 55 * s, 1.67, true, false, 55 * s},
		{"4 of 232 lost, 11.6 expected: 2.2 standard deviations under, within chance", at(86.2, 4), 5 * s, 0, 0, true, false, 0},
		{"1 of 232 lost: 3.1 standard deviations under, the run ends here", at(86.2, 1), 5 * s, 0, 0, false, false, 60 * s},
	} {
		r := slowRun{lost: 0.05, quiet: c.quiet, quietExpected: c.quietExpected, quietN: oneIf(c.quiet > 0)}
		lossy, held := r.lossByChance(&c.p, c.dt)
		if lossy != c.lossy || held != c.held || r.quiet != c.wantQuiet {
			t.Errorf("%s: lossy %v, held %v, quiet from %ds; want %v, %v, %ds", c.name, lossy, held, r.quiet/s, c.lossy, c.held, c.wantQuiet/s)
		}
	}
	p := at(600, 3)
	p.has &^= trace.FieldDropped
	r := slowRun{lost: 0.05}
	if lossy, held := r.lossByChance(&p, 15*s); lossy || held || r.quiet != 0 {
		t.Errorf("no loss column: lossy %v, held %v, quiet from %ds; want neither", lossy, held, r.quiet/s)
	}
}

// TestAReadingWithoutASuccessCompletedNone: a reading without an RTT that
// lost requests completed none only where its in-flight would have
// completed silentExpected or more at its level's RTT; fewer, and no
// success in the interval is chance (7 in flight at an RTT of 8 s).
func TestAReadingWithoutASuccessCompletedNone(t *testing.T) {
	const s = int64(time.Second)
	loaded := trace.FieldLimit | trace.FieldInFlight
	for _, c := range []struct {
		name     string
		p        point
		levelRTT float64 // ms
		silent   bool
		lost     float64
	}{
		{"AIMD frozen at 431, every request timing out", point{t: 30 * s, has: loaded | trace.FieldDropped, limit: 431, inFlight: 387, dropped: 5628}, 2190, true, 5628 / (387 / 2.19 * 15)},
		{"7 in flight at an RTT of 8 s: 13 due", point{t: 30 * s, has: loaded | trace.FieldDropped, limit: 8, inFlight: 7, dropped: 2}, 8000, true, 2 / (7 / 8.0 * 15)},
		{"2 in flight at an RTT of 8 s: 3.75 due", point{t: 30 * s, has: loaded | trace.FieldDropped, limit: 8, inFlight: 2, dropped: 2}, 8000, false, 0},
		{"nothing lost", point{t: 30 * s, has: loaded | trace.FieldDropped, limit: 431, inFlight: 387}, 2190, false, 0},
		{"no loss column", point{t: 30 * s, has: loaded, limit: 431, inFlight: 387, dropped: 5628}, 2190, false, 0},
		{"nothing in flight", point{t: 30 * s, has: loaded | trace.FieldDropped, limit: 431, dropped: 5628}, 2190, false, 0},
	} {
		sr := slowReader{lossAt: 15 * s}
		lost, silent := sr.silentLoss(&c.p, &baseline{rtt: c.levelRTT})
		if silent != c.silent || math.Abs(lost-c.lost) > 1e-9 {
			t.Errorf("%s: silent %v, lost %.4f; want %v, %.4f", c.name, silent, lost, c.silent, c.lost)
		}
	}
}

// TestCapacityLostEndsWhereItsLossesStop: a downstream that kept 30 % of
// its capacity and failed 5 % of what it was sent for 8 minutes, read every
// 15 s. Our gradient falls from 152 to 4 when it begins and regrows over
// minutes after it ends; the losses stop at once. The edge between the
// degraded window and the healthy one after it is placed where a series
// changed level (changePoint): the limit's slow regrowth puts it five
// minutes late, so for an episode decided on losses (lostCapacity) the
// losses are a candidate series too, and the finding ends within one
// interval plus 30 s of the incident's end. Only there: go-concurrency-
// limits' Gradient2 through 4 minutes of tripled latency times out
// thousands of requests a reading in its first minute and a few dozen
// after, and the losses would end that episode at 09:00 (or, since
// keptEpisode, at 11:30); read every second after 9 minutes of it, it
// overshoots into shedding half of what it sends, and the losses would
// end the episode 38 s late. And an edge does not take more than half of
// a degraded episode away: go-concurrency-limits' AIMD, read every second
// through a minute of capacity lost, falls over that minute while its
// queue times out and drains, and the min RTT's drop as it drains would
// have ended the episode 6 s after it began (a finding of 6 s for an
// incident of 60). Where the losses stop, the limit regrows from its floor
// (recoveryStart): the edge goes back over the calm readings to the last
// lossy one, where the changes in the limit placed it in the climb (our
// gradient, 105 s late) or losses after it did (AIMD overshooting what the
// downstream takes, 240 s late; Vegas at its floor for three readings
// before it climbs, 150 s), through the dips of its min-RTT re-probes
// (ours, 4 minutes late when the first dip ended the walk). A short incident is bounded by readings whose
// limit stands at twice its own where the limiter's calm level loses as
// much as the incident does (AIMD timing out a fifth of its completions all
// along). Last, 4 minutes of capacity lost filling half of each of two
// windows, their losses diluted under errorShare in each, are read by the
// window that holds the fall, its spread one move down (before that rule,
// reading by reading against the level before them: shortSlowdowns).
func TestCapacityLostEndsWhereItsLossesStop(t *testing.T) {
	for _, c := range capacityLostIncidents {
		c.check(t)
	}
}

// capacityLostIncidents are TestCapacityLostEndsWhereItsLossesStop's
// fixtures, and some of TestIncidentGoingOnWhenTheRecordingStops'.
var capacityLostIncidents = []incidentEdges{
	{"gradient-capacity-lost-15s.csv", "while losses made", 8 * time.Minute, 16 * time.Minute},
	{"gcl-gradient2-latency-opening-timeouts-15s.csv", "min RTT rose", 8 * time.Minute, 12 * time.Minute},
	{"gcl-gradient2-latency-then-shedding-1s.csv", "the RTT", 8 * time.Minute, 17 * time.Minute},
	{"gcl-aimd-minute-capacity-lost-1s.csv", "capacity lost with errors", 8 * time.Minute, 9 * time.Minute},
	// after the losses stop, the limit leaves its floor and climbs
	// (recoveryStart): ours for 7 readings, Vegas after three more at
	// its floor of 1, AIMD into losses of its own
	{"gradient-capacity-back-regrowing-15s.csv", "while losses made", 24 * time.Minute, 33 * time.Minute},
	{"gcl-vegas-capacity-back-at-floor-15s.csv", "capacity lost with errors", 17 * time.Minute, 25 * time.Minute},
	{"gcl-aimd-capacity-back-overshooting-15s.csv", "while losses made", 8 * time.Minute, 14 * time.Minute},
	// ours again, its regrowth dipping to its floor at each re-probe of
	// its min RTT: a dip, not a fall that ends the walk back
	{"gradient-capacity-back-reprobing-15s.csv", "the limit fell to 4.0, 1% of its earlier 364.9", 8 * time.Minute, 13 * time.Minute},
	// 3 minutes at a limit of 1, bounded by readings at the limit
	// of 22 and 12 that lose as much as the limiter's calm level
	{"gcl-aimd-capacity-lost-lossy-calm-15s.csv", "for 12 readings in a row", 8 * time.Minute, 11 * time.Minute},
	// 16 readings at a quarter of the limit, half of each of two
	// windows: the window holding the fall reads it (one move down,
	// losses at 1.1 % of its completions), where it read "for 16
	// readings in a row" reading by reading before
	{"gradient-capacity-lost-across-windows-15s.csv", "the limit fell to 4.4, 18% of its earlier 25.0, while losses made", 28 * time.Minute, 32 * time.Minute},
}

// TestEpisodeEdgesGoBackToWhereTheChangeBegan: an edge placed where the
// series changed most goes back to where the change began.
//   - A limit that slides to a downstream's new capacity over minutes
//     changes most in the middle or at the end of the slide, where the
//     episode began (60–120 s late read every 15 s). It begins where the
//     change began (declineStart): over the readings before that edge
//     that each sat under the healthy episode's level and lost requests,
//     or had the RTT at 1.5 times its median over the window before the
//     edge (the Envoy-style controller's RTT tripled a minute before its
//     losses began, and its episode with them). A limit sinking in healthy
//     time without a loss (Vegas, two minutes before an incident of
//     latency) stays healthy time.
//   - Capacity back while the queue still times out for three readings,
//     the Envoy-style controller then re-measures its min RTT with its
//     limit not measured: the calm readings before the end edge run on
//     over those (recoveryStart), 45 s late without.
func TestEpisodeEdgesGoBackToWhereTheChangeBegan(t *testing.T) {
	for _, c := range []incidentEdges{
		{"gcl-gradient-capacity-lost-limit-sliding-15s.csv", "capacity lost with errors", 8 * time.Minute, 17 * time.Minute},
		{"gcl-gradient2-capacity-lost-limit-sliding-15s.csv", "min RTT rose", 8 * time.Minute, 17 * time.Minute},
		{"gcl-vegas-limit-sinking-before-latency-5s.csv", "min RTT rose", 8 * time.Minute, 14 * time.Minute},
		// (read by its losses, "the downstream fails what the limit lets
		// through", until swingBelow read the window slower: the limit
		// wandering 7–19 under its healthy 12 before running to 100)
		{"envoy-latency-before-losses-15s.csv", "min RTT rose 3.03×", 8 * time.Minute, 17 * time.Minute},
		{"envoy-capacity-back-while-remeasuring-5s.csv", "the downstream fails what the limit lets through", 8 * time.Minute, 12 * time.Minute},
	} {
		c.check(t)
	}
}

// TestLatencyRiseUnderALimitClimbingBelowItsLevel: a latency-blind limit
// (go-concurrency-limits' AIMD) climbs a step a reading through a
// downstream whose latency tripled. A limit that grew inside a window may
// have built the queue that raised its RTT, so a grown limit is read slower
// only where it could not have: it ended the window no higher than
// ownQueueGrowth times the level it held at the RTT's baseline (the first
// fixture: 385 -> 441 against 430, read healthy from 11:30 to 18:15
// without it), or fewer requests were in flight than the downstream took
// at its baseline RTT (the second: 21 -> 67 in flight, climbing back from
// a floor of 1 after a capacity incident, against 413; read healthy for
// the whole latency incident without it, since the RTT's baseline was
// re-read at the floor, with 3 in flight).
func TestLatencyRiseUnderALimitClimbingBelowItsLevel(t *testing.T) {
	for _, c := range []incidentEdges{
		{"gcl-aimd-latency-limit-climbing-below-its-level-15s.csv", "min RTT rose", 8 * time.Minute, 18 * time.Minute},
		{"gcl-aimd-latency-while-climbing-back-from-its-floor-15s.csv", "min RTT rose", 26 * time.Minute, 34 * time.Minute},
	} {
		c.check(t)
	}
}

// TestCapacityLostWithTheFallInsideTheWindow: go-concurrency-limits'
// Gradient2, run for real, cut from 37 to 14 over the first minute of an
// incident of capacity lost, inside the judging window that opened with
// it. The window's spread (25 to 14) is that one move down, not a swing:
// the limit at half its earlier level or less with losses up is a smaller
// downstream. Read healthy for the whole incident where any spread that
// wide counted as swinging.
func TestCapacityLostWithTheFallInsideTheWindow(t *testing.T) {
	incidentEdges{"gcl-gradient2-capacity-lost-fall-inside-the-window-15s.csv", "the limit fell to 14.0, 39% of its earlier 36.0, while losses made", 8 * time.Minute, 14 * time.Minute}.check(t)
}

// TestCapacityBackWithTheRegrowthOvershooting: go-concurrency-limits'
// Gradient, run for real, lost capacity with errors from minute 8 to 14,
// sat at 6–7 for a minute after its losses stopped, and regrew to 405,
// settling at 385; changePoint put the end edge on the settle, and the walk
// back over the recovery (recoveryStart) stopped at once on the 405 before
// it: the incident ended at 18:16, 256 s late, and the window of the next
// incident (latency up from minute 22) began 60 s late behind it. The
// walk takes a reading within recoveryWobble of the lowest after it as the
// climb, and ends the incident where its losses stopped (46 s late: the
// last lossy reading's interval).
func TestCapacityBackWithTheRegrowthOvershooting(t *testing.T) {
	const file = "gcl-gradient-capacity-back-regrowth-overshooting-15s.csv"
	r, zero, tol, in, found, _ := incidentEdges{file: file, from: 8 * time.Minute, to: 14 * time.Minute}.judge(t)
	from, to := zero.Add(8*time.Minute), zero.Add(14*time.Minute)
	if !found || len(in) != 1 || in[0].Start.Sub(from).Abs() > tol || in[0].End.Sub(to).Abs() > time.Minute {
		t.Errorf("%s: want the capacity lost 8:00–14:00 found, from 8:00 (± %v) to 14:00 (± 1m): %s", file, tol, describeFindings(in, zero, 0))
	}
	incidentEdges{file, "the RTT rose 2.96×", 22 * time.Minute, 27 * time.Minute}.check(t)
	// the regrowth, 6 to 405 in the window after the incident, is no
	// swing (regrowing: read oscillating 14:46–17:59 without it)
	noSwingRead(t, file, r, zero)
}

// TestCapacityLostWithATrickleAtTheFloor: go-concurrency-limits' AIMD,
// driven in virtual time over a downstream cut from 150 to 45 with errors
// (minutes 21–25 of the recording, 7:01–11:01 of this cut of it), read
// every second, reached 1 at 24:06 and lost a request at 24:31 and 24:53
// there, holding 1 for a minute after capacity came back. changePoint put
// the end edge on the limit's last step down, 54 s early; lossTail moves
// it to the last loss at the floor (24:53).
func TestCapacityLostWithATrickleAtTheFloor(t *testing.T) {
	incidentEdges{"gcl-aimd-capacity-lost-trickle-at-floor-1s.csv", "capacity lost with errors", 7*time.Minute + time.Second, 11*time.Minute + time.Second}.check(t)
}

// TestCapacityLostWithTheLossesPausing: go-concurrency-limits' Vegas,
// driven in virtual time over a downstream of 150 cut to 45 with errors
// from minute 8 to 10, read every second, sat at 19 under its noisy RTT
// and lost 1–4 requests a reading from 08:03 with pauses of up to 3
// readings while it stepped down to 9. changePoint put the start edge on a
// re-probe of its min RTT at 08:54, and the walk back to the losses' start
// (declineStart), asking a loss of every reading, stopped at once: 54 s
// late. A pause shorter than lossPause is the trickle pausing.
func TestCapacityLostWithTheLossesPausing(t *testing.T) {
	incidentEdges{"gcl-vegas-capacity-lost-losses-pausing-1s.csv", "while losses made 4.8% of completions", 8 * time.Minute, 10 * time.Minute}.check(t)
}

// TestEpisodeEdgesOfLimitersRunForReal: go-concurrency-limits v1.0.0 run
// for real (each fixture's header says how), incidents of capacity lost
// with errors, read every 5 or 15 s; each edge was a minute or more off
// before the rule named.
//   - Gradient, minutes 8–16: the incident's strongest window was its
//     first, decided on the limit's fall as the RTT rose; every window
//     after it was decided on losses. It sat at 4 for 40 s after its losses
//     stopped, then regrew to 185; the end edge sat in the regrowth,
//     64 s late (endsOnLosses asks the last window too).
//   - AIMD, minutes 22–28: held 117 while every request timed out (no RTT,
//     about 700 lost a reading); changePoint had no loss series to split
//     and found no shift, and the end stayed on the window's edge, 45 s
//     late (the walk back to where the losses stopped starts there).
//   - Gradient, minutes 8–17 and 27–37: after each its RTT fell from 8–9 s
//     to 3 s within 45 s while its limit held, then the limit regrew over
//     two minutes; both ended about 3 minutes late, on the limit's shift
//     (the RTT's edge is taken where the limit held in between: limitHeld).
//   - Vegas, minutes 24–28: fell from 13 to 1 as its queue drained (the RTT
//     from 700 to 120 ms), then lost 4–19 a reading at 1 until 28:01; the
//     end edge on the RTT's fall (25:46) had a floor of 8 before it, above
//     half the calm level (lossTail asks the floor of the readings it
//     walks too).
//   - Vegas, minutes 8–15: sank from 202 to 36 on a stale min-RTT estimate
//     over the 8 minutes before, losing nothing; the episode began in the
//     sink, 45 s early (lossHead shows it from the reading before its
//     first loss, 08:04).
func TestEpisodeEdgesOfLimitersRunForReal(t *testing.T) {
	for _, c := range []incidentEdges{
		{"gcl-gradient-capacity-back-strongest-window-the-fall-5s.csv", "the RTT rose 2.38×", 8 * time.Minute, 16 * time.Minute},
		{"gcl-aimd-capacity-back-nothing-shifted-5s.csv", "completions fell to 0% of their best", 22 * time.Minute, 28 * time.Minute},
		{"gcl-gradient-capacity-back-rtt-before-the-limit-15s.csv", "while the limit sat at 83.0", 8 * time.Minute, 17 * time.Minute},
		{"gcl-gradient-capacity-back-rtt-before-the-limit-15s.csv", "the limit fell from 387.0 to 58.0", 27 * time.Minute, 37 * time.Minute},
		{"gcl-vegas-capacity-back-floor-after-the-rtt-edge-15s.csv", "capacity lost with errors", 24 * time.Minute, 28 * time.Minute},
		{"gcl-vegas-capacity-lost-after-a-sinking-limit-5s.csv", "the limit fell to 36.0", 8 * time.Minute, 15 * time.Minute},
	} {
		c.check(t)
	}
}

// TestCapacityLostStartsBeforeATrickle: go-concurrency-limits' Vegas,
// driven in virtual time and read every second, sat at 13 on a stale min
// RTT when its downstream lost capacity with errors at 19:00, and lost
// about half a request a reading from 19:05; changePoint put the start
// edge at 19:25, a second without a loss. A trickle that began before the
// edge keeps it there: moving the start to the next loss (19:33) left the
// one-minute incident covered for 27 s, under half.
func TestCapacityLostStartsBeforeATrickle(t *testing.T) {
	const file = "gcl-vegas-capacity-lost-trickle-before-the-edge-1s.csv"
	r := Classify("episodes", readTestdata(t, file), Options{})
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at, latest := day.Add(19*time.Minute+30*time.Second), day.Add(19*time.Minute+25*time.Second)
	for _, f := range r.Findings {
		if f.Class == Degraded && f.Start.Before(at) && f.End.After(at) {
			if f.Start.After(latest) {
				t.Errorf("%s: degraded from %v, want it from 19:25 or earlier (losses from 19:05)", file, f.Start.Sub(day))
			}
			return
		}
	}
	t.Errorf("%s: no degraded-downstream finding at 19:30: %s", file, describeFindings(r.Findings, day, 0))
}

// TestCapacityLostQueueBeforeLosses: go-concurrency-limits' Gradient, run
// for real at a capacity of 250 read every second, over a downstream cut
// to 30 % with errors at 08:00: its queue filled first (the RTT from 5.1 s
// to 11 s by 08:19, the limit cut from 362 to 244) and its first loss came
// at 08:25. An episode decided on losses shows its start where its losses
// began only where the RTT had not risen first (lossHead): otherwise it
// began 23 s late.
func TestCapacityLostQueueBeforeLosses(t *testing.T) {
	const file = "gcl-gradient-capacity-lost-queue-before-losses-1s.csv"
	r := Classify("episodes", readTestdata(t, file), Options{})
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	from := day.Add(8 * time.Minute)
	got, _, _ := judgeIncident(r, from, from.Add(time.Minute), time.Second+30*time.Second)
	if len(got) != 1 || got[0].Start.Sub(from) > 15*time.Second {
		t.Errorf("%s: want the incident from 08:00 found from 08:15 or earlier (its RTT up from 08:04, its first loss at 08:25): %s", file, describeFindings(got, day, 0))
	}
}

// TestSwingsEndAtAnIncident: swings counted through an incident are the
// incident's (forgetSwings). go-concurrency-limits' Vegas, driven in
// virtual time over a downstream of 60 read every 15 s, swung at its
// floor through a capacity incident (minutes 8–12), and the window after
// it, swinging twice as it regrew, read oscillating for 75 s on that
// count. Its Gradient2 over a downstream of 60 lost capacity three times
// for 2–4 minutes, each found inside healthy windows (splitEpisode) whose
// medians, 23, 10 and 35 between calm levels of 65–77, read as a slow
// swing for the last 15 minutes of the recording. Each incident is still
// found with its edges.
func TestSwingsEndAtAnIncident(t *testing.T) {
	for _, c := range []struct {
		file      string
		incidents [][2]time.Duration
	}{
		{"gcl-vegas-swings-of-an-incident-not-carried-15s.csv", [][2]time.Duration{{8 * time.Minute, 12 * time.Minute}, {20 * time.Minute, 24 * time.Minute}, {34 * time.Minute, 36 * time.Minute}}},
		{"gcl-gradient2-short-incidents-no-slow-swing-15s.csv", [][2]time.Duration{{8 * time.Minute, 11 * time.Minute}, {17 * time.Minute, 21 * time.Minute}, {27 * time.Minute, 29 * time.Minute}}},
	} {
		r, zero, tol, _, _, _ := incidentEdges{file: c.file}.judge(t)
		noSwingRead(t, c.file, r, zero)
		for _, in := range c.incidents {
			got, found, edged := judgeIncident(r, zero.Add(in[0]), zero.Add(in[1]), tol)
			if !found || !edged {
				t.Errorf("%s: want the incident %v–%v found with both edges within an interval + 30 s: %s", c.file, in[0], in[1], describeFindings(got, zero, 0))
			}
		}
	}
}

// TestRegrowthSaysSo: a healthy episode whose only window is a limit
// regrowing after an incident (regrowing) says it regrew, not that it
// "settled" with a band several times its median (the simulator's
// Envoy-style controller at a capacity of 3, 1 → 50 after a failing
// start: "settled around 7.0 (10–90% band 414% of it)").
func TestRegrowthSaysSo(t *testing.T) {
	s := NewStream("x", Options{})
	f := Finding{Class: Healthy, w: windowStats{class: Healthy, regrew: true, limitFirst: 1, limitLast: 50, limitMed: 7, band: 4.14, hasUtil: true, util: 1, inFlightMed: 7}}
	s.describe(&f)
	if want := "limit regrew from 1.0 to 50.0 after the incident before it (10–90% band 414% of its median 7.0)"; !strings.HasPrefix(f.Evidence.Summary, want) {
		t.Errorf("a regrowing window says %q, want it to begin %q", f.Evidence.Summary, want)
	}
}

// noSwingRead fails the test if r, the fixture file classified with the
// default options (zero: the trace's start), has an oscillating finding:
// its limiter is tuned, and only incidents move it.
func noSwingRead(t *testing.T, file string, r Result, zero time.Time) {
	t.Helper()
	for _, f := range r.Findings {
		if f.Class == Oscillating {
			t.Errorf("%s: oscillating %v–%v, want none: %s", file, f.Start.Sub(zero), f.End.Sub(zero), describeFindings(r.Findings, zero, 0))
		}
	}
}

// TestLatencyRiseUnderALimitSwingingPastItsLevel: the simulator's
// Envoy-style controller re-measures its min RTT with concurrency pinned
// at its minimum; through a latency tripled for ten minutes it read it
// 3.1× up and grew its limit past the 437 it held calm, swinging 113–788,
// with completions at a third. At the bottom of its swing it held fewer
// requests than at its calm level, so a minimum read across the window
// carries no deeper queue of its own: slower, not oscillating (read
// oscillating for the last 8¾ minutes without swingBelow).
func TestLatencyRiseUnderALimitSwingingPastItsLevel(t *testing.T) {
	incidentEdges{"envoy-latency-limit-swinging-past-its-level-15s.csv", "min RTT rose 3.07×", 24 * time.Minute, 34 * time.Minute}.check(t)
}

// TestLatencyRiseAfterAQueuedIncident: a degraded window whose min RTT
// reads a hair under the baseline's, behind a queue its incident built,
// sets no min RTT, RTT, limit or in-flight to judge later windows
// against (baseline.take). go-concurrency-limits' Vegas, run for
// real, took its first incident's window (RTT 26.4 s against a calm
// 6.2 s) for the baseline, and the second incident's first window (the
// RTT 2.8× the calm level, completions at 27 %) stood under 1.25× that
// and read healthy. The simulator's Envoy-style controller, run away to
// its maximum through a capacity incident (RTT 927 ms against 336 ms),
// read a latency incident six minutes later as oscillating throughout:
// its limit swings around the 80 it held, but against the 620 of that
// baseline it had no level to hold. Envoy's end is a minute late (it
// runs away again as the latency clears), so only its start is held to
// an interval + 30 s.
func TestLatencyRiseAfterAQueuedIncident(t *testing.T) {
	incidentEdges{"gcl-vegas-latency-after-a-queued-incident-15s.csv", "the RTT rose 2.80× (from 6170.8 ms", 25 * time.Minute, 34 * time.Minute}.check(t)

	const file = "envoy-latency-after-a-runaway-incident-15s.csv"
	r, zero, tol, in, found, _ := incidentEdges{file: file, from: 22 * time.Minute, to: 28 * time.Minute}.judge(t)
	from := zero.Add(22 * time.Minute)
	if len(in) != 1 || !strings.Contains(in[0].Evidence.Summary, "min RTT rose 2.96×") || !found || in[0].Start.Sub(from).Abs() > tol {
		t.Errorf("%s: want one degraded-downstream finding saying the min RTT rose, from 22:00 (± %v), covering half of 22:00–28:00 or more: %s", file, tol, describeFindings(r.Findings, zero, 0))
	}
	for _, f := range r.Findings {
		if f.Class == Oscillating && f.Start.Before(from.Add(tol)) && f.End.After(from.Add(tol)) {
			t.Errorf("%s: oscillating %v–%v at the incident's start", file, f.Start.Sub(zero), f.End.Sub(zero))
		}
	}
}

// TestIncidentGoingOnWhenTheRecordingStops: a recording stopped (or a live
// view read) a minute or two into an incident shows it, from where it
// began to the last reading, though no reading after it is calm again and
// the tail after the last judged window is too short to judge as a window:
// the window of readings up to the last reads degraded (shortTail), or the
// readings do one by one (openIncident). Each multi-episode fixture is cut
// 60, 90 and 120 s into its incident: read every 15 s, four to eight
// readings, which no window's median had moved. Cut 30 s in (two readings
// read every 15 s, under a minute) or before the incident, its last two
// minutes read no degraded-downstream finding.
func TestIncidentGoingOnWhenTheRecordingStops(t *testing.T) {
	// every fixture of the two incident tables long enough to be cut two
	// minutes in, and one more: a window judged degraded to 08:40 and one
	// judged healthy after it, its median RTT the incident's; the
	// readings, slow from 08:05 on, carry the episode past the first to
	// the end
	cases := []incidentEdges{{file: "vector-arc-latency-limit-held-5s.csv", from: 8 * time.Minute, to: 14 * time.Minute}}
	for _, c := range append(append([]incidentEdges(nil), capacityLostIncidents...), rttFirstIncidents...) {
		if c.to-c.from > 2*time.Minute {
			cases = append(cases, c)
		}
	}
	for _, c := range cases {
		smp := readTestdata(t, c.file)
		iv := smp[1].Time.Sub(smp[0].Time)
		zero, tol := smp[0].Time.Add(-iv), iv+30*time.Second
		upTo := func(cut time.Time) Result {
			n := sort.Search(len(smp), func(i int) bool { return smp[i].Time.After(cut) })
			return Classify("episodes", smp[:n], Options{})
		}
		for _, into := range []time.Duration{time.Minute, 90 * time.Second, 2 * time.Minute} {
			cut := zero.Add(c.from + into)
			r := upTo(cut)
			in, found, _ := judgeIncident(r, zero.Add(c.from), cut, tol)
			if !found || in[0].Start.Sub(zero.Add(c.from)).Abs() > tol || in[len(in)-1].End.Before(r.End) {
				t.Errorf("%s cut %v into its incident: degraded %s, want from %v (± %v) to the end", c.file, into, describeFindings(in, zero, 0), c.from, tol)
			}
		}
		for _, cut := range []time.Time{zero.Add(c.from + 30*time.Second), zero.Add(c.from - 30*time.Second), zero.Add(c.from - 2*time.Minute)} {
			if in := degradedDuring(upTo(cut), cut.Add(-2*time.Minute), cut); len(in) > 0 {
				t.Errorf("%s cut at %v: degraded %s in its last two minutes", c.file, cut.Sub(zero), describeFindings(in, zero, 0))
			}
		}
	}
}

// TestShortTailSaysOnlyWhatChanged: a recording's last stretch, too short
// to judge as a window, takes the verdict of the window of readings up to
// its end only where that window was decided on the limit cut or requests
// lost and the series changed level since the episode before (shortTail).
// go-concurrency-limits' Gradient2 exports a long-window average of the RTT
// as its min RTT; over a healthy downstream's heavy tail it creeps from 45
// to 73 ms, and the window up to the recording's end reads "min RTT rose
// 2.83×" on medians its older readings hold up, 83 s before the whole
// trace reads degraded. After an incident the same limiter holds its
// limit at its maximum of 60 over a downstream of 8, losing half of what
// completes for 15 minutes, healthy with a standing queue window after
// window, and the window up to the recording's end tips over to
// "failing". Neither reads degraded in the recording's last two minutes.
func TestShortTailSaysOnlyWhatChanged(t *testing.T) {
	for _, file := range []string{"gcl-gradient2-average-creeping-15s.csv", "gcl-gradient2-above-capacity-after-incident-15s.csv"} {
		r := Classify("episodes", readTestdata(t, file), Options{})
		if in := degradedDuring(r, r.End.Add(-2*time.Minute), r.End.Add(time.Nanosecond)); len(in) > 0 {
			t.Errorf("%s: degraded in its last two minutes: %s", file, describeFindings(r.Findings, r.Start, 0))
		}
	}
}

// incidentEdges is an incident in a fixture: one degraded-downstream
// finding saying says covers half of [from, to) or more (from the trace's
// start, one interval before its first reading), each edge within an
// interval plus 30 s of the incident's.
type incidentEdges struct {
	file, says string
	from, to   time.Duration
}

func (c incidentEdges) check(t *testing.T) {
	t.Helper()
	r, zero, _, in, found, edged := c.judge(t)
	if len(in) != 1 || !strings.Contains(in[0].Evidence.Summary, c.says) {
		t.Fatalf("%s: want one degraded-downstream finding saying %q in the incident: %s", c.file, c.says, describeFindings(r.Findings, r.Start, 0))
	}
	d := in[0]
	if !edged {
		t.Errorf("%s: degraded %v–%v, incident %v–%v: an edge more than an interval + 30 s off", c.file, d.Start.Sub(zero), d.End.Sub(zero), c.from, c.to)
	}
	if !found {
		t.Errorf("%s: degraded %v–%v covers %v of the incident %v–%v, under half", c.file, d.Start.Sub(zero), d.End.Sub(zero), coveredBy(in, zero.Add(c.from), zero.Add(c.to)), c.from, c.to)
	}
}

// incidentFinding is an incident whose one degraded-downstream finding's
// edges are known to the second (start, end: from the fixture's day).
type incidentFinding struct {
	incidentEdges
	start, end time.Duration
}

// checkFinding checks c as incidentEdges.check does and that its finding
// spans start–end; it returns the result and the finding (ok: there is
// exactly one to look at).
func (c incidentFinding) checkFinding(t *testing.T) (r Result, d Finding, ok bool) {
	t.Helper()
	c.check(t)
	r, _, _, in, _, _ := c.judge(t)
	if len(in) != 1 {
		return r, Finding{}, false
	}
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if start, end := in[0].Start.Sub(day).Truncate(time.Second), in[0].End.Sub(day).Truncate(time.Second); start != c.start || end != c.end {
		t.Errorf("%s: degraded %v–%v, want %v–%v: %s", c.file, start, end, c.start, c.end, describeFindings(r.Findings, r.Start, 0))
	}
	return r, in[0], true
}

// judge classifies c's fixture with the default options and scores its
// incident (judgeIncident): zero is the trace's start (one interval before
// its first reading), tol an interval plus 30 s.
func (c incidentEdges) judge(t *testing.T) (r Result, zero time.Time, tol time.Duration, in []Finding, found, edged bool) {
	t.Helper()
	smp := readTestdata(t, c.file)
	iv := smp[1].Time.Sub(smp[0].Time)
	zero, tol = smp[0].Time.Add(-iv), iv+30*time.Second
	r = Classify("episodes", smp, Options{})
	in, found, edged = judgeIncident(r, zero.Add(c.from), zero.Add(c.to), tol)
	return r, zero, tol, in, found, edged
}

// judgeIncident scores the incident [from, to) in r as the issue words it:
// in, the degraded-downstream findings overlapping it; found, where they
// cover half of it or more; edged, where they begin and end within tol of
// its edges.
func judgeIncident(r Result, from, to time.Time, tol time.Duration) (in []Finding, found, edged bool) {
	in = degradedDuring(r, from, to)
	var first, last time.Time
	for _, f := range in {
		if first.IsZero() || f.Start.Before(first) {
			first = f.Start
		}
		if f.End.After(last) {
			last = f.End
		}
	}
	found = 2*coveredBy(in, from, to) >= to.Sub(from)
	edged = len(in) > 0 && first.Sub(from).Abs() <= tol && last.Sub(to).Abs() <= tol
	return in, found, edged
}

// TestEpisodeEdgesTakeTheRTTBeforeTheLimitOrMinRTT: where the limit or
// the min RTT shifts most and the RTT shifted the same way before it, the
// edge is the RTT's (changePoint). A min RTT taken over a window rises a
// window after the RTT (go-concurrency-limits' AIMD: 45 s late, read
// every 15 s), and an estimate held until its next recalculation falls
// after it, the limit with it (the Envoy-style controller, its limit at
// its maximum of 100 until then: 45 s late, read every 5 s or 15 s).
func TestEpisodeEdgesTakeTheRTTBeforeTheLimitOrMinRTT(t *testing.T) {
	for _, c := range rttFirstIncidents {
		c.check(t)
	}
}

// rttFirstIncidents are TestEpisodeEdgesTakeTheRTTBeforeTheLimitOrMinRTT's
// fixtures, and some of TestIncidentGoingOnWhenTheRecordingStops'.
var rttFirstIncidents = []incidentEdges{
	{"gcl-aimd-latency-min-rtt-lagging-15s.csv", "min RTT rose", 8 * time.Minute, 15 * time.Minute},
	{"envoy-latency-ends-before-recalculation-5s.csv", "min RTT rose", 8 * time.Minute, 14 * time.Minute},
	{"envoy-latency-limit-held-until-recalculation-15s.csv", "min RTT rose", 8 * time.Minute, 14 * time.Minute},
}

// TestAMinuteOfCapacityLostReadEvery15sIsFound: go-concurrency-limits'
// Gradient2 through a minute of a downstream cut to 30 % that fails 5 % of
// what it is sent, read every 15 s: 4 readings at half the limit or less
// with losses, which moved no window (shortSlowdowns reads them: losses
// at 2 % of completions or more while the limit stands at half the
// window's median or less). The RTT doubled in only the first of them, so
// without the loss counts, or with the limit held, nothing is found; nor
// where losses at that level come back two readings after them.
func TestAMinuteOfCapacityLostReadEvery15sIsFound(t *testing.T) {
	smp := readTestdata(t, "gcl-gradient2-minute-capacity-lost-15s.csv")
	const first, after = 32, 36 // the readings at 08:15 and 09:15
	at := func(i int) time.Time { return smp[0].Time.Add(time.Duration(i) * 15 * time.Second) }
	cases := []struct {
		name  string
		edit  func(s []trace.Sample)
		found bool
	}{
		{"as recorded", func([]trace.Sample) {}, true},
		{"without the loss counts", func(s []trace.Sample) {
			for i := range s {
				s[i].Dropped, s[i].Fields = 0, s[i].Fields&^trace.FieldDropped
			}
		}, false},
		{"the limit held", func(s []trace.Sample) {
			for i := first; i < after; i++ {
				s[i].Limit = s[first-1].Limit
			}
		}, false},
		// losing again two readings after it: a level, not an episode
		// (the losses must stay away for shortSlowReadings readings)
		{"losses again at 09:45", func(s []trace.Sample) {
			s[after+2].Limit, s[after+2].InFlight, s[after+2].Dropped = s[after-1].Limit, s[after-1].InFlight, s[after-1].Dropped
		}, false},
	}
	for _, c := range cases {
		r := classifyEdited(smp, c.edit)
		in := degradedDuring(r, at(first), at(after))
		switch {
		case !c.found && len(in) > 0:
			t.Errorf("%s: a degraded-downstream finding in the first incident: %s", c.name, describeFindings(r.Findings, r.Start, 0))
		case c.found && (len(in) != 1 || !in[0].Start.Equal(at(first)) || !in[0].End.Equal(at(after)) || !strings.Contains(in[0].Evidence.Summary, "for 4 readings in a row while losses made")):
			t.Errorf("%s: want one degraded-downstream finding %v–%v naming 4 readings with losses: %s", c.name, at(first), at(after), describeFindings(r.Findings, r.Start, 0))
		}
		if !c.found {
			continue
		}
		// the losses of the window the minute fell in are the minute's:
		// neither healthy half around it names them (noteKept)
		for _, f := range r.Findings {
			if f.Class == Healthy && strings.Contains(f.Evidence.Summary, "losses made up to") {
				t.Errorf("%s: healthy %v–%v names the incident's losses: %s", c.name, f.Start, f.End, f.Evidence.Summary)
			}
		}
	}
}

// classifyEdited classifies a copy of smp that edit changed.
func classifyEdited(smp []trace.Sample, edit func([]trace.Sample)) Result {
	s := append([]trace.Sample(nil), smp...)
	edit(s)
	return Classify("episodes", s, Options{})
}

// editBetween is an edit for classifyEdited that applies edit to each
// sample strictly between from and to.
func editBetween(from, to time.Time, edit func(*trace.Sample)) func([]trace.Sample) {
	return func(s []trace.Sample) {
		for i := range s {
			if s[i].Time.After(from) && s[i].Time.Before(to) {
				edit(&s[i])
			}
		}
	}
}

// wholeWithoutIncident classifies smp and stops the test unless the whole
// recording reads want with no degraded-downstream finding anywhere; what
// names the recording's story in the failure.
func wholeWithoutIncident(t *testing.T, smp []trace.Sample, want Class, what string) {
	t.Helper()
	r := Classify("recorded", smp, Options{})
	if r.Class != want || len(degradedDuring(r, smp[0].Time, smp[len(smp)-1].Time)) != 0 {
		t.Fatalf("%s: %s (%s)", what, r.Class, describeFindings(r.Findings, r.Start, 0))
	}
}

// degradedDuring returns r's degraded-downstream findings that overlap
// [from, to).
func degradedDuring(r Result, from, to time.Time) []Finding {
	var in []Finding
	for _, f := range r.Findings {
		if f.Class == Degraded && f.Start.Before(to) && from.Before(f.End) {
			in = append(in, f)
		}
	}
	return in
}

// verdictAt is the verdict of the finding in r covering at (the last
// such), insufficient-data where none does.
func verdictAt(r Result, at time.Time) Class {
	got := Insufficient
	for _, f := range r.Findings {
		if Rank(f.Class) > 0 && !at.Before(f.Start) && at.Before(f.End) {
			got = f.Class
		}
	}
	return got
}

// coveredBy is how much of [from, to) the findings fs cover (fs do not
// overlap one another).
func coveredBy(fs []Finding, from, to time.Time) time.Duration {
	var d time.Duration
	for _, f := range fs {
		start, end := f.Start, f.End
		if start.Before(from) {
			start = from
		}
		if end.After(to) {
			end = to
		}
		if end.After(start) {
			d += end.Sub(start)
		}
	}
	return d
}

// TestFewerInFlightAboveCapacityIsTheDownstream: a limit that sat above
// its downstream's capacity (losses at a material share calm) can deepen
// its own queue, so where only the RTT stands in for a min RTT its rise is
// not held against the downstream (aboveCapacity) — unless the window
// holds fewer requests than the window that set the RTT's baseline and
// completions fell to a third with the RTT doubled (fewer, grownSlower):
// a queue of its own cannot deepen with fewer requests in it.
// go-concurrency-limits' AIMD run for real at 15–17 over a capacity of 4,
// losing a quarter of what it sent calm, held at 9–14 through a latency
// creep to 4× (the RTT 2.9× up, completions at 27 %) and read healthy
// for the whole trace, on a seed drawn for validation only. At 35 % (a
// limit held over a downstream that stepped down to 60 % reads 36–40 %)
// the rise stays the limiter's.
func TestFewerInFlightAboveCapacityIsTheDownstream(t *testing.T) {
	const file = "gcl-aimd-latency-above-capacity-fewer-in-flight-15s.csv"
	c := incidentFinding{incidentEdges{file, "the RTT (no min-RTT series) rose 2.88×", 10 * time.Minute, 20 * time.Minute}, 10*time.Minute + 14*time.Second, 19*time.Minute + 45*time.Second}
	c.checkFinding(t)
	// the same readings with the RTT after the rise cut to 27/35 of
	// itself: completions at about 35 % of their best
	smp := readTestdata(t, file)
	rise := smp[0].Time.Add(10 * time.Minute)
	for i := range smp {
		if rtt, ok := smp[i].Value(trace.FieldRTT); ok && smp[i].Time.After(rise) {
			smp[i].Set(trace.FieldRTT, rtt*27/35)
		}
	}
	if r := Classify("gcl-aimd", smp, Options{}); r.Class == Degraded {
		t.Errorf("completions at 35 %% behind a limit above capacity: %s (%s)", r.Class, describeFindings(r.Findings, r.Start, 0))
	}
}

// TestAStepUnderAStandingQueueIsNoSlowerDownstream: a limit that held a
// standing queue where the RTT's baseline was read (the RTT at twice its
// min RTT or more, holdsQueue) deepens that queue when the downstream
// steps down: at the same requests in flight the RTT rises by what the
// step took and completions fall with it, and a min-RTT estimate re-read
// under that queue rises too. A held limit with its min RTT up 1.5× is
// then slower only with completions fallen far (slowerShare), not at half.
// go-concurrency-limits' Vegas run for real over a downstream of 10 that
// stepped down to 6 (no errors), read every 5 s on a seed drawn for
// validation only: completions at 48–53 % of their best, its estimate
// re-read 2.1× then 3.5× up, read degraded for 5¼ of the 12 minutes after
// the step. A downstream whose latency tripled behind such a queue is
// still slower (completions at a quarter); its first stage, doubled,
// reads as the step does — named, with "the series cannot tell which".
func TestAStepUnderAStandingQueueIsNoSlowerDownstream(t *testing.T) {
	step := readTestdata(t, "gcl-vegas-step-to-60-under-a-standing-queue-5s.csv")
	r := Classify("gcl-vegas", step, Options{})
	if r.Class != Healthy {
		t.Fatalf("a step to 60 %% under a standing queue: %s (%s)", r.Class, describeFindings(r.Findings, r.Start, 0))
	}
	creep := readTestdata(t, "gcl-vegas-latency-creep-under-a-standing-queue-5s.csv")
	r = Classify("gcl-vegas", creep, Options{})
	tripled := creep[0].Time.Add(17*time.Minute - 5*time.Second)
	var found bool
	for _, f := range r.Findings {
		if f.Class != Degraded {
			continue
		}
		found = true
		if f.Start.Before(tripled.Add(-2*time.Minute)) || f.Start.After(tripled.Add(35*time.Second)) {
			t.Errorf("degraded from %s, want from the tripling at %s: %s", f.Start.Format("15:04:05"), tripled.Format("15:04:05"), f.Evidence.Summary)
		}
	}
	if !found || r.Class != Degraded {
		t.Errorf("a latency tripled behind a standing queue: %s (%s)", r.Class, describeFindings(r.Findings, r.Start, 0))
	}
}

// TestALimitThatFollowedAStepIsNoSlowerDownstream: a limit that stepped
// down from its highest level (its 90th percentile at stepDrop of it or
// less) and holds there followed a downstream that lost part of its
// capacity; its completions fall with the step (to about 60 %), and the
// queue it keeps above the smaller downstream raises its min RTT. A held
// limit is then slower only with completions fallen far (slowerShare), not
// at half. go-concurrency-limits' AIMD driven in the simulator over a
// downstream of 150 stepped down to 90 (no errors, a seed drawn for
// validation) ramped to 433, followed the step to 258, and with
// completions at 0.496 of their best and its min RTT 3.4× the start-up
// window's, read degraded for a window.
func TestALimitThatFollowedAStepIsNoSlowerDownstream(t *testing.T) {
	step := readTestdata(t, "gcl-aimd-step-to-60-followed-15s.csv")
	if r := Classify("gcl-aimd", step, Options{}); r.Class != Healthy {
		t.Fatalf("a limit that followed a step to 60 %%: %s (%s)", r.Class, describeFindings(r.Findings, r.Start, 0))
	}
}

// TestABatchThatDrainsIsNoFallInside: a limit that fell to half inside a
// window as the RTT rose 1.5× is an incident opening inside it — unless
// in-flight emptied over the window's last third: a batch's burst that
// queued at the downstream, cut the limit and drained into an idle gap ends
// the window with nothing sent, and completions "fall to 0 %" because
// nothing was asked. go-concurrency-limits' Gradient run for real under a
// batch pipeline (a seed drawn for validation only) fell from 736 to 311 as
// a burst drained, its RTT 3× up, and read degraded for 100 s. The same
// readings with demand still pressing on the fallen limit through the gap
// are the incident the rule is for.
func TestABatchThatDrainsIsNoFallInside(t *testing.T) {
	smp := readTestdata(t, "gcl-gradient-batch-burst-drains-into-idle-5s.csv")
	wholeWithoutIncident(t, smp, PipelineBound, "a batch draining into an idle gap")
	// the gap 4:45–6:00 with the fallen limit full and the RTT still
	// rising: requests sent and not completing
	from, to := smp[0].Time.Add(4*time.Minute+40*time.Second), smp[0].Time.Add(6*time.Minute)
	r := classifyEdited(smp, editBetween(from, to, func(s *trace.Sample) {
		lim, _ := s.Value(trace.FieldLimit)
		s.Set(trace.FieldInFlight, lim)
		s.Set(trace.FieldRTT, 16000)
	}))
	in := degradedDuring(r, smp[0].Time.Add(4*time.Minute), to)
	if len(in) == 0 || !strings.Contains(in[0].Evidence.Summary, "the limit fell from") {
		t.Errorf("the limit fell to half with the RTT 3× up and the downstream taking nothing more: %s (%s)", r.Class, describeFindings(r.Findings, r.Start, 0))
	}
}

// TestAMisTunedLimiterWhoseQueueTimesOutIsNoIncident: a limiter swinging
// over its own queue that halves and halves again as that queue times out
// loses a trickle of requests while the limit falls to a few per cent of
// its peak and its RTT drains — what queueTimedOut reads over a window,
// read here reading by reading (queueDrained) inside a window that swung.
// go-concurrency-limits' AIMD mis-tuned over a downstream of 500, run for
// real (a seed drawn for validation only), fell from 1801 to 27 in 50 s
// losing 3.7 % of completions, its RTT from 31 s to 13 s, and that run
// read degraded for 44 s, which made the verdict. The same fall with the
// RTT standing (nothing drained), or with losses at a tenth and more (a
// downstream failing requests), is still an incident.
func TestAMisTunedLimiterWhoseQueueTimesOutIsNoIncident(t *testing.T) {
	smp := readTestdata(t, "gcl-aimd-mis-tuned-queue-times-out-5s.csv")
	wholeWithoutIncident(t, smp, Oscillating, "a mis-tuned AIMD's queue timing out")
	from, to := smp[0].Time.Add(6*time.Minute+40*time.Second), smp[0].Time.Add(7*time.Minute+30*time.Second)
	for _, c := range []struct {
		name string
		edit func(s *trace.Sample)
	}{
		{"the RTT standing at 31 s", func(s *trace.Sample) { s.Set(trace.FieldRTT, 31000) }},
		{"losses at a tenth of completions and more", func(s *trace.Sample) {
			d, _ := s.Value(trace.FieldDropped)
			s.Set(trace.FieldDropped, 4*d)
		}},
	} {
		r := classifyEdited(smp, editBetween(from, to, c.edit))
		if len(degradedDuring(r, from, to)) == 0 {
			t.Errorf("%s: the fall to 27 is no incident: %s (%s)", c.name, r.Class, describeFindings(r.Findings, r.Start, 0))
		}
	}
}

// TestAMisTunedLimiterThatCrashedDrainsItsOwnQueue: the window after one
// that swung, its limit at the bottom of the crash and its losses a
// trickle, with its RTT at two thirds or less of that window's: the crash
// drained the limiter's own queue and the losses were that queue timing
// out (queueTimedOut), not a downstream that can take less. go-concurrency-
// limits' AIMD mis-tuned over a downstream of 500, run for real (a seed
// drawn for validation), halved from 1657 to 20 as its 28-second queue
// timed out, sat at 10 with its RTT at 5–7 s, and that window read degraded
// ("the limit fell to half with losses appearing"), which made the
// verdict. The same window with its RTT still at the crash's 28 s is an
// incident.
func TestAMisTunedLimiterThatCrashedDrainsItsOwnQueue(t *testing.T) {
	smp := readTestdata(t, "gcl-aimd-mis-tuned-crash-drains-its-queue-5s.csv")
	wholeWithoutIncident(t, smp, Oscillating, "a mis-tuned AIMD's crash draining its queue")
	from, to := smp[0].Time.Add(14*time.Minute+45*time.Second), smp[0].Time.Add(16*time.Minute+5*time.Second)
	r := classifyEdited(smp, editBetween(from, to, func(s *trace.Sample) { s.Set(trace.FieldRTT, 28000) }))
	if len(degradedDuring(r, from, to)) == 0 {
		t.Errorf("the RTT standing at 28 s at the bottom: %s (%s)", r.Class, describeFindings(r.Findings, r.Start, 0))
	}
}

// TestASawToothSlowerThanAWindowIsOscillating: a saw-tooth whose period
// spans several windows shows in none of them as swings — a window holds a
// climb, or a fall to half and the start of the climb — and its window
// medians move by under a third, so neither the swings of a window nor the
// slow swing of the medians see it; its teeth do: falls to half or less
// from the level the limit regrows to, three of them within the last
// slowLevels windows (teeth). go-concurrency-limits' AIMD mis-tuned to
// halve, run for real and read every second (a seed drawn for validation
// only), climbs from 360 to 1050 and halves every three minutes: read
// healthy for the whole recording. The same recording with the teeth cut
// to a fall of a third (a back-off of 0.67) has no teeth.
func TestASawToothSlowerThanAWindowIsOscillating(t *testing.T) {
	const file = "gcl-aimd-mis-tuned-saw-tooth-slower-than-a-window-1s.csv"
	smp := readTestdata(t, file)
	r := Classify("gcl-aimd", smp, Options{})
	var saw bool
	for _, f := range r.Findings {
		saw = saw || f.Class == Oscillating && strings.Contains(f.Evidence.Summary, "a saw-tooth slower than a window")
	}
	if r.Class != Oscillating || !saw {
		t.Fatalf("a saw-tooth three windows long: %s (%s)", r.Class, describeFindings(r.Findings, r.Start, 0))
	}
	for i := range smp {
		if l, ok := smp[i].Value(trace.FieldLimit); ok {
			smp[i].Set(trace.FieldLimit, 1050-(1050-min(l, 1050))*0.5)
		}
		if n, ok := smp[i].Value(trace.FieldInFlight); ok {
			smp[i].Set(trace.FieldInFlight, 1050-(1050-min(n, 1050))*0.5)
		}
	}
	r = Classify("gcl-aimd", smp, Options{})
	for _, f := range r.Findings {
		if f.Class == Oscillating && strings.Contains(f.Evidence.Summary, "saw-tooth") {
			t.Errorf("falls to two thirds read as teeth: %s", f.Evidence.Summary)
		}
	}
}

// TestWigglesThenOneFallIsNoSwing: a limit that steps by a jitter or two a
// reading and then falls once to a new level spreads its window by that
// one move; its wiggles are legs of a fifth of a median they helped set,
// and four legs read as a swing. A swing returns across its band: two of
// its legs cross half of it (wideLegFraction). go-concurrency-limits'
// AIMD in the simulator (a seed drawn for validation only), healthy and
// read every 15 s, steps 54 → 61 → 53 → 60 and falls to 37 as its
// downstream sheds: read oscillating for that window, and that made the
// verdict. The same window with the limit going back and forth across the
// fall (two readings at 60, two at 35, …) still swings.
func TestWigglesThenOneFallIsNoSwing(t *testing.T) {
	smp := readTestdata(t, "gcl-aimd-wiggles-then-one-fall-15s.csv")
	wholeWithoutIncident(t, smp, Healthy, "wiggles by a jitter, then one fall")
	fall := smp[0].Time.Add(12 * time.Minute) // the reading at 00:12:15
	r := classifyEdited(smp, editBetween(fall.Add(-time.Second), fall.Add(3*time.Minute), func(s *trace.Sample) {
		l := 60.0
		if s.Time.Sub(fall)/(30*time.Second)%2 == 1 {
			l = 35
		}
		s.Set(trace.FieldLimit, l)
		s.Set(trace.FieldInFlight, l)
	}))
	if r.Class != Oscillating {
		t.Fatalf("the limit going back and forth across its fall: %s (%s)", r.Class, describeFindings(r.Findings, r.Start, 0))
	}
}

// TestAWanderIsNoSlowSwing: two legs in each of two windows spread by 40 %
// or more are a slow swing only where the second window's limit moves by
// half its median between two readings (slowSwingJump): a mis-tuned
// limiter swings by cuts, a limiter wandering under a noisy RTT walks.
// failsafe-go v0.9.8 over 100, run for real and read every 15 s, wanders
// 82–160 in a period of about three minutes, a sixth of its level at most
// a reading: it read oscillating for that window, and that made the
// verdict (healthy by intent; the suite's truth leaves it out, its limit
// swinging 39 %: neither calm nor swinging). The same recording squared off between 80 and 160 — the limit
// halving and doubling, as a back-off does — still swings.
func TestAWanderIsNoSlowSwing(t *testing.T) {
	smp := readTestdata(t, "failsafe-wandering-a-sixth-a-reading-15s.csv")
	wholeWithoutIncident(t, smp, Healthy, "a limit wandering a sixth of its level a reading")
	if got := Failing(Classify("failsafe-adaptive", smp, Options{}), []Class{Oscillating}); len(got) != 0 {
		t.Fatalf("a wander read as a swing somewhere: %v", got)
	}
	r := classifyEdited(smp, func(s []trace.Sample) {
		for i := range s {
			l, _ := s[i].Value(trace.FieldLimit)
			sq := 80.0
			if l >= 125 {
				sq = 160
			}
			n, _ := s[i].Value(trace.FieldInFlight)
			s[i].Set(trace.FieldLimit, sq)
			s[i].Set(trace.FieldInFlight, min(n, sq))
		}
	})
	if r.Class != Oscillating {
		t.Fatalf("the limit halving and doubling between 80 and 160: %s (%s)", r.Class, describeFindings(r.Findings, r.Start, 0))
	}
}
