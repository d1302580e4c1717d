package tune

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/limitscope/limitscope/internal/testtools"
	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/sim"
	"github.com/limitscope/limitscope/trace"
)

// recordedRun simulates a gradient limiter with smoothing s on a scenario
// and returns the run.
func recordedRun(sc sim.Scenario, s float64) sim.Result {
	return runWith(sc, &limiter.Gradient{Smoothing: s}, 0)
}

func runWith(sc sim.Scenario, g *limiter.Gradient, cap int) sim.Result {
	return sim.Run(sc, &limiter.Windowed{Limiter: g, Window: 100 * time.Millisecond, MinSamples: 20}, sim.Options{Name: "x", Cap: cap})
}

func validationScenario() sim.Scenario {
	// demand above capacity throughout, so the capacity is identifiable;
	// capacity steps so the settings matter
	sc := sim.Scenario{Duration: sim.Duration(21 * time.Minute), Seed: 11, Schedule: []sim.Step{
		{At: 0, Capacity: f(30), BaseLatency: d(20 * time.Millisecond), Demand: f(4000)},
		{At: sim.Duration(7 * time.Minute), Capacity: f(60)},
		{At: sim.Duration(14 * time.Minute), Capacity: f(20)},
	}}
	sc.Downstream.ShedAt = 3
	sc.Downstream.LatencySigma = 0.1
	if err := sc.Normalise(); err != nil {
		panic(err)
	}
	return sc
}

func TestOpenLoopFeedsRecordedRTTs(t *testing.T) {
	sc := validationScenario()
	sc.Duration = sim.Duration(3 * time.Minute)
	rec, err := Prepare("x", recordedRun(sc, 0.2).Samples)
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Replay(gradientCandidate(0.1, 0), OpenLoop)
	b := rec.Replay(gradientCandidate(0.9, 0), OpenLoop)
	if a.P99Ms != b.P99Ms {
		t.Fatal("open loop must see the recorded RTTs whatever the settings")
	}
	if a.OscillationIndex >= b.OscillationIndex {
		t.Fatalf("higher smoothing must move the limit more: %.2f vs %.2f", a.OscillationIndex, b.OscillationIndex)
	}
	c := rec.Replay(gradientCandidate(0.9, 12), OpenLoop)
	for _, s := range c.Samples {
		if s.Limit > 12 {
			t.Fatalf("cap 12 exceeded: %v", s.Limit)
		}
	}
	if _, err := Prepare("y", []trace.Sample{{Time: time.Unix(0, 0), Limit: 3, Fields: trace.FieldLimit}}); err == nil {
		t.Fatal("a trace without rtt_ms must be refused")
	}
}

// swingingTrace is n samples at 1 kHz of an RTT swinging slowly between 5
// and 16 ms with in-flight 30–40, a loss every lossEvery samples (0: none).
func swingingTrace(n, lossEvery int) []trace.Sample {
	t0 := time.Unix(1764410400, 0)
	s := make([]trace.Sample, n)
	for i := range s {
		x := trace.Sample{Time: t0.Add(time.Duration(i) * time.Millisecond)}
		x.Set(trace.FieldRTT, 10+5*math.Sin(float64(i)/5000)+float64(i%7)/7)
		x.Set(trace.FieldInFlight, float64(30+i%11))
		if lossEvery > 0 && i%lossEvery == 0 {
			x.Set(trace.FieldDropped, 1)
		}
		s[i] = x
	}
	return s
}

func BenchmarkWhatIf3600kSamples(b *testing.B) {
	r := hourAt1kHz(b)
	for _, m := range []Mode{OpenLoop, ClosedLoop} {
		b.Run(m.String(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				r.Replay(gradientCandidate(0.2, 0), m)
			}
		})
	}
}

// TestPipelinedOpenLoopEqualsTheGeneralLoop checks the two-pass open-loop
// replay against the general loop on a fine-grained trace.
func TestPipelinedOpenLoopEqualsTheGeneralLoop(t *testing.T) {
	r, err := Prepare("x", swingingTrace(200_000, 997))
	if err != nil {
		t.Fatal(err)
	}
	fast := r.ReplayWindow(gradientCandidate(0.3, 35), OpenLoop, 100*time.Millisecond)
	r.maxGap = 1 << 62 // force the general loop (which will not sub-step 1 ms intervals)
	slow := r.ReplayWindow(gradientCandidate(0.3, 35), OpenLoop, 100*time.Millisecond)
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("pipelined open loop differs:\n%+v\n%+v", fast.Utilisation, slow.Utilisation)
	}
}

