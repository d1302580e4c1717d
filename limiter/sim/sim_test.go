package sim

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/limitscope/limitscope/limiter"
)

func f(v float64) *float64        { return &v }
func d(v time.Duration) *Duration { x := Duration(v); return &x }

// stepScenario: demand always above capacity, capacity 40 → 80 → 24 every
// 10 minutes.
func stepScenario() Scenario {
	sc := Scenario{
		Name: "steps", Duration: Duration(30 * time.Minute), Seed: 7,
		Schedule: []Step{
			{At: 0, Capacity: f(40), BaseLatency: d(20 * time.Millisecond), Demand: f(6000)},
			{At: Duration(10 * time.Minute), Capacity: f(80)},
			{At: Duration(20 * time.Minute), Capacity: f(24)},
		},
	}
	if err := sc.Normalise(); err != nil {
		panic(err)
	}
	return sc
}

func meanLimit(r Result, from, to time.Duration) float64 {
	sum, n := 0.0, 0
	for _, s := range r.Samples {
		off := s.Time.Sub(Epoch)
		if off >= from && off < to {
			sum += s.Limit
			n++
		}
	}
	return sum / float64(n)
}

func TestDeterministicForASeed(t *testing.T) {
	sc := stepScenario()
	sc.Duration = Duration(3 * time.Minute)
	mk := func() limiter.Limiter {
		return &limiter.Windowed{Limiter: limiter.NewGradient(), Window: 100 * time.Millisecond}
	}
	a := Run(sc, mk(), Options{Name: "x"})
	b := Run(sc, mk(), Options{Name: "x"})
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs with the same seed differ")
	}
	c := Run(sc, mk(), Options{Name: "x", Seed: 99})
	if reflect.DeepEqual(a.Samples, c.Samples) {
		t.Fatal("a different seed gave the same run")
	}
	if len(a.Samples) != 180 || a.Samples[0].Target != "x" {
		t.Fatalf("want 180 one-second samples labelled x, got %d", len(a.Samples))
	}
}

func TestDownstreamIsPhysical(t *testing.T) {
	sc := stepScenario()
	sc.Duration = Duration(2 * time.Minute)
	lat := func(limit float64) Result {
		return Run(sc, &limiter.Fixed{N: limit}, Options{Name: "fixed"})
	}
	under, at, over2, over3 := lat(20), lat(40), lat(80), lat(119)
	// under capacity: latency is the base latency
	if under.P50Ms < 18 || under.P50Ms > 23 {
		t.Fatalf("p50 under capacity %.1f, want ≈ 20ms", under.P50Ms)
	}
	// past the knee latency grows faster than linearly in the backlog
	q2, q3 := over2.P50Ms-at.P50Ms, over3.P50Ms-at.P50Ms
	if !(q3 > 2.1*q2) {
		t.Fatalf("queueing delay at 2C %.1fms, at 3C %.1fms: want superlinear growth", q2, q3)
	}
	// beyond the shed bound (8·C by default) requests are refused
	if over3.Lost != 0 || lat(400).Lost == 0 {
		t.Fatal("a backlog past shed_at·C must shed")
	}
	if under.Lost != 0 || at.OverloadEpisodes != 0 || over3.OverloadEpisodes == 0 {
		t.Fatalf("lost %d, episodes at C %d, at 3C %d", under.Lost, at.OverloadEpisodes, over3.OverloadEpisodes)
	}
	if under.Utilisation > 0.55 || under.Utilisation < 0.45 {
		t.Fatalf("limit C/2 must use half the capacity, got %.2f", under.Utilisation)
	}
}

func TestErrorsAndTimeoutsAreLosses(t *testing.T) {
	sc := stepScenario()
	sc.Duration = Duration(time.Minute)
	sc.Schedule[0].ErrorRate = f(0.2)
	r := Run(sc, &limiter.Fixed{N: 20}, Options{})
	frac := float64(r.Lost) / float64(r.Dispatched)
	if math.Abs(frac-0.2) > 0.02 {
		t.Fatalf("error rate 0.2 gave loss fraction %.3f", frac)
	}
	sc.Schedule[0].ErrorRate = nil
	sc.Client.Timeout = Duration(15 * time.Millisecond)
	r = Run(sc, &limiter.Fixed{N: 20}, Options{})
	if r.Lost == 0 || r.P99Ms > 16 {
		t.Fatalf("timeouts: lost %d p99 %.1f", r.Lost, r.P99Ms)
	}
}

