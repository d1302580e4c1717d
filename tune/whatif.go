package tune

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/limitscope/limitscope/internal/loghist"
	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/sim"
	"github.com/limitscope/limitscope/trace"
)

// Recorded is an RTT trace prepared for what-if replay: the recorded RTTs,
// and a downstream model fitted to them (base latency, concurrency capacity
// and demand over time) for closed-loop runs. Prepare it once and replay it
// with as many parameter sets as you like; it is read-only after Prepare and
// safe to share between goroutines.
type Recorded struct {
	Target string
	t0     time.Time
	ns     []int64   // since t0
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
	// chain is the open-loop limiter chain's input, 8 bytes a sample
	chain chainInput
	model []modelPoint
	// capSum is Σ C over the samples (utilisation's denominator) and
	// minutes the one-minute spans overload episodes are judged in: both
	// depend on the trace only
	capSum  float64
	minutes []minuteSpan
	maxGap  int64 // the longest interval between samples, ns
	// skips are the gaps in the recording (replayGap) replayed as one
	// median interval: ns is the replay's time, skips map it back to the
	// recorded times (at)
	skips []skip
	// HasInFlight says whether the trace recorded in-flight.
	HasInFlight bool
	// HasLimit says whether the trace recorded the limit (overlaid in the UI).
	HasLimit bool
	// FitErrorMedian and FitErrorP90 are the closed-loop model's relative
	// error on the recorded RTTs (|recorded/model − 1|, median and 90th
	// percentile): how far to trust a closed-loop prediction.
	FitErrorMedian, FitErrorP90 float64
	// BaseLatencyMs is the fitted base latency (median over the trace).
	BaseLatencyMs float64
	// Duration is the trace's span, its gaps (replayGap) left out: the
	// time a what-if replays.
	Duration time.Duration
}

// skip is a gap in a recording: from sample from on, the recorded times
// lie by ns later than the replay's.
type skip struct {
	from int
	by   int64
}

// replayGap: an interval between samples longer than this many median
// intervals, and than a minute, is a gap in the recording (a scrape outage,
// two recordings joined), not time the downstream was asked and answered:
// a what-if replays it as one median interval. Replayed whole, a month
// between two recordings made the closed loop defer a month of demand
// (25.9 M requests against 2,646 for either recording alone).
const replayGap = 10

// Len returns the number of samples.
func (r *Recorded) Len() int { return len(r.ns) }

// at is the recorded time of sample i.
func (r *Recorded) at(i int) time.Time {
	k := sort.Search(len(r.skips), func(k int) bool { return r.skips[k].from > i })
	by := int64(0)
	if k > 0 {
		by = r.skips[k-1].by
	}
	return r.t0.Add(time.Duration(r.ns[i])).Add(time.Duration(by))
}

// closeGaps replays each gap in the recording (replayGap) as one median
// interval: ns becomes the replay's time, skips keep the recorded one. It
// returns that median interval (which closing the gaps leaves as it was).
func (r *Recorded) closeGaps() int64 {
	iv := medianInterval(r.ns)
	gap := max(replayGap*iv, int64(time.Minute))
	var by int64
	for i := 1; i < len(r.ns); i++ {
		d := r.ns[i] - (r.ns[i-1] + by)
		if d > gap {
			by += d - iv
			r.skips = append(r.skips, skip{from: i, by: by})
		}
		r.ns[i] -= by
	}
	return iv
}

// medianInterval is the trace's median sampling interval in ns (1 s where
// there is none).
func medianInterval(ns []int64) int64 {
	iv := trace.MedianInterval(len(ns), func(i int) time.Duration { return time.Duration(ns[i] - ns[i-1]) })
	if iv <= 0 {
		return int64(time.Second)
	}
	return int64(iv)
}

// chartPoints is how many points the recorded series are thinned to for
// a chart: more than any terminal is wide.
const chartPoints = 4000

