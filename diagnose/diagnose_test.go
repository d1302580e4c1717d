package diagnose

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/limitscope/limitscope/internal/testtools"
	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/sim"
	"github.com/limitscope/limitscope/trace"
)

func fp(v float64) *float64 { return &v }
func dp(v time.Duration) *sim.Duration {
	x := sim.Duration(v)
	return &x
}

// testScenario is a simulator scenario of the given length, sample
// interval, seed and schedule, with the downstream shedding above three
// times its capacity (the labelled sets' downstream).
func testScenario(name string, dur, iv time.Duration, seed uint64, steps []sim.Step) sim.Scenario {
	sc, err := sim.Parse([]byte("duration: 1m\nschedule:\n  - {at: 0s, capacity: 1, base_latency: 1ms, demand: 1}\n"), name)
	if err != nil {
		panic(err) // a constant scenario: cannot fail
	}
	sc.Duration, sc.Interval, sc.Seed, sc.Schedule = sim.Duration(dur), sim.Duration(iv), seed, steps
	sc.Downstream.ShedAt = 3
	return sc
}

// simTrace runs a short scenario through a gradient limiter.
func simTrace(t testing.TB, dur time.Duration, steps []sim.Step, iv time.Duration) []trace.Sample {
	t.Helper()
	sc := testScenario("t", dur, iv, 5, steps)
	g := &limiter.Windowed{Limiter: &limiter.Gradient{InitialLimit: 40}, Window: 100 * time.Millisecond, MinSamples: 100}
	return sim.Run(sc, g, sim.Options{Name: "payments"}).Samples
}

func step(at time.Duration, c float64, base time.Duration, demand float64) sim.Step {
	s := sim.Step{At: sim.Duration(at)}
	if c > 0 {
		s.Capacity = fp(c)
	}
	if base > 0 {
		s.BaseLatency = dp(base)
	}
	if demand > 0 {
		s.Demand = fp(demand)
	}
	return s
}

func TestEpisodesHealthyThenDegraded(t *testing.T) {
	samples := simTrace(t, 35*time.Minute, []sim.Step{step(0, 40, 20*time.Millisecond, 3000), step(20*time.Minute, 2, 0, 0)}, time.Second)
	r := Classify("payments", samples, Options{})
	if r.Class != Degraded {
		t.Fatalf("verdict %s, want degraded-downstream", r.Class)
	}
	var healthy, degraded *Finding
	for i := range r.Findings {
		switch r.Findings[i].Class {
		case Healthy:
			healthy = &r.Findings[i]
		case Degraded:
			degraded = &r.Findings[i]
		}
	}
	if healthy == nil || degraded == nil {
		t.Fatalf("want both a healthy and a degraded episode, got %+v", r.Findings)
	}
	change := sim.Epoch.Add(20 * time.Minute)
	if d := degraded.Start.Sub(change); d < -DefaultWindow || d > DefaultWindow {
		t.Fatalf("degraded episode starts %v from the change, want within one window", d)
	}
	if degraded.Severity != SevCritical || degraded.Recommendation == "" || degraded.Evidence.Values["rtt_min_rise"] < 1.5 {
		t.Fatalf("degraded finding lacks severity/evidence/recommendation: %+v", degraded)
	}
}

// A stream's result equals the batch's at its end and, taken at any point,
// the batch's of the samples so far, and taking it changes nothing: also
// for a 30 s reading repeated every second, whose first windows are held
// until its readings show (holding) and whose result meanwhile is decided
// on a copy, for readings 2 minutes apart, whose first window is held
// until the window is sized, and for the 30 s readings an hour after rows
// that do not repeat (probeAfresh), or after a few rows held too few to
// judge.
func TestStreamingEqualsBatchAndResultDoesNotMutate(t *testing.T) {
	samples := simTrace(t, 25*time.Minute, []sim.Step{step(0, 40, 20*time.Millisecond, 3000), step(12*time.Minute, 0, 0, 300)}, 2*time.Second)
	repeated := testtools.RepeatReadings(simTrace(t, 25*time.Minute, []sim.Step{step(0, 40, 20*time.Millisecond, 3000), step(12*time.Minute, 0, 0, 300)}, 30*time.Second), 30, false)
	// read every 2 minutes, the first window is held until the window is
	// sized (8 intervals): 5 minutes hold too few readings to judge. One
	// 24-minute window holds the demand drop and the saturated load before
	// it: healthy
	every2min := simTrace(t, 25*time.Minute, []sim.Step{step(0, 40, 20*time.Millisecond, 3000), step(12*time.Minute, 0, 0, 300)}, 2*time.Minute)
	// the 30 s readings in 30 rows an hour after the rows read every 2 s:
	// that recording decides its own fold, and its first windows are held
	// until its readings show, counted from its own first row
	joined, _ := joinedAfter(samples, repeated, FreshAfter)
	n := len(samples)
	// and after 5 rows a second apart, whose window is held (too few to
	// judge) when the hour's gap comes: the gap is closed only once the
	// window is sized, 8 intervals in, with rows after it already counted
	few, _ := joinedAfter(samples[:5], repeated, FreshAfter)
	for _, c := range []struct {
		name     string
		samples  []trace.Sample
		at       []int // rows after which the result must equal the batch's of the rows so far
		want     Class
		repeated int // Stats.RepeatedRows
	}{
		{"every 2 s", samples, []int{40, 200}, PipelineBound, 0},
		{"every 30 s, each reading in 30 rows", repeated, []int{61, 75, 89, 200}, PipelineBound, 29 * 49},
		{"every 2 min", every2min, []int{2, 3, 5, 7, 8, 10}, Healthy, 0},
		{"every 2 s, then after an hour every 30 s in 30 rows", joined, []int{n + 7, n + 61, n + 75, n + 89, n + 200}, PipelineBound, 29 * 49},
		{"5 rows, then after an hour every 30 s in 30 rows", few, []int{3, 5, 8, 12, 66, 80, 205}, PipelineBound, 29 * 49},
		// a minute of tripled latency found in its readings
		// (shortSlowdowns) when the window the run ends in closes
		{"a minute slower, every 15 s", readTestdata(t, "gradient-minute-slower-15s.csv"), []int{33, 36, 44, 45, 46, 60, 179}, Degraded, 0},
		{"a minute of capacity lost, every 15 s", readTestdata(t, "gcl-gradient2-minute-capacity-lost-15s.csv"), []int{33, 36, 44, 45, 46, 60, 179}, Degraded, 0},
	} {
		batch := Classify("payments", c.samples, Options{})
		st := NewStream("payments", Options{})
		for i, s := range c.samples {
			st.Push(s)
			if i%97 == 0 {
				st.Result()
				st.Current()
			}
			if slices.Contains(c.at, i) {
				if got, want := st.Result(), Classify("payments", c.samples[:i+1], Options{}); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, after row %d: streaming result differs from batch:\n%+v\n%+v", c.name, i, got, want)
				}
			}
		}
		if got := st.Result(); !reflect.DeepEqual(got, batch) {
			t.Fatalf("%s: streaming result differs from batch:\n%+v\n%+v", c.name, got, batch)
		}
		if batch.Class != c.want || batch.Stats.RepeatedRows != c.repeated {
			t.Fatalf("%s, demand drop: verdict %s with %d rows folded, want %s with %d", c.name, batch.Class, batch.Stats.RepeatedRows, c.want, c.repeated)
		}
	}
}

func TestScaleFreeAndIntervalRobust(t *testing.T) {
	// capacities 8 and 40 (base latency 32 ms and 160 ms): at 350 the base
	// latency (1.4 s) exceeds the client's 1 s timeout, every request is a
	// loss and the limiter sits pinned at its floor — not a healthy run
	for _, c := range []float64{8, 40} {
		for _, iv := range []time.Duration{time.Second, 15 * time.Second} {
			base := time.Duration(c / 250 * float64(time.Second))
			samples := simTrace(t, 20*time.Minute, []sim.Step{step(0, c, base, 1.5*c/base.Seconds())}, iv)
			for i := range samples {
				samples[i].Limit *= 1 // scale is in the data itself
			}
			if r := Classify("x", samples, Options{}); r.Class != Healthy {
				t.Errorf("C=%v interval %v: %s, want healthy (%+v)", c, iv, r.Class, r.Findings)
			}
		}
	}
}

func TestMissingSeriesAreUnreachableNotGuessed(t *testing.T) {
	samples := simTrace(t, 20*time.Minute, []sim.Step{step(0, 40, 20*time.Millisecond, 3000), step(8*time.Minute, 0, 0, 200)}, time.Second)
	for i := range samples {
		samples[i].Fields &^= trace.FieldInFlight | trace.FieldRejected // as Envoy exports
	}
	r := Classify("envoy", samples, Options{})
	if r.Class == PipelineBound {
		t.Fatal("pipeline-bound claimed without an in-flight series")
	}
	found := false
	for _, u := range r.Unreachable {
		if u.Class == PipelineBound {
			found = true
		}
	}
	if !found {
		t.Fatalf("pipeline-bound must be listed unreachable: %+v", r.Unreachable)
	}
	noLimit := make([]trace.Sample, len(samples))
	for i := range samples {
		noLimit[i] = samples[i]
		noLimit[i].Fields = trace.FieldRTT
	}
	if r := Classify("x", noLimit, Options{}); r.Class != Insufficient {
		t.Fatalf("no limit series: %s", r.Class)
	}
	if r := Classify("x", samples[:shortTraceSamples-1], Options{}); r.Class != Insufficient || r.Confidence != 0 || r.Findings[0].Severity != SevNone {
		t.Fatalf("11 s of data: %s (confidence %v)", r.Class, r.Confidence)
	} else if want := "11 samples over 10s; a verdict needs a 1m0s window holding at least 6 limit samples, or at least 12 in a recording shorter than that (8 where they span 5m0s or more)"; r.Findings[0].Evidence.Summary != want {
		// the rule a short recording failed, not "half a window", which
		// eleven samples over ten seconds do not fall short of
		t.Errorf("11 s of data says %q, want %q", r.Findings[0].Evidence.Summary, want)
	} else if want := "Record for longer: read every 1s, 1 more reading (1s) would make the recording long enough to judge."; r.Findings[0].Recommendation != want {
		// how much longer, where length is what it lacks
		t.Errorf("11 s of data recommends %q, want %q", r.Findings[0].Recommendation, want)
	}
	// where some readings carry no limit, the count is of readings with one,
	// a floor: those to come may carry none either
	oneUnmeasured := append([]trace.Sample(nil), samples[:shortTraceSamples]...)
	oneUnmeasured[3].Fields &^= trace.FieldLimit
	if r := Classify("x", oneUnmeasured, Options{}); r.Class != Insufficient {
		t.Errorf("11 limit samples in 12 rows: %s", r.Class)
	} else if want := "Record for longer: read every 1s, 1 more reading with a limit (1s at the least) would make the recording long enough to judge; 1 of its readings carries none."; r.Findings[0].Recommendation != want {
		t.Errorf("11 limit samples in 12 rows recommend %q, want %q", r.Findings[0].Recommendation, want)
	}
	// where it is not length (20 minutes with the limit read in the first
	// 2 rows only), the recommendation names no count
	fewLimits := append([]trace.Sample(nil), samples...)
	for i := 2; i < len(fewLimits); i++ {
		fewLimits[i].Fields &^= trace.FieldLimit
	}
	if r := Classify("x", fewLimits, Options{}); r.Class != Insufficient || !strings.HasPrefix(r.Findings[0].Recommendation, "Record for longer (at least one window)") {
		t.Errorf("a limit read twice in 20 minutes: %s, recommending %q", r.Class, r.Findings[0].Recommendation)
	}
	// a short recording with a story gets a verdict, not insufficient-data
	if r := Classify("x", samples[:100], Options{}); r.Class == Insufficient {
		t.Fatalf("100 s of data at 1 s: %s, want a verdict", r.Class)
	}
}

func TestGapsAndRestartsDoNotInventVerdicts(t *testing.T) {
	samples := simTrace(t, 30*time.Minute, []sim.Step{step(0, 40, 20*time.Millisecond, 3000)}, time.Second)
	// a 6-minute gap, and a restart: the limit back to 10, min RTT forgotten
	var cut []trace.Sample
	for i, s := range samples {
		if i >= 600 && i < 960 {
			continue
		}
		if i >= 960 && i < 975 {
			s.Limit = 10 + float64(i-960)*2
		}
		cut = append(cut, s)
	}
	if r := Classify("x", cut, Options{}); r.Class != Healthy {
		t.Fatalf("gap and restart: %s %+v", r.Class, r.Findings)
	}
}

func TestSignatures(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	mk := func(n int, f func(i int, s *trace.Sample)) []trace.Sample {
		out := make([]trace.Sample, n)
		for i := range out {
			s := trace.Sample{Time: t0.Add(time.Duration(i) * time.Second), Target: "x"}
			f(i, &s)
			out[i] = s
		}
		return out
	}
	has := func(r Result, c Class) bool {
		for _, f := range r.Findings {
			if f.Class == c {
				return true
			}
		}
		return false
	}
	// stale min RTT: min flat at 10 ms, RTT 30 ms, limit sinking
	stale := mk(600, func(i int, s *trace.Sample) {
		s.Set(trace.FieldLimit, 100-float64(i%300)/5)
		s.Set(trace.FieldInFlight, 100-float64(i%300)/5)
		s.Set(trace.FieldRTTMin, 10)
		s.Set(trace.FieldRTT, 30)
	})
	if r := Classify("x", stale, Options{}); !has(r, StaleRTTMin) {
		t.Errorf("stale-rtt-min not found: %+v", r.Findings)
	}
	// idle growth: limit at its max 400 with in-flight 20, then a burst
	idle := mk(1000, func(i int, s *trace.Sample) {
		s.Set(trace.FieldLimit, 400)
		inf := 20.0
		if i >= 600 {
			inf = 390
		}
		s.Set(trace.FieldInFlight, inf)
		s.Set(trace.FieldRTTMin, 10)
	})
	if r := Classify("x", idle, Options{}); !has(r, IdleGrowth) {
		t.Errorf("idle-growth not found: %+v", r.Findings)
	}
	// errors raising the limit
	errs := mk(600, func(i int, s *trace.Sample) {
		s.Set(trace.FieldLimit, 20+float64(i%300)/3)
		s.Set(trace.FieldInFlight, 20+float64(i%300)/3)
		s.Set(trace.FieldRTTMin, 2)
		s.Set(trace.FieldDropped, float64(i%300)/10+1)
	})
	if r := Classify("x", errs, Options{}); !has(r, ErrorAcceleration) {
		t.Errorf("error-acceleration not found: %+v", r.Findings)
	}
}

