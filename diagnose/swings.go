package diagnose

import (
	"math"
	"time"
)

// This file holds how the classifier tells a swinging limit from one that
// holds, falls or wanders: the swings of one window (legs counted on the
// probe-flattened, median-filtered limit), the slow swing and the teeth of
// the window levels over several windows, and the jitter a limit of its
// size shows anyway. The thresholds are in thresholds.go.

// slowSwings counts the swings of the window medians over the last
// slowLevels windows, this one included (zigzag against their median;
// none unless the levels span a factor of two, slowSwingDepth).
func (s *Stream) slowSwings(w *windowStats) {
	n := min(s.levelN, slowLevels-1)
	if n < slowMinLegs {
		return
	}
	var lv, tops, bottoms [slowLevels]float64
	held := w.band < oscBand
	for i := 0; i < n; i++ {
		l := s.levels[(s.levelN-n+i)%slowLevels]
		lv[i], tops[i], bottoms[i] = l.med, l.top, l.bottom
	}
	lv[n], tops[n], bottoms[n] = w.limitMed, w.p90, w.p10
	w.teeth = teeth(tops[:n+1], bottoms[:n+1])
	seq := lv[:n+1]
	lo, hi := rangeOf(seq)
	sorted := lv
	med := selectQ(sorted[:n+1], 0.5)
	legs := 0
	if lo <= slowSwingDepth*hi {
		var turn int
		legs, turn = zigzagTurn(seq, max(slowLegFraction*med, 2*jitter(med)))
		// the swing proper: the levels from the first leg's turn on
		if turn >= 0 {
			if plo, phi := rangeOf(seq[turn:]); plo > slowProperDepth*phi {
				legs = 0
			}
		}
	}
	w.slowLegs, w.slowWindows, w.slowLo, w.slowHi = legs, n+1, lo, hi
	thr := max(cycleFraction*med, jitter(med))
	w.cycleMoves = alternations(seq, thr)
	// the windows the medians alternated over: where one of them held
	// still, the tops must alternate as well (cycleMinMoves)
	for i := n - w.cycleMoves; i < n && !held; i++ {
		held = s.levels[(s.levelN-n+i)%slowLevels].band < oscBand
	}
	if held {
		w.cycleMoves = min(w.cycleMoves, alternations(tops[:n+1], thr))
	}
}

// windowLevel is a judged window's limit as slowSwings compares it with
// the windows around it: its median, its top and bottom (90th and 10th
// percentiles; teeth) and its 10–90 % band over the median.
type windowLevel struct {
	med, top, bottom, band float64
}

// teeth counts the runs of consecutive windows whose limit fell to
// toothDepth of its top or lower (bottom, the 10th percentile, against
// top, the 90th) from a top at toothTop of the highest or more: the teeth
// of a saw-tooth slower than a window, each a fall to half from the level
// the limit regrew to.
func teeth(tops, bottoms []float64) int {
	_, highest := rangeOf(tops)
	runs, in := 0, false
	for i := range tops {
		tooth := tops[i] >= toothTop*highest && bottoms[i] <= toothDepth*tops[i] && tops[i]-bottoms[i] >= 2*jitter(tops[i])
		if tooth && !in {
			runs++
		}
		in = tooth
	}
	return runs
}

// alternations counts the moves of at least thr, each against the
// direction of the one before, that end at the last of levels (a limit
// cycle: cycleMinMoves).
func alternations(levels []float64, thr float64) int {
	run := 0
	for i := len(levels) - 1; i > 0; i-- {
		d := levels[i] - levels[i-1]
		if math.Abs(d) < thr {
			break
		}
		if i < len(levels)-1 && (d > 0) == (levels[i+1]-levels[i] > 0) {
			break
		}
		run++
	}
	return run
}