// The per-interval counts are the run's totals split by interval: injected
// errors are failures, timeouts are congestion, and nothing is counted
// twice or lost between intervals.
func TestIntervalCountsAddUpToTheRun(t *testing.T) {
	sc := stepScenario()
	sc.Duration = Duration(2 * time.Minute)
	sc.Schedule[0].ErrorRate = f(0.1)
	sc.Client.Timeout = Duration(40 * time.Millisecond)
	r := Run(sc, &limiter.Fixed{N: 60}, Options{})
	if len(r.Counts) != len(r.Samples) {
		t.Fatalf("%d counts for %d samples", len(r.Counts), len(r.Samples))
	}
	var sum IntervalCounts
	for _, c := range r.Counts {
		sum.Offered += c.Offered
		sum.Deferred += c.Deferred
		sum.Dispatched += c.Dispatched
		sum.Congested += c.Congested
		sum.Failed += c.Failed
	}
	// the run ends on its last sample: every request falls in an interval
	if sum.Offered != r.Requests || sum.Deferred != r.Deferred || sum.Dispatched != r.Dispatched || sum.Congested+sum.Failed != r.Lost {
		t.Fatalf("counts %+v; run: requests %d deferred %d dispatched %d lost %d", sum, r.Requests, r.Deferred, r.Dispatched, r.Lost)
	}
	if sum.Congested == 0 || math.Abs(float64(sum.Failed)/float64(sum.Dispatched)-0.1) > 0.02 {
		t.Fatalf("timeouts %d, failures %.3f of dispatched (error rate 0.1)", sum.Congested, float64(sum.Failed)/float64(sum.Dispatched))
	}
}

func TestScenarioYAMLErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"duration: 1h\nschedule: []\n", "the schedule must start with a step at 0s"},
		{"duration: soon\n", "\"soon\" is not a duration"},
		{"duration: 1h\nbogus: 1\n", "field bogus not found"},
		{"duration: 1h\nschedule:\n  - {at: 0s, capacity: 0, base_latency: 1ms, demand: 1}\n", "capacity must be at least 1"},
		{"duration: 1h\nschedule:\n  - {at: 0s, capacity: 2, base_latency: 1ms, demand: 1}\nlimiters:\n  - {name: x, kind: magic}\n", "kind must be one of fixed, aimd, gradient, gradient2, vegas, envoy, vector"},
		{"duration: 1h\nclient: {workers: -1}\nschedule:\n  - {at: 0s, capacity: 2, base_latency: 1ms, demand: 1}\n", "workers must not be negative"},
		{"duration: 1h\nclient: {workers: 1000000000}\nschedule:\n  - {at: 0s, capacity: 2, base_latency: 1ms, demand: 1}\n", "workers is 1000000000; at most 1048576"},
	} {
		_, err := Parse([]byte(c.yaml), "s.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "s.yaml") {
			t.Errorf("%q: got %v, want %q", c.yaml, err, c.want)
		}
	}
	if _, err := Load("nope"); err == nil || !strings.Contains(err.Error(), "capacity-shift") {
		t.Fatalf("unknown scenario error must list the built-ins: %v", err)
	}
}

func BenchmarkCapacityShiftTable(b *testing.B) {
	sc, err := Load("capacity-shift")
	if err != nil {
		b.Fatal(err)
	}
	var reqs int64
	for i := 0; i < b.N; i++ {
		for _, r := range Shootout(sc, nil) {
			reqs += r.Requests
		}
	}
	b.ReportMetric(float64(reqs)/b.Elapsed().Seconds(), "simreq/s")
}

// TestShootoutRunsInParallel is the race detector's view of the shoot-out:
// a short scenario, every limiter on its own goroutine.
func TestShootoutRunsInParallel(t *testing.T) {
	sc, err := Load("capacity-shift")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = Duration(30 * time.Second)
	res := Shootout(sc, func(done, total int) {})
	if len(res) != 9 || res[0].Limiter != "static-low" || res[4].Limiter != "gradient-cap" || res[8].Limiter != "vector-arc" || res[3].Requests == 0 || res[8].Requests == 0 {
		t.Fatalf("results %+v", res)
	}
}