func benchSamples(b *testing.B) []trace.Sample {
	s := simTrace(b, 60*time.Minute, []sim.Step{step(0, 40, 20*time.Millisecond, 3000), step(30*time.Minute, 0, 0, 300)}, time.Second)
	return s
}

func BenchmarkClassifyBatch(b *testing.B) {
	s := benchSamples(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Classify("x", s, Options{})
	}
	b.ReportMetric(float64(len(s)*b.N)/b.Elapsed().Seconds(), "samples/s")
}

func BenchmarkStreamPush(b *testing.B) {
	s := benchSamples(b)
	st := NewStream("x", Options{})
	for _, x := range s { // warm up: buffers at steady size
		st.Push(x)
	}
	span := s[len(s)-1].Time.Sub(s[0].Time) + time.Second
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x := s[i%len(s)]
		x.Time = x.Time.Add(span * time.Duration(1+i/len(s)))
		st.Push(x)
	}
}

func TestQuantileSelectionMatchesSorting(t *testing.T) {
	for n := 1; n < 200; n += 7 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64((i*7919)%101) + float64(i%3)/10
		}
		sorted := append([]float64(nil), v...)
		sort.Float64s(sorted)
		q := func(p float64) float64 { return sorted[int(p*float64(n-1))] }
		b, c := medianAnd90(append([]float64(nil), v...))
		if b != q(0.5) || c != q(0.9) {
			t.Fatalf("n=%d: got %v %v", n, b, c)
		}
		p10, p25, p50, p75, p90 := quantiles5(append([]float64(nil), v...))
		if p10 != q(0.1) || p25 != q(0.25) || p50 != q(0.5) || p75 != q(0.75) || p90 != q(0.9) {
			t.Fatalf("n=%d: got %v %v %v %v %v", n, p10, p25, p50, p75, p90)
		}
	}
}

// TestNthPartitions pins nth's contract, which quantiles5 and the min-RTT
// spread rely on: v[k] is the k-th smallest, nothing before it is larger and
// nothing after it smaller, for values spread, few and equal; a NaN ends the
// selection instead of looping.
func TestNthPartitions(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	shapes := []struct {
		name string
		gen  func(i int) float64
	}{
		{"spread", func(int) float64 { return r.Float64() }},
		{"two values", func(int) float64 { return float64(44 + r.IntN(2)) }},
		{"equal", func(int) float64 { return 5 }},
		{"rising", func(i int) float64 { return float64(i) }},
		{"falling", func(i int) float64 { return float64(-i) }},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			for it := 0; it < 2000; it++ {
				n := 1 + r.IntN(300)
				v := make([]float64, n)
				for i := range v {
					v[i] = sh.gen(i)
				}
				sorted := append([]float64(nil), v...)
				sort.Float64s(sorted)
				k := r.IntN(n)
				if got := nth(v, k); got != sorted[k] || v[k] != got {
					t.Fatalf("n=%d k=%d: nth %v, v[k] %v, want %v", n, k, got, v[k], sorted[k])
				}
				for i := range v {
					if i < k && v[i] > v[k] || i > k && v[i] < v[k] {
						t.Fatalf("n=%d k=%d: v[%d]=%v on the wrong side of %v", n, k, i, v[i], v[k])
					}
				}
			}
		})
	}
	t.Run("NaN", func(t *testing.T) {
		for n := 1; n < 40; n++ {
			v := make([]float64, n)
			for i := range v {
				v[i] = math.NaN()
			}
			v[n/2] = 1
			nth(v, n/2) // must return
		}
	})
}

func TestMedianNetworksMatchSorting(t *testing.T) {
	vals := []float64{1, 2, 2, 3, 5}
	check := func(a []float64) {
		var w [maxFilterWidth]float64
		copy(w[:], a)
		s := append([]float64(nil), a...)
		sort.Float64s(s)
		if got := median9(&w, len(a)); got != s[len(a)/2] {
			t.Fatalf("median of %v = %v, want %v", a, got, s[len(a)/2])
		}
	}
	var perm func(a []float64, k int)
	perm = func(a []float64, k int) {
		if k == len(a) {
			check(a)
			check(a[:3])
			check(a[:4])
			return
		}
		for i := k; i < len(a); i++ {
			a[k], a[i] = a[i], a[k]
			perm(a, k+1)
			a[k], a[i] = a[i], a[k]
		}
	}
	perm(vals, 0)
}

// synth builds n samples at interval iv from a generator of the i-th row.
func synth(n int, iv time.Duration, row func(i int) (limit, inFlight, rttMin, rtt, dropped, rejected float64)) []trace.Sample {
	out := make([]trace.Sample, n)
	for i := range out {
		l, f, m, r, d, j := row(i)
		s := trace.Sample{Time: sim.Epoch.Add(time.Duration(i) * iv), Target: "x"}
		if l >= 0 { // negative: not measured (a limiter re-measuring)
			s.Set(trace.FieldLimit, l)
		}
		s.Set(trace.FieldInFlight, f)
		if m >= 0 { // negative: not measured (failsafe-go, AIMD keep none)
			s.Set(trace.FieldRTTMin, m)
		}
		if r >= 0 { // negative: not measured (no success in the interval)
			s.Set(trace.FieldRTT, r)
		}
		if d >= 0 { // negative: not measured
			s.Set(trace.FieldDropped, d)
		}
		if j >= 0 { // negative: not measured
			s.Set(trace.FieldRejected, j)
		}
		out[i] = s
	}
	return out
}

// TestBindingConstraintAndCapacityEvidence pins the evidence the verdicts
// rest on, one rule a row; each row fails if its rule is removed.
func TestBindingConstraintAndCapacityEvidence(t *testing.T) {
	wobble := func(i int) float64 { return float64(i%3) - 1 } // -1, 0, 1
	// stepped rows are before until sample 600 and after from it (limit,
	// in-flight, min RTT, RTT, dropped, rejected), the limit wobbling ±1
	stepped := func(before, after [6]float64) func(i int) (float64, float64, float64, float64, float64, float64) {
		return func(i int) (float64, float64, float64, float64, float64, float64) {
			r := before
			if i >= 600 {
				r = after
			}
			return r[0] + wobble(i), r[1], r[2], r[3], r[4], r[5]
		}
	}
	cases := []struct {
		name string
		rows func(i int) (float64, float64, float64, float64, float64, float64)
		want Class
	}{
		{"in-flight at 0.8 of the limit, a few percent rejected: not binding", func(i int) (float64, float64, float64, float64, float64, float64) {
			// 40 in flight at 20 ms: 2000 completions a second; 30 rejected is 1.5 %
			return 50, 40 + wobble(i), 20, 21, 0, 30
		}, PipelineBound},
		{"saturated: a third of demand rejected", func(i int) (float64, float64, float64, float64, float64, float64) {
			return 50, 49 + wobble(i), 20, 21, 0, 1000
		}, Healthy},
		{"worker pool: in-flight flat at 32 below a limit of 40, rejections not measured", func(i int) (float64, float64, float64, float64, float64, float64) {
			return 40 + wobble(i), 32, 20, 21, 0, -1
		}, PipelineBound},
		{"capacity collapse with errors at flat latency", stepped([6]float64{60, 59, 20, 21, 0, 500}, [6]float64{15, 15, 20, 21, 40, 500}), Degraded},
		{"a step down with no error rise that settles", stepped([6]float64{60, 59, 20, 21, 0, 500}, [6]float64{15, 15, 20, 21, 0, 500}), Healthy},
		// completions at 49 % of their best
		{"a step down to 60 % that a limiter holds above (AIMD: its own queue raises the min RTT 1.65×, no errors): following, not pinned low",
			stepped([6]float64{58, 58, 100, 200, 0, 500}, [6]float64{34, 34, 165, 240, 0, 500}), Healthy},
		{"the same limiter cut to half with the min RTT up 1.65×: pinned low, slower",
			stepped([6]float64{58, 58, 100, 200, 0, 500}, [6]float64{29, 29, 165, 240, 0, 500}), Degraded},
		{"AIMD pinned at its floor flipping 1↔2 is not oscillation", func(i int) (float64, float64, float64, float64, float64, float64) {
			return float64(1 + i%2), float64(1 + i%2), 20, 21, 0, 50
		}, Healthy},
		{"pinned after a slowdown, the baseline min-RTT estimate inflated by queueing: the RTT doubling says it", func(i int) (float64, float64, float64, float64, float64, float64) {
			if i < 600 {
				return 20 + wobble(i), 20, 45, 50, 0, 500
			}
			return 6, 6, 66, 110, 0, 500
		}, Degraded},
		{"Envoy re-measuring: concurrency pinned (limit not exported) once a minute, rejections in that interval and the next, in-flight a third of the limit otherwise", func(i int) (float64, float64, float64, float64, float64, float64) {
			// counted, the rejections would be 9 % of the window's demand
			switch i % 60 {
			case 0:
				return -1, 3, 200, 250, 0, 1800
			case 1:
				return 110, 40, 200, 250, 0, 900
			}
			return 110 + wobble(i), 40 + wobble(i), 200, 250, 0, 0
		}, PipelineBound},
		{"batches: bursts rejected at the limit, in-flight a fifteenth of it by median", func(i int) (float64, float64, float64, float64, float64, float64) {
			if i%60 < 3 {
				return 150, 150, 20, 21, 0, 3000
			}
			return 150, 10 + wobble(i), 20, 21, 0, 0
		}, PipelineBound},
		{"starts with losses, the limit flipping 8↔9 at a healthy downstream's shed point, the RTT at its floor: a limiter probing, not a verdict", func(i int) (float64, float64, float64, float64, float64, float64) {
			return float64(8 + i%2), float64(8 + i%2), 20, 21, 200, 100
		}, Healthy},
		{"starts already degraded: the limit nailed to its minimum with losses, the latency flat", func(i int) (float64, float64, float64, float64, float64, float64) {
			return 4, 4, 20, 21, 10, 500
		}, Degraded},
		{"losses not measured: a continuous limit fell from 60 to its minimum and is nailed there, in-flight pressed against it", func(i int) (float64, float64, float64, float64, float64, float64) {
			if i < 600 {
				return 60 + 0.37*wobble(i), 59, 20, 21, -1, -1
			}
			return 4, 4, 20, 21, -1, -1
		}, Degraded},
		{"losses not measured: an integer limit fell from 60 to 14 and sits exactly there (Vegas' own equilibrium)", func(i int) (float64, float64, float64, float64, float64, float64) {
			if i < 600 {
				return 60 + wobble(i), 59, 20, 21, -1, -1
			}
			return 14, 14, 20, 21, -1, -1
		}, Healthy},
		{"rejections not measured: in-flight at 0.7 of the limit, reaching it in one sample in ten", func(i int) (float64, float64, float64, float64, float64, float64) {
			if i%10 == 0 {
				return 50.3, 50, 20, 21, 0, -1
			}
			return 50.3, 35 + wobble(i), 20, 21, 0, -1
		}, PipelineBound},
		{"rejections not measured: in-flight pressed against the limit", func(i int) (float64, float64, float64, float64, float64, float64) {
			return 50.3 + 0.3*wobble(i), 50, 20, 21, 0, -1
		}, Healthy},
		{"starts already degraded: pinned low with losses", func(i int) (float64, float64, float64, float64, float64, float64) {
			return 4, 4, 20, 45, 20, 500
		}, Degraded},
	}
	for _, c := range cases {
		r := Classify("x", synth(1200, time.Second, c.rows), Options{})
		if r.Class != c.want {
			t.Errorf("%s: %s, want %s (%+v)", c.name, r.Class, c.want, r.Findings)
		}
	}
}

func TestStandingQueueIsAFindingOfItsOwn(t *testing.T) {
	// a fixed limit of 100 with the RTT at 3× the min RTT throughout
	r := Classify("x", synth(900, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		return 100, 100, 20, 60 + float64(i%3), 0, 300
	}), Options{})
	var sq *Finding
	for i := range r.Findings {
		if r.Findings[i].Class == StandingQueue {
			sq = &r.Findings[i]
		}
	}
	if sq == nil {
		t.Fatalf("no standing-queue finding: %+v", r.Findings)
	}
	// it says what it saw, with the numbers, and what to do
	for _, part := range []string{"3.0× the min RTT", "flat at 100.0", "above what the downstream takes"} {
		if !strings.Contains(sq.Evidence.Summary, part) {
			t.Errorf("the standing-queue evidence %q does not say %q", sq.Evidence.Summary, part)
		}
	}
	if !strings.Contains(sq.Recommendation, "lower the static limit") {
		t.Errorf("the standing-queue recommendation %q does not say to lower the limit", sq.Recommendation)
	}
	if sq.Evidence.Values["rtt_median_ms"] != 61 {
		t.Errorf("rtt_median_ms = %v, want 61", sq.Evidence.Values["rtt_median_ms"])
	}
}