// forgetSwings ends the counts of swings (prevSwing, swungRun, the slow
// swings' levels) at an incident: a degraded window's swings, and the
// fall and regrowth of an incident too short to move a window's medians
// (splitEpisode), are the downstream's, and the windows after it swing
// only where they swing themselves. The limit at its floor swinging 4–9
// through a capacity incident, 5 legs a window, carried the swing count
// into the next two windows of the simulator's Vector-style ARC
// regrowing from 5 to 85 (oscillating for 9 minutes; 2 remain, where it
// swings by itself), and two short
// incidents under go-concurrency-limits' Gradient2, found inside healthy
// windows, left window medians of 23 and 10 between levels of 65–77 that
// read as a slow swing for the last 15 minutes of the recording.
//
// With regrowing, over the simulator's multi-episode traces of the
// calibration side (seed, + 2000, + 3000), oscillating findings over
// healthy time fell from 9,256 to 5,369 s (Gradient2's 1,305 to 0,
// Vector-style's 1,422 to 170, Envoy-style's 1,664 to 784); one start
// edge of ours moved out of tolerance (15 → 60 s: its window, no longer
// oscillating, left the edge to a healthy finding that began inside the
// incident) and one incident more was found. Real libraries run for real
// (+ 2000, + 3000): oscillating over healthy time 1,797 → 586 s
// (go-concurrency-limits' Gradient 265 → 0, its Gradient2 1,532 → 586),
// none added. Held-out half: 3,398 → 1,253 s.
func (s *Stream) forgetSwings() { s.prevSwing, s.swungRun, s.levelN = false, 0, 0 }

// swungLegs reports a window with oscSlowLegs legs or more, spread as a
// one-window swing is (swingsBy oscIQRJitters): oscSwungRun of them in a
// row are a swing too slow for one window's oscMinLegs.
func (w *windowStats) swungLegs() bool {
	return w.legs >= oscSlowLegs && w.swingsBy(oscIQRJitters)
}

// swungOverQueue reports an oscillating window that held a standing queue
// (oscQueuedShare).
func (w *windowStats) swungOverQueue() bool { return w.class == Oscillating && w.holdsQueue() }

// swingMakesVerdict reports whether oscillating windows (n of judged, queued
// of them over a standing queue) make the whole-series verdict: any that
// swung without a queue does, those over one need oscQueuedShare.
func swingMakesVerdict(n, queued, judged int) bool {
	return n > queued || float64(queued) >= oscQueuedShare*float64(judged)
}

// swings reports a limit that spends its time apart (the middle half of its
// values spread by oscIQR and one jitter), or one that moves between wide
// extremes (the 10–90 % band at least oscWideBand and two jitters: a limit
// jumping every sample, as a smoothing of 1 makes it).
func (w *windowStats) swings() bool { return w.swingsBy(1) }

// fellInOneMove reports a window whose limit spreads by one move down (one
// leg, its last third under its first): it fell, it did not swing.
func (w *windowStats) fellInOneMove() bool { return w.legs <= 1 && w.limitLast < w.limitFirst }

// grewInOneMove reports a window whose limit spread by one move up (a
// limiter regrowing), not by swings.
func (w *windowStats) grewInOneMove() bool { return w.legs <= 1 && w.limitLast > w.limitFirst }

// swingsBy is swings with the middle half spread by iqrJitters jitters.
func (w *windowStats) swingsBy(iqrJitters float64) bool {
	j := jitter(w.limitMed)
	return w.iqr >= oscIQR && w.iqrAbs >= iqrJitters*j || w.band >= oscWideBand && w.p90-w.p10 >= 2*j
}

// jitter is the move a limit of size l makes anyway: one update of a
// gradient limiter grows it by √l (the published algorithm's allowance), and an integer
// limit moves by whole units, so swings are judged against the larger of
// √l and floorJitter.
func jitter(l float64) float64 { return math.Max(floorJitter, math.Sqrt(math.Max(l, 0))) }

// countLegs counts the limit's swings: moves of at least oscLegFraction of
// level (the window's median, or the level a fall left) and more than its
// jitter against the previous direction, on the (probe-flattened) limit
// median-filtered over probeFilterSpan. The jitter is the move a limit of
// that size makes anyway, so a move onto it is no leg: an integer limit
// idling at 3–5 between a batch pipeline's bursts steps 3 → 5 → 3, exactly
// the allowance of a limit of 4 (floorJitter), and a window holding that
// idle tail and a burst's start counted those steps as two of its four
// legs (Vector's ARC, limiter.Vector, read every 5 s: the trace read
// oscillating; TestFloorNoiseIsNoSwing). Only integer moves onto a whole
// jitter change (a level of at most 4, or 9, 16, 25 …). Measured with the
// shipped binary over 5,721 dumped labelled traces (calibration halves,
// validation draws, fresh draws of both suites, the libraries run for
// real): that trace gained (pipeline-bound), none lost, one left-out trace
// changed (the simulator's AIMD at a capacity of 8, healthy by intent,
// oscillating → healthy).
func (s *Stream) countLegs(raw []float64, times []int64, level float64) int {
	thr := legThreshold(level)
	f := s.filtered[:0]
	var win [maxFilterWidth]float64
	span := int64(probeFilterSpan) / 2
	lo := 0
	for i := range raw {
		for lo < i && times[lo] < times[i]-span {
			lo++
		}
		k := 0
		for j := lo; j < len(raw) && times[j] <= times[i]+span && k < maxFilterWidth; j++ {
			win[k] = raw[j]
			k++
		}
		f = append(f, median9(&win, k))
	}
	s.filtered = f
	if len(f) == 0 {
		return 0
	}
	return zigzag(f, thr)
}

