package sim

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/trace"
)

// Recorded is an RTT trace prepared for what-if replay: the recorded RTTs,
// and a downstream model fitted to them (base latency, concurrency capacity
// and demand over time) for closed-loop runs. Prepare it once and replay it
// with as many parameter sets as you like; it is read-only after Prepare and
// safe to share between goroutines.
type Recorded struct {
	Target string
	t      []time.Time
	rtt    []float64 // ms
	rttMin []float64 // recorded min RTT, ms; NaN when not measured
	inF    []float64 // recorded in-flight; NaN when not measured
	drop   []bool
	limit  []float64 // recorded limit; NaN when not measured
	// fitted model, per sample
	base   []float64 // ms
	capac  []float64 // slots
	lambda []float64 // arrivals per ms
	noise  []float64 // recorded RTT / model RTT at the recorded in-flight
	// pts packs what Replay reads per sample into one small record, so a
	// replay streams one array instead of ten.
	pts []replayPoint
	// the open-loop limiter chain's inputs, 8 bytes a sample: the RTT
	// (negative for a loss) and the in-flight rounded up (+Inf when not
	// measured); chainStep is the sampling interval when it is regular,
	// chainDT the intervals when it is not
	chainRTT, chainInF []float32
	chainDT            []uint32
	chainStep          int64
	model              []modelPoint
	t0                 time.Time
	maxGap             int64 // the longest interval between samples, ns
	// HasInFlight says whether the trace recorded in-flight.
	HasInFlight bool
	// HasLimit says whether the trace recorded the limit (overlaid in the UI).
	HasLimit bool
}

// Len returns the number of samples.
func (r *Recorded) Len() int { return len(r.t) }

// Span returns the trace's time span.
func (r *Recorded) Span() (time.Time, time.Time) { return r.t[0], r.t[len(r.t)-1] }

// RecordedLimit returns the recorded limit series (for the overlay).
func (r *Recorded) RecordedLimit() ([]time.Time, []float64) {
	var ts []time.Time
	var vs []float64
	step := max(1, len(r.t)/4000)
	for i := 0; i < len(r.t); i += step {
		if !math.IsNaN(r.limit[i]) {
			ts, vs = append(ts, r.t[i]), append(vs, r.limit[i])
		}
	}
	return ts, vs
}

// replayPoint is what every replay reads per sample, 24 bytes: replays of
// millions of samples are bound by memory bandwidth, so the record is small
// (a loss is the sign of rtt) and the closed-loop-only model fields live in
// model.
type replayPoint struct {
	ns     int64   // since t0
	rtt    float32 // ms; negative when the sample was a loss
	inF    float32 // NaN when not measured
	capac  float32
	lambda float32 // arrivals per ms
}

type modelPoint struct {
	base, noise float32
}

// valueOrNaN is a field's value, NaN when it was not measured.
func valueOrNaN(s *trace.Sample, f trace.Field) float64 {
	if v, ok := s.Value(f); ok {
		return v
	}
	return math.NaN()
}

func hasAny(v []float64) bool {
	for _, x := range v {
		if !math.IsNaN(x) {
			return true
		}
	}
	return false
}

// FitWindow is the span over which base latency and capacity are fitted.
const FitWindow = 30 * time.Second