// A flat limit whose min-RTT estimate already held the queue (a static
// limit above capacity from the first request: RTT and min RTT alike at
// 45 ms) shows its standing queue only against the trace's later, lower
// min RTT (20 ms once demand fell): the finding covers the queued time and
// names the baseline. The same trace without the queue gets none.
func TestStandingQueueAgainstALaterBaseline(t *testing.T) {
	for _, c := range []struct {
		name   string
		queued float64 // the RTT and min RTT of the first ten minutes
		want   bool
	}{
		{"queued from the first request", 45, true},
		{"no queue", 21, false},
	} {
		r := Classify("x", synth(1200, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			if i < 600 {
				return 80, 80, c.queued - 1, c.queued + float64(i%3), 0, 300
			}
			return 80, 30 + wobble3(i), 20, 21, 0, 0 // demand fell: no queue
		}), Options{})
		var sq *Finding
		for i := range r.Findings {
			if r.Findings[i].Class == StandingQueue {
				sq = &r.Findings[i]
			}
		}
		if (sq != nil) != c.want {
			t.Fatalf("%s: a standing-queue finding is %v, want %v: %+v", c.name, sq != nil, c.want, r.Findings)
		}
		if sq == nil {
			continue
		}
		if !sq.Start.Equal(r.Start) || sq.End.After(sim.Epoch.Add(11*time.Minute)) {
			t.Errorf("%s: the finding spans %s–%s, want the first ten minutes", c.name, sq.Start, sq.End)
		}
		if !strings.Contains(sq.Evidence.Summary, "the trace's lowest min RTT (46.0 ms against 20.0 ms") || sq.Evidence.Values["rtt_min_baseline_ms"] != 20 {
			t.Errorf("%s: the evidence does not name the baseline: %q %v", c.name, sq.Evidence.Summary, sq.Evidence.Values)
		}
	}
}

// A 285-year gap with a 1 s window used to spin for minutes (a window per
// second of the gap); samples at the ends of representable time used to
// overflow. Both finish at once now.
func TestHugeGapsAndTheEndsOfTimeDoNotSpinOrPanic(t *testing.T) {
	mk := func(tm time.Time, l float64) trace.Sample {
		s := trace.Sample{Time: tm, Target: "x"}
		s.Set(trace.FieldLimit, l)
		return s
	}
	var samples []trace.Sample
	for i := 0; i < 20; i++ {
		samples = append(samples, mk(time.Unix(0, math.MinInt64).Add(time.Duration(i)*time.Second), 5))
	}
	for i := 0; i < 20; i++ {
		samples = append(samples, mk(time.Unix(0, math.MaxInt64).Add(time.Duration(i-19)*time.Second), 5))
	}
	if r := Classify("x", samples, Options{Window: time.Second}); r.Samples != 40 {
		t.Errorf("window 1s: %d samples", r.Samples)
	}
	if r := Classify("x", samples, Options{}); r.Class == Insufficient {
		t.Errorf("default window: %s, want a verdict for 20 samples at each end", r.Class)
	}
}

// A 90-second incident inside a 6-minute recording at 1 s sampling is found
// with default settings, its boundaries within one interval plus 30 s of
// where the series changed, and the healthy time before it is not flagged.
func TestShortIncidentBoundariesComeFromTheData(t *testing.T) {
	const from, to = 150, 240 // the incident, in seconds
	samples := synth(360, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		if i >= from && i < to {
			return 6, 6, 66, 110, 0, 300
		}
		return 20 + wobble3(i), 20, 33, 50, 0, 100
	})
	r := Classify("x", samples, Options{})
	var deg *Finding
	for i := range r.Findings {
		if r.Findings[i].Class == Degraded {
			deg = &r.Findings[i]
		}
	}
	if deg == nil {
		t.Fatalf("the 90 s incident was not found: %+v", r.Findings)
	}
	start, end := deg.Start.Sub(sim.Epoch).Seconds(), deg.End.Sub(sim.Epoch).Seconds()
	t.Logf("degraded %v–%v s (incident %d–%d s)", start, end, from, to)
	if math.Abs(start-from) > 31 || math.Abs(end-to) > 31 {
		t.Errorf("degraded %v–%v s, incident %d–%d s: boundaries more than an interval + 30 s off", start, end, from, to)
	}
	// a clean level shift is placed on the sample where it happened, not on
	// a window edge
	if math.Abs(start-from) > 2 || math.Abs(end-to) > 2 {
		t.Errorf("degraded %v–%v s, incident %d–%d s: the change points are not where the series changed", start, end, from, to)
	}
}

func wobble3(i int) float64 { return float64(i%3) - 1 }

// Mimir's in-flight can be the previous window's maximum and exceed the limit:
// utilisation is capped at 100 %, never "118 %".
func TestUtilisationIsCappedAtTheLimit(t *testing.T) {
	r := Classify("x", synth(120, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		return 20, 23.6, 20, 21, 0, 100
	}), Options{})
	if r.Stats.Utilisation > 1 {
		t.Fatalf("utilisation %v", r.Stats.Utilisation)
	}
	for _, f := range r.Findings {
		if u, ok := f.Evidence.Values["utilisation"]; ok && u > 1 {
			t.Fatalf("%s: utilisation %v", f.Class, u)
		}
	}
}

// A downstream answering nothing has no RTT at all, only losses: that is
// still a loss share (everything lost), and a limiter pinned there is
// degraded, not "pipeline-bound" for want of completions.
func TestLossesCountWithoutAnyCompletion(t *testing.T) {
	var samples []trace.Sample
	for i := 0; i < 300; i++ {
		s := trace.Sample{Time: sim.Epoch.Add(time.Duration(i) * time.Second), Target: "x"}
		s.Set(trace.FieldLimit, 150)
		s.Set(trace.FieldInFlight, 40)
		s.Set(trace.FieldDropped, 40)
		s.Set(trace.FieldRejected, 0)
		samples = append(samples, s)
	}
	if r := Classify("x", samples, Options{}); r.Class != Degraded {
		t.Fatalf("%s: %+v", r.Class, r.Findings)
	}
}

// The rejected share of demand is rejected / (rejected + completed), with
// completions by Little's law: 8 in flight at 100 ms RTT complete 80 a
// second, so 20 rejected a second is a fifth of demand.
func TestRejectedShareOfDemand(t *testing.T) {
	t0 := time.Unix(1764410400, 0)
	var samples []trace.Sample
	for i := 0; i < 120; i++ {
		s := trace.Sample{Time: t0.Add(time.Duration(i) * time.Second), Target: "x"}
		s.Set(trace.FieldLimit, 10)
		s.Set(trace.FieldInFlight, 8)
		s.Set(trace.FieldRTT, 100)
		s.Set(trace.FieldRTTMin, 90)
		s.Set(trace.FieldRejected, 20)
		samples = append(samples, s)
	}
	if got, ok := RejectedShare(samples[1], time.Second); !ok || math.Abs(got-0.2) > 1e-9 {
		t.Fatalf("RejectedShare = %v %v, want 0.2", got, ok)
	}
	noRej := samples[1]
	noRej.Fields &^= trace.FieldRejected
	if _, ok := RejectedShare(noRej, time.Second); ok {
		t.Fatal("without a rejected series the share cannot be told")
	}
	res := Classify("x", samples, Options{})
	if res.Stats.RejectedShare == nil || math.Abs(*res.Stats.RejectedShare-0.2) > 1e-4 {
		t.Fatalf("Stats.RejectedShare = %v", res.Stats.RejectedShare)
	}
	b := NewBoard(600, Options{})
	for _, s := range samples {
		b.Push(s)
	}
	if r := b.Rows()[0]; !r.HasRejectedShare || math.Abs(r.RejectedShare-0.2) > 1e-9 {
		t.Fatalf("board row: %v %v", r.RejectedShare, r.HasRejectedShare)
	}
}

// readTestdata reads a trace-format CSV file from testdata.
func readTestdata(t *testing.T, name string) []trace.Sample {
	t.Helper()
	return testtools.ReadTrace(t, filepath.Join("testdata", name))
}

// A real 6-minute recording of limitscope demo at 1 s sampling
// (testdata/demo-incident.csv): w (payments falls sick) pressed at
// 01:51:54, r (reset) at 01:53:24. With default settings the 90 s incident is
// a degraded-downstream finding covering at least half of it, its edges
// within one interval plus 30 s of the key presses, and the healthy time
// before it is not flagged; search stays healthy throughout.
func TestDemoIncidentIsFoundWithDefaults(t *testing.T) {
	samples := readTestdata(t, "demo-incident.csv")
	w := time.Date(2026, 12, 1, 1, 51, 54, 0, time.UTC)
	r := w.Add(90 * time.Second)
	by := map[string][]trace.Sample{}
	for _, s := range samples {
		by[s.Target] = append(by[s.Target], s)
	}
	pay := Classify("payments", by["payments"], Options{})
	if pay.Class != Degraded {
		t.Fatalf("payments: %s, want degraded-downstream", pay.Class)
	}
	covered := time.Duration(0)
	for _, f := range pay.Findings {
		switch {
		case f.Class == Degraded:
			covered += minTime(f.End, r).Sub(maxTime(f.Start, w))
			if d := f.Start.Sub(w).Abs(); d > 31*time.Second {
				t.Errorf("degraded starts %v from the key press", d)
			}
			if d := f.End.Sub(r).Abs(); d > 31*time.Second {
				t.Errorf("degraded ends %v from the reset", d)
			}
		case Rank(f.Class) > 1 && f.Start.Before(w):
			t.Errorf("the healthy time before the incident is flagged %s (%v–%v)", f.Class, f.Start, f.End)
		}
	}
	// a real scrape's timestamps jitter around the window bounds: the
	// episodes are still one finding each (healthy, degraded, healthy)
	if n := len(pay.Findings); n != 3 {
		t.Errorf("%d findings, want 3 episodes: %+v", n, pay.Findings)
	}
	if covered < 45*time.Second {
		t.Errorf("degraded covers %v of the 90 s incident", covered)
	}
	if s := Classify("search", by["search"], Options{}); s.Class != Healthy {
		t.Errorf("search: %s, want healthy", s.Class)
	}
	// 20-second recordings get a verdict when their series show one: the
	// first 20 s are healthy; 20 s from 10 s before the key press show the
	// limit falling to its floor as the RTT doubles
	slice := func(from time.Time) []trace.Sample {
		var out []trace.Sample
		for _, s := range by["payments"] {
			if !s.Time.Before(from) && s.Time.Before(from.Add(20*time.Second)) {
				out = append(out, s)
			}
		}
		return out
	}
	for _, c := range []struct {
		from time.Time
		want Class
	}{{by["payments"][0].Time, Healthy}, {w.Add(-10 * time.Second), Degraded}} {
		r := Classify("payments", slice(c.from), Options{})
		if r.Class != c.want {
			t.Errorf("20 s from %v: %s, want %s (%+v)", c.from.Format(time.TimeOnly), r.Class, c.want, r.Findings)
		}
		if c.want == Degraded && !strings.Contains(r.Findings[0].Evidence.Summary, "the limit fell from") {
			t.Errorf("20 s from %v: the evidence does not say what was seen: %q", c.from.Format(time.TimeOnly), r.Findings[0].Evidence.Summary)
		}
	}
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// A Prometheus scraping once a minute gives a 40-minute trace 40 samples: a
// five-minute window would hold five, too few to judge, and every window
// was insufficient data. The window holds at least 12 intervals, so the
// trace gets its verdicts: healthy, then degraded after the downstream
// falls sick.
func TestCoarseSamplingGetsVerdicts(t *testing.T) {
	for _, c := range []struct {
		iv   time.Duration
		want time.Duration
	}{{time.Second, time.Minute}, {15 * time.Second, 225 * time.Second}, {20 * time.Second, 5 * time.Minute}, {30 * time.Second, 6 * time.Minute}, {time.Minute, 12 * time.Minute}} {
		if got := AutoWindow(c.iv); got != c.want {
			t.Errorf("AutoWindow(%v) = %v, want %v", c.iv, got, c.want)
		}
	}
	healthy := simTrace(t, 40*time.Minute, []sim.Step{step(0, 40, 20*time.Millisecond, 3000)}, time.Minute)
	if r := Classify("payments", healthy, Options{}); r.Class != Healthy {
		t.Errorf("healthy at 1-minute sampling: %s (%+v)", r.Class, r.Findings)
	}
	sick := simTrace(t, 40*time.Minute, []sim.Step{step(0, 40, 20*time.Millisecond, 3000), step(15*time.Minute, 8, 60*time.Millisecond, 0)}, time.Minute)
	r := Classify("payments", sick, Options{})
	if r.Class != Degraded {
		t.Fatalf("sick downstream at 1-minute sampling: %s (%+v)", r.Class, r.Findings)
	}
	if r.Findings[0].Class != Healthy {
		t.Errorf("the healthy start is not reported first: %+v", r.Findings)
	}
}

// A min-RTT estimate held at one value for minutes (go-concurrency-limits'
// Gradient between its resets) places no boundary: the sum of squares of a
// constant series is only rounding, and the incident's start is where the
// limit fell, not the first sample a split of that rounding "explained".
func TestHeldMinRTTPlacesNoBoundary(t *testing.T) {
	const fall = 32 // the incident, from sample 32 (8 min at 15 s)
	samples := synth(60, 15*time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		if i < fall {
			l := 350 + 10*wobble3(i)
			return l, l, 1261.836, 4800, 0, 1100
		}
		l := math.Max(40, 350*math.Pow(0.7, float64(i-fall+1)))
		return l, l, 1261.836, 4800, 0.05 * l / 4.8 * 15, 1900 // losses 5 % of completions
	})
	r := Classify("x", samples, Options{})
	var deg *Finding
	for i := range r.Findings {
		if r.Findings[i].Class == Degraded && deg == nil {
			deg = &r.Findings[i]
		}
	}
	if deg == nil {
		t.Fatalf("the incident was not found: %+v", r.Findings)
	}
	if start := deg.Start.Sub(sim.Epoch); start < (fall-3)*15*time.Second || start > (fall+2)*15*time.Second+30*time.Second {
		t.Errorf("degraded from %v, the limit fell at %v (%+v)", start, fall*15*time.Second, r.Findings)
	}
}