// thinned returns every k-th defined value of v with its time, at most
// about chartPoints of them.
func (r *Recorded) thinned(v []float64) ([]time.Time, []float64) {
	var ts []time.Time
	var vs []float64
	step := max(1, len(r.ns)/chartPoints)
	for i := 0; i < len(r.ns); i += step {
		if !math.IsNaN(v[i]) {
			ts, vs = append(ts, r.at(i)), append(vs, v[i])
		}
	}
	return ts, vs
}

// RecordedLimit returns the recorded limit series (for the overlay).
func (r *Recorded) RecordedLimit() ([]time.Time, []float64) { return r.thinned(r.limit) }

// RecordedRTT returns the recorded RTT series in ms (for the RTT chart).
func (r *Recorded) RecordedRTT() ([]time.Time, []float64) { return r.thinned(r.rtt) }

// replayPoint is what every replay reads per sample, 20 bytes: replays of
// millions of samples stream it, so the record is small (a loss is the sign
// of rtt) and the closed-loop-only model fields live in model.
type replayPoint struct {
	rtt    float32 // ms; negative when the sample was a loss
	inF    float32 // +Inf when not measured: the limit binds
	capac  float32
	lambda float32 // arrivals per ms
	dtMs   float32 // since the previous sample (0 for the first)
}

type modelPoint struct {
	base, noise float32
	invC        float32 // 1/capacity: on the closed loop's serial chain a multiply is cheaper than a divide
}

// minuteSpan is a one-minute span of a trace: it ends at sample end, and it
// was an overload episode when its throughput-weighted mean RTT exceeded
// overloadMs, twice its mean fitted base latency.
type minuteSpan struct {
	end        int
	overloadMs float64
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
		if len(r.ns) == 0 {
			r.t0 = s.Time
		}
		r.ns = append(r.ns, int64(s.Time.Sub(r.t0)))
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
	n := len(r.ns)
	if n < 10 {
		return nil, fmt.Errorf("target %q has %d RTT samples: a what-if needs at least 10 rows with rtt_ms", target, n)
	}
	r.fit(rej, r.closeGaps())
	r.Duration = time.Duration(r.ns[n-1])
	r.pts = make([]replayPoint, n)
	r.model = make([]modelPoint, n)
	gaps := make([]uint32, n)
	r.chain = chainInput{start: r.t0.UnixNano(), rtt: make([]float32, n), demand: make([]float32, n)}
	for i := range r.pts {
		rtt := float32(r.rtt[i])
		if r.drop[i] {
			rtt = -rtt
		}
		inF := float32(r.inF[i])
		if math.IsNaN(r.inF[i]) {
			inF = float32(math.Inf(1))
		}
		var gap int64
		if i > 0 {
			gap = r.ns[i] - r.ns[i-1]
			r.maxGap = max(r.maxGap, gap)
			gaps[i] = uint32(min(gap, math.MaxUint32))
		}
		r.pts[i] = replayPoint{rtt: rtt, inF: inF, capac: float32(r.capac[i]), lambda: float32(r.lambda[i]), dtMs: float32(float64(gap) * 1e-6)}
		r.model[i] = modelPoint{base: float32(r.base[i]), noise: float32(r.noise[i]), invC: float32(1 / r.capac[i])}
		r.chain.rtt[i], r.chain.demand[i] = rtt, float32(math.Ceil(float64(inF)))
	}
	r.spans()
	r.chain.step = r.ns[1] - r.ns[0]
	for i := 2; i < n && r.chain.step > 0; i++ {
		if r.ns[i]-r.ns[i-1] != r.chain.step {
			r.chain.step = 0
		}
	}
	if r.chain.step <= 0 {
		r.chain.step, r.chain.gaps = 0, gaps
	}
	return r, nil
}