// Prepare reads one target's samples (time order) into a Recorded: rtt_ms is
// required, in_flight and dropped are used when present. It fits the
// downstream model in FitWindow spans:
//
//   - base latency B: the lowest of the span's recorded min RTT and its
//     5th-percentile RTT;
//   - arrival rate λ: served requests in-flight/RTT (Little's law) plus
//     rejected requests per second;
//   - capacity C: where RTT rises above B (queueing), the in-flight divided
//     by the backlog that explains RTT/B (Little's law with the model's
//     knee) — the concurrency the downstream actually serves; where it never
//     queues, the largest in-flight seen: capacity is at least that, and the
//     trace cannot say more, so utilisation predicted for such spans is an
//     upper bound.
func Prepare(target string, samples []trace.Sample) (*Recorded, error) {
	r := &Recorded{Target: target}
	var rej []float64
	for _, s := range samples {
		v, ok := s.Value(trace.FieldRTT)
		if !ok || v <= 0 {
			continue
		}
		r.t = append(r.t, s.Time)
		r.rtt = append(r.rtt, v)
		r.inF = append(r.inF, valueOrNaN(&s, trace.FieldInFlight))
		d, _ := s.Value(trace.FieldDropped)
		r.drop = append(r.drop, d > 0)
		r.limit = append(r.limit, valueOrNaN(&s, trace.FieldLimit))
		x, _ := s.Value(trace.FieldRejected)
		rej = append(rej, x)
		rm := math.NaN()
		if x, ok := s.Value(trace.FieldRTTMin); ok && x > 0 {
			rm = x
		}
		r.rttMin = append(r.rttMin, rm)
	}
	r.HasInFlight = hasAny(r.inF)
	r.HasLimit = hasAny(r.limit)
	if len(r.t) < 10 {
		return nil, fmt.Errorf("target %q has %d RTT samples: a what-if needs at least 10 rows with rtt_ms", target, len(r.t))
	}
	r.fit(rej)
	r.t0 = r.t[0]
	r.pts = make([]replayPoint, len(r.t))
	r.model = make([]modelPoint, len(r.t))
	r.chainDT = make([]uint32, len(r.t))
	r.chainRTT = make([]float32, len(r.t))
	r.chainInF = make([]float32, len(r.t))
	for i := range r.pts {
		rtt := float32(r.rtt[i])
		if r.drop[i] {
			rtt = -rtt
		}
		r.pts[i] = replayPoint{ns: int64(r.t[i].Sub(r.t0)), rtt: rtt, inF: float32(r.inF[i]), capac: float32(r.capac[i]), lambda: float32(r.lambda[i])}
		r.model[i] = modelPoint{base: float32(r.base[i]), noise: float32(r.noise[i])}
		inF := float32(math.Ceil(r.inF[i]))
		if math.IsNaN(r.inF[i]) {
			inF = float32(math.Inf(1))
		}
		r.chainRTT[i], r.chainInF[i] = r.pts[i].rtt, inF
		if i > 0 {
			gap := r.pts[i].ns - r.pts[i-1].ns
			r.maxGap = max(r.maxGap, gap)
			r.chainDT[i] = uint32(min(gap, math.MaxUint32))
		}
	}
	if n := len(r.pts); n > 1 {
		r.chainStep = r.pts[1].ns - r.pts[0].ns
		for i := 2; i < n && r.chainStep > 0; i++ {
			if r.pts[i].ns-r.pts[i-1].ns != r.chainStep {
				r.chainStep = 0
			}
		}
	}
	return r, nil
}

func (r *Recorded) fit(rej []float64) {
	n := len(r.t)
	r.base = make([]float64, n)
	r.capac = make([]float64, n)
	r.lambda = make([]float64, n)
	r.noise = make([]float64, n)
	// the median interval, for converting rejections to a rate
	iv := make([]float64, 0, min(n, 1000))
	for i := 1; i < n && len(iv) < 1000; i++ {
		iv = append(iv, float64(r.t[i].Sub(r.t[i-1]))/1e6)
	}
	sort.Float64s(iv)
	interval := 1000.0
	if len(iv) > 0 && iv[len(iv)/2] > 0 {
		interval = iv[len(iv)/2]
	}
	tmp := make([]float64, 0, 1024)
	for a := 0; a < n; {
		b := a
		for b < n && r.t[b].Sub(r.t[a]) < FitWindow {
			b++
		}
		tmp = append(tmp[:0], r.rtt[a:b]...)
		sort.Float64s(tmp)
		base := tmp[len(tmp)/20]
		for i := a; i < b; i++ {
			if r.rttMin[i] > 0 && r.rttMin[i] < base {
				base = r.rttMin[i] // the limiter's own min RTT sees below a queue
			}
		}
		capEst, maxInF, queued := 0.0, 0.0, false
		caps := make([]float64, 0, b-a)
		for i := a; i < b; i++ {
			if math.IsNaN(r.inF[i]) {
				continue
			}
			maxInF = math.Max(maxInF, r.inF[i])
			if r.rtt[i] > 1.05*base {
				queued = true
				caps = append(caps, r.inF[i]/backlog(r.rtt[i]/base))
			}
		}
		if queued && len(caps) > 0 {
			sort.Float64s(caps)
			capEst = caps[len(caps)/2]
		}
		if !queued || capEst < 1 {
			capEst = math.Max(maxInF, 1)
		}
		for i := a; i < b; i++ {
			r.base[i] = base
			r.capac[i] = capEst
			inf := r.inF[i]
			if math.IsNaN(inf) {
				inf = capEst // unknown demand: assume it fills the downstream
			}
			r.lambda[i] = inf/r.rtt[i] + rej[i]/interval
			r.noise[i] = r.rtt[i] / modelRTT(base, inf, capEst)
		}
		// The model's error is corrected by the span's median ratio only: a
		// per-sample residual would replay the recorded limiter's own RTT
		// swings into every candidate.
		tmp = append(tmp[:0], r.noise[a:b]...)
		sort.Float64s(tmp)
		bias := tmp[len(tmp)/2]
		for i := a; i < b; i++ {
			r.noise[i] = bias
		}
		a = b
	}
}