// A limiter deaf to latency with no min-RTT series (failsafe-go exports
// limit, in-flight and RTT): its limit barely moves while the downstream
// slows, so only the RTT shows where an incident began and ended. Before
// it, the limit crept up over healthy minutes at a flat RTT; that level is
// no queue of its own, and completions at 37 % of their best (above
// slowerGrownShare) with the RTT 2.7× up are a slower downstream. Each
// half fails without its rule: the RTT in changePoint (boundaries a window
// off) and calmHigh (the incident read healthy).
func TestLatencyDeafLimiterWithoutMinRTT(t *testing.T) {
	const iv = 15 * time.Second
	const from, to = 97, 121 // the incident, in samples (24m15s–30m15s)
	samples := synth(180, iv, func(i int) (float64, float64, float64, float64, float64, float64) {
		l := math.Min(290, 250+float64(i)) + 3*wobble3(i) // crept from 250 to 290 by minute 10
		rtt := 2500 + 200*math.Min(1, float64(i)/40)      // 2.5 s, 2.7 s at 290: the RTT within 1.25×
		if i >= from && i < to {
			return l, l, -1, 2.7 * 2700, 2, 900
		}
		return l, l, -1, rtt + 20*wobble3(i), 0, 600
	})
	r := Classify("x", samples, Options{})
	var deg *Finding
	for i := range r.Findings {
		if r.Findings[i].Class == Degraded {
			if deg != nil {
				t.Fatalf("more than one degraded episode: %+v", r.Findings)
			}
			deg = &r.Findings[i]
		}
	}
	if deg == nil {
		t.Fatalf("the incident was not found: %+v", r.Findings)
	}
	start, end := deg.Start.Sub(sim.Epoch), deg.End.Sub(sim.Epoch)
	t.Logf("degraded %v–%v (incident %v–%v): %s", start, end, from*iv, to*iv, deg.Evidence.Summary)
	tol := iv + 30*time.Second
	if (start-from*iv).Abs() > tol || (end-to*iv).Abs() > tol {
		t.Errorf("degraded %v–%v, incident %v–%v: boundaries more than an interval + 30 s off", start, end, from*iv, to*iv)
	}
}

// TestBatchDrainIsNotSlower: a batch pipeline whose bursts fill the limit
// and build a queue (the RTT up 1.9× at the burst's end) and then drain into
// an idle gap completes nothing in the gap because nothing is sent, not
// because the downstream slowed (go-concurrency-limits' Gradient and Vegas
// and failsafe-go, run for real behind such a batch, read degraded for half
// a minute at every burst's end). No window may be degraded. Fails without
// the demand-held guard on "slower".
func TestBatchDrainIsNotSlower(t *testing.T) {
	samples := synth(1200, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
		k := i % 240 // a 100-second burst every 4 minutes
		l := 300 + 10*wobble3(i)
		switch {
		case k < 90: // the burst fills the limit; its queue raises the RTT
			q := math.Max(0, float64(k-50)) / 40
			return l, l, 1250, 3200 * (1 + 1.2*q), 0, 30
		case k < 100: // the last of it drains, late
			return l, l * float64(100-k) / 10, 1250, 7000, 0, 0
		default: // idle: nothing sent, nothing completes
			return l, 0, 1250, -1, 0, 0
		}
	})
	r := Classify("x", samples, Options{})
	if r.Class != PipelineBound {
		t.Errorf("class %s, want pipeline-bound", r.Class)
	}
	for _, f := range r.Findings {
		if f.Class == Degraded {
			t.Errorf("degraded %v–%v: %s", f.Start.Sub(sim.Epoch), f.End.Sub(sim.Epoch), f.Evidence.Summary)
		}
	}
}

// TestSwingAroundHeldLevelWhileMinRTTTripled: a controller that updates
// faster than its feedback arrives swings once its downstream slows (Envoy's
// gradient at a 240 ms update interval once the RTT triples to 370 ms
// swings 13↔40 around the 27 it held), while its min RTT, re-measured,
// triples. A swing around the level the limit held cannot have built the
// queue that tripled the no-load latency: the incident is
// degraded-downstream, not oscillating, and its edges are within an
// interval and 30 s. Fails without swingHeld.
func TestSwingAroundHeldLevelWhileMinRTTTripled(t *testing.T) {
	const iv = time.Second
	const from, to = 480, 1080 // the incident: 8–18 minutes
	rng := rand.New(rand.NewPCG(5, 8))
	samples := synth(1800, iv, func(i int) (float64, float64, float64, float64, float64, float64) {
		if i < from || i >= to {
			l := 28 + wobble3(i)
			return l, l, 80, 120 + 2*wobble3(i), 0, 150
		}
		// each update overshoots the other way, by 1–14: the thirds of a
		// window land on either side of the swing (Envoy's read 1.67× apart)
		l := math.Round(27 + float64(1-2*(i%2))*(1+13*rng.Float64()))
		// the min RTT is re-measured 30 s into the incident
		m := 80.0
		if i >= from+30 {
			m = 240
		}
		return l, l, m, 370 - 2*(l-27), 0, 300
	})
	r := Classify("x", samples, Options{})
	if r.Class != Degraded {
		t.Errorf("class %s, want degraded-downstream", r.Class)
	}
	tol := iv + 30*time.Second
	for _, f := range r.Findings {
		start, end := f.Start.Sub(sim.Epoch), f.End.Sub(sim.Epoch)
		switch f.Class {
		case Oscillating:
			t.Errorf("oscillating %v–%v: %s", start, end, f.Evidence.Summary)
		case Degraded:
			if (start-from*iv).Abs() > tol || (end-to*iv).Abs() > tol {
				t.Errorf("degraded %v–%v, incident %v–%v: boundaries more than an interval + 30 s off", start, end, from*iv, to*iv)
			}
		}
	}
}

// TestCrashDrainingOwnQueueIsNotSmaller: go-concurrency-limits v1.0.0's
// AIMD mis-tuned to halve (backoff 0.5), run for real at a capacity of 500
// (testdata/gcl-aimd-crash.csv, from the real-libraries suite), grows into
// its own queue (the RTT 15 → 26 s at a limit of 1518 → 1642) until that
// queue times out, then crashes to 39 in forty seconds with a trickle of
// losses, turning away 95 % of the demand while its queue drains (the RTT
// back to 7 s), and regrows. Its downstream never changed: the trace is
// oscillating and no window is degraded (it read "the limit fell to 39, 2 %
// of its earlier 1580" until a trickle of losses in a window whose RTT fell
// by a third with the limit was the limiter's own queue timing out). Fails
// without queueTimedOut.
func TestCrashDrainingOwnQueueIsNotSmaller(t *testing.T) {
	wantNoDegraded(t, "gcl-aimd", "gcl-aimd-crash.csv", Oscillating)
}

// TestSawtoothSlowerThanAWindow: go-concurrency-limits v1.0.0's AIMD
// mis-tuned to halve (backoff 0.5), run for real at a capacity of 100 and
// read every 5 s (testdata/gcl-aimd-sawtooth.csv, from a fresh draw of the
// real-libraries suite), climbs from about 227 to 400 and halves every
// 70 s for twenty minutes. Its 75-s windows hold one tooth each (two or
// three legs, 10–90 % band 35–39 %): no window makes oscMinLegs, and the
// band is short of oscSlowBand. It was read healthy; three windows in a row
// that each swing (oscSwungRun) make it oscillating. Fails without
// oscSwungRun.
func TestSawtoothSlowerThanAWindow(t *testing.T) {
	wantNoDegraded(t, "gcl-aimd", "gcl-aimd-sawtooth.csv", Oscillating)
}

// TestSwingsOverAStandingQueueMustRecur: windows that swing while a
// standing queue holds make the whole-series verdict only when they are
// oscQueuedShare of the judged windows; each keeps its finding.
//   - go-concurrency-limits v1.0.0's Vegas, run in the simulator at a
//     capacity of 60 read every 5 s (testdata/gcl-vegas-reprobe-over-queue.csv,
//     fresh draw + 131), sits at 20 with its no-load RTT stale at 115 ms
//     while the RTT runs at 245 ms, and once in 24 windows jumps to 30 and
//     is cut back: a re-probe, healthy.
//   - its Gradient, run for real at 250 read every 5 s, stepping down to
//     60 % at minute 8 (testdata/gcl-gradient-noise-over-queue.csv, fresh
//     draw + 109), with the RTT 2.8× its min RTT: its ±20 % sample noise
//     counted four swings in the window holding the step, one of 17, and
//     read healthy with that window's finding; the noise's legs do not
//     cross half the band the step spreads (wideLegFraction), so that
//     window is the step now, not a swing: healthy, no swinging window.
//   - the same Gradient at 500 read every 15 s, stepping down to 60 % at
//     minute 8 (testdata/gcl-gradient-reprobes-over-queue.csv, fresh
//     draw + 97), with the RTT 3.4–3.9× its min RTT: its noise counts
//     eight and nine swings in the two windows before the step, two of
//     five — under half of the trace: healthy (read oscillating while the
//     share was a quarter).
//   - its AIMD mis-tuned to halve, in the simulator at 60 read every 5 s
//     (testdata/gcl-aimd-sawtooth-over-queue.csv, fresh draw + 97), swings
//     over a queue 3× its min RTT in every window: oscillating.
//
// And the queue is what decides: the Vegas trace with its RTT at the min RTT
// (no standing queue) is oscillating from the one window. Fails without
// swingMakesVerdict, or if it no longer asks for a queue.
func TestSwingsOverAStandingQueueMustRecur(t *testing.T) {
	noQueue := func(smp []trace.Sample) []trace.Sample {
		out := append([]trace.Sample(nil), smp...)
		for i := range out {
			out[i].RTTMs = out[i].RTTMinMs
		}
		return out
	}
	for _, tc := range []struct {
		file, target string
		edit         func([]trace.Sample) []trace.Sample
		want         Class
		swings       bool // a window swings: an oscillating finding
	}{
		{"gcl-vegas-reprobe-over-queue.csv", "gcl-vegas", nil, Healthy, true},
		{"gcl-gradient-noise-over-queue.csv", "gcl-gradient", nil, Healthy, false},
		{"gcl-gradient-reprobes-over-queue.csv", "gcl-gradient", nil, Healthy, true},
		{"gcl-aimd-sawtooth-over-queue.csv", "gcl-aimd", nil, Oscillating, true},
		{"gcl-vegas-reprobe-over-queue.csv", "gcl-vegas", noQueue, Oscillating, true},
	} {
		name := tc.file
		if tc.edit != nil {
			name += " without its queue"
		}
		t.Run(name, func(t *testing.T) {
			smp := readTestdata(t, tc.file)
			if tc.edit != nil {
				smp = tc.edit(smp)
			}
			r := Classify(tc.target, smp, Options{})
			if r.Class != tc.want {
				t.Errorf("class %s (confidence %.2f, %d of %d windows), want %s", r.Class, r.Confidence, r.VerdictWindows, r.Stats.JudgedWindows, tc.want)
			}
			// the swing stays a finding, so --fail-on oscillating trips
			if got := Failing(r, []Class{Oscillating}); (len(got) != 0) != tc.swings {
				t.Errorf("oscillating finding: %v, want %v", len(got) != 0, tc.swings)
			}
		})
	}
}

// TestSwingAtItsFloorIsNoSlowerDownstream: failsafe-go v0.9.8 at its
// defaults, run for real over a capacity of 10 read every second
// (testdata/failsafe-limit-cycle-at-its-floor.csv, fresh draw + 109),
// limit-cycles between 1 and 28 for twenty minutes. Near the bottom of a
// cycle the RTT (it exports no min RTT) reads 1.8–1.9× up with completions
// at a third of their best and the limit at its floor: two windows read
// "slower downstream" and the trace degraded. A limit swinging there needs
// the RTT doubled (slowerLow). Fails without it.
func TestSwingAtItsFloorIsNoSlowerDownstream(t *testing.T) {
	wantNoDegraded(t, "failsafe-adaptive", "failsafe-limit-cycle-at-its-floor.csv", Oscillating)
}

// TestOpeningOnMostLost: recordings that open mid-incident, capacity cut
// to 30 % with 5 % errors at a flat latency — Vector's ARC (our controller
// written from Vector's documentation, in the simulator) flipping 2–4 over
// the one server left (testdata/vector-arc-opening-losses.csv, fresh draw
// + 97), and failsafe-go v0.9.8 run for real at 300 over 75
// (testdata/failsafe-opening-losses.csv, fresh draw + 109) — lose 70–84 %
// of what completes with in-flight at the limit from the first window. Both
// read healthy at confidence 1.00: no calm level to compare with, no limit
// nailed to one value. With the losses cut to 40 % of that (under what a
// limiter probing a healthy downstream's shed point loses) the Vector trace
// is healthy (failsafe-go's is still degraded then, from a later window
// that turns away 89 % of demand: swampedShare). Fails without
// lostMostOpening.
//
// The simulator's go-concurrency-limits Gradient2 at 10–15 over a
// downstream cut to 2.4, read every 15 s and opening mid-incident
// (testdata/gcl-gradient2-opening-losses-half-the-limit-15s.csv, draw
// + 293), loses 85 % of what completes with in-flight at 53–82 % of its
// limit: its first two windows read healthy while in-flight had to press
// against the limit, and only the third (in-flight at 38 %, the failing
// rule's) read degraded. Every window is degraded, no healthy finding.
func TestOpeningOnMostLost(t *testing.T) {
	scaled := func(k float64) func([]trace.Sample) []trace.Sample {
		return func(smp []trace.Sample) []trace.Sample {
			out := append([]trace.Sample(nil), smp...)
			for i := range out {
				out[i].Dropped = math.Round(k * out[i].Dropped)
			}
			return out
		}
	}
	for _, tc := range []struct {
		file, target string
		losses       float64
		want         Class
		noHealthy    bool // every window degraded
	}{
		{"vector-arc-opening-losses.csv", "vector-arc", 1, Degraded, false},
		{"failsafe-opening-losses.csv", "failsafe-adaptive", 1, Degraded, false},
		{"vector-arc-opening-losses.csv", "vector-arc", 0.4, Healthy, false},
		{"gcl-gradient2-opening-losses-half-the-limit-15s.csv", "gcl-gradient2", 1, Degraded, true},
	} {
		t.Run(fmt.Sprintf("%s losses ×%.1f", tc.file, tc.losses), func(t *testing.T) {
			r := Classify(tc.target, scaled(tc.losses)(readTestdata(t, tc.file)), Options{})
			if r.Class != tc.want {
				t.Errorf("class %s (confidence %.2f), want %s", r.Class, r.Confidence, tc.want)
				for _, f := range r.Findings {
					t.Logf("%s: %s", f.Class, f.Evidence.Summary)
				}
			}
			for _, f := range r.Findings {
				if tc.noHealthy && f.Class == Healthy {
					t.Errorf("healthy %s–%s: %s", f.Start.Format("15:04:05"), f.End.Format("15:04:05"), f.Evidence.Summary)
				}
			}
		})
	}
}

