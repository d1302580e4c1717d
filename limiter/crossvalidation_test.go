package limiter_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	gcl "github.com/platinummonkey/go-concurrency-limits/limit"

	"github.com/limitscope/limitscope/limiter"
)

// sample is one observation fed to both implementations.
type sample struct {
	rtt      time.Duration
	inFlight int
	dropped  bool
}

// sequences are the sample streams both implementations see: steady, a
// latency step, noisy latency with varying load, and noise with drops.
func sequences() map[string][]sample {
	rng := rand.New(rand.NewPCG(20261130, 7))
	out := map[string][]sample{}
	var steady, step, noisy, drops []sample
	for i := 0; i < 3000; i++ {
		steady = append(steady, sample{rtt: 20 * time.Millisecond, inFlight: 150})
		r := 20 * time.Millisecond
		if i >= 1000 && i < 2000 {
			r = 45 * time.Millisecond
		}
		step = append(step, sample{rtt: r, inFlight: 120})
		n := time.Duration(float64(20*time.Millisecond) * math.Exp(0.3*rng.NormFloat64()))
		noisy = append(noisy, sample{rtt: n, inFlight: 10 + rng.IntN(190)})
		drops = append(drops, sample{rtt: n, inFlight: 10 + rng.IntN(190), dropped: rng.Float64() < 0.03})
	}
	out["steady"], out["step"], out["noisy"], out["drops"] = steady, step, noisy, drops
	return out
}

// agree feeds seq to ours and theirs and fails unless every limit agrees
// within 1 % (theirs reports whole requests: ours is truncated the same way).
func agree(t *testing.T, name string, seq []sample, ours limiter.Limiter, theirs interface {
	OnSample(startTime int64, rtt int64, inFlight int, didDrop bool)
	EstimatedLimit() int
}) {
	t.Helper()
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	worst := 0.0
	for i, s := range seq {
		now := t0.Add(time.Duration(i) * 100 * time.Millisecond)
		got := ours.Observe(now, s.rtt, s.inFlight, s.dropped)
		theirs.OnSample(now.UnixNano(), int64(s.rtt), s.inFlight, s.dropped)
		want := float64(theirs.EstimatedLimit())
		d := math.Abs(math.Trunc(got)-want) / want
		worst = math.Max(worst, d)
		if d > 0.01 {
			t.Fatalf("%s sample %d: limit %.3f, go-concurrency-limits %v", name, i, got, want)
		}
	}
	t.Logf("%s: %d samples, worst difference %.2f%%", name, len(seq), 100*worst)
}

