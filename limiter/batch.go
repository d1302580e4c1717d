package limiter

import "math"

// Batch is a recorded run of samples laid out for Gradient.ObserveBatch,
// 8 bytes a sample plus the output: replaying millions of samples is bound
// by the serial chain from one limit to the next, so the inputs are small
// and the limit stays in a register between samples.
//
// Each sample is replayed as a Gate with the same Cap would have enforced
// it: the limiter sees Demand capped at the enforced limit (the limit under
// Cap, rounded down to whole requests) as its in-flight.
type Batch struct {
	// Start is the time of sample 0 (Unix ns). Step is the interval between
	// samples when it is regular; when Step is 0, Gaps[i] is the interval
	// in ns from sample i−1 to sample i (Gaps[0] is not used). A trace with
	// a gap longer than 4.29 s goes through Observe instead.
	Start, Step int64
	Gaps        []uint32
	// RTT is each sample's round-trip time in milliseconds, negated when the
	// sample is a loss event. Zero, NaN, infinite RTTs and RTTs of 10⁹ s or
	// more carry no latency signal (a negative infinity is still a loss).
	// The limiter receives the RTT in whole nanoseconds, as Observe does.
	RTT []float32
	// Demand is how many requests each sample wanted in flight, in whole
	// requests (+Inf: as many as the limit admits; NaN counts as none).
	// Demand, and Gaps when Step is 0, are as long as RTT: ObserveBatch
	// panics otherwise, as a slice index out of range does.
	Demand []float32
	// Cap is the static cap above the limit (0: none), as GateConfig.Cap.
	Cap float64

	next int   // the next sample to observe
	now  int64 // time of sample next−1
}

// maxBatchRTT bounds the RTTs of a Batch, in ms, well inside a Duration.
const maxBatchRTT = 1e12

// Len returns the number of samples in the batch.
func (b *Batch) Len() int { return len(b.RTT) }

// Next returns the index of the next sample ObserveBatch will observe.
func (b *Batch) Next() int { return b.next }

// ObserveBatch observes the batch's next len(enforced) samples (all that
// remain, if fewer) in order, writes the limit each one was enforced under
// into enforced (exact up to 2²⁴), and returns how many it observed. It
// applies exactly the rules of Observe — the common case is the same
// inlined step, everything else the same full rules — so a replay through
// it equals Observe called sample by sample with the enforced in-flight.
// Reusing a small enforced buffer keeps a long replay in the cache.
func (g *Gradient) ObserveBatch(b *Batch, enforced []float32) int {
	if g.limit == 0 {
		g.init()
	}
	from := b.next
	end := min(from+len(enforced), len(b.RTT))
	rtts, demand := b.RTT[:end], b.Demand[:end]
	enforced = enforced[:end-from]
	top := math.Inf(1)
	if b.Cap > 0 {
		top = b.Cap
	}
	limit, rttMin, fastUntil := g.limit, g.rttMin, g.fastUntil
	now, start, step, gaps := b.now, b.Start, b.Step, b.Gaps
	for i := from; i < end; i++ {
		if step > 0 {
			now = start + int64(i)*step
		} else if i == 0 {
			now = start
		} else {
			now += int64(gaps[i])
		}
		L := limit
		if L > top {
			L = top
		}
		L = math.Floor(L)
		N := min(float64(demand[i]), L) // branch-free: whether the limit binds is not predictable
		x := float64(rtts[i])
		r := 0.0 // the RTT in whole ns as Observe gets it, 0 when not valid
		if x > 0 && x < maxBatchRTT {
			r = float64(int64(x * 1e6))
		}
		if now < fastUntil && r > 0 {
			if r < rttMin {
				rttMin = r
			}
			limit = g.next(limit, rttMin, r, N)
		} else {
			g.limit, g.rttMin = limit, rttMin
			limit = g.observeSlow(now, r, N, x < 0)
			rttMin, fastUntil = g.rttMin, g.fastUntil
		}
		enforced[i-from] = float32(L)
	}
	g.limit, g.rttMin = limit, rttMin
	b.next, b.now = end, now
	return end - from
}