// modelRTT is the closed-loop model's RTT with n in flight: the base latency,
// times the queue's n/C past capacity, times the knee's inflation.
func modelRTT(base, n, c float64) float64 {
	x := n / c
	if x <= 1 {
		return base
	}
	return base * x * (1 + ReplayKnee*(x-1))
}

// backlog inverts modelRTT: the n/C that makes RTT/base = ratio.
func backlog(ratio float64) float64 {
	if ratio <= 1 {
		return 1
	}
	k := ReplayKnee
	return (-(1 - k) + math.Sqrt((1-k)*(1-k)+4*k*ratio)) / (2 * k)
}

// Mode is how a what-if treats RTTs.
type Mode int

const (
	// OpenLoop feeds the recorded RTTs as they were: exact and fast, but
	// blind to the fact that a different limit would have changed them.
	OpenLoop Mode = iota
	// ClosedLoop runs the candidate against the fitted downstream model with
	// the recorded demand, so a changed limit changes the RTTs it sees.
	ClosedLoop
)

func (m Mode) String() string {
	if m == ClosedLoop {
		return "closed"
	}
	return "open"
}

// ParseMode reads open or closed.
func ParseMode(s string) (Mode, error) {
	switch s {
	case "open":
		return OpenLoop, nil
	case "closed":
		return ClosedLoop, nil
	}
	return 0, errors.New("use open or closed")
}

// WhatIf is the outcome of one replay.
//
// Utilisation is the useful work over the work the fitted capacity C could
// have done, Σ min(in-flight, C)/inflation over Σ C, as the simulator
// defines it: the share of the downstream's concurrency doing useful work.
// P99Ms is the 99th percentile of RTT weighted by throughput (in-flight/RTT).
// OverloadEpisodes counts one-minute spans whose throughput-weighted mean RTT
// exceeded twice the fitted base latency. Deferred estimates the requests
// not sent: the demand above the limit, as a rate, integrated over time.
// OscillationIndex is the limit's mean absolute change between one-second
// points, as a percentage of its median (0 for a flat limit).
type WhatIf struct {
	Mode             Mode
	Utilisation      float64
	P99Ms            float64
	OverloadEpisodes int
	Deferred         float64
	OscillationIndex float64
	// Samples is the what-if series at about one point per second: limit,
	// in-flight, the limiter's min RTT and the RTT it saw.
	Samples []trace.Sample
}

// ReplayKnee is the closed-loop model's knee: past capacity each request's
// service time inflates by this fraction per capacity-worth of backlog (the
// simulator's default), so an overloaded downstream does less useful work.
// A trace rarely shows how a downstream degrades past capacity, so this is
// an assumption: a downstream that collapses faster does less than predicted
// under settings that overload it.
const ReplayKnee = DefaultKnee

// DefaultSampleWindow is the limiter's sample window assumed by Replay when
// the trace is coarser: a recorded interval is replayed as interval/window
// observations, so the candidate adapts as often as a live limiter would.
const DefaultSampleWindow = 100 * time.Millisecond

// Replay runs g (fresh state; cap 0 for none) over the recorded trace.
func (r *Recorded) Replay(g *limiter.Gradient, cap float64, mode Mode) WhatIf {
	return r.ReplayWindow(g, cap, mode, DefaultSampleWindow)
}

