package limiter

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

// feed observes n samples one each 100ms from start and returns the time after.
func feed(l Limiter, start time.Time, n int, rtt time.Duration, inFlight func(limit float64) int, dropped bool) time.Time {
	t := start
	for i := 0; i < n; i++ {
		l.Observe(t, rtt, inFlight(l.Limit()), dropped)
		t = t.Add(100 * time.Millisecond)
	}
	return t
}

func busy(limit float64) int { return int(math.Ceil(limit)) }
func idle(float64) int       { return 1 }

func TestGradientDefaultsAreTheSeeds(t *testing.T) {
	g := NewGradient()
	if g.Smoothing != 0.2 || g.MinLimit != 4 || g.MaxLimit != 400 || g.Limit() != 10 || g.GradientFloor != 0.5 ||
		g.GrowthThreshold != 0.8 || g.LossBackoff != 0.5 || g.RTTWindow != 2*time.Minute {
		t.Fatalf("defaults differ from the seed: %+v", g)
	}
	var z Gradient
	if z.Limit() != 10 {
		t.Fatalf("zero Gradient must start at the default initial limit, got %v", z.Limit())
	}
}

func TestGradientRules(t *testing.T) {
	cases := []struct {
		name  string
		run   func(g *Gradient) float64
		check func(t *testing.T, before, after float64)
	}{
		{"grows while busy and RTT flat", func(g *Gradient) float64 {
			feed(g, t0, 50, ms(10), busy, false)
			return g.Limit()
		}, func(t *testing.T, _, after float64) {
			if after < 40 {
				t.Fatalf("limit %v did not grow on a flat RTT under load", after)
			}
		}},
		{"no growth while idle (rule 3)", func(g *Gradient) float64 {
			feed(g, t0, 500, ms(10), idle, false)
			return g.Limit()
		}, func(t *testing.T, _, after float64) {
			if after != 10 {
				t.Fatalf("idle limiter grew to %v", after)
			}
		}},
		{"gradient floor halves at most per sample (rule 2)", func(g *Gradient) float64 {
			feed(g, t0, 1, ms(10), busy, false)
			before := g.Limit()
			g.Observe(t0.Add(time.Second), ms(200), busy(g.Limit()), false) // 20x spike
			return g.Limit() / before
		}, func(t *testing.T, _, ratio float64) {
			// smoothing 0.2: limit·0.8 + (limit·0.5 + √limit)·0.2 ≥ 0.9·limit
			if ratio < 0.9 {
				t.Fatalf("one 20x spike cut the limit to %.2f of itself", ratio)
			}
		}},
		{"loss halves (rule 4: fast errors brake)", func(g *Gradient) float64 {
			feed(g, t0, 50, ms(10), busy, false)
			before := g.Limit()
			// a downstream failing in 1ms: the fastest RTT ever, flagged dropped
			feed(g, t0.Add(time.Hour), 3, ms(1), busy, true)
			return g.Limit() / before
		}, func(t *testing.T, _, ratio float64) {
			if ratio > 0.126 {
				t.Fatalf("three fast errors left %.3f of the limit; they must brake", ratio)
			}
		}},
		{"limit never below MinLimit", func(g *Gradient) float64 {
			feed(g, t0, 100, ms(10), busy, true)
			return g.Limit()
		}, func(t *testing.T, _, after float64) {
			if after != 4 {
				t.Fatalf("limit %v, want MinLimit 4", after)
			}
		}},
		{"limit never above MaxLimit", func(g *Gradient) float64 {
			feed(g, t0, 5000, ms(10), busy, false)
			return g.Limit()
		}, func(t *testing.T, _, after float64) {
			if after != 400 {
				t.Fatalf("limit %v, want MaxLimit 400", after)
			}
		}},
		{"queueing shrinks the limit", func(g *Gradient) float64 {
			end := feed(g, t0, 50, ms(10), busy, false)
			before := g.Limit()
			feed(g, end, 20, ms(25), busy, false)
			return g.Limit() / before
		}, func(t *testing.T, _, ratio float64) {
			if ratio > 0.8 {
				t.Fatalf("RTT 2.5x the minimum kept %.2f of the limit", ratio)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := NewGradient()
			c.check(t, 10, c.run(g))
		})
	}
}

func TestGradientReprobe(t *testing.T) {
	g := NewGradient()
	end := feed(g, t0, 100, ms(10), busy, false)
	if g.MinRTT() != ms(10) {
		t.Fatalf("min RTT %v", g.MinRTT())
	}
	before := g.Limit()
	// Past the window: the minimum is forgotten and the limit cut to
	// ProbeDepth for ProbeDuration.
	at := t0.Add(DefaultRTTWindow + time.Second)
	g.Observe(at, ms(30), busy(g.Limit()), false)
	if !g.probing || g.Limit() != math.Max(4, before*DefaultProbeDepth) {
		t.Fatalf("probe: probing=%v limit=%v want %v", g.probing, g.Limit(), before*DefaultProbeDepth)
	}
	// During the probe the queue drains and the low-queue sample becomes the
	// new minimum; the limit holds.
	g.Observe(at.Add(500*time.Millisecond), ms(12), busy(g.Limit()), false)
	if g.MinRTT() != ms(12) || g.Limit() != before*DefaultProbeDepth {
		t.Fatalf("during probe: min %v limit %v", g.MinRTT(), g.Limit())
	}
	// After the probe the limit returns and adapts against the fresh min.
	g.Observe(at.Add(DefaultProbeDuration+time.Millisecond), ms(12), busy(before), false)
	if g.probing || g.Limit() < before*0.9 {
		t.Fatalf("after probe: probing=%v limit=%v before=%v", g.probing, g.Limit(), before)
	}
	_ = end
	// ProbeDepth 1 keeps only the seed code's reset.
	h := &Gradient{ProbeDepth: 1}
	feed(h, t0, 100, ms(10), busy, false)
	l := h.Limit()
	h.Observe(t0.Add(DefaultRTTWindow+time.Second), ms(30), busy(l), false)
	if h.probing || h.MinRTT() != ms(30) {
		t.Fatalf("reset-only: probing=%v min=%v (the seed takes the current RTT as the new minimum)", h.probing, h.MinRTT())
	}
}

func TestSmoothingIsTheWeightOfTheNewTarget(t *testing.T) {
	// After a latency step, a higher smoothing moves further in one sample.
	step := func(s float64) float64 {
		g := &Gradient{Smoothing: s, InitialLimit: 100}
		g.Observe(t0, ms(10), 100, false)
		before := g.Limit()
		g.Observe(t0.Add(time.Second), ms(20), 100, false)
		return before - g.Limit()
	}
	if lo, hi := step(0.05), step(0.5); !(hi > 5*lo) {
		t.Fatalf("smoothing 0.5 moved %.2f, 0.05 moved %.2f: higher smoothing must react faster", hi, lo)
	}
}

func TestInvalidInputNeverPoisonsState(t *testing.T) {
	for _, rtt := range []time.Duration{0, -ms(5), time.Duration(math.MinInt64)} {
		g := NewGradient()
		feed(g, t0, 20, ms(10), busy, false)
		l, m := g.Limit(), g.MinRTT()
		g.Observe(t0.Add(3*time.Second), rtt, -7, false)
		if g.Limit() != l || g.MinRTT() != m {
			t.Fatalf("rtt %v changed the state: limit %v→%v min %v→%v", rtt, l, g.Limit(), m, g.MinRTT())
		}
		// a loss with an invalid RTT still backs off
		g.Observe(t0.Add(3*time.Second), rtt, 3, true)
		if g.Limit() != math.Max(4, l*0.5) {
			t.Fatalf("loss with rtt %v: limit %v", rtt, g.Limit())
		}
	}
	// negative in-flight counts as zero: no growth
	g := NewGradient()
	feed(g, t0, 100, ms(10), func(float64) int { return -100 }, false)
	if g.Limit() != 10 {
		t.Fatalf("negative in-flight grew the limit to %v", g.Limit())
	}
	// NaN and Inf parameters take the defaults
	h := &Gradient{Smoothing: math.NaN(), MaxLimit: math.Inf(1), MinLimit: -1}
	h.Observe(t0, ms(10), 10, false)
	if h.Smoothing != DefaultSmoothing || h.MaxLimit != DefaultMaxLimit || h.MinLimit != DefaultMinLimit {
		t.Fatalf("bad parameters not defaulted: %+v", h)
	}
}

// FuzzGradientStaysFiniteAndBounded: no sample sequence (zero, negative or
// huge RTTs, negative in-flight, bursts of losses, time standing still) takes
// any algorithm's limit outside its bounds or to NaN.
func FuzzGradientStaysFiniteAndBounded(f *testing.F) {
	f.Add([]byte{1, 2, 3, 200, 0, 255, 9})
	f.Fuzz(func(t *testing.T, ops []byte) {
		algorithms := []struct {
			lim    Limiter
			lo, hi float64
		}{
			{&Gradient{MinLimit: 3, MaxLimit: 50}, 3, 50},
			{&Gradient2{MinLimit: 3, MaxLimit: 50}, 3, 50},
			{&Vegas{MaxLimit: 50, Rand: rand.New(rand.NewPCG(1, 1))}, 1, 50},
			{&AIMD{MinLimit: 3, MaxLimit: 50}, 3, 50},
			{&Envoy{MinLimit: 3, MaxLimit: 50, MinRTTRequests: 5, Rand: rand.New(rand.NewPCG(1, 1))}, 3, 50},
			{&Vector{MaxLimit: 50}, 1, 50},
		}
		for _, a := range algorithms {
			now := t0
			for i := 0; i+2 < len(ops); i += 3 {
				now = now.Add(time.Duration(ops[i]) * 731 * time.Millisecond)
				rtt := time.Duration(int8(ops[i+1])) * time.Millisecond * time.Duration(ops[i+2]%17)
				l := a.lim.Observe(now, rtt, int(int8(ops[i+2])), ops[i+2]%7 == 0)
				if math.IsNaN(l) || math.IsInf(l, 0) || l < a.lo || l > a.hi {
					t.Fatalf("%T: limit %v outside [%v,%v]", a.lim, l, a.lo, a.hi)
				}
			}
		}
	})
}

func TestAIMD(t *testing.T) {
	a := &AIMD{}
	feed(a, t0, 20, ms(10), busy, false)
	if a.Limit() != 30 {
		t.Fatalf("additive increase: %v, want 30", a.Limit())
	}
	a.Observe(t0.Add(time.Minute), ms(1), 30, true)
	a.Observe(t0.Add(time.Minute+time.Millisecond), ms(1), 30, true) // same burst
	if a.Limit() != 15 {
		t.Fatalf("multiplicative decrease once per cooldown: %v, want 15", a.Limit())
	}
	b := &AIMD{Timeout: ms(50)}
	b.Observe(t0, ms(60), 10, false)
	if b.Limit() != 5 {
		t.Fatalf("a sample past the timeout is a loss: %v", b.Limit())
	}
	f := &Fixed{N: 7}
	if f.Observe(t0, ms(1), 100, true) != 7 {
		t.Fatal("fixed changed")
	}
}

func TestWindowedAveragesAndBrakesAtOnce(t *testing.T) {
	g := NewGradient()
	w := &Windowed{Limiter: g, Window: 100 * time.Millisecond}
	for i := 0; i < 10; i++ {
		w.Observe(t0.Add(time.Duration(i)*10*time.Millisecond), ms(float64(8+i%2*4)), 10, false)
	}
	w.Observe(t0.Add(100*time.Millisecond), ms(10), 10, false)
	if g.MinRTT() != ms(10) {
		t.Fatalf("window mean should be the min RTT, got %v", g.MinRTT())
	}
	l := g.Limit()
	w.Observe(t0.Add(110*time.Millisecond), ms(1), 10, true)
	if g.Limit() != l*0.5 {
		t.Fatal("a loss must reach the limiter without waiting for the window")
	}
}

// fakeClock is a manually advanced clock for gate tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// recorder remembers the RTTs a limiter was given.
type recorder struct {
	Fixed
	rtts []time.Duration
}

func (r *recorder) Observe(now time.Time, rtt time.Duration, inFlight int, dropped bool) float64 {
	r.rtts = append(r.rtts, rtt)
	return r.N
}

func TestGateExcludesQueueWaitFromRTT(t *testing.T) {
	clk := &fakeClock{t: t0}
	rec := &recorder{Fixed: Fixed{N: 1}}
	g := NewGate(GateConfig{Limiter: rec, QueueSize: 1, Clock: clk.Now})
	p1, ok := g.TryAcquire()
	if !ok {
		t.Fatal("first acquire")
	}
	got := make(chan Permit)
	go func() {
		p, err := g.Acquire(context.Background())
		if err != nil {
			t.Error(err)
		}
		got <- p
	}()
	for g.Stats().Queued != 1 {
		time.Sleep(time.Millisecond)
	}
	clk.Add(500 * time.Millisecond) // the waiter waits 500ms
	p1.Release(Success)
	p2 := <-got
	clk.Add(20 * time.Millisecond) // its downstream call takes 20ms
	p2.Release(Success)
	if len(rec.rtts) != 2 || rec.rtts[0] != 500*time.Millisecond || rec.rtts[1] != 20*time.Millisecond {
		t.Fatalf("RTTs observed %v; the second must be 20ms, not include the 500ms wait", rec.rtts)
	}
}

func TestGateCapQueueAndRejection(t *testing.T) {
	g := NewGate(GateConfig{Limiter: &Fixed{N: 1000}, Cap: 3, QueueSize: 1, QueueTimeout: 20 * time.Millisecond})
	var ps []Permit
	for i := 0; i < 3; i++ {
		p, ok := g.TryAcquire()
		if !ok {
			t.Fatalf("acquire %d under the cap failed", i)
		}
		ps = append(ps, p)
	}
	if _, ok := g.TryAcquire(); ok {
		t.Fatal("the cap must hold whatever the limiter says")
	}
	if _, err := g.Acquire(context.Background()); !errors.Is(err, ErrRejected) {
		t.Fatalf("queue timeout: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Acquire(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait: %v", err)
	}
	for _, p := range ps {
		p.Release(Dropped)
	}
	st := g.Stats()
	if st.InFlight != 0 || st.Dropped != 3 || st.Rejected != 3 || st.Limit != 3 {
		t.Fatalf("stats %+v", st)
	}
}

func TestGateConcurrentNeverExceedsLimit(t *testing.T) {
	g := NewGate(GateConfig{Limiter: &Windowed{Limiter: NewGradient(), Window: time.Millisecond}, Cap: 8, QueueSize: 16, QueueTimeout: 50 * time.Millisecond})
	var cur, peak, done atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < 32; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				p, err := g.Acquire(context.Background())
				if err != nil {
					continue
				}
				n := cur.Add(1)
				for {
					old := peak.Load()
					if n <= old || peak.CompareAndSwap(old, n) {
						break
					}
				}
				time.Sleep(time.Duration(i%3) * 10 * time.Microsecond)
				cur.Add(-1)
				done.Add(1)
				p.Release(Outcome(i % 2))
			}
		}()
	}
	wg.Wait()
	st := g.Stats()
	if peak.Load() > 8 || st.InFlight != 0 || st.Queued != 0 || done.Load() == 0 {
		t.Fatalf("peak %d in flight %d queued %d done %d", peak.Load(), st.InFlight, st.Queued, done.Load())
	}
	if int64(st.Success+st.Dropped) != done.Load() || int64(st.Success+st.Dropped+st.Rejected) != 32*200 {
		t.Fatalf("counts do not add up: %+v done %d", st, done.Load())
	}
}