// spans sums the capacity and cuts the trace into the minutes overload
// episodes are judged in.
func (r *Recorded) spans() {
	var start int64
	base, n := 0.0, 0
	for i := range r.pts {
		r.capSum += float64(r.pts[i].capac)
		base += float64(r.model[i].base)
		n++
		if r.ns[i]-start >= int64(time.Minute) || i == len(r.pts)-1 {
			r.minutes = append(r.minutes, minuteSpan{end: i, overloadMs: 2 * base / float64(n)})
			start, base, n = r.ns[i], 0, 0
		}
	}
}

// fit fits the downstream model; interval is the median sample interval,
// ns, which turns rejections into a rate.
func (r *Recorded) fit(rej []float64, interval int64) {
	n := len(r.ns)
	r.base = make([]float64, n)
	r.capac = make([]float64, n)
	r.lambda = make([]float64, n)
	r.noise = make([]float64, n)
	ivMs := float64(interval) / 1e6
	tmp := make([]float64, 0, 1024)
	resid := make([]float64, 0, n)
	for a := 0; a < n; {
		b := a
		for b < n && r.ns[b]-r.ns[a] < int64(FitWindow) {
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
			r.lambda[i] = inf/r.rtt[i] + rej[i]/ivMs
			r.noise[i] = r.rtt[i] / modelRTT(base, inf/capEst)
		}
		// The model's error is corrected by the span's median ratio only: a
		// per-sample residual would replay the recorded limiter's own RTT
		// swings into every candidate.
		tmp = append(tmp[:0], r.noise[a:b]...)
		sort.Float64s(tmp)
		bias := tmp[len(tmp)/2]
		for i := a; i < b; i++ {
			resid = append(resid, math.Abs(r.noise[i]/bias-1))
			r.noise[i] = bias
		}
		a = b
	}
	// how far the model misses each recorded RTT once the span's bias is
	// taken out: what the closed loop cannot explain
	sort.Float64s(resid)
	r.FitErrorMedian, r.FitErrorP90 = resid[len(resid)/2], resid[len(resid)*9/10]
	bases := append([]float64(nil), r.base...)
	sort.Float64s(bases)
	r.BaseLatencyMs = bases[len(bases)/2]
}

// modelRTT is the closed-loop model's RTT with x = n/C in flight per slot of
// capacity: the base latency, times the queue's x past capacity, times the
// knee's inflation.
func modelRTT(base, x float64) float64 {
	if x <= 1 {
		return base
	}
	return base * x * inflation(x)
}

