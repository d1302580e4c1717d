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
