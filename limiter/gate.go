package limiter

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"
)

// ErrRejected is returned by Acquire when the gate is at its limit and the
// request could not wait: the queue is full, or the wait outlived
// QueueTimeout.
var ErrRejected = errors.New("limiter: concurrency limit reached")

// Outcome is how a request that held a permit ended.
type Outcome int

const (
	// Success: the downstream answered; its RTT is a latency sample.
	Success Outcome = iota
	// Dropped: a loss event (error, timeout, 5xx); the limiter backs off.
	Dropped
	// Ignore: the request ended without saying anything about the
	// downstream (cancelled by the caller); the slot is freed, nothing is
	// observed.
	Ignore
)

// GateConfig configures a Gate. Only Limiter is required.
type GateConfig struct {
	// Downstream names the one downstream this gate protects; it labels the
	// metrics. One gate per downstream: sharing one lets a fast downstream's
	// RTT mask a slow one's queueing.
	Downstream string
	// Limiter is the adaptive (or fixed) limit; it is owned by the gate from
	// now on.
	Limiter Limiter
	// Cap is the static safety cap (bulkhead): the enforced limit never
	// exceeds it, whatever the limiter says. 0 means no cap beyond the
	// limiter's own maximum.
	Cap int
	// QueueSize is how many callers of Acquire may wait for a slot; beyond it
	// Acquire rejects at once. 0 means no waiting.
	QueueSize int
	// QueueTimeout bounds one wait in the queue (0: until the context ends).
	QueueTimeout time.Duration
	// Clock returns the current time (default time.Now); tests inject one.
	Clock func() time.Time
}

// Gate admits requests to one downstream under the limiter's limit and the
// static cap. It is safe for concurrent use. Create one with NewGate: the zero
// Gate is not usable (it has no limiter, and its methods panic). RTT is measured from the moment a
// permit is granted to its Release, so time spent waiting for a slot never
// reaches the limiter (that feedback loop collapses the limit).
type Gate struct {
	cfg       GateConfig
	realClock bool // the clock is time.Now: measure RTTs on the monotonic clock alone
	base      time.Time

	mu       sync.Mutex
	inFlight int
	queue    []*waiter
	success  uint64
	dropped  uint64
	rejected uint64
	rttMin   time.Duration
	minSince time.Time
	rttObs   RTTObserver
}

type waiter struct {
	ch      chan struct{}
	granted bool
}

var waiterPool = sync.Pool{New: func() any { return &waiter{ch: make(chan struct{}, 1)} }}

// Permit is a granted slot. Release it once; a second Release of the same
// Permit does nothing. The zero Permit holds no slot and its Release does
// nothing. Do not copy a Permit you will release: each copy is a claim to
// the same slot.
type Permit struct {
	g        *Gate
	start    time.Duration // since g.base
	inFlight int
}

// elapsed returns the time since the gate was created. On the real clock it
// reads only the monotonic clock (time.Since), about half the cost of
// time.Now; this is the hot path of every request.
func (g *Gate) elapsed() time.Duration {
	if g.realClock {
		return time.Since(g.base)
	}
	return g.cfg.Clock().Sub(g.base)
}

// NewGate returns a gate for cfg.
func NewGate(cfg GateConfig) *Gate {
	if cfg.Limiter == nil {
		cfg.Limiter = NewGradient()
	}
	realClock := cfg.Clock == nil
	if realClock {
		cfg.Clock = time.Now
	}
	if cfg.QueueSize < 0 {
		cfg.QueueSize = 0
	}
	return &Gate{cfg: cfg, realClock: realClock, base: cfg.Clock()}
}

// Downstream returns the name the gate was configured with.
func (g *Gate) Downstream() string { return g.cfg.Downstream }

// Cap returns the static safety cap (0: none).
func (g *Gate) Cap() int { return g.cfg.Cap }

// limitLocked is the enforced limit: the limiter's limit under the cap, and at
// least one so a gate never deadlocks.
func (g *Gate) limitLocked() int {
	l := g.cfg.Limiter.Limit()
	if math.IsNaN(l) || l < 1 {
		l = 1
	}
	n := int(l)
	if l >= math.MaxInt32 {
		n = math.MaxInt32
	}
	if g.cfg.Cap > 0 && n > g.cfg.Cap {
		n = g.cfg.Cap
	}
	return n
}

// TryAcquire grants a permit if a slot is free now, without waiting.
func (g *Gate) TryAcquire() (Permit, bool) {
	g.mu.Lock()
	if len(g.queue) == 0 && g.inFlight < g.limitLocked() {
		g.inFlight++
		n := g.inFlight
		g.mu.Unlock()
		return Permit{g: g, start: g.elapsed(), inFlight: n}, true
	}
	g.rejected++
	g.mu.Unlock()
	return Permit{}, false
}