// TestLimitCycleTwoWindowsLong: a limit cycle about two windows long puts
// no more than a ramp or two in each window, so no window swings, but the
// window medians alternate; six moves in a row (cycleMinMoves) make it
// oscillating, its finding naming the limit cycle. Fails without
// cycleMinMoves.
//
// failsafe-go v0.9.8 at its defaults, run for real over a capacity of 100
// read every 5 s (testdata/failsafe-limit-cycle-two-windows.csv, fresh draw
// + 131), goes round a ±25 % limit cycle of about 2.5 minutes. Each 75-s
// window holds one rising or one falling ramp, and the window medians
// (108, 88, 110, 80, 108, …) move by less than slowSwingDepth. It read
// healthy at confidence 1.00.
//
// Our AIMD (Increase 7, MaxLimit 3,500) over a capacity of 350 behind a
// 1.4 s downstream, read every second
// (testdata/aimd-saw-tooth-beating-with-the-window-1s.csv, the first 12
// minutes of the calibration matrix's oscillating-aimd C=350 iv=1s σ=0.3),
// saws between 550 and 1,020 every 110 s or so: about 1.85 one-minute
// windows. No window holds two legs of it in a row with the band of a slow
// swing, and the window medians alternate 490, 791, 668, 858, 667, 898,
// 694 — but the tops (90th percentiles) stay near the saw's peak (609, 910,
// 1,022, 976, 1,018, 1,017, 813), so asking the tops to alternate as well
// (the rule TestReprobesAcrossWindowsAreNoCycle needs) read it healthy. A
// re-probe's windows hold still between its dips (a band under oscBand); a
// saw-tooth ramps in every window (bands 27–71 %): the tops are asked only
// where a window of the run held still. Fails on the tops asked always.
func TestLimitCycleTwoWindowsLong(t *testing.T) {
	for _, tc := range []struct{ target, name string }{
		{"failsafe-adaptive", "failsafe-limit-cycle-two-windows.csv"},
		{"oscillating-aimd", "aimd-saw-tooth-beating-with-the-window-1s.csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Classify(tc.target, readTestdata(t, tc.name), Options{})
			if r.Class != Oscillating {
				t.Fatalf("class %s (confidence %.2f), want oscillating", r.Class, r.Confidence)
			}
			if !saying(r, Oscillating, "limit cycle") {
				t.Errorf("no oscillating finding names the limit cycle: %+v", r.Findings)
			}
		})
	}
}

// TestReprobesAcrossWindowsAreNoCycle: our Gradient (ProbeDepth 0.5,
// ProbeDuration 7.5 s, its sample window 1.5 s and 100 samples) at a
// capacity of 3 stepped up to 6, behind a 1.5 s downstream, read every
// second (testdata/gradient-reprobes-across-windows-behind-1500ms.csv,
// free-latency draw + 293). At three completions a second its re-probe
// lasts 40–50 s, every two minutes: a one-minute window that ends inside a
// dip has its median at the probe level, and the window medians went 4.0,
// 6.9, 7.0, 4.0, 7.9, 4.1, 9.2, 4.6, 10.1 — six alternations, read as a
// limit cycle (cycleMinMoves) although each dip returns to the level it
// left. The windows' tops (their 90th percentiles: 6.4 … 10.1) climb, since
// a dip's window still holds the level it left; a limit cycle moves its
// tops with its medians (failsafe-go's: 124, 104, 126, 94, 120, 98, 122,
// TestLimitCycleTwoWindowsLong). Healthy, with no oscillating finding.
func TestReprobesAcrossWindowsAreNoCycle(t *testing.T) {
	wantWithout(t, "gradient", "gradient-reprobes-across-windows-behind-1500ms.csv", Healthy, Oscillating)
}

// TestFloorNoiseIsNoSwing: Vector's adaptive request concurrency (as
// limiter.Vector implements it from Vector's documentation) in a batch
// pipeline, read every 5 s (testdata/vector-arc-batch-pipeline-floor-noise-5s.csv,
// simulator draw + 293): between bursts it idles at a limit of 3–5, and a
// burst takes it to 27–33 within a reading or two. A window holding the
// idle tail and a burst's start has its median at 4, so the ±1 between
// readings at the floor (3 → 5 → 3) moved exactly the jitter allowance of
// a limit of 4 (floorJitter, 2) and counted as two legs; with the burst's
// rise that made four, and the window read oscillating, as did the whole
// trace. A leg must move past the jitter allowance, not onto it: pipeline-
// bound, with no oscillating finding.
func TestFloorNoiseIsNoSwing(t *testing.T) {
	wantWithout(t, "pipeline", "vector-arc-batch-pipeline-floor-noise-5s.csv", PipelineBound, Oscillating)
}

// TestSlowdownUnderALimitCycle: failsafe-go v0.9.8 at its defaults, run
// for real over a capacity of 10, limit-cycles between 1 and 28 all along;
// the downstream's latency doubles at 00:10, triples at 00:11:30 and
// quadruples at 00:13. failsafe-go keeps no min RTT, so the RTT stands in
// for one, and a limit swinging from its 10th to its 90th percentile may
// deepen its own queue by that spread (2.3–5×).
//
// Behind a 10 ms downstream, read every 15 s
// (testdata/failsafe-cycling-through-latency-creep-15s.csv, free-latency
// draw + 293): the RTT 3.4–4× up with completions at 22–28 % of their best
// read as the swing's own queue, and the trace read oscillating for all
// five windows. But those windows held no more requests than the window
// that set the RTT's baseline (in-flight's median and 90th percentile
// within a jitter of it): the cycle did not deepen, and the queue is the
// downstream's.
//
// Behind a 20 ms downstream, read every 5 s
// (testdata/failsafe-cycling-through-latency-creep-5s.csv, real libraries'
// free-latency draw + 293): the baseline's window sat at the cycle's
// bottom (10 in flight, the RTT 21 ms) and every window after the creep
// held more (17–21), so it read oscillating throughout. The deepest window
// before the creep held as many (20, 90th percentile 27) at 49 ms; after
// it the RTT stood at 156–200 ms with as many in flight: the downstream's.
//
// Degraded from a window after the creep began to the end; the cycle
// before it stays oscillating. The finding states the RTT's rise against
// the window that held as many requests (rtt_rise_like_load, 2× or more):
// the rise against the baseline, set at the cycle's bottom, overstates
// the downstream's.
func TestSlowdownUnderALimitCycle(t *testing.T) {
	creep := time.Date(2000, 1, 1, 0, 10, 0, 0, time.UTC)
	for _, name := range []string{"failsafe-cycling-through-latency-creep-15s.csv", "failsafe-cycling-through-latency-creep-5s.csv"} {
		t.Run(name, func(t *testing.T) {
			r := Classify("failsafe-adaptive", readTestdata(t, name), Options{})
			if r.Class != Degraded {
				t.Fatalf("class %s, want degraded-downstream", r.Class)
			}
			found := false
			for _, f := range r.Findings {
				switch {
				case f.Class == Degraded:
					found = true
					if f.Start.Before(creep) || f.Start.After(creep.Add(4*time.Minute)) || f.End.Before(r.End.Add(-time.Minute)) {
						t.Errorf("degraded %s–%s, want from 00:10–00:14 to the end (%s)", f.Start.Format("15:04:05"), f.End.Format("15:04:05"), r.End.Format("15:04:05"))
					}
					if rise := f.Evidence.Values["rtt_rise_like_load"]; rise < 2 || !strings.Contains(f.Evidence.Summary, "with as many requests in flight") {
						t.Errorf("the finding states no rise at like load (rtt_rise_like_load %.2f): %s", rise, f.Evidence.Summary)
					}
				case f.Class == Oscillating && f.Start.Before(creep.Add(-time.Minute)) && !f.End.After(creep.Add(4*time.Minute)):
					// the cycle before the creep: oscillating, as it is
				case f.Class == Oscillating:
					t.Errorf("oscillating %s–%s, want the cycle before 00:10 only", f.Start.Format("15:04:05"), f.End.Format("15:04:05"))
				}
			}
			if !found {
				t.Error("no degraded finding")
			}
		})
	}
}

// TestSlowerBehindItsQueueWithoutMinRTT: Vector's ARC (limiter.Vector,
// written from Vector's documentation) over a capacity of 20 behind
// 100 ms, read every 15 s, with no min-RTT column (the RTT stands in for
// one; testdata/vector-arc-slower-behind-its-queue-no-min-rtt-15s.csv,
// free-latency draw + 307). It held 57 over a standing queue (RTT 360 ms);
// from 00:15 the downstream's latency doubled, tripled and quadrupled, and
// ARC cut to 24 — its queue shrank as the latency grew, so the RTT rose
// only 1.38× while completions fell to 29 %. A limit fallen to half needs
// the RTT up 1.25× (slowerFallenFar), but the window's last third was
// asked to stand 1.5× up (drained), and the trace read healthy. Each rise
// now stands in the last third at the rise it asked for: degraded after
// the creep began, the finding naming the RTT as the stand-in.
func TestSlowerBehindItsQueueWithoutMinRTT(t *testing.T) {
	r := Classify("vector-arc", readTestdata(t, "vector-arc-slower-behind-its-queue-no-min-rtt-15s.csv"), Options{})
	if r.Class != Degraded {
		t.Fatalf("class %s, want degraded-downstream", r.Class)
	}
	creep := sim.Epoch.Add(15 * time.Minute)
	for _, f := range r.Findings {
		if f.Class != Degraded {
			continue
		}
		if f.Start.Before(creep) {
			t.Errorf("degraded from %s, before the creep began at 00:15", f.Start.Format("15:04:05"))
		}
		if !strings.Contains(f.Evidence.Summary, "the RTT (no min-RTT series) rose") || strings.Contains(f.Evidence.Summary, "min-RTT estimate") {
			t.Errorf("the finding does not name the RTT as the stand-in: %s", f.Evidence.Summary)
		}
	}
}

// TestAlternations counts the moves up and down in a row that end at the
// last level, each at least the threshold.
func TestAlternations(t *testing.T) {
	for _, tc := range []struct {
		levels []float64
		want   int
	}{
		{[]float64{100, 80, 100, 80, 100, 80, 100}, 6},
		{[]float64{100, 100, 80, 100, 80}, 3},      // a flat step ends the run
		{[]float64{100, 80, 100, 80, 60, 80}, 2},   // two moves down in a row
		{[]float64{100, 80, 100, 80, 100, 95}, 0},  // the last move is under the threshold
		{[]float64{80, 100, 80, 100, 120, 100}, 2}, // up twice, then down
		{[]float64{100}, 0},
		{nil, 0},
	} {
		if got := alternations(tc.levels, 10); got != tc.want {
			t.Errorf("alternations(%v) = %d, want %d", tc.levels, got, tc.want)
		}
	}
}

// TestIntegerLimitStepIsNoGrowth: go-concurrency-limits v1.0.0's Vegas,
// run for real at a capacity of 10 read every 15 s
// (testdata/gcl-vegas-creep.csv, from a fresh draw of the real-libraries
// suite), falls from 13 to 6–7 as its downstream's latency creeps to 4×
// from minute 10, while completions fall to a fifth. The window that shows
// it was healthy because the limit "grew" from 7 to 8 inside it: one step
// of an integer limit is its grain, not growth into a queue (limitGrew).
// Fails without the step.
func TestIntegerLimitStepIsNoGrowth(t *testing.T) {
	samples := readTestdata(t, "gcl-vegas-creep.csv")
	r := Classify("gcl-vegas", samples, Options{})
	if r.Class != Degraded {
		t.Errorf("class %s, want degraded-downstream", r.Class)
	}
	incident := samples[0].Time.Add(10 * time.Minute)
	for _, f := range r.Findings {
		if f.Class == Degraded && f.Start.Before(incident) {
			t.Errorf("degraded %v–%v starts before the latency creep at %v: %s", f.Start.Format("15:04:05"), f.End.Format("15:04:05"), incident.Format("15:04:05"), f.Evidence.Summary)
		}
	}
}

// TestLossesWhileClimbingAreNoCalmLevel: failsafe-go v0.9.8's adaptive
// limiter, run for real at a capacity of 30 cut to 9 with 5 % errors, in
// a recording that opens two minutes into the
// incident (testdata/failsafe-climbing-losses.csv, from a fresh draw of the
// real-libraries suite, read every second). Losses make 86 % of what it
// sends from the first sample while its limit climbs from 51 to 236: the
// first window, its in-flight pressed against the limit, was taken as the
// calm level of losses, and the trace read healthy. A limiter probing a
// shed point backs off from its losses; one whose limit grows through
// them is deaf to them (limitGrew), and its losses are no calm level.
// Fails without that.
func TestLossesWhileClimbingAreNoCalmLevel(t *testing.T) {
	r := Classify("failsafe-adaptive", readTestdata(t, "failsafe-climbing-losses.csv"), Options{})
	if r.Class != Degraded {
		t.Errorf("class %s, want degraded-downstream", r.Class)
	}
}

// TestSwingAroundHeldLevelWithOnlyTheRTT: failsafe-go v0.9.8's adaptive
// limiter, run for real at a capacity of 30 read every 15 s, whose
// downstream's latency doubles at minute 10 and quadruples by minute 13
// (testdata/failsafe-swinging-slower.csv, from a fresh draw of the
// real-libraries suite). It keeps no min RTT, and its limit swings 13–45
// around the 35 it held before and through the incident, while the RTT
// climbs from 300 ms to 1.2–2 s and completions fall to a quarter. A swing
// from its 10th to its 90th percentile (1.4–2× here) can deepen its own
// queue by that much at most, not 4–6×: degraded from the incident on,
// where it read oscillating. Fails without proxySwingHeld.
func TestSwingAroundHeldLevelWithOnlyTheRTT(t *testing.T) {
	samples := readTestdata(t, "failsafe-swinging-slower.csv")
	r := Classify("failsafe-adaptive", samples, Options{})
	if r.Class != Degraded {
		t.Errorf("class %s, want degraded-downstream (%+v)", r.Class, r.Findings)
	}
	incident := samples[0].Time.Add(10 * time.Minute)
	for _, f := range r.Findings {
		if f.Class == Degraded && f.Start.Before(incident) {
			t.Errorf("degraded %v–%v starts before the latency rise at %v: %s", f.Start.Format("15:04:05"), f.End.Format("15:04:05"), incident.Format("15:04:05"), f.Evidence.Summary)
		}
	}
}

