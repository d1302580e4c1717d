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
	pts   []replayPoint
	model []modelPoint
	t0    time.Time
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
		inf := math.NaN()
		if x, ok := s.Value(trace.FieldInFlight); ok {
			inf = x
			r.HasInFlight = true
		}
		r.inF = append(r.inF, inf)
		d, _ := s.Value(trace.FieldDropped)
		r.drop = append(r.drop, d > 0)
		lim := math.NaN()
		if x, ok := s.Value(trace.FieldLimit); ok {
			lim = x
			r.HasLimit = true
		}
		r.limit = append(r.limit, lim)
		x, _ := s.Value(trace.FieldRejected)
		rej = append(rej, x)
		rm := math.NaN()
		if x, ok := s.Value(trace.FieldRTTMin); ok && x > 0 {
			rm = x
		}
		r.rttMin = append(r.rttMin, rm)
	}
	if len(r.t) < 10 {
		return nil, fmt.Errorf("target %q has %d RTT samples: a what-if needs at least 10 rows with rtt_ms", target, len(r.t))
	}
	r.fit(rej)
	r.t0 = r.t[0]
	r.pts = make([]replayPoint, len(r.t))
	r.model = make([]modelPoint, len(r.t))
	for i := range r.pts {
		rtt := float32(r.rtt[i])
		if r.drop[i] {
			rtt = -rtt
		}
		r.pts[i] = replayPoint{ns: int64(r.t[i].Sub(r.t0)), rtt: rtt, inF: float32(r.inF[i]), capac: float32(r.capac[i]), lambda: float32(r.lambda[i])}
		r.model[i] = modelPoint{base: float32(r.base[i]), noise: float32(r.noise[i])}
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
	pts := r.pts
	n := len(pts)
	res := WhatIf{Mode: mode}
	step := 1
	if span := pts[n-1].ns; span > 0 && n > 1 {
		step = max(1, int(float64(n)/(float64(span)/1e9)))
	}
	hist := &weightedHist{}
	var utilSum, capSum, minuteLat, minuteW, minuteBase float64
	var minuteN int
	var minuteStart int64
	var deferred, prev, oscSum float64
	var oscN int
	lims := make([]float64, 0, n/step+1)
	res.Samples = make([]trace.Sample, 0, n/step+1)
	limit := g.Limit()
	win := int64(window)
	t0 := r.t0.UnixNano()
	nextPoint := 0
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
			L = limit
			if cap > 0 && L > cap {
				L = cap
			}
			L = math.Floor(L)
			inflate := 1.0
			if mode == OpenLoop {
				d := float64(p.inF)
				if d != d { // not measured
					d = L
				}
				N = d
				if L < N {
					N = L
				}
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
			busy := N
			if busy > C {
				busy = C
			}
			thr := N / rtt // throughput, requests per ms
			if sub > 1 || inflate != 1 {
				fs := float64(sub)
				busy = busy / inflate / fs
				thr /= fs
			}
			utilSum += busy
			if thr > 0 {
				hist.add(int64(rtt*1e6), thr)
				minuteLat += rtt * thr
				minuteW += thr
			}
		}
		// demand above what was sent, as a rate, over the interval
		if i > 0 {
			if miss := float64(p.lambda) - N/rtt; miss > 0 {
				deferred += miss * float64(p.ns-pts[i-1].ns) * 1e-6
			}
		}
		capSum += C
		minuteBase += float64(r.model[i].base)
		minuteN++
		if p.ns-minuteStart >= int64(time.Minute) || i == n-1 {
			if minuteW > 0 && minuteLat/minuteW > 2*minuteBase/float64(minuteN) {
				res.OverloadEpisodes++
			}
			minuteStart, minuteLat, minuteW, minuteBase, minuteN = p.ns, 0, 0, 0, 0
		}
		if i == nextPoint {
			nextPoint += step
			s := trace.Sample{Time: r.t0.Add(time.Duration(p.ns)), Target: r.Target}
			s.Set(trace.FieldLimit, L)
			s.Set(trace.FieldInFlight, math.Round(N))
			if m := g.MinRTT(); m > 0 {
				s.Set(trace.FieldRTTMin, float64(m)/1e6)
			}
			s.Set(trace.FieldRTT, rtt)
			res.Samples = append(res.Samples, s)
			lims = append(lims, L)
			if len(lims) > 1 {
				oscSum += math.Abs(L - prev)
				oscN++
			}
			prev = L
		}
	}
	res.Utilisation = utilSum / capSum
	res.P99Ms = hist.quantile(0.99) / 1e6
	res.Deferred = deferred
	if oscN > 0 {
		sort.Float64s(lims)
		if med := lims[len(lims)/2]; med > 0 {
			res.OscillationIndex = 100 * oscSum / float64(oscN) / med
		}
	}
	return res
}