// legThreshold is the move that makes a leg at a limit of level:
// oscLegFraction of it, and more than its jitter.
func legThreshold(level float64) float64 {
	return math.Max(oscLegFraction*level, math.Nextafter(jitter(level), math.Inf(1)))
}

// zigzag counts the legs of f: a leg ends when the value moves thr against
// the running extreme of the current direction.
func zigzag(f []float64, thr float64) int {
	legs, _ := zigzagTurn(f, thr)
	return legs
}

// zigzagTurn is zigzag, also returning the index of the extreme its first
// leg turned at (-1: it never turned).
func zigzagTurn(f []float64, thr float64) (legs, turn int) {
	turn = -1
	if len(f) == 0 {
		return 0, turn
	}
	dir, at := 0, 0
	low, high, ext := f[0], f[0], f[0]
	for i, v := range f[1:] {
		switch dir {
		case 0:
			low, high = min(low, v), max(high, v)
			if v-low >= thr {
				dir, ext, at, legs = 1, v, i+1, 1
			} else if high-v >= thr {
				dir, ext, at, legs = -1, v, i+1, 1
			}
		case 1:
			if v > ext {
				ext, at = v, i+1
			} else if ext-v >= thr {
				if turn < 0 {
					turn = at
				}
				dir, ext, at = -1, v, i+1
				legs++
			}
		case -1:
			if v < ext {
				ext, at = v, i+1
			} else if v-ext >= thr {
				if turn < 0 {
					turn = at
				}
				dir, ext, at = 1, v, i+1
				legs++
			}
		}
	}
	return legs, turn
}

// median9 returns the median of the first k (≤ 9) values of w, reordering
// them; k = 3 and k = 5 (a 5 s span at 1 s sampling, the common case) use
// branch-light min/max networks instead of sorting.
func median9(w *[maxFilterWidth]float64, k int) float64 {
	switch k {
	case 1:
		return w[0]
	case 3:
		return med3(w[0], w[1], w[2])
	case 5:
		a, b, c, d, e := w[0], w[1], w[2], w[3], w[4]
		// the larger of the pairs' minima and the smaller of their maxima
		// bracket the median with e
		return med3(e, max(min(a, b), min(c, d)), min(max(a, b), max(c, d)))
	}
	for i := 1; i < k; i++ {
		for j := i; j > 0 && w[j] < w[j-1]; j-- {
			w[j], w[j-1] = w[j-1], w[j]
		}
	}
	return w[k/2]
}

func med3(a, b, c float64) float64 { return max(min(a, b), min(max(a, b), c)) }

// flattenProbes replaces re-probe dips in place by the level before them;
// rtts is probeRTTs round trips at the window's RTT (0 without one).
func flattenProbes(v []float64, t []int64, rtts time.Duration) {
	if len(v) > 1 && v[0] <= probeDipHigh*v[1] {
		v[0] = v[1] // the window opens inside a dip
	}
	level := probeSpacing // samples at the level since the last dip
	for i := 1; i < len(v); i++ {
		pre := v[i-1]
		if pre <= 0 || v[i] > probeDipHigh*pre {
			level++
			continue
		}
		if level < probeSpacing {
			level = 0
			continue
		}
		level = 0
		recover := max(int64(probeRecover), 5*(t[i]-t[i-1])/2, int64(rtts))
		for j := i + 1; j < len(v) && t[j]-t[i-1] <= recover; j++ {
			if v[j] < (1-0.05)*v[i] || v[j] > (1+0.05)*v[i] && v[j] < (1-0.1)*pre {
				break // not a flat-bottomed dip: a ramp (AIMD) or noise
			}
			if v[j] >= (1-0.1)*pre {
				for k := i; k < j; k++ {
					v[k] = pre
				}
				i, level = j, 1
				break
			}
		}
	}
}

// largestMove is the largest move of the limit between two readings of a
// window (its values in time order): a swing made of cuts moves by half
// its level at once (slowSwingJump), a wander walks.
func largestMove(v []float64) float64 {
	var m float64
	for i := 1; i < len(v); i++ {
		m = max(m, math.Abs(v[i]-v[i-1]))
	}
	return m
}