// TestHeldAboveAStepWithOnlyTheRTT: go-concurrency-limits v1.0.0's AIMD,
// run for real at a capacity of 30 that steps down to 18 at minute 8 with
// no errors (testdata/gcl-aimd-held-over-step.csv, from a fresh draw of
// the real-libraries suite, each 15 s reading repeated over 3 s rows). It
// keeps no min RTT and holds its limit above the smaller downstream, and
// one window's RTT reads 3.4× up against a swing of 1.35×, with
// completions at 36 % of their best: its own queue, which a swing around
// its held level does not explain away unless completions fell to a third
// (slowerGrownShare). Healthy, no window degraded; the first version of
// proxySwingHeld, without that bound, read this window degraded.
func TestHeldAboveAStepWithOnlyTheRTT(t *testing.T) {
	wantNoDegraded(t, "gcl-aimd", "gcl-aimd-held-over-step.csv", Healthy)
}

// TestRemeasuringIsNoCompletionRate: the simulator's Envoy-style gradient
// controller at a capacity of 3 that steps down to 2 at minute 12, no
// errors, read every 15 s (testdata/envoy-remeasuring-step.csv, from the
// simulator suite). Every few minutes it pins its concurrency to 3 while it
// re-measures its min RTT, and a scrape leaves its limit unmeasured. A pin
// in the last third of the last window read as completions fallen to half
// with a re-measured min RTT 1.67× a lucky first one: degraded at the
// trace's end. Completions are not read where the limit was not: healthy,
// no window degraded. Fails without ratedAt.
func TestRemeasuringIsNoCompletionRate(t *testing.T) {
	wantNoDegraded(t, "envoy-gradient", "envoy-remeasuring-step.csv", Healthy)
}

// TestLossesAgainstZeroInFlightAreNoShare: failsafe-go v0.9.8's adaptive
// limiter, run for real at a capacity of 1 under a light batch load and
// read every 15 s (testdata/failsafe-batch-below-one.csv, from a fresh
// draw of the real-libraries suite). In-flight reads 0 at 69 of 80
// readings while the RTT of 15–19 ms shows requests succeeding, and a few
// time out (1–6 a reading). Little's law over those zeros counts no
// completions, so the first window read "losses made 100 % of
// completions" and the trace degraded. Pipeline-bound, no window
// degraded. Fails without the in-flight guard on the failing case.
func TestLossesAgainstZeroInFlightAreNoShare(t *testing.T) {
	wantNoDegraded(t, "failsafe-adaptive", "failsafe-batch-below-one.csv", PipelineBound)
}

// TestEdgesWhereTheRTTMoved: the simulator's go-concurrency-limits Vegas
// at a capacity of 350, read every 15 s, through two incidents (the
// latency tripled at minutes 8–18 and 26–33; testdata/
// gcl-vegas-episodes-stale-min.csv, from a draw of the multi-episode
// suite). Its min-RTT estimate is stale (flat at 970 ms throughout) and
// its limit drifts down over minutes, so neither series shifts where the
// incidents begin and end; the RTT does. Each degraded episode's edges are
// within an interval and 30 s of the incident's. Fails without the RTT
// among changePoint's series (the episodes read 6m30s–21m0s and
// 26m30s–35m0s).
func TestEdgesWhereTheRTTMoved(t *testing.T) {
	samples := readTestdata(t, "gcl-vegas-episodes-stale-min.csv")
	r := Classify("gcl-vegas", samples, Options{})
	incidents := [][2]time.Duration{{8 * time.Minute, 18 * time.Minute}, {26 * time.Minute, 33 * time.Minute}}
	tol := 15*time.Second + 30*time.Second
	var got [][2]time.Duration
	for _, f := range r.Findings {
		if f.Class == Degraded {
			got = append(got, [2]time.Duration{f.Start.Sub(sim.Epoch), f.End.Sub(sim.Epoch)})
		}
	}
	if len(got) != len(incidents) {
		t.Fatalf("%d degraded episodes %v, want %d at %v", len(got), got, len(incidents), incidents)
	}
	for i, in := range incidents {
		if (got[i][0]-in[0]).Abs() > tol || (got[i][1]-in[1]).Abs() > tol {
			t.Errorf("degraded %v–%v, incident %v–%v: edges more than an interval + 30 s off", got[i][0], got[i][1], in[0], in[1])
		}
	}
}

// wantNoDegraded classifies a testdata trace of a limiter whose
// downstream never degraded: its verdict is want and no window of it is
// degraded.
func wantNoDegraded(t *testing.T, target, name string, want Class) {
	t.Helper()
	wantWithout(t, target, name, want, Degraded)
}

// wantWithout classifies testdata/name as target and wants it of class
// want with no finding of class absent anywhere.
func wantWithout(t *testing.T, target, name string, want, absent Class) {
	t.Helper()
	r := Classify(target, readTestdata(t, name), Options{})
	if r.Class != want {
		t.Errorf("class %s, want %s", r.Class, want)
	}
	for _, f := range r.Findings {
		if f.Class == absent {
			t.Errorf("%s %s–%s: %s", f.Class, f.Start.Format("15:04:05"), f.End.Format("15:04:05"), f.Evidence.Summary)
		}
	}
}

// TestUnusedLimitFallingIsNoCapacityLost: go-concurrency-limits v1.0.0's
// Gradient, run for real at a capacity of 1 under a batch load, read every
// second (testdata/gcl-gradient-batch-unused-limit.csv, from a fresh draw
// of the real-libraries suite, + 191). In-flight reads 0 at the median
// against a limit of 5–10, and in one window the limit halved from 10 to 5
// while timeouts made 4 % of completions: that read as a smaller
// downstream, degraded. A limit nothing uses binds nothing: pipeline-bound,
// no window degraded. Nor does one used under half
// (testdata/vector-arc-light-load-limit-pinned-unused-25s.csv: the
// simulator's Vector ARC at a capacity of 8, read every 25 s, down from the
// 23 of its overloaded opening to 3–4 under a light load, pinned there with
// one request in flight while losses made 7–14 %, below their calm level:
// "the limit fell to 3.0, 13% of its earlier 23.0", degraded).
func TestUnusedLimitFallingIsNoCapacityLost(t *testing.T) {
	for _, c := range []struct{ target, file string }{
		{"gcl-gradient", "gcl-gradient-batch-unused-limit.csv"},
		{"pipeline", "vector-arc-light-load-limit-pinned-unused-25s.csv"},
	} {
		t.Run(c.file, func(t *testing.T) { wantNoDegraded(t, c.target, c.file, PipelineBound) })
	}
}

// TestGradient2AverageIsNoMinRTT: go-concurrency-limits v1.0.0's Gradient2,
// run for real at a capacity of 10 that steps down to 6 servers at minute 8
// with no errors (testdata/gcl-gradient2-step.csv, from the real-libraries
// suite, read every second), exports its long-window RTT average as its
// min RTT. The average climbs from 57 to 130 ms over the 20 minutes while
// the RTT steps up 1.55× at the step and the limit settles from 17 to
// 12–14: a limiter following a capacity step, healthy. Read as a min RTT,
// the average's climb was "min RTT rose 2.29×" in the last minute, and the
// trace degraded. Fails without rttAveraged.
func TestGradient2AverageIsNoMinRTT(t *testing.T) {
	wantNoDegraded(t, "gcl-gradient2", "gcl-gradient2-step.csv", Healthy)
}

// TestMinRTTAveraged tells a min-RTT series that is an average of the RTT
// from one that is a minimum, on the first window of a trace.
func TestMinRTTAveraged(t *testing.T) {
	const n = 60
	cases := []struct {
		name   string
		minRTT func(i int) float64
		want   bool
	}{
		// Gradient2's long-window average converging: every sample, by 0.1 %
		{"converging average", func(i int) float64 { return 57 * (1 + 0.001*float64(i)) }, true},
		// the same where the limiter updated it between two samples of three
		{"average updated two samples of three", func(i int) float64 { return 57 * (1 + 0.001*float64(2*i/3)) }, true},
		// a minimum held between re-probes (Vegas, Envoy, ours)
		{"held minimum", func(i int) float64 { return 50 + 5*float64(i/20) }, false},
		// a windowed minimum of noisy samples: moves every sample, by percents
		{"windowed minimum", func(i int) float64 { return 50 * (1 + 0.05*float64(i%3)) }, false},
		// a constant estimate never moves
		{"constant", func(int) float64 { return 50 }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			var smp []trace.Sample
			for i := range n {
				smp = append(smp, trace.Sample{Time: t0.Add(time.Duration(i) * time.Second), Target: "x",
					Limit: 20, InFlight: 20, RTTMinMs: c.minRTT(i), RTTMs: 150 + float64(i%7),
					Fields: trace.FieldLimit | trace.FieldInFlight | trace.FieldRTTMin | trace.FieldRTT})
			}
			s := NewStream("x", Options{})
			for _, p := range smp {
				s.Push(p)
			}
			s.Result()
			if s.rttAveraged != c.want || !s.rttKindKnown {
				t.Errorf("rttAveraged %v (known %v), want %v", s.rttAveraged, s.rttKindKnown, c.want)
			}
		})
	}
}

// A limit read less often than aliasInterval cannot show a swing faster
// than two readings: a square wave between 100 and 40 every 30 s reads
// oscillating at 1 s, and read every 30 s it is always caught at the same
// phase, a flat 100. The result says so (oscillating among what the data
// cannot fully support) instead of leaving "healthy" unqualified; at 15 s
// nothing is listed.
func TestCoarseReadingsNameTheSwingsTheyCannotSee(t *testing.T) {
	swing := func(iv time.Duration) []trace.Sample {
		n := int(30 * time.Minute / iv)
		return synth(n, iv, func(i int) (float64, float64, float64, float64, float64, float64) {
			at := time.Duration(i) * iv
			l := 100.0
			if at%(30*time.Second) >= 15*time.Second {
				l = 40
			}
			return l, l, 20, 21, 0, 50 * iv.Seconds()
		})
	}
	aliasNote := func(r Result) string {
		for _, u := range r.Unreachable {
			if u.Class == Oscillating {
				return u.Reason
			}
		}
		return ""
	}
	if r := Classify("x", swing(time.Second), Options{}); r.Class != Oscillating || aliasNote(r) != "" {
		t.Errorf("read every second: %s, unreachable %q; want oscillating, nothing listed", r.Class, aliasNote(r))
	}
	if r := Classify("x", swing(15*time.Second), Options{}); aliasNote(r) != "" {
		t.Errorf("read every 15 s: oscillating listed unreachable: %q", aliasNote(r))
	}
	r := Classify("x", swing(30*time.Second), Options{})
	if r.Class == Oscillating {
		t.Fatalf("read every 30 s the swing cannot be seen, yet the verdict is oscillating: %+v", r.Findings)
	}
	if note := aliasNote(r); !strings.Contains(note, "every 30 s") || !strings.Contains(note, "one per 60 s") {
		t.Errorf("read every 30 s: the result does not name the swings it cannot see: %q", note)
	}
}

// A series read more often than its source was scraped repeats each
// reading for several rows. Where three readings show it within the first
// window, or within five minutes once the first window's rows repeat them
// (a 15 s or 30 s scrape read every second), the repeated rows are judged
// as the reading they repeat (foldReadings): the result counts them and
// gives the readings' interval. Where they show it only later (a 2 min
// scrape read every second), the result says how far apart the readings
// really are and that swings may go unseen. Readings
// that do not repeat, and a synthetic series whose RTT never moves (it
// cannot tell), say nothing of it and fold nothing.
func TestRepeatedReadings(t *testing.T) {
	reading := func(k int) (float64, float64, float64, float64, float64, float64) {
		l := 40 + float64(k%7) // a healthy limit wandering
		return l, l - 1, 20, 24 + float64(k%5)*0.37, 0, 3
	}
	repeated := func(scrape time.Duration, rows int, rtt bool) []trace.Sample {
		per := int(scrape / time.Second)
		return synth(rows, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			l, f, m, r, d, j := reading(i / per)
			if !rtt {
				r = 25
			}
			return l, f, m, r, d, j
		})
	}
	note := func(r Result) string {
		var notes []string
		for _, u := range r.Unreachable {
			if u.Class == Oscillating {
				notes = append(notes, u.Reason)
			}
		}
		return strings.Join(notes, " | ")
	}
	for _, c := range []struct {
		name     string
		samples  []trace.Sample
		want     []string // "": nothing listed
		folded   int      // Stats.RepeatedRows
		interval float64  // Stats.IntervalS
	}{
		{"read every second", synth(1800, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) { return reading(i) }), nil, 0, 1},
		{"a 15 s scrape read every second", repeated(15*time.Second, 1800, true), nil, 1680, 15},
		{"a constant RTT", repeated(15*time.Second, 1800, false), nil, 0, 1},
		{"a 30 s scrape read every second", repeated(30*time.Second, 1800, true), []string{"the limit was read every 30 s"}, 1740, 30},
		{"a 2 min scrape read every second", repeated(2*time.Minute, 1800, true), []string{"1785 of 1799 readings repeat", "1s rows", "the limit was read every 129 s"}, 0, 1},
	} {
		r := Classify("x", c.samples, Options{})
		got := note(r)
		if len(c.want) == 0 && got != "" {
			t.Errorf("%s: oscillating listed unreachable: %q", c.name, got)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the result does not say %q: %q", c.name, w, got)
			}
		}
		if r.Stats.RepeatedRows != c.folded || r.Stats.IntervalS != c.interval {
			t.Errorf("%s: %d rows folded, interval %g s; want %d, %g s", c.name, r.Stats.RepeatedRows, r.Stats.IntervalS, c.folded, c.interval)
		}
	}
	// a 50 s scrape read every second for 140 s ends while its windows are
	// held for a third reading: the result is judged as if the probe ended
	// there, in the minute windows its rows choose (two, the 20 s tail too
	// short to judge), not as one window held open
	if r := Classify("x", repeated(50*time.Second, 140, true), Options{}); r.Stats.JudgedWindows != 2 || r.Stats.WindowS != 60 || r.Stats.RepeatedRows != 0 {
		t.Errorf("a trace ending while its windows are held: %d windows of %g s judged, %d rows folded; want 2 of 60 s, none folded", r.Stats.JudgedWindows, r.Stats.WindowS, r.Stats.RepeatedRows)
	}
}

