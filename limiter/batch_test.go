package limiter

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// observeOneByOne is what ObserveBatch promises to equal: Observe called
// sample by sample with the demand capped at the enforced limit.
func observeOneByOne(g *Gradient, b *Batch) (limits, enforced []float64, mins []time.Duration) {
	now := b.Start
	for i := range b.RTT {
		if b.Step > 0 {
			now = b.Start + int64(i)*b.Step
		} else if i > 0 {
			now += int64(b.Gaps[i])
		}
		L := g.Limit()
		if b.Cap > 0 && L > b.Cap {
			L = b.Cap
		}
		L = math.Floor(L)
		inFlight := 0
		if d := float64(b.Demand[i]); d > L {
			inFlight = int(L)
		} else if d == d {
			inFlight = int(d)
		}
		x := float64(b.RTT[i])
		var rtt time.Duration
		if x > 0 && x < maxBatchRTT {
			rtt = time.Duration(x * 1e6)
		}
		limits = append(limits, g.ObserveNanos(now, rtt, inFlight, x < 0))
		enforced = append(enforced, L)
		mins = append(mins, g.MinRTT())
	}
	return limits, enforced, mins
}

// randomBatch is n samples of a downstream whose RTT swings, with losses,
// invalid RTTs and demand around the limit, so every rule is exercised.
func randomBatch(rng *rand.Rand, n int, regular bool) Batch {
	b := Batch{Start: t0.UnixNano(), RTT: make([]float32, n), Demand: make([]float32, n)}
	if regular {
		b.Step = int64(50 * time.Millisecond)
	} else {
		b.Gaps = make([]uint32, n)
		for i := range b.Gaps {
			b.Gaps[i] = uint32(rng.IntN(int(3 * time.Second)))
		}
	}
	for i := range b.RTT {
		rtt := float32(10 + 8*math.Sin(float64(i)/300) + 4*rng.Float64())
		switch rng.IntN(40) {
		case 0:
			rtt = -rtt // a loss
		case 1:
			rtt = 0
		case 2:
			rtt = float32(math.NaN())
		case 3:
			rtt = float32(math.Inf(1 - 2*rng.IntN(2)))
		}
		b.RTT[i] = rtt
		demand := float32(rng.IntN(60))
		switch rng.IntN(30) {
		case 0:
			demand = float32(math.Inf(1))
		case 1:
			demand = float32(math.NaN())
		}
		b.Demand[i] = demand
	}
	return b
}

func TestObserveBatchEqualsObserveOneByOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name    string
		g       func() *Gradient
		regular bool
		cap     float64
		chunk   int
	}{
		{"defaults, regular interval, one call", NewGradient, true, 0, 1 << 20},
		{"defaults, irregular gaps, chunks of 7", NewGradient, false, 0, 7},
		{"cap binds", func() *Gradient { return &Gradient{InitialLimit: 40} }, true, 25, 1000},
		{"high smoothing, short window, no probe", func() *Gradient {
			return &Gradient{Smoothing: 0.9, RTTWindow: 3 * time.Second, ProbeDepth: 1}
		}, false, 0, 1},
		{"short window with probe", func() *Gradient {
			return &Gradient{RTTWindow: 5 * time.Second, ProbeDuration: time.Second, MaxLimit: 45}
		}, true, 30, 333},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := randomBatch(rng, 20_000, tc.regular)
			b.Cap = tc.cap
			ref := b
			wantLimits, wantEnforced, wantMins := observeOneByOne(tc.g(), &ref)

			g := tc.g()
			buf := make([]float32, tc.chunk)
			for b.Next() < b.Len() {
				from := b.Next()
				got := g.ObserveBatch(&b, buf)
				if got == 0 || b.Next() != from+got {
					t.Fatalf("observed %d samples from %d, next %d", got, from, b.Next())
				}
				for k := range got {
					i := from + k
					if float64(buf[k]) != wantEnforced[i] {
						t.Fatalf("sample %d: enforced %v, Observe one by one %v", i, buf[k], wantEnforced[i])
					}
				}
				last := from + got - 1
				if g.Limit() != wantLimits[last] || g.MinRTT() != wantMins[last] {
					t.Fatalf("after sample %d: limit %v min RTT %v, Observe one by one %v %v",
						last, g.Limit(), g.MinRTT(), wantLimits[last], wantMins[last])
				}
			}
			if g.ObserveBatch(&b, buf) != 0 {
				t.Fatal("an exhausted batch observed more samples")
			}
		})
	}
}