// Acquire grants a permit, waiting in the bounded queue when the gate is full.
// It returns ErrRejected when it cannot wait, or the context's error.
func (g *Gate) Acquire(ctx context.Context) (Permit, error) {
	g.mu.Lock()
	if len(g.queue) == 0 && g.inFlight < g.limitLocked() {
		g.inFlight++
		n := g.inFlight
		g.mu.Unlock()
		return Permit{g: g, start: g.elapsed(), inFlight: n}, nil
	}
	if len(g.queue) >= g.cfg.QueueSize {
		g.rejected++
		g.mu.Unlock()
		return Permit{}, ErrRejected
	}
	w := waiterPool.Get().(*waiter)
	w.granted = false
	g.queue = append(g.queue, w)
	g.mu.Unlock()

	var timeout <-chan time.Time
	if g.cfg.QueueTimeout > 0 {
		t := time.NewTimer(g.cfg.QueueTimeout)
		defer t.Stop()
		timeout = t.C
	}
	var err error
	select {
	case <-w.ch:
	case <-ctx.Done():
		err = ctx.Err()
	case <-timeout:
		err = ErrRejected
	}
	g.mu.Lock()
	if w.granted {
		// Granted, possibly at the same instant the wait ended: the slot is
		// ours either way; drain the signal so the waiter can be reused.
		select {
		case <-w.ch:
		default:
		}
		n := g.inFlight
		g.mu.Unlock()
		waiterPool.Put(w)
		return Permit{g: g, start: g.elapsed(), inFlight: n}, nil
	}
	for i, q := range g.queue {
		if q == w {
			g.queue = append(g.queue[:i], g.queue[i+1:]...)
			break
		}
	}
	g.rejected++
	g.mu.Unlock()
	waiterPool.Put(w)
	return Permit{}, err
}

// Release ends the request: the RTT since the permit was granted and the
// outcome are observed by the limiter, and the slot passes to the next waiter
// when the limit allows.
//
// A permit is single-use: Release empties it, so a second Release of the same
// Permit is a no-op (it cannot free a slot twice and over-admit). Release on
// the zero Permit (what Acquire returns with an error) is a no-op too. Do not
// copy a Permit and release both copies: the copy is a second permit to the
// same slot.
func (p *Permit) Release(o Outcome) {
	g := p.g
	if g == nil {
		return
	}
	p.g = nil
	end := g.elapsed()
	rtt := end - p.start
	now := g.base.Add(end)
	g.mu.Lock()
	g.inFlight--
	var obs RTTObserver
	switch o {
	case Success:
		g.success++
		g.cfg.Limiter.Observe(now, rtt, p.inFlight, false)
		g.trackMinLocked(now, rtt)
		obs = g.rttObs
	case Dropped:
		g.dropped++
		g.cfg.Limiter.Observe(now, rtt, p.inFlight, true)
	}
	limit := g.limitLocked()
	for len(g.queue) > 0 && g.inFlight < limit {
		w := g.queue[0]
		g.queue[0] = nil
		g.queue = g.queue[1:]
		w.granted = true
		g.inFlight++
		w.ch <- struct{}{}
	}
	g.mu.Unlock()
	if obs != nil {
		obs.ObserveRTT(rtt)
	}
}

// trackMinLocked keeps a 2-minute windowed minimum RTT, reported for
// limiters that keep none (AIMD, Fixed).
func (g *Gate) trackMinLocked(now time.Time, rtt time.Duration) {
	if g.rttMin == 0 || now.Sub(g.minSince) > DefaultRTTWindow {
		g.rttMin, g.minSince = rtt, now
	} else if rtt < g.rttMin {
		g.rttMin = rtt
	}
}

// Stats is a consistent snapshot of a gate.
type Stats struct {
	Downstream string
	// Limit is the enforced limit (under the cap); RawLimit is the limiter's.
	Limit    int
	RawLimit float64
	InFlight int
	Queued   int
	MinRTT   time.Duration
	Success  uint64
	Dropped  uint64
	Rejected uint64
}

// Stats returns a snapshot of the gate's state.
func (g *Gate) Stats() Stats {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := Stats{
		Downstream: g.cfg.Downstream,
		Limit:      g.limitLocked(),
		RawLimit:   g.cfg.Limiter.Limit(),
		InFlight:   g.inFlight,
		Queued:     len(g.queue),
		MinRTT:     g.rttMin,
		Success:    g.success,
		Dropped:    g.dropped,
		Rejected:   g.rejected,
	}
	if r, ok := g.cfg.Limiter.(MinRTTReporter); ok && r.MinRTT() > 0 {
		s.MinRTT = r.MinRTT()
	}
	return s
}

// RTTObserver receives the RTT of every request that ends in Success (a
// histogram, a log). ObserveRTT is called after the gate's lock is released,
// from the goroutine that called Release; it must be safe for concurrent use.
type RTTObserver interface {
	ObserveRTT(rtt time.Duration)
}

// SetRTTObserver makes the gate report every successful request's RTT to o
// from now on (nil: to nobody). limiterprom uses it for the RTT histogram.
func (g *Gate) SetRTTObserver(o RTTObserver) {
	g.mu.Lock()
	g.rttObs = o
	g.mu.Unlock()
}

// Update runs fn with exclusive access to the gate's limiter, for changing
// its parameters at run time (the demo's smoothing switch).
func (g *Gate) Update(fn func(Limiter)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	fn(g.cfg.Limiter)
}
