package limiter

import (
	"testing"
	"time"
)

// feedEnvoy sends n requests of rtt, spaced by step, from *now.
func feedEnvoy(e *Envoy, now *time.Time, n int, rtt, step time.Duration) float64 {
	for i := 0; i < n; i++ {
		*now = now.Add(step)
		e.Observe(*now, rtt, 0, false)
	}
	return e.Limit()
}

// The formulas of Envoy's documentation: gradient = (minRTT + B)/sampleRTT
// with B = 25 % of minRTT, limit = gradient·limit + √(that), clamped; the
// gradient between 0.5 and 2.
func TestEnvoyFollowsItsDocumentedFormulas(t *testing.T) {
	now := time.Unix(0, 0)
	e := &Envoy{Jitter: -1}
	// it starts in a minRTT calculation, pinned at min_concurrency 3
	if l := feedEnvoy(e, &now, 49, 10*time.Millisecond, time.Millisecond); l != 3 || !e.Calculating() {
		t.Fatalf("during the first calculation: limit %v, calculating %v", l, e.Calculating())
	}
	feedEnvoy(e, &now, 1, 10*time.Millisecond, time.Millisecond)
	if e.MinRTT() != 10*time.Millisecond || e.Calculating() {
		t.Fatalf("after 50 requests: minRTT %v, calculating %v", e.MinRTT(), e.Calculating())
	}
	// one window at sampleRTT = minRTT: gradient 1.25, 3·1.25 = 3.75,
	// ⌊3.75 + √3.75⌋ = 5; then ⌊6.25 + 2.5⌋ = 8
	want := []float64{5, 8}
	for i, w := range want {
		if l := feedEnvoy(e, &now, 10, 10*time.Millisecond, 11*time.Millisecond); l != w {
			t.Fatalf("window %d: limit %v, want %v", i+1, l, w)
		}
	}
	// a sampleRTT 10× the minRTT halves the limit at most: gradient 0.5,
	// 8·0.5 = 4, ⌊4 + 2⌋ = 6
	if l := feedEnvoy(e, &now, 10, 100*time.Millisecond, 11*time.Millisecond); l != 6 {
		t.Fatalf("gradient floor: limit %v, want 6", l)
	}
	// the gradient is at most 2: a sampleRTT of a tenth of the minRTT
	// gives ⌊12 + √12⌋ = 15
	if l := feedEnvoy(e, &now, 10, time.Millisecond, 11*time.Millisecond); l != 15 {
		t.Fatalf("gradient ceiling: limit %v, want 15", l)
	}
}

// Five windows at the minimum start a new minRTT calculation, and a
// calculation ends with the limit it interrupted.
func TestEnvoyRecalculatesWhenPinnedAndOnItsInterval(t *testing.T) {
	now := time.Unix(0, 0)
	e := &Envoy{Jitter: -1, MinRTTInterval: time.Hour}
	feedEnvoy(e, &now, 50, 10*time.Millisecond, time.Millisecond)
	// responses taking a second come from requests sent a second ago:
	// after the calculation window began, or Envoy would not sample them
	now = now.Add(time.Second)
	for i := 0; i < 5 && !e.Calculating(); i++ {
		feedEnvoy(e, &now, 10, time.Second, 11*time.Millisecond) // 100× minRTT: the limit sinks to 3
	}
	if !e.Calculating() {
		t.Fatal("5 windows at the minimum must start a minRTT calculation")
	}
	now = now.Add(500 * time.Millisecond) // requests sent after the calculation began
	feedEnvoy(e, &now, 50, 500*time.Millisecond, time.Millisecond)
	if e.MinRTT() != 500*time.Millisecond {
		t.Fatalf("the recalculation learnt %v, want 500ms", e.MinRTT())
	}
	// the interval: a calculation every MinRTTInterval (jitter off)
	f := &Envoy{Jitter: -1, MinRTTInterval: 10 * time.Second}
	feedEnvoy(f, &now, 50, 10*time.Millisecond, time.Millisecond)
	feedEnvoy(f, &now, 900, 10*time.Millisecond, 11*time.Millisecond) // 9.9 s
	if f.Calculating() {
		t.Fatal("calculating before the interval")
	}
	feedEnvoy(f, &now, 20, 10*time.Millisecond, 11*time.Millisecond)
	if !f.Calculating() || f.Limit() != 3 {
		t.Fatalf("after the interval: calculating %v, limit %v (pinned at 3)", f.Calculating(), f.Limit())
	}
}