// inflation is the knee's service-time inflation with x = n/C (1 up to
// capacity).
func inflation(x float64) float64 {
	if x <= 1 {
		return 1
	}
	return 1 + ReplayKnee*(x-1)
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
const ReplayKnee = sim.DefaultKnee

// DefaultSampleWindow is the limiter's sample window assumed by Replay when
// the trace is coarser: a recorded interval is replayed as interval/window
// observations, so the candidate adapts as often as a live limiter would.
const DefaultSampleWindow = 100 * time.Millisecond

// Candidate is what a replay runs: a limiter in its initial state (any
// algorithm), the gate's static cap (0: none) and the highest limit the
// limiter can set under it (0: unknown).
type Candidate struct {
	Limiter  limiter.Limiter
	Cap, Top float64
}

// minRTT is the candidate's min-RTT estimate, 0 when it keeps none.
func (c Candidate) minRTT() time.Duration {
	if m, ok := c.Limiter.(limiter.MinRTTReporter); ok {
		return m.MinRTT()
	}
	return 0
}

// Replay runs c over the recorded trace.
func (r *Recorded) Replay(c Candidate, mode Mode) WhatIf {
	return r.ReplayWindow(c, mode, DefaultSampleWindow)
}

// ReplayWindow is Replay with the limiter's sample window given.
func (r *Recorded) ReplayWindow(c Candidate, mode Mode, window time.Duration) WhatIf {
	g, cap := c.Limiter, c.Cap
	if mode == OpenLoop && r.fineFor(window) && c.Top > 0 && c.Top <= 1<<24 {
		return r.replayOpen(c)
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
	perWindow := 0.0 // sample windows per ms
	if win > 0 {
		perWindow = 1e6 / float64(win)
	}
	var N, L, rtt, thr float64
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
			dt = r.ns[i+1] - r.ns[i]
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
				m := &r.model[i]
				B := float64(m.base)
				if float64(p.lambda)*B <= C {
					N = min(L, float64(p.lambda)*B)
				} else {
					N = L // demand beyond capacity: the backlog fills the limit
				}
				past[pastAt&127] = N
				Nd := N // (not read back when there is no lag: a store-to-load wait on the chain)
				if d := min(int(B*perWindow), 127); d > 0 && pastAt >= d {
					Nd = past[(pastAt-d)&127]
				}
				pastAt++
				x := Nd * float64(m.invC)
				inflate = inflation(x)
				rtt = modelRTT(B, x) * float64(m.noise)
			}
			at := r.ns[i]
			if sub > 1 {
				at += dt * int64(k) / int64(sub)
			}
			limit = g.Observe(time.Unix(0, t0+at), time.Duration(rtt*1e6), int(math.Ceil(N)), drop && k == 0)
			busy := min(N, C)
			thr = N / rtt // throughput, requests per ms
			if sub > 1 || inflate != 1 {
				fs := float64(sub)
				st.work(rtt, busy/(inflate*fs), thr/fs)
			} else {
				st.work(rtt, busy, thr)
			}
		}
		var m time.Duration
		if i == st.nextPoint {
			m = c.minRTT()
		}
		st.sample(i, N, L, rtt, thr, m)
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
	return min(float64(p.inF), L) // branch-free: whether the limit binds is not predictable
}

// fineFor reports whether no recorded interval spans two sample windows, so
// an open-loop replay needs no sub-steps (and every gap fits the chain's
// 32-bit deltas).
func (r *Recorded) fineFor(window time.Duration) bool {
	return r.maxGap < math.MaxUint32 && (window <= 0 || r.maxGap < 2*int64(window))
}

// chainInput is a recorded run laid out for the open-loop limiter chain, 8
// bytes a sample: replaying millions of samples is bound by the serial chain
// from one limit to the next, so the inputs are small.
type chainInput struct {
	// start is the time of sample 0 (Unix ns); step the interval between
	// samples when it is regular, else gaps[i] is the interval from sample
	// i−1 to i (fineFor keeps every gap under 4.29 s)
	start, step int64
	gaps        []uint32
	// rtt in ms, negated for a loss; demand is the in-flight the sample
	// wanted, rounded up (+Inf: as many as the limit admits)
	rtt, demand []float32
}

// chainRun is one open-loop pass over a chainInput under a static cap.
type chainRun struct {
	in   *chainInput
	cap  float64
	next int   // the next sample to observe
	now  int64 // time of sample next−1, Unix ns
}

// observe feeds the run's next len(enforced) samples (all that remain, if
// fewer) to lim in order, as a Gate with the same cap would: the limiter sees
// the demand capped at the enforced limit (the limit under the cap, whole
// requests) as its in-flight. It writes the limit each sample was enforced
// under into enforced and returns how many samples it observed. It goes
// through the public Limiter interface only, so any algorithm replays.
func (b *chainRun) observe(lim limiter.Limiter, enforced []float32) int {
	in := b.in
	from := b.next
	end := min(from+len(enforced), len(in.rtt))
	limit, now := lim.Limit(), b.now
	for i := from; i < end; i++ {
		switch {
		case in.step > 0:
			now = in.start + int64(i)*in.step
		case i == 0:
			now = in.start
		default:
			now += int64(in.gaps[i])
		}
		L := capFloor(limit, b.cap)
		var n int
		if N := min(float64(in.demand[i]), L); N > 0 {
			n = int(N)
		}
		x := float64(in.rtt[i])
		var rtt time.Duration // zero (no latency signal) unless valid
		if x > 0 && x < maxChainRTT {
			rtt = time.Duration(x * 1e6)
		}
		limit = lim.Observe(time.Unix(0, now), rtt, n, x < 0)
		enforced[i-from] = float32(L)
	}
	b.next, b.now = end, now
	return end - from
}