func TestObserveBatchAppliesTheRules(t *testing.T) {
	// an hour at 1 kHz of a downstream at 10 ms whose RTT doubles for the
	// second half: the limit grows while demand presses on it, falls when
	// queueing starts, and the re-probe resets the min RTT
	const n = 20_000
	b := Batch{Start: t0.UnixNano(), Step: int64(time.Millisecond), RTT: make([]float32, n), Demand: make([]float32, n)}
	for i := range b.RTT {
		b.RTT[i] = 10
		if i >= n/2 {
			b.RTT[i] = 20
		}
		b.Demand[i] = float32(math.Inf(1))
	}
	g := &Gradient{RTTWindow: 30 * time.Second}
	buf := make([]float32, n/2)
	g.ObserveBatch(&b, buf)
	grown := g.Limit()
	if grown <= DefaultInitialLimit || g.MinRTT() != 10*time.Millisecond {
		t.Fatalf("busy at a flat RTT: limit %v (from %v), min RTT %v", grown, float64(DefaultInitialLimit), g.MinRTT())
	}
	if v := float64(buf[len(buf)-1]); v != math.Floor(v) {
		t.Fatalf("enforced limits are whole requests: %v", buf[len(buf)-1])
	}
	g.ObserveBatch(&b, buf[:10])
	if g.Limit() >= grown {
		t.Fatalf("a doubled RTT must shrink the limit: %v after %v", g.Limit(), grown)
	}
}

func TestZeroGradientStartsAtAnyTime(t *testing.T) {
	var g Gradient
	if l := g.ObserveNanos(-5e18, ms(10), 10, false); l < DefaultMinLimit {
		t.Fatalf("a zero Gradient's first sample before 1970 gave limit %v", l)
	}
}

func FuzzObserveBatchEqualsObserve(f *testing.F) {
	f.Add([]byte{1, 2, 3, 200, 0, 255, 9, 128, 127, 4}, uint16(3))
	f.Fuzz(func(t *testing.T, ops []byte, chunk uint16) {
		n := len(ops) / 3
		b := Batch{Start: t0.UnixNano(), Gaps: make([]uint32, n), RTT: make([]float32, n), Demand: make([]float32, n), Cap: float64(chunk % 64)}
		for i := range n {
			o := ops[3*i : 3*i+3]
			b.Gaps[i] = uint32(o[0]) * uint32(time.Second/64)
			b.RTT[i] = float32(int8(o[1])) / 4
			if o[2] == 255 {
				b.RTT[i] = float32(math.NaN())
			}
			b.Demand[i] = float32(o[2] % 80)
		}
		ref := b
		want, _, _ := observeOneByOne(&Gradient{MinLimit: 2, MaxLimit: 70, RTTWindow: 4 * time.Second}, &ref)
		g := &Gradient{MinLimit: 2, MaxLimit: 70, RTTWindow: 4 * time.Second}
		buf := make([]float32, int(chunk%9)+1)
		for b.Next() < n {
			g.ObserveBatch(&b, buf)
			if l := g.Limit(); l != want[b.Next()-1] || math.IsNaN(l) || l < 2 || l > 70 {
				t.Fatalf("after sample %d: %v, Observe one by one %v", b.Next()-1, l, want[b.Next()-1])
			}
		}
	})
}