// ReplayWindow is Replay with the limiter's sample window given.
func (r *Recorded) ReplayWindow(g *limiter.Gradient, cap float64, mode Mode, window time.Duration) WhatIf {
	g.Reset()
	if mode == OpenLoop && r.fineFor(window) && limitFits(g, cap) {
		return r.replayOpen(g, cap)
	}
	pts := r.pts
	n := len(pts)
	st := newReplayStats(r, mode)
	limit := g.Limit()
	win := int64(window)
	t0 := r.t0.UnixNano()
	// closed loop: the RTT observed now is that of requests sent about one
	// base latency ago, so it reflects the in-flight of d sample windows
	// back (a delay line); this lag is what makes a high smoothing overshoot
	var past [128]float64
	pastAt := 0
	var N, L, rtt float64
	for i := 0; i < n; i++ {
		p := &pts[i]
		C := float64(p.capac)
		recRTT, drop := float64(p.rtt), false
		if recRTT < 0 {
			recRTT, drop = -recRTT, true
		}
		// sub-steps: a coarse recorded interval is replayed as several
		// observations, one per sample window
		sub := 1
		var dt int64
		if i+1 < n && win > 0 {
			dt = pts[i+1].ns - p.ns
			if dt >= 2*win {
				sub = min(int(dt/win), 1000)
			}
		}
		for k := 0; k < sub; k++ {
			L = capFloor(limit, cap)
			inflate := 1.0
			if mode == OpenLoop {
				N = openInFlight(p, L)
				rtt = recRTT
			} else {
				B := float64(r.model[i].base)
				if float64(p.lambda)*B <= C {
					N = math.Min(L, float64(p.lambda)*B)
				} else {
					N = L // demand beyond capacity: the backlog fills the limit
				}
				past[pastAt&127] = N
				d := 0
				if win > 0 {
					d = min(int(B*1e6/float64(win)), 127)
				}
				Nd := past[(pastAt-d)&127]
				if pastAt < d {
					Nd = N
				}
				pastAt++
				if Nd > C {
					inflate += ReplayKnee * (Nd/C - 1)
				}
				rtt = modelRTT(B, Nd, C) * float64(r.model[i].noise)
			}
			at := p.ns
			if sub > 1 {
				at += dt * int64(k) / int64(sub)
			}
			limit = g.ObserveNanos(t0+at, time.Duration(rtt*1e6), int(math.Ceil(N)), drop && k == 0)
			busy := min(N, C)
			thr := N / rtt // throughput, requests per ms
			if sub > 1 || inflate != 1 {
				fs := float64(sub)
				busy = busy / inflate / fs
				thr /= fs
			}
			st.work(rtt, busy, thr)
		}
		var m time.Duration
		if i == st.nextPoint {
			m = g.MinRTT()
		}
		st.sample(i, N, L, rtt, m)
	}
	return st.finish()
}

// capFloor is the enforced limit: under the cap, whole requests.
func capFloor(limit, cap float64) float64 {
	if cap > 0 && limit > cap {
		limit = cap
	}
	return math.Floor(limit)
}

// openInFlight is the open-loop in-flight: the recorded one (the limit when
// not measured) under the candidate's limit.
func openInFlight(p *replayPoint, L float64) float64 {
	d := float64(p.inF)
	if d != d { // not measured
		d = L
	}
	return min(d, L)
}

// fineFor reports whether no recorded interval spans two sample windows, so
// an open-loop replay needs no sub-steps (and every gap fits the chain's
// 32-bit deltas).
func (r *Recorded) fineFor(window time.Duration) bool {
	return r.maxGap < math.MaxUint32 && (window <= 0 || r.maxGap < 2*int64(window))
}

// limitFits reports whether every enforced limit fits the pipelined replay's
// 16-bit record of it.
func limitFits(g *limiter.Gradient, cap float64) bool {
	top := g.MaxLimit
	if cap > 0 {
		top = min(top, cap)
	}
	return top < math.MaxUint16
}

// replayChunk is how many samples the open-loop limiter chain hands over
// at a time to the statistics goroutine.
const replayChunk = 1 << 15

// replayOpen is the open-loop replay of a fine-grained trace in two
// pipelined passes: the serial limiter chain (the floor of any replay) runs
// here and records each sample's enforced limit; the statistics follow on
// another goroutine a chunk behind, so the chain is most of the wall time.
// It computes exactly what the general loop does.
func (r *Recorded) replayOpen(g *limiter.Gradient, cap float64) WhatIf {
	pts := r.pts
	n := len(pts)
	st := newReplayStats(r, OpenLoop)
	lims := make([]uint16, n)          // each sample's enforced limit (a whole number under 65535)
	mins := make([]int64, n/st.step+2) // the limiter's min RTT at each output point
	chunks := make(chan int, n/replayChunk+1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		from, point := 0, 0
		for end := range chunks {
			for i := from; i < end; i++ {
				p := &pts[i]
				L := float64(lims[i])
				N := openInFlight(p, L)
				rtt := math.Abs(float64(p.rtt))
				st.work(rtt, min(N, float64(p.capac)), N/rtt)
				var m time.Duration
				if i == st.nextPoint {
					m = time.Duration(mins[point])
					point++
				}
				st.sample(i, N, L, rtt, m)
			}
			from = end
		}
	}()
	t0 := r.t0.UnixNano()
	limit := g.Limit()
	nextPoint, point := 0, 0
	dts := r.chainDT
	rtts, infs, step := r.chainRTT[:n], r.chainInF[:n], r.chainStep
	top := math.Inf(1) // the cap, when there is one
	if cap > 0 {
		top = cap
	}
	now := t0
	for from := 0; from < n; from += replayChunk {
		end := min(from+replayChunk, n)
		for i := from; i < end; i++ {
			if step > 0 {
				now = t0 + int64(i)*step
			} else {
				now += int64(dts[i])
			}
			L := limit
			if L > top {
				L = top
			}
			L = math.Floor(L)
			// ceil(min(in-flight, L)) = min(ceil(in-flight), L) for a whole L
			// (a plain comparison: the built-in min's NaN handling costs)
			N := float64(infs[i])
			if N > L {
				N = L
			}
			rtt := float64(rtts[i])
			drop := rtt < 0
			limit = g.ObserveNanos(now, time.Duration(math.Abs(rtt)*1e6), int(N), drop)
			lims[i] = uint16(L)
			if i == nextPoint {
				nextPoint += st.step
				mins[point] = int64(g.MinRTT())
				point++
			}
		}
		chunks <- end
	}
	close(chunks)
	<-done
	return st.finish()
}