// The documentation's example configuration: p90, 100 ms windows,
// min_concurrency_limit 25 separate from min_concurrency 50: the limit never
// goes below 25 and is not pinned while the minRTT is measured.
func TestEnvoyDocumentedExampleConfiguration(t *testing.T) {
	now := time.Unix(0, 0)
	e := &Envoy{Percentile: 90, UpdateInterval: 100 * time.Millisecond, MinLimit: 25, MinConcurrency: 50, Jitter: 10,
		MinRTTInterval: 60 * time.Second, MinRTTRequests: 50, InitialLimit: 100}
	if l := feedEnvoy(e, &now, 10, 10*time.Millisecond, time.Millisecond); l != 100 {
		t.Fatalf("min_concurrency_limit set: the calculation must not pin the limit (got %v)", l)
	}
	feedEnvoy(e, &now, 40, 10*time.Millisecond, time.Millisecond)
	for i := 0; i < 20 && !e.Calculating(); i++ {
		if l := feedEnvoy(e, &now, 10, time.Second, 11*time.Millisecond); l < 25 {
			t.Fatalf("limit %v under overload; the documented floor is 25", l)
		}
	}
	// five windows at 25 start a recalculation, which keeps the limit
	if !e.Calculating() || e.Limit() != 25 {
		t.Fatalf("at the floor: calculating %v, limit %v (want a recalculation at 25, not pinned to 50)", e.Calculating(), e.Limit())
	}
}

// Vector's ARC from its documentation: +1 per observation interval while the
// limit is reached and the RTT is not above its average; ⌊limit·0.9⌋ on a
// loss or an RTT beyond the average plus 2.5 deviations.
func TestVectorFollowsItsDocumentedRule(t *testing.T) {
	now := time.Unix(0, 0)
	v := &Vector{InitialLimit: 10}
	step := func(rtt time.Duration, inFlight int, drop bool) float64 {
		// one response per interval: the interval is one past RTT long
		now = now.Add(max(rtt, v.MinRTT()))
		return v.Observe(now, rtt, inFlight, drop)
	}
	step(20*time.Millisecond, 10, false) // seeds the past RTT
	for i := 0; i < 5; i++ {
		step(20*time.Millisecond, int(v.Limit()), false)
	}
	if l := v.Limit(); l != 15 {
		t.Fatalf("5 saturated intervals at a steady RTT: limit %v, want 15", l)
	}
	if l := step(20*time.Millisecond, 3, false); l != 15 {
		t.Fatalf("the limit not reached: it must not grow (got %v)", l)
	}
	if l := step(20*time.Millisecond, 15, true); l != 13 {
		t.Fatalf("a loss: ⌊15·0.9⌋ = 13, got %v", l)
	}
	if l := step(60*time.Millisecond, 13, false); l != 11 {
		t.Fatalf("an RTT 3× its average: ⌊13·0.9⌋ = 11, got %v", l)
	}
	if v.MinRTT() <= 20*time.Millisecond {
		t.Fatalf("the past RTT must move towards the new RTT: %v", v.MinRTT())
	}
}

// Envoy does not sample a response to a request sent before the latest
// minRTT calculation began (gradient_controller.cc, recordLatencySample):
// the drain of a queue built before the pin does not become the minRTT.
func TestEnvoyIgnoresRequestsSentBeforeTheCalculation(t *testing.T) {
	now := time.Unix(100, 0)
	e := &Envoy{Jitter: -1, MinRTTInterval: time.Hour, MinRTTRequests: 5}
	// the first response starts the calculation at its send time; the
	// next ones, sent earlier (a long RTT), are not sampled
	e.Observe(now, 10*time.Millisecond, 1, false)
	for i := 0; i < 20; i++ {
		now = now.Add(time.Millisecond)
		e.Observe(now, 2*time.Second, 3, false)
	}
	if !e.Calculating() {
		t.Fatal("responses to requests sent before the calculation completed it")
	}
	for i := 0; i < 4; i++ {
		now = now.Add(time.Millisecond)
		e.Observe(now, 12*time.Millisecond, 3, false)
	}
	if e.Calculating() || e.MinRTT() < 10*time.Millisecond || e.MinRTT() > 12*time.Millisecond {
		t.Fatalf("calculating %v, minRTT %v: want the 10–12 ms of requests sent in the window", e.Calculating(), e.MinRTT())
	}
}