func BenchmarkGradientObserve(b *testing.B) {
	g := NewGradient()
	var rtts [8]time.Duration
	for i := range rtts {
		rtts[i] = ms(10 + float64(i))
	}
	now := t0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		g.Observe(now, rtts[i&7], 20+(i&15), false)
	}
}

func BenchmarkGateAcquireRelease(b *testing.B) {
	g := NewGate(GateConfig{Limiter: NewGradient(), Cap: 1000})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p, ok := g.TryAcquire()
		if ok {
			p.Release(Success)
		}
	}
}

func BenchmarkGateAcquireReleaseParallel(b *testing.B) {
	g := NewGate(GateConfig{Limiter: &Fixed{N: 1 << 20}})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			p, err := g.Acquire(context.Background())
			if err == nil {
				p.Release(Success)
			}
		}
	})
}

// A second Release of the same permit must not free a second slot: before
// it was single-use, releasing twice let the gate hold 5 against a limit of 4.
func TestPermitReleaseTwiceIsANoOp(t *testing.T) {
	g := NewGate(GateConfig{Limiter: &Fixed{N: 4}})
	var held []Permit
	for i := 0; i < 4; i++ {
		p, ok := g.TryAcquire()
		if !ok {
			t.Fatalf("acquire %d refused", i)
		}
		held = append(held, p)
	}
	held[0].Release(Success)
	held[0].Release(Success)
	held[0].Release(Dropped)
	for i := 0; i < 2; i++ {
		p, ok := g.TryAcquire()
		if i == 1 {
			if ok {
				t.Fatalf("the gate admitted a fifth request against a limit of 4 after a double release")
			}
			break
		}
		if !ok {
			t.Fatal("the freed slot was not granted")
		}
		held[0] = p
	}
	var zero Permit
	zero.Release(Success) // no gate, no panic, nothing freed
	if _, ok := g.TryAcquire(); ok {
		t.Fatal("releasing the zero Permit freed a slot")
	}
}