// TestRepeatedReadingsReadAsTheirReadings: go-concurrency-limits v1.0.0's
// AIMD, run for real and read every 15 s, from fresh draws of the
// real-libraries suite: testdata/gcl-aimd-oscillating-15s.csv saws between
// 138 and 1542 over a downstream of 500 (its 10–90 % band 99 % of its
// median), testdata/gcl-aimd-healthy-15s.csv settles around 20 over a
// capacity of 10, both turning away most of the demand. Exported every
// second and every 3 s instead, each reading repeated 15 or 5 times, its
// loss and rejection counts spread over the rows (Prometheus' rate() ×
// step) or all in the first (increase()). As one sample a row in windows
// sized from the rows, the sawing AIMD read degraded in 4 episodes and the
// settled one healthy in 3 or degraded. Judged as their readings, both
// read as recorded, in one episode.
func TestRepeatedReadingsReadAsTheirReadings(t *testing.T) {
	for _, c := range []struct {
		file string
		want Class
	}{
		{"gcl-aimd-oscillating-15s.csv", Oscillating},
		{"gcl-aimd-healthy-15s.csv", Healthy},
	} {
		smp := readTestdata(t, c.file)
		whole := Classify("gcl-aimd", smp, Options{})
		if whole.Class != c.want {
			t.Fatalf("%s as recorded: %s, want %s", c.file, whole.Class, c.want)
		}
		for _, k := range []int{5, 15} {
			for _, once := range []bool{false, true} {
				r := Classify("gcl-aimd", testtools.RepeatReadings(smp, k, once), Options{})
				if r.Class != c.want || len(r.Findings) != len(whole.Findings) {
					t.Errorf("%s, each reading %d rows (counts in the first only: %v): %s in %d episodes, want %s in %d", c.file, k, once, r.Class, len(r.Findings), c.want, len(whole.Findings))
				}
				if want := (k - 1) * (len(smp) - 1); r.Stats.RepeatedRows != want {
					t.Errorf("%s, each reading %d rows (counts in the first only: %v): %d rows folded, want %d", c.file, k, once, r.Stats.RepeatedRows, want)
				}
			}
		}
	}
}

// Losses that begin inside a healthy episode, after its calmest window,
// are named in its evidence with the lossiest window's time (a downstream
// failing 5 % of what it is sent under a limit already below its new
// capacity shows nothing else); an episode without them says nothing of
// losses.
func TestHealthyEpisodeNamesLossesThatBeganInIt(t *testing.T) {
	run := func(lossFrom int) Result {
		return Classify("x", synth(360, 5*time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			rtt := 100 + float64(i%7)
			done := 80 / (rtt / 1e3) * 5
			lost := 0.0
			if i >= lossFrom {
				lost = 0.05 * done
			}
			return 80, 80, 60, rtt, lost, done / 2 // a third of demand turned away: binding
		}), Options{})
	}
	r := run(180)
	if r.Class != Healthy || len(r.Findings) == 0 {
		t.Fatalf("losses at a steady limit: %s %+v, want healthy", r.Class, r.Findings)
	}
	f := r.Findings[len(r.Findings)-1]
	// lost / (lost + completed): 5 % of completions is 4.76 % of the two
	if want := "losses made up to 4.8% of completions (the window from 2026-01-01T00:1"; f.Class != Healthy || !strings.Contains(f.Evidence.Summary, want) || f.Evidence.Values["lost_share_max"] != 0.0476 {
		t.Errorf("the healthy episode does not name the losses that began in it (%q, lost_share_max %v): %q", want, f.Evidence.Values["lost_share_max"], f.Evidence.Summary)
	}
	for _, f := range run(360).Findings {
		if strings.Contains(f.Evidence.Summary, "losses") {
			t.Errorf("no losses, yet %s says %q", f.Class, f.Evidence.Summary)
		}
	}
}

// A healthy episode names a window that completed 60 % of its best or
// less while the RTT stood 1.5× its baseline (slowdownNamed): a downstream
// 1.7× slower under a held limit completes 58–59 %, which no degraded rule
// holds (a capacity step to 60 % under a limit holding above it reads the
// same), and the episode says when it began. A rise of 1.3× (77 %), or
// none, names nothing.
func TestHealthyEpisodeNamesASlowdown(t *testing.T) {
	cases := []struct {
		name  string
		rise  float64
		want  string // "" names nothing
		share float64
	}{
		{"1.7× slower from minute 15", 1.7, "completions fell to 58% of their best with the RTT 1.70× its baseline (first in the window from 2026-01-01T00:15:00Z)", 0.58},
		{"1.3× slower from minute 15", 1.3, "", 0},
		{"steady", 1, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Classify("x", synth(360, 5*time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
				rtt, minRTT := 100+float64(i%7), 60.0
				if i >= 180 {
					rtt, minRTT = c.rise*rtt, c.rise*minRTT
				}
				done := 80 / (rtt / 1e3) * 5
				return 80, 80, minRTT, rtt, 0, done / 2 // a third of demand turned away: binding
			}), Options{})
			if r.Class != Healthy {
				t.Fatalf("class %s, want healthy: %+v", r.Class, r.Findings)
			}
			for _, f := range r.Findings {
				named := strings.Contains(f.Evidence.Summary, "completions fell to")
				switch {
				case f.Class == Healthy && c.want != "" && (!strings.Contains(f.Evidence.Summary, c.want) || f.Evidence.Values["completions_share_min"] != c.share || f.Evidence.Values["slowdown_rtt_rise"] != c.rise):
					t.Errorf("want %q (completions_share_min %v, slowdown_rtt_rise %v) in %q, values %v", c.want, c.share, c.rise, f.Evidence.Summary, f.Evidence.Values)
				case c.want == "" && named:
					t.Errorf("%s names a slowdown: %q", f.Class, f.Evidence.Summary)
				}
			}
		})
	}
}

// The slowdown note on real recordings: go-concurrency-limits v1.0.0's
// Vegas, run for real over a downstream stepped from 250 to 150 servers at
// minute 8 (testdata/gcl-vegas-step-to-60pct-5s.csv) holds its limit above
// the new capacity and completes 52 % of its best with the RTT 1.59× up:
// healthy, the step named from the window it began in. In the recording of
// limitscope demo (testdata/demo-incident.csv) the window after the
// incident straddles its end (the edge is placed inside it) and completes
// less than its best: that is the incident's, already reported, and the
// healthy episodes of both targets name nothing.
func TestSlowdownNamedOnRealRecordings(t *testing.T) {
	byTarget := map[string][]trace.Sample{}
	for _, file := range []string{"gcl-vegas-step-to-60pct-5s.csv", "demo-incident.csv"} {
		for _, s := range readTestdata(t, file) {
			byTarget[file+"|"+s.Target] = append(byTarget[file+"|"+s.Target], s)
		}
	}
	want := map[string]string{
		"gcl-vegas-step-to-60pct-5s.csv|gcl-vegas": "completions fell to 52% of their best with the RTT 1.59× its baseline (first in the window from 2000-01-01T00:07:45Z)",
		"demo-incident.csv|payments":               "",
		"demo-incident.csv|search":                 "",
	}
	if len(byTarget) != len(want) {
		t.Fatalf("targets %d, want %d", len(byTarget), len(want))
	}
	for key, smp := range byTarget {
		r := Classify(smp[0].Target, smp, Options{})
		named := 0
		for _, f := range r.Findings {
			if !strings.Contains(f.Evidence.Summary, "completions fell to") || f.Class != Healthy {
				continue
			}
			named++
			if want[key] == "" || !strings.Contains(f.Evidence.Summary, want[key]) {
				t.Errorf("%s: %s %s–%s names %q, want %q", key, f.Class, f.Start.Format("15:04:05"), f.End.Format("15:04:05"), f.Evidence.Summary, want[key])
			}
		}
		if want[key] != "" && (named != 1 || r.Class != Healthy) {
			t.Errorf("%s: %s, %d healthy episodes name the slowdown, want healthy and 1", key, r.Class, named)
		}
	}
}

// A downstream that slowed and sheds the rest holds fewer requests than the
// limit lets in: go-concurrency-limits v1.0.0's Gradient2, run for real at a
// capacity of 1 whose latency doubles, triples and quadruples from minute
// 10 (testdata/gcl-gradient2-creep-no-losses-15s.csv, read every 15 s, its
// dropped and rejected columns left out), keeps in-flight at a fifth of its
// limit of 18 throughout. From minute 11 its min RTT is 3.4× up and
// completions at a fifth of their best: degraded-downstream there
// (shedsSlower), where it read pipeline-bound for the whole trace. The time
// before the incident stays pipeline-bound.
func TestSlowerDownstreamSheddingIsNoPipeline(t *testing.T) {
	r := Classify("gcl-gradient2", readTestdata(t, "gcl-gradient2-creep-no-losses-15s.csv"), Options{})
	run := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) // the real-libraries world's epoch
	if r.Class != Degraded {
		t.Fatalf("class %s, want degraded-downstream: %+v", r.Class, r.Findings)
	}
	for _, f := range r.Findings {
		switch {
		case f.Class == Degraded && (f.Start.Before(run.Add(10*time.Minute)) || !strings.Contains(f.Evidence.Summary, "min RTT rose")):
			t.Errorf("degraded %s–%s (the incident began at 00:10): %s", f.Start.Format("15:04:05"), f.End.Format("15:04:05"), f.Evidence.Summary)
		case f.Class == PipelineBound && f.End.After(run.Add(12*time.Minute)):
			t.Errorf("pipeline-bound %s–%s runs into the incident", f.Start.Format("15:04:05"), f.End.Format("15:04:05"))
		}
	}
}

// A single worker in front of a limiter that exports no rejections is a
// pipeline: the simulator's Vector-style controller behind one worker over a
// downstream of 8 (testdata/vector-arc-single-worker-no-rejections-5s.csv,
// from the suite's fresh draw + 263, its dropped and rejected columns left
// out, as Vector exports neither) sits at 2 (at 1 now and then) with one
// request in flight (0 between requests). One below a limit of 2 counted as
// at the limit (within one request), every sample, and it read healthy for
// the whole half hour.
func TestSingleWorkerWithoutRejectionsIsPipelineBound(t *testing.T) {
	r := Classify("pool-1", readTestdata(t, "vector-arc-single-worker-no-rejections-5s.csv"), Options{})
	if r.Class != PipelineBound || r.Confidence < 0.7 {
		t.Fatalf("class %s, confidence %.2f; want pipeline-bound in most windows: %+v", r.Class, r.Confidence, r.Findings)
	}
}

// An RTT that doubled while fewer requests are in flight than at its calm
// level is the downstream's, not the limiter's own queue, even where the
// limit grew: go-concurrency-limits v1.0.0's Gradient2 over a downstream cut
// to 30 % with 5 % errors at minute 40 (rules/agreement_test.go's hour run,
// read every 5 s, its dropped and rejected columns left out, as Vector
// exports neither: testdata/gcl-gradient2-collapse-no-losses-5s.csv) falls
// from 42 to 18 and, once its long RTT average caught up, climbs back to 46
// while the downstream holds 18 and sheds the rest as fast failures, the RTT
// 2.9× up and completions at a quarter. It read pipeline-bound (39 % used)
// for its last 8 minutes; degraded-downstream from the collapse to the end
// now, at the default window and at the rules' 2 minutes.
func TestLimitGrownOverFewerInFlightIsNoPipeline(t *testing.T) {
	samples := readTestdata(t, "gcl-gradient2-collapse-no-losses-5s.csv")
	cut := time.Date(2026, 1, 1, 0, 40, 0, 0, time.UTC)
	for _, window := range []time.Duration{0, 2 * time.Minute} {
		r := Classify("gcl-gradient2", samples, Options{Window: window})
		var degradedFrom, degradedTo time.Time
		for _, f := range r.Findings {
			switch {
			case f.Class == Degraded && degradedFrom.IsZero():
				degradedFrom, degradedTo = f.Start, f.End
			case f.Class == Degraded:
				degradedTo = f.End
			case f.Class != Healthy && f.End.After(cut):
				t.Errorf("window %v: %s %s–%s after the collapse: %s", window, f.Class, f.Start.Format("15:04:05"), f.End.Format("15:04:05"), f.Evidence.Summary)
			}
		}
		if r.Class != Degraded || degradedFrom.Before(cut) || degradedFrom.After(cut.Add(time.Minute)) || degradedTo.Before(cut.Add(20*time.Minute)) {
			t.Errorf("window %v: class %s, degraded %s–%s; want degraded-downstream from 00:40 to the end", window, r.Class, degradedFrom.Format("15:04:05"), degradedTo.Format("15:04:05"))
		}
	}
}