// Gradient2 replays go-concurrency-limits' Gradient2 exactly when set to the
// port's two differences from Netflix (no tolerance, decay 0.9).
func TestGradient2AgreesWithGoConcurrencyLimits(t *testing.T) {
	for name, seq := range sequences() {
		theirs, err := gcl.NewGradient2Limit("x", 20, 200, 20, func(int) int { return 4 }, 0.2, 600, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		agree(t, name, seq, &limiter.Gradient2{Tolerance: 1, LongDecay: 0.9}, theirs)
	}
}

// The documented differences: Netflix's tolerance lets the RTT run 1.5× the
// long average before the limit shrinks; the port shrinks at once.
func TestGradient2ToleranceIsNetflixsNotThePorts(t *testing.T) {
	seq := sequences()["step"]
	netflix := &limiter.Gradient2{}
	port := &limiter.Gradient2{Tolerance: 1, LongDecay: 0.9}
	t0 := time.Now()
	for i, s := range seq[:1100] {
		netflix.Observe(t0.Add(time.Duration(i)*time.Second), s.rtt, s.inFlight, false)
		port.Observe(t0.Add(time.Duration(i)*time.Second), s.rtt, s.inFlight, false)
	}
	// 100 samples into a 2.25× latency step: the port has shrunk to its
	// floor, Netflix's tolerance has shrunk it less
	if !(port.Limit() < netflix.Limit()) {
		t.Fatalf("after the step: port %v, Netflix %v; tolerance 1.5 must shrink less", port.Limit(), netflix.Limit())
	}
}

// Vegas replays go-concurrency-limits' Vegas with probing out of the way
// (the port draws its probe jitter from the global generator) and the
// port's strict fast-growth test.
func TestVegasAgreesWithGoConcurrencyLimits(t *testing.T) {
	for name, seq := range sequences() {
		theirs := gcl.NewVegasLimitWithRegistry("x", 20, nil, 1000, 1.0, nil, nil, nil, nil, nil, 1<<30, nil, nil)
		agree(t, name, seq, &limiter.Vegas{ProbeMultiplier: 1 << 30, StrictGrowth: true}, theirs)
	}
}

// Netflix grows fast while the estimated queue is at most log10(limit); the
// port only while it is below. At a limit of 20 and a queue of exactly 1,
// Netflix adds 6, the port 1.
func TestVegasFastGrowthBoundaryIsNetflixs(t *testing.T) {
	t0 := time.Now()
	// rttNoLoad 20 ms, then 20.8 ms: queue = ⌈20·(1 − 20/20.8)⌉ = 1
	netflix := &limiter.Vegas{ProbeMultiplier: 1 << 30}
	port := &limiter.Vegas{ProbeMultiplier: 1 << 30, StrictGrowth: true}
	for _, v := range []*limiter.Vegas{netflix, port} {
		v.Observe(t0, 20*time.Millisecond, 20, false)
		v.Observe(t0, 20800*time.Microsecond, 20, false)
	}
	if netflix.Limit() != 26 || port.Limit() != 21 {
		t.Fatalf("queue 1 at limit 20: Netflix %v (want 26), port reading %v (want 21)", netflix.Limit(), port.Limit())
	}
	theirs := gcl.NewVegasLimitWithRegistry("x", 20, nil, 1000, 1.0, nil, nil, nil, nil, nil, 1<<30, nil, nil)
	theirs.OnSample(0, int64(20*time.Millisecond), 20, false)
	theirs.OnSample(0, int64(20800*time.Microsecond), 20, false)
	if theirs.EstimatedLimit() != 21 {
		t.Fatalf("go-concurrency-limits grew to %d; the pinned difference is gone", theirs.EstimatedLimit())
	}
}

// A probe re-learns the no-load RTT: after ProbeMultiplier·jitter·limit
// samples the next RTT becomes the new minimum, so a downstream that got
// slower stops looking congested.
func TestVegasProbeRelearnsTheNoLoadRTT(t *testing.T) {
	v := &limiter.Vegas{Rand: rand.New(rand.NewPCG(1, 2))}
	t0 := time.Now()
	v.Observe(t0, 10*time.Millisecond, 20, false)
	for i := 0; i < 2000; i++ {
		v.Observe(t0, 30*time.Millisecond, int(v.Limit()), false)
	}
	if v.MinRTT() != 30*time.Millisecond {
		t.Fatalf("no-load RTT %v after 2000 samples at 30 ms: the probe never re-learnt it", v.MinRTT())
	}
}

// AIMD grows as Netflix's does, while half the limit is in use; the Go port
// grows only when in-flight reaches the limit. At a limit of 20 with 12 in
// flight, ours and Netflix's grow to 21, the port stays at 20.
func TestAIMDGrowthIsNetflixsNotThePorts(t *testing.T) {
	a := &limiter.AIMD{InitialLimit: 20, MinLimit: 20, MaxLimit: 200, Backoff: 0.9, Cooldown: time.Nanosecond}
	if got := a.Observe(time.Now(), 10*time.Millisecond, 12, false); got != 21 {
		t.Fatalf("limit 20, 12 in flight: %v, want 21 (Netflix: inflight*2 >= limit)", got)
	}
	port := gcl.NewAIMDLimit("x", 20, 0.9, 1, nil)
	port.OnSample(0, int64(10*time.Millisecond), 12, false)
	if port.EstimatedLimit() != 20 {
		t.Fatalf("go-concurrency-limits grew to %d; the pinned difference is gone", port.EstimatedLimit())
	}
	// a drop backs off by the ratio, clamped to the minimum as Netflix's is
	if got := a.Observe(time.Now(), 10*time.Millisecond, 12, true); got != 20 {
		t.Fatalf("backoff from 21 at 0.9 with minimum 20: %v, want 20", got)
	}
}