// maxChainRTT bounds the replayed RTTs, in ms, well inside a Duration.
const maxChainRTT = 1e12

// replayChunk is how many samples the open-loop limiter chain hands over
// at a time to the statistics goroutine, and replayBuffers how many chunks
// of enforced limits are in flight between them: a few small buffers,
// reused, stay in the cache where one per sample would not.
const (
	replayChunk   = 1 << 14
	replayBuffers = 4
)

// chunk is a run of samples [from, from+len(lims)) with the limit each was
// enforced under, and the limiter's min RTT at each output point among them.
type chunk struct {
	from int
	lims []float32
	mins []time.Duration
}

// replayOpen is the open-loop replay of a fine-grained trace in two
// pipelined passes: the serial limiter chain (the floor of any replay) runs
// here and records each sample's enforced limit; the statistics follow on
// another goroutine a chunk behind, so the chain is most of the wall time.
// It computes exactly what the general loop does.
// The enforced limits are recorded as float32, exact while the candidate's
// Top is at most 2²⁴ (ReplayWindow checks).
func (r *Recorded) replayOpen(cand Candidate) WhatIf {
	g, cap := cand.Limiter, cand.Cap
	n := len(r.pts)
	st := newReplayStats(r, OpenLoop)
	full := make(chan chunk, replayBuffers)
	free := make(chan chunk, replayBuffers)
	for range replayBuffers {
		free <- chunk{lims: make([]float32, replayChunk), mins: make([]time.Duration, 0, replayChunk/st.step+1)}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for c := range full {
			st.openChunk(c.from, c.lims, c.mins)
			free <- c
		}
	}()
	b := chainRun{in: &r.chain, cap: cap}
	nextPoint := 0
	for b.next < n {
		c := <-free
		c.from, c.lims, c.mins = b.next, c.lims[:min(replayChunk, n-b.next)], c.mins[:0]
		for k := 0; k < len(c.lims); {
			// up to and including the next output point, where the
			// limiter's min RTT is recorded
			end := len(c.lims)
			if nextPoint < c.from+end {
				end = nextPoint + 1 - c.from
			}
			k += b.observe(g, c.lims[k:end])
			if b.next == nextPoint+1 {
				c.mins = append(c.mins, cand.minRTT())
				nextPoint += st.step
			}
		}
		full <- c
	}
	close(full)
	<-done
	return st.finish()
}

// openChunk adds open-loop samples from, from+1, … given each one's
// enforced limit and the limiter's min RTT at each output point among
// them. It is the general loop's work and sample with the running sums in
// registers.
func (st *replayStats) openChunk(from int, lims []float32, mins []time.Duration) {
	pts := st.r.pts[from : from+len(lims)]
	acc, run, h := st.acc, st.run, st.hist
	for k := range pts {
		p := pts[k]
		L := float64(lims[k])
		N := openInFlight(&p, L)
		rtt := math.Abs(float64(p.rtt))
		thr := N / rtt
		acc, run = observe(acc, run, h, rtt, min(N, float64(p.capac)), thr)
		acc = acc.sample(&p, thr)
		if i := from + k; i == st.minuteEnd || i == st.nextPoint {
			var m time.Duration
			if i == st.nextPoint {
				m, mins = mins[0], mins[1:]
			}
			st.acc, st.run = acc, run
			st.boundary(i, N, L, rtt, m)
			acc = st.acc
		}
	}
	st.acc, st.run = acc, run
}

// replayStats accumulates a replay's statistics sample by sample.
type replayStats struct {
	r                 *Recorded
	res               WhatIf
	hist              *loghist.Weighted
	acc               sums
	run               histRun
	minute, minuteEnd int // the current span in r.minutes, and its last sample
	prev, oscSum      float64
	oscN              int
	lims              []float64
	step, nextPoint   int
}