// A pool of workers sends one request each and waits for it: in-flight
// never exceeds the pool, a limit above the pool rejects nothing, and a
// pool thinking between sends (demand below what it could send) completes
// at about the demand.
func TestWorkerPoolIsClosedLoop(t *testing.T) {
	sc := stepScenario()
	sc.Duration = Duration(2 * time.Minute)
	sc.Schedule = sc.Schedule[:1]
	sc.Client.Workers = 12
	r := Run(sc, &limiter.Fixed{N: 30}, Options{Name: "pool"})
	for _, s := range r.Samples {
		if s.InFlight > 12 {
			t.Fatalf("in-flight %v with a pool of 12", s.InFlight)
		}
	}
	if r.Deferred != 0 {
		t.Fatalf("a limit of 30 above a pool of 12 rejected %d", r.Deferred)
	}
	// no think time to speak of (demand 6000/s): the pool is always busy,
	// 12 in flight at about 20 ms is about 600 requests a second
	if rate := float64(r.Dispatched) / 120; rate < 500 || rate > 650 {
		t.Fatalf("a saturated pool of 12 at 20 ms sent %.0f/s, want about 600", rate)
	}
	// a limit below the pool binds: the rest wait in the client's queue
	r = Run(sc, &limiter.Fixed{N: 6}, Options{Name: "pool"})
	if rate := float64(r.Dispatched) / 120; rate < 250 || rate > 325 {
		t.Fatalf("a limit of 6 under a pool of 12 sent %.0f/s, want about 300", rate)
	}
	// demand of 100/s from the pool: think time dominates
	sc.Schedule[0].Demand = f(100)
	r = Run(sc, &limiter.Fixed{N: 30}, Options{Name: "pool"})
	if rate := float64(r.Dispatched) / 120; rate < 80 || rate > 105 {
		t.Fatalf("a pool thinking 120 ms between 20 ms requests sent %.0f/s, want about 100", rate)
	}
	// no demand: the pool idles until it returns
	sc.Schedule = append(sc.Schedule[:1], Step{At: Duration(time.Minute), Demand: f(0)})
	sc.Schedule[0].Demand = f(0)
	sc.Schedule = append(sc.Schedule, Step{At: Duration(90 * time.Second), Demand: f(6000)})
	r = Run(sc, &limiter.Fixed{N: 30}, Options{Name: "pool"})
	if r.Dispatched == 0 || r.Samples[30].InFlight != 0 || r.Samples[110].InFlight != 12 {
		t.Fatalf("idle then busy: sent %d, in-flight at 30 s %v, at 110 s %v", r.Dispatched, r.Samples[30].InFlight, r.Samples[110].InFlight)
	}
}

// FuzzParseScenario: any scenario file either fails to parse with an error
// naming it, or parses into one that a short run simulates without
// panicking and whose samples are finite.
func FuzzParseScenario(f *testing.F) {
	shift, err := builtin.ReadFile("scenarios/capacity-shift.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(shift)
	f.Add([]byte("duration: 10s\nclient: {workers: 3}\nschedule:\n  - {at: 0s, capacity: 2, base_latency: 1ms, demand: 50}\n  - {at: 5s, demand: 0}\n"))
	f.Add([]byte("duration: 1h\nschedule:\n  - {at: 0s, capacity: 0, base_latency: 1ms, demand: 1}\n"))
	f.Add([]byte("duration: 10s\nclient: {workers: 2}\nschedule:\n  - {at: 0s, capacity: 2, base_latency: 1ms, demand: 1e-15}\n"))
	f.Add([]byte("duration: 10s\nschedule:\n  - {at: 0s, capacity: 2, base_latency: 1ms, demand: 1e-15}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sc, err := Parse(b, "f.yaml")
		if err != nil {
			if !strings.Contains(err.Error(), "f.yaml") {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		// a short, small run: the fuzzer's scenarios may ask for hours of
		// millions of requests a second
		for _, st := range sc.Schedule {
			if st.Demand != nil && *st.Demand > 1e4 || st.Capacity != nil && *st.Capacity > 1e4 ||
				sc.Client.Workers > 0 && st.BaseLatency != nil && *st.BaseLatency < Duration(time.Millisecond) {
				return // a pool's rate is workers / latency
			}
		}
		if sc.Client.Workers > 100 || sc.Client.Workers > 0 && min(sc.Downstream.ErrorLatency, sc.Client.Timeout) < Duration(time.Millisecond) {
			return
		}
		sc.Duration = min(sc.Duration, Duration(3*time.Second))
		sc.Interval = max(sc.Interval, Duration(100*time.Millisecond))
		r := Run(sc, &limiter.Fixed{N: 10}, Options{Name: "f"})
		for _, s := range r.Samples {
			if math.IsNaN(s.Limit) || math.IsInf(s.RTTMs, 0) || math.IsNaN(s.RTTMs) || s.InFlight < 0 {
				t.Fatalf("sample %+v", s)
			}
		}
	})
}

// A vanishing demand sends nothing: its waits saturate at the end of
// time instead of overflowing into the past.
func TestVanishingDemandSendsNothing(t *testing.T) {
	for _, workers := range []int{0, 3} {
		sc := stepScenario()
		sc.Duration = Duration(time.Minute)
		sc.Schedule = sc.Schedule[:1]
		sc.Schedule[0].Demand = f(1e-15)
		sc.Client.Workers = workers
		r := Run(sc, &limiter.Fixed{N: 10}, Options{Name: "idle"})
		if r.Requests != 0 || len(r.Samples) != 60 {
			t.Errorf("workers %d: %d requests, %d samples from a demand of 1e-15/s in a minute", workers, r.Requests, len(r.Samples))
		}
	}
}