// replayStats accumulates a replay's statistics sample by sample.
type replayStats struct {
	r                                               *Recorded
	res                                             WhatIf
	hist                                            *weightedHist
	utilSum, capSum, minuteLat, minuteW, minuteBase float64
	minuteN                                         int
	minuteStart                                     int64
	deferred, prev, oscSum                          float64
	oscN                                            int
	lims                                            []float64
	step, nextPoint                                 int
}

func newReplayStats(r *Recorded, mode Mode) *replayStats {
	n := len(r.pts)
	step := 1
	if span := r.pts[n-1].ns; span > 0 && n > 1 {
		step = max(1, int(float64(n)/(float64(span)/1e9)))
	}
	st := &replayStats{r: r, res: WhatIf{Mode: mode}, hist: &weightedHist{}, step: step}
	st.lims = make([]float64, 0, n/step+1)
	st.res.Samples = make([]trace.Sample, 0, n/step+1)
	return st
}

// work adds one observation: its RTT, the capacity it kept busy and its
// throughput (requests per ms).
func (st *replayStats) work(rtt, busy, thr float64) {
	st.utilSum += busy
	if thr > 0 {
		st.hist.add(int64(rtt*1e6), thr)
		st.minuteLat += rtt * thr
		st.minuteW += thr
	}
}

// sample closes recorded sample i with its last observation's in-flight,
// limit and RTT; minRTT (the limiter's) matters only at output points.
func (st *replayStats) sample(i int, N, L, rtt float64, minRTT time.Duration) {
	pts := st.r.pts
	p := &pts[i]
	// demand above what was sent, as a rate, over the interval
	if i > 0 {
		if miss := float64(p.lambda) - N/rtt; miss > 0 {
			st.deferred += miss * float64(p.ns-pts[i-1].ns) * 1e-6
		}
	}
	st.capSum += float64(p.capac)
	st.minuteBase += float64(st.r.model[i].base)
	st.minuteN++
	if p.ns-st.minuteStart >= int64(time.Minute) || i == len(pts)-1 {
		if st.minuteW > 0 && st.minuteLat/st.minuteW > 2*st.minuteBase/float64(st.minuteN) {
			st.res.OverloadEpisodes++
		}
		st.minuteStart, st.minuteLat, st.minuteW, st.minuteBase, st.minuteN = p.ns, 0, 0, 0, 0
	}
	if i == st.nextPoint {
		st.nextPoint += st.step
		s := trace.Sample{Time: st.r.t0.Add(time.Duration(p.ns)), Target: st.r.Target}
		s.Set(trace.FieldLimit, L)
		s.Set(trace.FieldInFlight, math.Round(N))
		if minRTT > 0 {
			s.Set(trace.FieldRTTMin, float64(minRTT)/1e6)
		}
		s.Set(trace.FieldRTT, rtt)
		st.res.Samples = append(st.res.Samples, s)
		st.lims = append(st.lims, L)
		if len(st.lims) > 1 {
			st.oscSum += math.Abs(L - st.prev)
			st.oscN++
		}
		st.prev = L
	}
}

func (st *replayStats) finish() WhatIf {
	res := st.res
	res.Utilisation = st.utilSum / st.capSum
	res.P99Ms = st.hist.quantile(0.99) / 1e6
	res.Deferred = st.deferred
	if st.oscN > 0 {
		sort.Float64s(st.lims)
		if med := st.lims[len(st.lims)/2]; med > 0 {
			res.OscillationIndex = 100 * st.oscSum / float64(st.oscN) / med
		}
	}
	return res
}
