package limiter_test

import (
	"fmt"
	"net/http"
	"time"

	"github.com/limitscope/limitscope/limiter"
	"github.com/prometheus/client_golang/prometheus"
)

// A service protects one downstream with a gradient limiter under a static
// cap, exports its series, and answers 503 + Retry-After when over the limit.
func Example() {
	gate := limiter.NewGate(limiter.GateConfig{
		Downstream: "payments",
		Limiter: &limiter.Windowed{
			Limiter: &limiter.Gradient{Smoothing: 0.2},
			Window:  100 * time.Millisecond,
		},
		Cap:          200,
		QueueSize:    50,
		QueueTimeout: 100 * time.Millisecond,
	})
	metrics := limiter.NewMetrics()
	metrics.Add(gate)
	reg := prometheus.NewRegistry()
	reg.MustRegister(metrics)

	handler := limiter.Middleware(gate, time.Second, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "ok")
	}))
	_ = handler

	// Around a client call instead: the RTT is measured from Acquire's
	// return to Release, so waiting for a slot never counts.
	if p, ok := gate.TryAcquire(); ok {
		// ... call the downstream ...
		p.Release(limiter.Success)
	}
	fmt.Println(gate.Stats().Limit)
	// Output: 10
}

// The algorithm alone is a deterministic state machine: time is passed in.
func ExampleGradient() {
	g := &limiter.Gradient{Smoothing: 0.2}
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	for i := 0; i < 10; i++ {
		now = now.Add(100 * time.Millisecond)
		g.Observe(now, 10*time.Millisecond, int(g.Limit()), false)
	}
	fmt.Printf("limit %.1f after 10 flat samples under load\n", g.Limit())
	g.Observe(now, 1*time.Millisecond, int(g.Limit()), true)
	fmt.Printf("limit %.1f after one loss\n", g.Limit())
	// Output:
	// limit 17.2 after 10 flat samples under load
	// limit 8.6 after one loss
}

// Replaying a recorded trace through a candidate limiter: ten minutes at
// 100 ms of a downstream whose RTT doubles halfway, with demand of 60
// requests, under a cap of 50. The limit falls when the RTT doubles, and
// recovers once the re-probe has learnt the new minimum RTT.
func ExampleGradient_ObserveBatch() {
	const n = 6000
	b := limiter.Batch{
		Start:  time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC).UnixNano(),
		Step:   int64(100 * time.Millisecond),
		RTT:    make([]float32, n),
		Demand: make([]float32, n),
		Cap:    50,
	}
	for i := range n {
		b.RTT[i], b.Demand[i] = 20, 60
		if i >= n/2 {
			b.RTT[i] = 40
		}
	}
	g := &limiter.Gradient{Smoothing: 0.1}
	enforced := make([]float32, n)
	for _, upTo := range []int{n / 2, n/2 + 20, n} {
		got := g.ObserveBatch(&b, enforced[:upTo-b.Next()])
		fmt.Printf("at %3.0f s: enforced %v, min RTT %v\n", float64(upTo)/10, enforced[got-1], g.MinRTT())
	}
	// Output:
	// at 300 s: enforced 50, min RTT 20ms
	// at 302 s: enforced 31, min RTT 20ms
	// at 600 s: enforced 50, min RTT 40ms
}
