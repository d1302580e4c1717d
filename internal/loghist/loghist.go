// Package loghist is the log-bucketed latency histogram shared by the
// simulator (limiter/sim) and the what-if replay (tune): the bucket is the
// float64 exponent and the top 6 mantissa bits of a latency in ns, 64 buckets
// per octave (≤ 1.1 % resolution) without a logarithm per sample. Latencies
// are whole ns from 1 to 2⁶³, 63 octaves, so 64·64 buckets cover them all.
// It is written here rather than taken from a library because both callers
// add tens of millions of samples a second on a serial chain: a bucket is
// one shift of the float's bits, which no general-purpose histogram offers.
package loghist

import "math"

// Buckets is the number of buckets.
const Buckets = 64 * 64

// first is the bucket of 1 ns.
const first = 1023 << 6

// Bucket is the bucket of a latency in ns (below 1 ns counts as 1).
func Bucket(ns int64) int {
	if ns < 1 {
		ns = 1
	}
	return int(math.Float64bits(float64(ns))>>46 - first)
}

// Mid is the midpoint of bucket b in ns.
func Mid(b int) float64 {
	lo := math.Float64frombits(uint64(b+first) << 46)
	hi := math.Float64frombits(uint64(b+first+1) << 46)
	return (lo + hi) / 2
}

// Counts is a histogram of latencies, one count per observation.
type Counts struct {
	counts [Buckets]int64
	n      int64
}

// Add counts a latency in ns.
func (h *Counts) Add(ns int64) {
	h.counts[Bucket(ns)]++
	h.n++
}

// QuantileMs returns the q-quantile in milliseconds (bucket midpoint), 0
// when empty.
func (h *Counts) QuantileMs(q float64) float64 {
	if h.n == 0 {
		return 0
	}
	rank := int64(math.Ceil(q * float64(h.n)))
	var c int64
	for b, n := range h.counts {
		c += n
		if c >= rank {
			return Mid(b) / 1e6
		}
	}
	return 0
}

// Weighted is a histogram with a weight per observation (the what-if replay
// weights RTTs by throughput). Callers add to W[Bucket(ns)] directly: on a
// replay's hot path runs of equal buckets are summed before they are added.
type Weighted struct {
	W [Buckets]float64
}

// Quantile returns the weighted q-quantile in ns, 0 when empty.
func (h *Weighted) Quantile(q float64) float64 {
	total := 0.0
	for _, w := range h.W {
		total += w
	}
	if total == 0 {
		return 0
	}
	rank, c := q*total, 0.0
	for b, w := range h.W {
		c += w
		if c >= rank {
			return Mid(b)
		}
	}
	return 0
}