// Requests that stop succeeding are a stalled downstream, with or without
// the loss column: go-concurrency-limits v1.0.0's Vegas, run for real over a
// downstream cut to 3 of 10 servers with its latency tripled and 2 % errors
// at minute 10 (testdata/gcl-vegas-stalled-no-losses-15s.csv, read every
// 15 s, its dropped and rejected columns left out), holds 3–8 requests and
// reports no RTT from 00:10:28 on: nothing succeeds. It read pipeline-bound
// (in-flight at a third of the limit); the stall is degraded-downstream,
// the time before it healthy. In synthetic traces, an RTT that stops while
// nothing is in flight (an idle pipeline), or a trace whose RTT is too long
// for a window to hold a success, is no stall.
func TestStalledDownstreamWithoutLosses(t *testing.T) {
	r := Classify("gcl-vegas", readTestdata(t, "gcl-vegas-stalled-no-losses-15s.csv"), Options{})
	run := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	if r.Class != Degraded {
		t.Fatalf("class %s, want degraded-downstream: %+v", r.Class, r.Findings)
	}
	for _, f := range r.Findings {
		switch {
		case f.Class == Degraded && (f.Start.Before(run.Add(10*time.Minute)) || f.Start.After(run.Add(12*time.Minute)) || !strings.Contains(f.Evidence.Summary, "no request succeeded in the window (none of its")):
			t.Errorf("degraded %s–%s (the stall began at 00:10:28): %s", f.Start.Format("15:04:05"), f.End.Format("15:04:05"), f.Evidence.Summary)
		case Rank(f.Class) > 0 && f.Class != Degraded && f.Class != Healthy:
			t.Errorf("%s %s–%s: %s", f.Class, f.Start.Format("15:04:05"), f.End.Format("15:04:05"), f.Evidence.Summary)
		}
	}
	for _, c := range []struct {
		name     string
		inFlight float64
		every    int // a success (an RTT) every that many rows before minute 10, none after
		want     bool
	}{
		{"3 in flight, nothing succeeds from minute 10", 3, 1, true},
		{"idle after minute 10", 0, 1, false},
		{"a success every 90 s", 3, 90, false},
	} {
		r := Classify("x", synth(1200, time.Second, func(i int) (float64, float64, float64, float64, float64, float64) {
			f, rtt := 3.0, -1.0
			if i%c.every == 0 && i < 600 {
				rtt = 50
			}
			if i >= 600 {
				f = c.inFlight
			}
			return 10, f, 40, rtt, -1, -1
		}), Options{})
		if got := r.Class == Degraded; got != c.want {
			t.Errorf("%s: %s %+v, want degraded %v", c.name, r.Class, r.Findings, c.want)
		}
	}
}

// TestJoinedRecordingsReadAsEachAlone: a file joining two recordings (two
// record --append runs, files concatenated) reads each as it reads alone:
// after a gap of FreshAfter or more the windows start afresh at the first
// sample and nothing before the gap is a baseline. After a shorter gap of
// a window or more (a scrape outage) the windows start afresh too and no
// finding runs across the gap. Every real fixture, joined with itself.
func TestJoinedRecordingsReadAsEachAlone(t *testing.T) {
	for _, fx := range judgedFixtures(t) {
		name, target, one, alone := fx.name, fx.target, fx.samples, fx.alone
		window := time.Duration(alone.Stats.WindowS * float64(time.Second))
		for _, gap := range []time.Duration{window * 3 / 2, FreshAfter, 30 * 24 * time.Hour} {
			joined, shift := joinedAfter(one, one, gap)
			got := Classify(target, joined, Options{})
			for _, f := range got.Findings {
				if f.End.After(one[len(one)-1].Time.Add(time.Nanosecond)) && f.Start.Before(one[0].Time.Add(shift)) {
					t.Errorf("%s %s joined with itself %v later: %s %s – %s runs across the gap", name, target, gap, f.Class, f.Start, f.End)
				}
			}
			if gap < FreshAfter {
				continue
			}
			want, have := append(describeFindings(alone.Findings, time.Time{}, 0), describeFindings(alone.Findings, time.Time{}, shift)...), describeFindings(got.Findings, time.Time{}, 0)
			sort.Strings(want)
			if got.Class != alone.Class {
				t.Errorf("%s %s joined with itself %v later: %s, alone %s", name, target, gap, got.Class, alone.Class)
			}
			if strings.Join(have, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s %s joined with itself %v later:\n%s\nwant (as alone)\n%s", name, target, gap, strings.Join(have, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// A recording after a gap of FreshAfter sizes its adaptive window from its
// own intervals and decides its own fold (probeAfresh), so it reads as it
// does alone after one read at another interval or folded otherwise: every
// fixture with a verdict, an hour after the same rows read every second
// (where it is read every 5 s or more seldom: a 1-minute window) or every
// 15 s (3¾ minutes), and an hour after the other kind of recording: each of
// its rows repeated 15 times a second apart (a 15-s scrape read every
// second, which folds) where it does not fold alone, its readings one row
// each, 15 s apart, where it does. Kept at the first recording's window, a
// fixture read every 15 s after rows a second apart held 4 readings a
// window and none was judged; kept folding, a recording after a folded one
// was judged in the window of the readings before the gap.
func TestRecordingAfterAGapSizesItsOwnWindow(t *testing.T) {
	for _, fx := range judgedFixtures(t) {
		name, target, one, alone := fx.name, fx.target, fx.samples, fx.alone
		every := time.Second
		if alone.Stats.IntervalS < 5 {
			every = 15 * time.Second
		}
		var retimed, otherKind []trace.Sample
		for i, s := range one {
			s.Time = one[0].Time.Add(time.Duration(i) * every)
			retimed = append(retimed, s)
		}
		if alone.Stats.RepeatedRows > 0 {
			// a row the stream counts as repeating the one before is left out
			st := NewStream(target, Options{})
			for _, s := range one {
				repeats := st.repeats
				if st.Push(s); st.repeats == repeats {
					s.Time = one[0].Time.Add(time.Duration(len(otherKind)) * 15 * time.Second)
					otherKind = append(otherKind, s)
				}
			}
		} else {
			for i, s := range one {
				for k := range 15 {
					s.Time = one[0].Time.Add(time.Duration(15*i+k) * time.Second)
					otherKind = append(otherKind, s)
				}
			}
		}
		for _, before := range []struct {
			what string
			rows []trace.Sample
		}{{"its rows read every " + every.String(), retimed}, {"the other kind of recording", otherKind}} {
			joined, shift := joinedAfter(before.rows, one, FreshAfter)
			start := one[0].Time.Add(shift)
			got := Classify(target, joined, Options{})
			have, want := describeFindings(got.Findings, start, 0), describeFindings(alone.Findings, one[0].Time, shift)
			if strings.Join(have, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s %s an hour after %s:\n%s\nwant (as alone)\n%s", name, target, before.what, strings.Join(have, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// joinedAfter is before, then rows moved to begin gap after before's last
// row, and how far rows were moved.
func joinedAfter(before, rows []trace.Sample, gap time.Duration) ([]trace.Sample, time.Duration) {
	shift := before[len(before)-1].Time.Add(gap).Sub(rows[0].Time)
	joined := append([]trace.Sample(nil), before...)
	for _, s := range rows {
		s.Time = s.Time.Add(shift)
		joined = append(joined, s)
	}
	return joined, shift
}

// judgedFixture is a real fixture's target that gets a verdict alone.
type judgedFixture struct {
	name, target string
	samples      []trace.Sample
	alone        Result
}

// judgedFixtures is every real fixture's target (testdata/*.csv) that gets
// a verdict alone, with that result; fewer than 20 say nothing.
func judgedFixtures(t *testing.T) []judgedFixture {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []judgedFixture
	for _, file := range files {
		name := filepath.Base(file)
		byTarget := map[string][]trace.Sample{}
		for _, s := range readTestdata(t, name) {
			byTarget[s.Target] = append(byTarget[s.Target], s)
		}
		for target, one := range byTarget {
			if alone := Classify(target, one, Options{}); alone.Class != Insufficient {
				out = append(out, judgedFixture{name, target, one, alone})
			}
		}
	}
	if len(out) < 20 {
		t.Fatalf("%d fixtures with a verdict: too few to say anything", len(out))
	}
	return out
}

// describeFindings lists the findings that start at from or later, each
// as its class and span moved by shift, sorted.
func describeFindings(fs []Finding, from time.Time, shift time.Duration) []string {
	var out []string
	for _, f := range fs {
		if !f.Start.Before(from) {
			out = append(out, fmt.Sprintf("%s %s – %s", f.Class, f.Start.Add(shift).Format(time.RFC3339Nano), f.End.Add(shift).Format(time.RFC3339Nano)))
		}
	}
	sort.Strings(out)
	return out
}

// A re-probe lasts some round trips: our Gradient (ProbeDuration 10 s, its
// sample window 2 s) at a capacity of 20 behind a 2 s downstream, read
// every 5 s (testdata/gradient-reprobes-behind-2s-downstream-5s.csv), halves
// its limit from 46 to 23 every two minutes and is back 20 s later, 25 s
// after the sample before the dip: longer than probeRecover, within
// probeRTTs round trips. Its one window holding a late probe read
// oscillating ("swung 2 times in one window") and made the trace's verdict;
// it is healthy, with no swing found anywhere.
func TestReprobeBehindASlowDownstreamIsNoSwing(t *testing.T) {
	wantWithout(t, "gradient", "gradient-reprobes-behind-2s-downstream-5s.csv", Healthy, Oscillating)
}

// Flattening a dip asks for its recovery within probeRecover, 2.5 sample
// intervals, or probeRTTs round trips, whichever is longest.
func TestFlattenProbesWaitsRoundTrips(t *testing.T) {
	sec := int64(time.Second)
	dip := []float64{46, 46, 46, 46, 23, 23, 23, 23, 46, 46, 46}
	times := make([]int64, len(dip))
	for i := range times {
		times[i] = int64(i) * 5 * sec
	}
	for _, tc := range []struct {
		name string
		rtts time.Duration
		flat bool
	}{
		{"no RTT: 25 s is past 15 s", 0, false},
		{"20 round trips of 0.5 s: 10 s", 10 * time.Second, false},
		{"20 round trips of 2 s: 40 s", 40 * time.Second, true},
	} {
		v := append([]float64(nil), dip...)
		flattenProbes(v, times, tc.rtts)
		if flat := v[4] == 46 && v[7] == 46; flat != tc.flat {
			t.Errorf("%s: flattened %v (%v), want %v", tc.name, flat, v, tc.flat)
		}
	}
}

// Little's law carries the RTT last read into intervals that had no
// success, for as long as that RTT: go-concurrency-limits v1.0.0's Vegas at
// a capacity of 8 behind a 2 s downstream whose latency doubles at 00:15,
// triples at 00:17 and quadruples at 00:19, read every second
// (testdata/gcl-vegas-creep-behind-2s-downstream-1s.csv), completes one
// request a second or less, and a third of its intervals end without one.
// Read over its min RTT (1.4 s, stale at a sixth of the RTT), those
// intervals put completions at 55–60 % of their best where they were at a
// quarter, and the whole trace read healthy. Degraded from the creep on;
// no verdict before it.
func TestSlowdownAtFewerCompletionsThanIntervals(t *testing.T) {
	r := Classify("gcl-vegas", readTestdata(t, "gcl-vegas-creep-behind-2s-downstream-1s.csv"), Options{})
	creep := time.Date(2026, 1, 1, 0, 15, 0, 0, time.UTC)
	if r.Class != Degraded {
		t.Fatalf("class %s, want degraded-downstream", r.Class)
	}
	for _, f := range r.Findings {
		switch {
		case f.Class == Degraded && (f.Start.Before(creep) || f.Start.After(creep.Add(3*time.Minute)) || f.End.Before(r.End)):
			t.Errorf("degraded %s–%s, want from 00:15–00:18 to the end", f.Start.Format("15:04:05"), f.End.Format("15:04:05"))
		case Rank(f.Class) > Rank(Healthy) && f.Class != Degraded:
			t.Errorf("%s %s–%s: %s", f.Class, f.Start.Format("15:04:05"), f.End.Format("15:04:05"), f.Evidence.Summary)
		}
	}
}

// TestHealthyStepDownIsNamed: a limit that falls to three quarters or less
// of a level it held (stepNamed) and holds the new one, with no verdict
// against the downstream, is a healthy limiter following a capacity step
// down (or settling lower on its own); its healthy finding names the step so the reader can check the
// downstream. Vector's ARC (limiter.Vector, simulator draw + 307, read
// every 15 s) held 24 for fifteen minutes over a downstream that then lost
// 70 % of its capacity, its level 24 → 6 from 00:15:15. As recorded its
// losses rose from 17 % of completions to 21–31 %: capacity lost
// (TestLossesRisingOverASheddingLevelAreCapacityLost). With the losses
// after the step scaled to 60 % (lossesAfter), near their calm level, it
// follows a smaller downstream: healthy throughout, the step named.
// go-concurrency-limits v1.0.0's Vegas, run for real from its initial 100
// to 64, 44 and 25 in its first four minutes (validation draw), leaves a
// start it never held: no step is named.
func TestHealthyStepDownIsNamed(t *testing.T) {
	for _, tc := range []struct {
		file          string
		before, since float64 // 0: no step named
		from          string
		lossesAfter   float64 // losses from `from` on are scaled by it
	}{
		{"vector-arc-step-down-to-a-quarter-15s.csv", 24, 6, "2026-01-01T00:15:15Z", 0.6},
		// the same downstream, calibration draw: one window at the new
		// level swings 5–8 (its middle half 3 wide) and leaves the run
		{"vector-arc-step-down-swinging-at-its-new-level-15s.csv", 23, 6, "2026-01-01T00:15:15Z", 0.6},
		{"gcl-vegas-start-from-initial-limit-5s.csv", 0, 0, "", 1},
		// go-concurrency-limits' AIMD in the simulator, its downstream
		// cut to 60 % (fresh seed 181818): a step to 61 % (stepNamed)
		{"gcl-aimd-wiggles-then-one-fall-15s.csv", 57, 35, "2026-01-01T00:11:30Z", 1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			smp := readTestdata(t, tc.file)
			if tc.from != "" {
				from, err := time.Parse(time.RFC3339, tc.from)
				if err != nil {
					t.Fatal(err)
				}
				smp = lossesScaled(smp, from, tc.lossesAfter)
			}
			r := Classify("target", smp, Options{})
			if r.Class != Healthy {
				t.Fatalf("class %s, want healthy", r.Class)
			}
			named := 0
			for _, f := range r.Findings {
				before, ok := f.Evidence.Values["level_before"]
				if !ok {
					continue
				}
				named++
				if f.Class != Healthy || before != tc.before || f.Evidence.Values["level_since"] != tc.since || !strings.Contains(f.Evidence.Summary, tc.from) {
					t.Errorf("%s finding names a step %v → %v: %s, want %v → %v from %s", f.Class, before, f.Evidence.Values["level_since"], f.Evidence.Summary, tc.before, tc.since, tc.from)
				}
			}
			if want := map[bool]int{true: 1, false: 0}[tc.before > 0]; named != want {
				t.Errorf("%d findings name a step, want %d", named, want)
			}
		})
	}
}