func f(v float64) *float64            { return &v }
func d(v time.Duration) *sim.Duration { x := sim.Duration(v); return &x }

// gradientCandidate is limitscope's gradient with smoothing s under cap.
func gradientCandidate(s, cap float64) Candidate {
	g := &limiter.Gradient{Smoothing: s}
	return Candidate{Limiter: g, Cap: cap, Top: topOf(g, int(cap))}
}

// topOf is the highest limit g can set under cap.
func topOf(g *limiter.Gradient, cap int) float64 {
	top := g.MaxLimit
	if top == 0 {
		top = limiter.DefaultMaxLimit
	}
	if cap > 0 {
		top = min(top, float64(cap))
	}
	return top
}

// TestGapsInARecordingAreNotReplayedAsTime: a trace joining a recording
// with itself a month later (two record --append runs) replays as the two
// recordings back to back: the closed loop defers about twice what one
// recording defers (replayed whole, the month deferred a month of demand),
// the trace's duration leaves the gap out, and the what-if's samples keep
// their recorded times, so its verdict sees two recordings.
func TestGapsInARecordingAreNotReplayedAsTime(t *testing.T) {
	sc := validationScenario()
	sc.Duration = sim.Duration(5 * time.Minute)
	// our simulator's gradient, and go-concurrency-limits v1.0.0's AIMD
	// run for real (read every 15 s, rejections and losses recorded)
	for name, one := range map[string][]trace.Sample{
		"simulated gradient":         recordedRun(sc, 0.2).Samples,
		"go-concurrency-limits AIMD": testtools.ReadTrace(t, filepath.Join("..", "diagnose", "testdata", "gcl-aimd-healthy-15s.csv")),
	} {
		t.Run(name, func(t *testing.T) { gapsNotReplayed(t, one) })
	}
}

func gapsNotReplayed(t *testing.T, one []trace.Sample) {
	span := one[len(one)-1].Time.Sub(one[0].Time)
	for _, gap := range []time.Duration{2 * time.Minute, 30 * 24 * time.Hour} {
		joined := append([]trace.Sample(nil), one...)
		for _, s := range one {
			s.Time = s.Time.Add(span + gap)
			joined = append(joined, s)
		}
		alone, err := Prepare("x", one)
		if err != nil {
			t.Fatal(err)
		}
		both, err := Prepare("x", joined)
		if err != nil {
			t.Fatal(err)
		}
		// the join replays as the gap (under replayGap intervals and a
		// minute: at 15 s sampling two minutes are no gap) or as one
		// median interval
		iv := time.Duration(medianInterval(alone.ns))
		joint := gap
		if gap > max(replayGap*iv, time.Minute) {
			joint = iv
		}
		if want := 2*alone.Duration + joint; both.Duration < want-time.Second || both.Duration > want+time.Second {
			t.Errorf("gap %v: duration %v, want %v (twice %v and the joint)", gap, both.Duration, want, alone.Duration)
		}
		for _, m := range []Mode{OpenLoop, ClosedLoop} {
			a, b := alone.Replay(gradientCandidate(0.2, 0), m), both.Replay(gradientCandidate(0.2, 0), m)
			if r := b.Deferred / a.Deferred; a.Deferred > 0 && (r < 1.5 || r > 2.5) {
				t.Errorf("gap %v, %s: deferred %.0f, one recording %.0f: want about twice", gap, m, b.Deferred, a.Deferred)
			}
			if d := math.Abs(b.Utilisation - a.Utilisation); d > 0.05 {
				t.Errorf("gap %v, %s: utilisation %.3f, one recording %.3f", gap, m, b.Utilisation, a.Utilisation)
			}
			last := b.Samples[len(b.Samples)-1].Time
			if want := joined[len(joined)-1].Time; last.Before(want.Add(-2*time.Second)) || last.After(want) {
				t.Errorf("gap %v, %s: the what-if ends at %v, the recording at %v", gap, m, last, want)
			}
		}
	}
}