// sums are a replay's running sums: the busy capacity, this minute's
// throughput-weighted RTT and throughput, and the deferred demand. They are
// a small value so the replay loops keep them in registers.
type sums struct {
	util, lat, w, deferred float64
}

// histRun is a run of observations in one bucket of the RTT histogram,
// added to it when the bucket changes: consecutive RTTs mostly share a
// bucket, and adding each to memory would chain every sample on the last.
type histRun struct {
	b int
	w float64
}

// observe adds one observation: its RTT, the capacity it kept busy and its
// throughput (requests per ms).
func observe(a sums, run histRun, h *loghist.Weighted, rtt, busy, thr float64) (sums, histRun) {
	a.util += busy
	if thr > 0 {
		a.lat += rtt * thr
		a.w += thr
		if b := loghist.Bucket(int64(rtt * 1e6)); b != run.b {
			h.W[run.b] += run.w
			run = histRun{b, thr}
		} else {
			run.w += thr
		}
	}
	return a, run
}

// sample adds a recorded sample's demand above what was sent (its last
// observation's throughput), as a rate, over its interval.
func (a sums) sample(p *replayPoint, thr float64) sums {
	a.deferred += max(float64(p.lambda)-thr, 0) * float64(p.dtMs) // branch-free, as in openInFlight
	return a
}

func newReplayStats(r *Recorded, mode Mode) *replayStats {
	n := len(r.pts)
	step := 1
	if span := r.ns[n-1]; span > 0 && n > 1 {
		step = max(1, int(float64(n)/(float64(span)/1e9)))
	}
	st := &replayStats{r: r, res: WhatIf{Mode: mode}, hist: &loghist.Weighted{}, step: step, minuteEnd: r.minutes[0].end}
	st.lims = make([]float64, 0, n/step+1)
	st.res.Samples = make([]trace.Sample, 0, n/step+1)
	return st
}

// work adds one observation (see observe).
func (st *replayStats) work(rtt, busy, thr float64) {
	st.acc, st.run = observe(st.acc, st.run, st.hist, rtt, busy, thr)
}

// sample closes recorded sample i with its last observation's in-flight,
// limit, RTT and throughput (N/rtt); minRTT (the limiter's) matters only at
// output points.
func (st *replayStats) sample(i int, N, L, rtt, thr float64, minRTT time.Duration) {
	st.acc = st.acc.sample(&st.r.pts[i], thr)
	if i == st.minuteEnd || i == st.nextPoint {
		st.boundary(i, N, L, rtt, minRTT)
	}
}

// boundary closes the minute that ends at sample i, if one does, and adds
// the output point at i, if there is one.
func (st *replayStats) boundary(i int, N, L, rtt float64, minRTT time.Duration) {
	if i == st.minuteEnd {
		if st.acc.w > 0 && st.acc.lat/st.acc.w > st.r.minutes[st.minute].overloadMs {
			st.res.OverloadEpisodes++
		}
		st.acc.lat, st.acc.w = 0, 0
		st.minute = min(st.minute+1, len(st.r.minutes)-1)
		st.minuteEnd = st.r.minutes[st.minute].end
	}
	if i == st.nextPoint {
		st.nextPoint += st.step
		s := trace.Sample{Time: st.r.at(i), Target: st.r.Target}
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
	res.Utilisation = st.acc.util / st.r.capSum
	st.hist.W[st.run.b] += st.run.w
	res.P99Ms = st.hist.Quantile(0.99) / 1e6
	res.Deferred = st.acc.deferred
	if st.oscN > 0 {
		sort.Float64s(st.lims)
		if med := st.lims[len(st.lims)/2]; med > 0 {
			res.OscillationIndex = 100 * st.oscSum / float64(st.oscN) / med
		}
	}
	return res
}
