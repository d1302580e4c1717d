package limiter_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/limitscope/limitscope/limiter"
)

// A client protects one downstream with a gradient limiter under a static
// cap: the RTT is measured from Acquire's return to Release, so waiting for
// a slot never counts. (limiterprom exports the gate's series, limiterhttp
// puts it in front of an http.Handler.)
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
	call := func(ctx context.Context) error {
		p, err := gate.Acquire(ctx)
		if err != nil {
			return err // limiter.ErrRejected: shed the request
		}
		// ... call the downstream; a failure or timeout is a loss event ...
		p.Release(limiter.Success)
		return nil
	}
	fmt.Println(call(context.Background()), gate.Stats().Limit)
	// Output: <nil> 10
}

// Acquire waits in the gate's bounded queue when every slot is taken: the
// first waiter gets the slot a Release frees, a caller beyond the queue is
// rejected at once, and a waiter whose context ends leaves the queue.
func ExampleGate_Acquire() {
	gate := limiter.NewGate(limiter.GateConfig{Limiter: &limiter.Fixed{N: 1}, QueueSize: 1})
	first, _ := gate.Acquire(context.Background())

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p, err := gate.Acquire(context.Background()) // waits for first's slot
		fmt.Println("waiter:", err)
		p.Release(limiter.Success)
	}()
	for gate.Stats().Queued == 0 {
		time.Sleep(time.Millisecond)
	}
	_, err := gate.Acquire(context.Background()) // queue full
	fmt.Println("beyond the queue:", errors.Is(err, limiter.ErrRejected))
	first.Release(limiter.Success)
	wg.Wait()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	hold, _ := gate.Acquire(context.Background())
	_, err = gate.Acquire(ctx) // waits, then its context ends
	fmt.Println("context ended:", err)
	hold.Release(limiter.Success)
	hold.Release(limiter.Success) // a second Release is a no-op
	s := gate.Stats()
	fmt.Printf("in flight %d, success %d, rejected %d\n", s.InFlight, s.Success, s.Rejected)
	// Output:
	// beyond the queue: true
	// waiter: <nil>
	// context ended: context deadline exceeded
	// in flight 0, success 3, rejected 2
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
