package diagnose

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/limitscope/limitscope/internal/decimal"
	"github.com/limitscope/limitscope/trace"
)

// Classify judges one target's samples (in time order) in one pass; it is
// exactly a Stream fed every sample.
func Classify(target string, samples []trace.Sample, opt Options) Result {
	s := NewStream(target, opt)
	for i := range samples {
		s.Push(samples[i])
	}
	return s.Result()
}

// Collector classifies samples of many targets as they stream in (a file
// being read), keeping each target's limit values for sparklines and, when
// asked, the whole series for charts.
type Collector struct {
	streamSet
	keep   bool
	series map[string]*thinned[trace.Sample]
	limits map[string]*thinned[float64]
}

// streamSet is one Stream per target, in order of first appearance.
type streamSet struct {
	opt     Options
	streams map[string]*Stream
	order   []string
}

func newStreamSet(opt Options) streamSet {
	return streamSet{opt: opt, streams: map[string]*Stream{}}
}

// stream returns target's stream, creating it on first use ("" is the
// default target).
func (ss *streamSet) stream(target string) *Stream {
	st, ok := ss.streams[target]
	if !ok {
		st = NewStream(target, ss.opt)
		ss.streams[target] = st
		ss.order = append(ss.order, target)
	}
	return st
}

// NewCollector returns a collector; keepSeries keeps each target's series
// (thinned to at most keptPoints samples) for HTML charts.
func NewCollector(opt Options, keepSeries bool) *Collector {
	return &Collector{streamSet: newStreamSet(opt), keep: keepSeries, series: map[string]*thinned[trace.Sample]{}, limits: map[string]*thinned[float64]{}}
}

// keptPoints bounds what a Collector keeps per target for sparklines and
// charts (which draw at most a few hundred points): memory follows the
// number of targets, not the length of the input.
const keptPoints = 4096

// thinned keeps every stride-th value pushed, doubling the stride (and
// dropping every other kept value) whenever 2·keptPoints are held.
type thinned[T any] struct {
	vals   []T
	stride int
	n      int
}

func (t *thinned[T]) add(v T) {
	if t.stride == 0 {
		t.stride = 1
	}
	if t.n%t.stride == 0 {
		t.vals = append(t.vals, v)
		if len(t.vals) >= 2*keptPoints {
			for i := 0; i < keptPoints; i++ {
				t.vals[i] = t.vals[2*i]
			}
			t.vals = t.vals[:keptPoints]
			t.stride *= 2
		}
	}
	t.n++
}

// Push adds one sample.
func (c *Collector) Push(s trace.Sample) {
	if s.Target == "" {
		s.Target = trace.DefaultTarget
	}
	c.stream(s.Target).Push(s)
	if s.Has(trace.FieldLimit) {
		l := c.limits[s.Target]
		if l == nil {
			l = &thinned[float64]{}
			c.limits[s.Target] = l
		}
		l.add(s.Limit)
	}
	if c.keep {
		k := c.series[s.Target]
		if k == nil {
			k = &thinned[trace.Sample]{}
			c.series[s.Target] = k
		}
		k.add(s)
	}
}

// Results classifies every target, in order of first appearance.
func (c *Collector) Results() []Result {
	out := make([]Result, 0, len(c.order))
	for _, t := range c.order {
		out = append(out, c.streams[t].Result())
	}
	return out
}

// Series returns the kept (thinned) samples per target (empty unless kept).
func (c *Collector) Series() map[string][]trace.Sample {
	out := make(map[string][]trace.Sample, len(c.series))
	for k, v := range c.series {
		out[k] = v.vals
	}
	return out
}

// Limits returns each target's limit values in order (thinned).
func (c *Collector) Limits() map[string][]float64 {
	out := make(map[string][]float64, len(c.limits))
	for k, v := range c.limits {
		out[k] = v.vals
	}
	return out
}

// Samples returns how many samples the stream has taken.
func (s *Stream) Samples() int { return s.n }

// LastRejectedShare is the rejected share of demand in the newest sample's
// interval (see RejectedShare); ok is false when it cannot be told.
func (s *Stream) LastRejectedShare() (float64, bool) { return s.lastRejShare, s.hasLastRejShare }

// Current judges the trailing window ending at the newest sample without
// committing anything: the live verdict for a dashboard. ok is false while
// the window holds too few samples.
func (s *Stream) Current() (Class, Finding, bool) {
	if s.n == 0 {
		return Insufficient, Finding{}, false
	}
	end := addSat(s.last, 1)
	w, ok := s.judge(s.windowPoints(end), addSat(end, -s.window), end)
	if !ok {
		return Insufficient, Finding{}, false
	}
	f := Finding{Class: w.class, Start: time.Unix(0, w.start).UTC(), End: time.Unix(0, w.end).UTC(), Severity: SeverityOf(w.class), windows: 1, w: w}
	s.describe(&f)
	return w.class, f, true
}

// Result is the diagnosis so far: the judged windows plus the partial window
// since the last boundary when it covers at least half a window (or
// DefaultWindow, where that is shorter: tailJudged).
func (s *Stream) Result() Result {
	if s.holding {
		return s.decided().Result()
	}
	r := Result{Target: s.target, Samples: s.n}
	if s.n == 0 {
		r.Class, r.Confidence = Insufficient, 0
		r.Findings = []Finding{}
		return r
	}
	r.Start, r.End = time.Unix(0, s.first).UTC(), time.Unix(0, s.last).UTC()
	findings := append([]Finding(nil), s.findings...)
	counts := map[Class]int{}
	for c, n := range s.counts {
		counts[c] = n
	}
	judged, windows, oscQueued := s.judged, s.windows, s.oscQueued
	partialStart := addSat(s.next, -s.window)
	findings, long, tail := s.recordingEnd(findings, counts, &oscQueued, partialStart, s.last)
	if long || tail {
		windows++
	}
	if tail {
		judged++
	}
	findings = s.standingAgainstBaseline(findings, s.recFindings)
	showOnsets(findings)
	r.Stats = s.stats(judged, windows)
	r.Unreachable = s.unreachable(time.Duration(r.Stats.IntervalS * float64(time.Second)))
	best := Insufficient
	for c, n := range counts {
		if n > 0 && Rank(c) > Rank(best) && (c != Oscillating || swingMakesVerdict(n, oscQueued, judged)) {
			best = c
		}
	}
	r.Class = best
	if judged == 0 || s.have&trace.FieldLimit == 0 {
		r.Class, r.Confidence = Insufficient, 0
		why := fmt.Sprintf("%d samples over %s; a verdict needs a %s window holding at least %d limit samples, or at least %d in a recording shorter than that (%d where they span %s or more)", s.n, time.Duration(s.last-s.first).Round(time.Second), time.Duration(s.window), minWindowSamples, shortTraceSamples, shortSpanSamples, DefaultWindow)
		if s.have&trace.FieldLimit == 0 {
			why = "the series has no limit column: nothing to judge"
		}
		rec := "Record for longer (at least one window) or pass a shorter --window."
		if more, every, unmeasured, ok := s.readingsShort(partialStart, r.Stats.IntervalS); ok {
			word := "readings"
			if more == 1 {
				word = "reading"
			}
			withLimit, least, note := "", "", ""
			if unmeasured > 0 {
				// the readings to come may leave the limit unmeasured too
				// (Envoy's re-measuring pin): the count is a floor
				carry := "carry"
				if unmeasured == 1 {
					carry = "carries"
				}
				withLimit, least, note = " with a limit", " at the least", fmt.Sprintf("; %d of its readings %s none", unmeasured, carry)
			}
			rec = fmt.Sprintf("Record for longer: read every %s, %d more %s%s (%s%s) would make the recording long enough to judge%s.", every, more, word, withLimit, time.Duration(more)*every, least, note)
		}
		r.Findings = []Finding{{Class: Insufficient, Start: r.Start, End: r.End, Severity: SevNone,
			Evidence:       Evidence{Summary: why, Values: map[string]float64{"samples": float64(s.n)}},
			Recommendation: rec}}
		return r
	}
	r.Confidence = math.Round(100*float64(counts[best])/float64(judged)) / 100
	r.VerdictWindows = counts[best]
	for i := range findings {
		s.describe(&findings[i])
	}
	sort.SliceStable(findings, func(i, j int) bool { return findings[i].Start.Before(findings[j].Start) })
	r.Findings = findings
	return r
}

// showOnsets moves each degraded episode's start to its onset, back
// (declineStart) or forward (lossHead, inside the episode), and the end of
// the healthy episode before it with it.
func showOnsets(fs []Finding) {
	for i := range fs {
		o := fs[i].onset
		if fs[i].Class != Degraded || o == 0 || o == fs[i].Start.UnixNano() || o >= fs[i].End.UnixNano() {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			if fs[j].Class == Healthy && fs[j].End.Equal(fs[i].Start) && fs[j].Start.UnixNano() < o {
				fs[j].End = time.Unix(0, o).UTC()
				fs[i].Start = fs[j].End
				break
			}
		}
	}
}

// standingAgainstBaseline adds a standing-queue finding to each healthy
// episode whose calmest window held a flat limit (flatBand) with the RTT at
// standingQueueRatio times the trace's lowest min RTT or more, where no
// standing-queue finding covers it yet. A min-RTT estimate taken while the
// queue already stood includes the queue (a static limit above capacity
// from the first request: simulate's static-high reads 44 ms over a 20 ms
// downstream), so the window's own ratio is about 1; only a later, lower
// min RTT shows what the downstream answers in without one. Judged when
// the result is taken, against the baseline of the recording so far, for
// the findings from index from on (the recording's; forget judges each
// earlier recording's against its own). The calmest window must lie in
// the episode by half or more (holdsMostOf): a healthy episode cut short
// by a degraded one keeps the window it held first, and that window's RTT
// can be the incident's (our gradient limiter over a downstream of 8,
// read every 15 s: 137.9 ms named in the 45 ms after the incident). Over
// the multi-episode traces of the simulator (calibration side and held-out
// half) and the real libraries' recorded ones (1,314): 4 standing-queue
// findings fewer, 3 of them naming an incident's RTT in the calm beside
// it, 1 (go-concurrency-limits' Vegas after an incident) a queue that
// stood there too, named with the figures of the window before the
// incident; the one named before that incident stays.
func (s *Stream) standingAgainstBaseline(fs []Finding, from int) []Finding {
	base := s.base.rttMin
	if s.have&(trace.FieldRTT|trace.FieldRTTMin) != trace.FieldRTT|trace.FieldRTTMin || math.IsInf(base, 1) || base <= 0 {
		return fs
	}
	n := len(fs)
	for i := from; i < n; i++ {
		f := fs[i]
		w := f.w
		if f.Class != Healthy || w.band > flatBand || w.rttProxy || !w.hasRTTMin || w.rttMed < standingQueueRatio*base || covered(fs, StandingQueue, f.Start, f.End) || !f.holdsMostOf(w) {
			continue
		}
		w.queueBase = base
		fs = append(fs, Finding{Class: StandingQueue, Start: f.Start, End: f.End, Severity: SeverityOf(StandingQueue), windows: f.windows, w: w})
	}
	return fs
}

// holdsMostOf reports whether half of the window w or more lies in f.
func (f *Finding) holdsMostOf(w windowStats) bool {
	from, to := max(w.start, f.Start.UnixNano()), min(w.end, f.End.UnixNano())
	return 2*(to-from) >= w.end-w.start
}

// covered reports whether a finding of class c overlaps [from, to).
func covered(fs []Finding, c Class, from, to time.Time) bool {
	for _, f := range fs {
		// an overshoot's standing queue covers only its own readings
		if f.Class == c && f.over == nil && f.Start.Before(to) && from.Before(f.End) {
			return true
		}
	}
	return false
}

// readingsShort is how many more readings with a limit, every intervalS
// seconds, a recording that is one unjudged partial window from start (no
// window closed) needs to be judged (tailJudged: shortTraceSamples limit
// samples, or shortSpanSamples spanning DefaultWindow), and how many of its
// readings carry no limit; ok is false where it is not length that it
// lacks.
func (s *Stream) readingsShort(start int64, intervalS float64) (more int, every time.Duration, unmeasured int, ok bool) {
	every = time.Duration(intervalS * float64(time.Second)).Round(time.Second)
	if s.windows > 0 || every <= 0 || s.have&trace.FieldLimit == 0 || s.tailJudged(start, s.last) {
		return 0, 0, 0, false
	}
	n := s.partialSamples(start, addSat(s.last, 1))
	for _, p := range s.buf[s.head:] {
		if p.t >= start && p.has&trace.FieldLimit == 0 {
			unmeasured++
		}
	}
	toSpan := (int64(DefaultWindow) - (s.last - start) + int64(every) - 1) / int64(every)
	more = min(shortTraceSamples-n, max(shortSpanSamples-n, int(toSpan)))
	return max(more, 1), every, unmeasured, true
}

// partialSamples counts the limit samples in [from, to).
func (s *Stream) partialSamples(from, to int64) int {
	return s.countIn(from, to, func(p *point) bool { return p.has&trace.FieldLimit != 0 })
}

// countIn counts the kept readings in [from, to) that match.
func (s *Stream) countIn(from, to int64, match func(*point) bool) int {
	pts := s.buf[s.head:]
	n := 0
	for i := firstAt(pts, from); i < len(pts) && pts[i].t < to; i++ {
		if match(&pts[i]) {
			n++
		}
	}
	return n
}

func (s *Stream) stats(judged, windows int) Stats {
	st := Stats{Dropped: s.dropped, Rejected: s.rejected, Windows: windows, JudgedWindows: judged, WindowS: time.Duration(s.window).Seconds()}
	if s.n > 0 && s.have&trace.FieldLimit != 0 {
		st.LimitMean = decimal.Round(s.sumLimit/float64(s.n), 2)
		st.LimitMin, st.LimitMax = s.minLimit, s.maxLimit
	}
	if s.nInFlight > 0 {
		st.InFlightMean = decimal.Round(s.sumInFlight/float64(s.nInFlight), 2)
	}
	if s.nUtil > 0 {
		st.Utilisation = decimal.Round(s.sumUtil/float64(s.nUtil), 2)
	}
	st.RTTMinFirstMs, st.RTTMinLastMs = s.rttFirst, s.rttLast
	if s.nRTT > 0 {
		st.RTTMeanMs = decimal.Round(s.sumRTT/float64(s.nRTT), 2)
	}
	if share := s.rejDemand / (s.rejDemand + s.doneDemand); s.rejDemand+s.doneDemand > 0 && !math.IsNaN(share) && !math.IsInf(share, 0) {
		share = decimal.Round(share, 4)
		st.RejectedShare = &share
	}
	if iv := s.intervals; len(iv) > 0 {
		if s.fold {
			iv, st.RepeatedRows = s.readingIvs[:s.nReadingIvs], s.repeats
		}
		iv = append([]float64(nil), iv...)
		sort.Float64s(iv)
		st.IntervalS = iv[len(iv)/2]
	}
	for _, f := range []struct {
		name string
		v    *float64
	}{{"limit_mean", &st.LimitMean}, {"limit_min", &st.LimitMin}, {"limit_max", &st.LimitMax}, {"in_flight_mean", &st.InFlightMean},
		{"utilisation", &st.Utilisation}, {"rtt_min_first_ms", &st.RTTMinFirstMs}, {"rtt_min_last_ms", &st.RTTMinLastMs},
		{"rtt_mean_ms", &st.RTTMeanMs}, {"dropped", &st.Dropped}, {"rejected", &st.Rejected}, {"interval_s", &st.IntervalS}} {
		if math.IsNaN(*f.v) || math.IsInf(*f.v, 0) {
			*f.v = 0
			st.NonFinite = append(st.NonFinite, f.name)
		}
	}
	return st
}

// Repeats says how many rows were judged as the reading before them and
// how far apart the readings are (RepeatedRows); "" where none were.
func (st Stats) Repeats() string {
	if st.RepeatedRows == 0 {
		return ""
	}
	return fmt.Sprintf("%d rows repeat the reading before them and were judged as one reading each (readings %s apart)", st.RepeatedRows, time.Duration(st.IntervalS*float64(time.Second)).Round(time.Second))
}

// unreachable names the verdicts the series cannot fully support: one it
// lacks a column for, or a swing faster than its readings (interval, the
// median between samples, or between readings where rows repeat them:
// repeatedReadings, past aliasInterval).
func (s *Stream) unreachable(interval time.Duration) []Unreachable {
	var u []Unreachable
	if every, ok := s.readingEvery(interval); ok && !s.fold {
		u = append(u, Unreachable{Oscillating, fmt.Sprintf("%d of %d readings repeat the one before exactly while the RTT moves at the others: the series changes about every %s, as if it was read more often than its source was scraped, and windows sized from its %s rows hold too few real readings to see a swing; keep one row per reading (limitscope record --prom without --interval reads each scrape once)", s.repeats, s.n-s.recRows-1, every, interval.Round(time.Millisecond))})
		interval = every
	}
	if interval > aliasInterval {
		u = append(u, Unreachable{Oscillating, fmt.Sprintf("the limit was read every %.0f s: a swing faster than one per %.0f s (two readings) cannot be seen and reads as a calm or noisy level; read it every %.0f s or more often to see one", interval.Seconds(), 2*interval.Seconds(), (aliasInterval / 2).Seconds())})
	}
	if s.have&trace.FieldInFlight == 0 {
		u = append(u,
			Unreachable{PipelineBound, "no in_flight series in this source (its preset or mapping has none): whether the limit binds cannot be seen; healthy means only stable and not degraded"},
			Unreachable{IdleGrowth, "no in_flight series"})
	}
	if s.have&(trace.FieldRTTMin|trace.FieldRTT) == 0 {
		u = append(u, Unreachable{Degraded, "no rtt_min_ms or rtt_ms series: a slower downstream cannot be seen, only one that fails (losses)"}, Unreachable{StaleRTTMin, "no rtt_min_ms series"})
	} else if s.have&trace.FieldRTTMin == 0 {
		u = append(u, Unreachable{StaleRTTMin, "no rtt_min_ms series (degraded-downstream is judged on the RTT instead)"})
	} else if s.have&trace.FieldRTT == 0 {
		u = append(u, Unreachable{StaleRTTMin, "no rtt_ms series to compare the min RTT with"})
	}
	if s.have&trace.FieldDropped == 0 {
		u = append(u, Unreachable{ErrorAcceleration, "no dropped series (nor, for degraded-downstream, a downstream that lost capacity with errors at a flat latency: without losses it reads as a healthy step down; only a slower downstream, a limit nailed at its minimum, or requests that stop succeeding (no RTT while in-flight holds some), shows)"})
	}
	return u
}

// describeOvershoot words a standing-queue finding of a limiter that
// overshot the downstream that came back after an incident, its values
// into v (the window's, which describe put there, are not the
// overshoot's, and go).
func describeOvershoot(o *overshoot, v map[string]float64) (sum, rec string) {
	clear(v)
	v["limit_peak"] = decimal.Round(o.peak, 2)
	v["limit_calm"] = decimal.Round(o.calmLimit, 2)
	v["in_flight_median"] = decimal.Round(o.inFlight, 2)
	v["in_flight_calm"] = decimal.Round(o.calmInFlight, 2)
	held := "it held calm"
	if !o.limitCalm {
		held = "it held outside an incident"
	}
	sum = fmt.Sprintf("after the incident the limit ran to %.1f (%.1f× the %.1f %s) with %.1f in flight (%.1f× the calm %.1f), completing twice what it did in the incident", o.peak, o.peak/o.calmLimit, o.calmLimit, held, o.inFlight, o.inFlight/o.calmInFlight, o.calmInFlight)
	if o.lost >= 0 {
		v["lost"] = decimal.Round(o.lost, 0)
		sum += fmt.Sprintf(", and lost %.0f requests", o.lost)
	}
	sum += ": the limit overshot the downstream that came back, and queued at it"
	rec = "The limit overshot the recovered downstream and the excess queued and timed out there: cap the limit near the downstream's capacity (Envoy: max_concurrency_limit) and treat timeouts as loss events."
	if o.rttMin > 0 {
		v["rtt_min_median_ms"] = decimal.Round(o.rttMin, 2)
		if o.rttMinBefore > 0 && o.rttMin >= overshootGrowth*o.rttMinBefore {
			v["rtt_min_baseline_ms"] = decimal.Round(o.rttMinBefore, 2)
			sum += fmt.Sprintf("; its min RTT, %.1f ms (%.1f ms before the incident), was measured while the downstream was slow, so the restored downstream looked idle", o.rttMin, o.rttMinBefore)
			rec += " Its min RTT was measured during the incident: re-measure it sooner once the RTT falls well below it (Envoy: a shorter min_rtt_calc_params.interval)."
		}
	}
	return sum, rec
}

// describe fills a finding's evidence and recommendation from its strongest
// window.
func (s *Stream) describe(f *Finding) {
	w := f.w
	since := f.Start.Format(time.RFC3339)
	v := map[string]float64{"windows": float64(f.windows), "limit_median": decimal.Round(w.limitMed, 2), "limit_p10": decimal.Round(w.p10, 2), "limit_p90": decimal.Round(w.p90, 2)}
	if w.hasUtil {
		v["utilisation"] = decimal.Round(w.util, 2)
		v["in_flight_median"] = decimal.Round(w.inFlightMed, 2)
	}
	if w.hasRTTMin && !w.rttProxy {
		v["rtt_min_median_ms"] = decimal.Round(w.rttMinMed, 2)
		v["rtt_min_baseline_ms"] = decimal.Round(w.base, 2)
		v["rtt_min_rise"] = decimal.Round(w.rttRise, 2)
	}
	var sum, rec string
	switch f.Class {
	case Healthy:
		sum = fmt.Sprintf("limit settled around %.1f (10–90%% band %.0f%% of it)", w.limitMed, 100*w.band)
		if w.regrew {
			sum = fmt.Sprintf("limit regrew from %.1f to %.1f after the incident before it (10–90%% band %.0f%% of its median %.1f)", w.limitFirst, w.limitLast, 100*w.band, w.limitMed)
		}
		if w.hasUtil {
			sum += fmt.Sprintf(", in-flight at %.0f%% of it", 100*w.util)
		} else {
			sum += "; in-flight not measured, so pipeline-bound could not be checked"
		}
		rec = Advice(Healthy)
		if w.hasDropShare && w.dropShare >= bindingShare {
			// losses the classifier did not hold against the downstream:
			// behind a queue (the RTT above its baseline) they are the
			// excess of a limit above capacity; otherwise only named
			v["lost_share"] = decimal.Round(w.dropShare, 4)
			sum += fmt.Sprintf("; losses made %.1f%% of completions", 100*w.dropShare)
			if w.queuedAboveBase() {
				sum += fmt.Sprintf(" with the RTT at %.1f× its baseline: the limit sits above what the downstream takes, and the excess is shed or times out", w.rttMed/w.rttAt)
				rec = "The downstream takes what it took, but the limit lets in more and the excess is lost: treat errors and timeouts as loss events (multiplicative decrease) and keep a static safety cap near the downstream's capacity."
			}
		} else if f.lostMax >= lossNamed {
			// losses that began inside the episode, its calmest window
			// (which speaks for it) before them: named, not judged
			v["lost_share_max"] = decimal.Round(f.lostMax, 4)
			sum += fmt.Sprintf("; losses made up to %.1f%% of completions (the window from %s)", 100*f.lostMax, time.Unix(0, f.lossiest).UTC().Format(time.RFC3339))
		}
		if to, from, ok := f.steppedTo(); ok {
			// a capacity step the limit followed down with no verdict
			// against the downstream (the documented distinction from a
			// smaller downstream: losses did not rise with it): named, not
			// judged
			at := time.Unix(0, f.stepFrom).UTC().Format(time.RFC3339)
			v["level_before"] = decimal.Round(from, 2)
			v["level_since"] = decimal.Round(to, 2)
			sum += fmt.Sprintf("; the limit's level fell from %.1f to %.1f (the window from %s) and held there with no verdict against the downstream: a downstream that takes fewer at once (replicas gone, a shrunk pool) followed by the limiter, or a limiter settling lower on its own — no incident by itself, unless losses rise with it", from, to, at)
			if rec == Advice(Healthy) {
				rec = fmt.Sprintf("The limit now lets in about %.0f%% of what it held before %s: check whether %q lost capacity then; if it did not, the limiter settled lower on its own (its min-RTT estimate, its smoothing).", 100*to/from, at, s.target)
			}
		}
		if f.slowShare > 0 {
			// a slowdown no degraded rule held: named, not judged
			at := time.Unix(0, f.slowFrom).UTC().Format(time.RFC3339)
			v["completions_share_min"] = decimal.Round(f.slowShare, 2)
			v["slowdown_rtt_rise"] = decimal.Round(f.slowRise, 2)
			sum += fmt.Sprintf("; completions fell to %.0f%% of their best with the RTT %.2f× its baseline (first in the window from %s): a slower downstream, or a smaller one the limit holds above — the series cannot tell which", 100*f.slowShare, f.slowRise, at)
			if rec == Advice(Healthy) { // not the over-the-limit advice above
				rec = fmt.Sprintf("Check the downstream's own latency and capacity from %s: a latency rise there is an incident the limiter absorbed (it turned demand away rather than queue it); a capacity step is one it followed.", at)
			}
		}
	case PipelineBound:
		sum = fmt.Sprintf("in-flight median %.1f against a limit of %.1f: %.0f%% used", w.inFlightMed, w.limitMed, 100*w.util)
		rec = fmt.Sprintf("The pipeline, not the downstream %q, is the constraint: the limiter allows %.0f but only %.0f are sent. Look upstream (producers, consumers, worker pools, batching).", s.target, w.limitMed, w.inFlightMed)
	case Degraded:
		switch w.why {
		case degradedFell:
			sum = fmt.Sprintf("the limit fell from %.1f to %.1f while the RTT rose %.2f× (from %.1f ms to %.1f ms) and completions fell to %.0f%%", w.limitFirst, w.limitLast, w.rttThirds.last/w.rttThirds.first, w.rttThirds.first, w.rttThirds.last, 100*w.tputLast/w.tputFirst)
			v["rtt_rise"] = decimal.Round(w.rttThirds.last/w.rttThirds.first, 2)
		case degradedSmaller:
			sum = fmt.Sprintf("%s, while losses made %.1f%% of completions (%s)", w.fellTo(), 100*w.dropShare, w.calmLosses())
			v["lost_share"] = decimal.Round(w.dropShare, 4)
		case degradedStepLossy:
			sum = fmt.Sprintf("the limit stepped down to %.1f, %.0f%% of its earlier %.1f, as losses appeared: %.1f%% of completions (%s; most readings lost %.1f%% or more), the RTT within 1.25× of its level before — a downstream that takes less and fails part of what it is sent", w.limitMed, 100*w.limitMed/w.ref, w.ref, 100*w.dropShare, w.calmLosses(), 100*errorShare)
			v["lost_share"] = decimal.Round(w.dropShare, 4)
		case degradedBrief:
			sum = fmt.Sprintf("the RTT rose %.2f× (from %.1f ms to %.1f ms) for %d readings in a row while %.1f were in flight (limit %.1f): completions fell to %.0f%%", w.rttMed/w.rttAt, w.rttAt, w.rttMed, w.n, w.inFlightMed, w.limitMed, 100*w.tputShare)
			if w.hasRTTMin {
				sum += fmt.Sprintf(", the min RTT %.2f× its baseline", w.rttRise)
			}
			sum += " — read reading by reading: no window's median showed it"
			v["rtt_rise"] = decimal.Round(w.rttMed/w.rttAt, 2)
			v["readings"] = float64(w.n)
			v["completions_share"] = decimal.Round(w.tputShare, 2)
		case degradedBriefLossy:
			sum = fmt.Sprintf("%s for %d readings in a row while losses made %.1f%% of completions — read reading by reading: no window's median showed it", w.fellTo(), w.n, 100*w.dropShare)
			v["lost_share"] = decimal.Round(w.dropShare, 4)
			v["readings"] = float64(w.n)
		case degradedBriefFailing:
			none := ""
			if w.nRTT < w.n {
				none = fmt.Sprintf(" (%d of them completed none)", w.n-w.nRTT)
			}
			sum = fmt.Sprintf("losses outnumbered completions for %d readings in a row%s, at %.0f%% of them, with %.1f in flight under a limit of %.1f: completions fell to %.0f%% — the downstream failed what it was sent, wherever the limit sat; read reading by reading: no window's median showed it", w.n, none, 100*w.dropShare, w.inFlightMed, w.limitMed, 100*w.tputShare)
			v["lost_share"] = decimal.Round(w.dropShare, 4)
			v["readings"] = float64(w.n)
			v["completions_share"] = decimal.Round(w.tputShare, 2)
		case degradedAfterLosses, degradedHeldLow:
			if w.why == degradedAfterLosses {
				sum = fmt.Sprintf("%s, still falling (%.1f to %.1f in the window) with completions at %.0f%% of their best while it turns away %.0f%% of demand",
					w.fellTo(), w.limitFirst, w.limitLast, 100*w.tputShare, 100*w.rejShare)
			} else {
				sum = fmt.Sprintf("%s, and holds there (%.1f–%.1f in the window) with completions at %.0f%% of their best while it turns away %.0f%% of demand and losses make %.1f%% of completions",
					w.fellTo(), w.p10, w.p90, 100*w.tputShare, 100*w.rejShare, 100*w.dropShare)
			}
			sum += fmt.Sprintf(", after losses made %.1f%% of completions (%s) as it began to fall (the window from %s)",
				100*w.fall.share, calmLevel(w.fall.calm), time.Unix(0, w.fall.from).UTC().Format(time.RFC3339))
			v["lost_share"] = decimal.Round(w.dropShare, 4)
			v["lost_share_at_fall"] = decimal.Round(w.fall.share, 4)
		case degradedFloor:
			if w.ref > w.limitMed {
				sum = fmt.Sprintf("%s, and is nailed there with in-flight at %.0f%% of it: held at its minimum (losses not measured)", w.fellTo(), 100*w.util)
			} else {
				sum = fmt.Sprintf("the limit is nailed at %.1f with in-flight at %.0f%% of it since the trace began: held at its minimum (losses not measured)", w.limitMed, 100*w.util)
			}
		case degradedFailing:
			sum = fmt.Sprintf("losses made %.1f%% of completions while in-flight used %.0f%% of a limit of %.1f", 100*w.dropShare, 100*w.util, w.limitMed)
			if w.tputShare <= collapseDrop {
				sum += fmt.Sprintf(" and completions fell to %.0f%% of their best", 100*w.tputShare)
			}
			sum += ": the downstream fails what the limit lets through"
			v["lost_share"] = decimal.Round(w.dropShare, 4)
		case degradedLossyPin:
			sum = fmt.Sprintf("the limit pinned at %.1f (floor %.1f) while losses made %.1f%% of completions", w.limitMed, w.floor, 100*w.dropShare)
			if w.queuedSome > 0 {
				of := "the min RTT"
				if w.rttAveraged {
					of = "the exported min RTT (a long-window average of it)"
				}
				sum += fmt.Sprintf(" and the RTT ran at 1.5× %s or more in %.0f%% of samples", of, 100*w.queuedSome)
			}
			v["lost_share"] = decimal.Round(w.dropShare, 4)
		case degradedLostOpening:
			sum = fmt.Sprintf("losses made %.1f%% of completions with no calm level of losses before them in the trace, in-flight at %.0f%% of the limit (median %.1f): a limiter probing a healthy downstream's shed point loses about half at most", 100*w.dropShare, 100*w.util, w.limitMed)
			v["lost_share"] = decimal.Round(w.dropShare, 4)
		case degradedStalled:
			sum = fmt.Sprintf("no request succeeded in the window (none of its %d samples has an RTT, against %.1f ms before) while in-flight held %.1f of a limit of %.1f: the downstream completes nothing it is sent", w.n, w.rttAt, w.inFlightMed, w.limitMed)
		case degradedSwamped:
			flat := ""
			if w.rejShare < swampedShare {
				flat = ", the latency flat"
			}
			sum = fmt.Sprintf("the limit (median %.1f) turned away %.0f%% of demand while losses made %.1f%% of completions (%s%s): the downstream takes a small share of the demand and fails some of it", w.limitMed, 100*w.rejShare, 100*w.dropShare, w.calmLosses(), flat)
			v["rejected_share"] = decimal.Round(w.rejShare, 4)
			v["lost_share"] = decimal.Round(w.dropShare, 4)
		case degradedFellLossy:
			sum = fmt.Sprintf("the limit fell from %.1f to %.1f with in-flight pressed against it while losses made %.1f%% of completions and completions fell to %.0f%%: capacity lost with errors", w.limitFirst, w.limitLast, 100*w.dropShare, 100*w.tputLast/w.tputFirst)
			v["lost_share"] = decimal.Round(w.dropShare, 4)
		default:
			what := "min RTT"
			switch {
			case w.rttAveraged && w.rttProxy:
				what = "the RTT (the exported min RTT is a long-window average of it)"
			case w.rttProxy:
				what = "the RTT (no min-RTT series)"
			}
			// like states the rise to rtt against the deepest earlier
			// window that held as many requests (likeLoad): the rise the
			// downstream made, where the baseline sat at a limit cycle's
			// bottom
			like := func(rtt float64) string {
				if w.likeRTT <= 0 {
					return ""
				}
				v["rtt_rise_like_load"] = decimal.Round(rtt/w.likeRTT, 2)
				return fmt.Sprintf(", %.2f× the %.1f ms it ran at before with as many requests in flight, %.1f", rtt/w.likeRTT, w.likeRTT, w.likeInFlight)
			}
			if w.rttRise >= degradedRTTRise || w.rttAt <= 0 || w.rttProxy {
				// the rise is to the window's median or its last third,
				// whichever is higher (a rise late in the window); where
				// the RTT stands in for a min RTT there is no estimate to
				// tell apart from it
				sum = fmt.Sprintf("%s rose %.2f× (from %.1f ms to %.1f ms%s) while the limit sat at %.1f (floor %.1f, best %.1f)", what, w.rttRise, w.base, w.base*w.rttRise, like(w.base*w.rttRise), w.limitMed, w.floor, w.ref)
			} else {
				// decided by the RTT: the min-RTT estimate did not follow
				sum = fmt.Sprintf("the RTT rose %.2f× (from %.1f ms to %.1f ms%s; the min-RTT estimate moved %.2f×) while the limit sat at %.1f (floor %.1f, best %.1f)", w.rttMed/w.rttAt, w.rttAt, w.rttMed, like(w.rttMed), w.rttRise, w.limitMed, w.floor, w.ref)
				v["rtt_rise"] = decimal.Round(w.rttMed/w.rttAt, 2)
			}
			if w.tputShare < 1 {
				sum += fmt.Sprintf(", and completions fell to %.0f%% of their best", 100*w.tputShare)
			}
			if w.hasUtil && w.util < pipelineUtil {
				// judged slower under half the limit (shedsSlower,
				// steadySlower): say so, or the reader sees a pipeline
				sum += fmt.Sprintf(", with in-flight at %.0f%% of the limit: the downstream slowed, not the demand", 100*w.util)
			}
		}
		if w.hasTput && w.tputFirst > 0 {
			v["completions_per_s"] = decimal.Round(w.tput, 2)
		}
		switch w.why {
		case degradedSlower, degradedFell, degradedBrief:
			rec = fmt.Sprintf("The downstream %q genuinely got slower since %s: page its owner. The limiter is protecting it; raising the limit would only queue more.", s.target, since)
		default: // the evidence is capacity lost or requests failed
			rec = fmt.Sprintf("The downstream %q takes less than it did, or fails what it is sent, since %s: page its owner. The limiter is protecting it; raising the limit would only lose more.", s.target, since)
		}
	case Oscillating:
		v["swings"] = float64(w.legs)
		v["band"] = decimal.Round(w.band, 2)
		sum = fmt.Sprintf("the limit swung %d times in one window, 10–90%% band %.0f%% of its median %.1f", w.legs, 100*w.band, w.limitMed)
		switch {
		case w.slowLegs >= slowMinLegs && w.legs < oscMinLegs:
			v["swings"] = float64(w.slowLegs)
			sum = fmt.Sprintf("the limit's level swung %d times over the last %d windows, between %.1f and %.1f", w.slowLegs, w.slowWindows, w.slowLo, w.slowHi)
		case w.teeth >= minTeeth && w.legs < oscMinLegs && w.slowLegs < slowMinLegs:
			v["swings"] = float64(w.teeth)
			sum = fmt.Sprintf("the limit fell to half or less %d times over the last %d windows, each time from the level it regrew to: a saw-tooth slower than a window", w.teeth, w.slowWindows)
		case w.cycleMoves >= cycleMinMoves && w.legs < oscMinLegs:
			v["swings"] = float64(w.cycleMoves)
			sum = fmt.Sprintf("the limit's window medians went up and down %d times in a row, between %.1f and %.1f: a limit cycle about two windows long", w.cycleMoves, w.slowLo, w.slowHi)
		}
		if w.holdsQueue() {
			// such windows make the verdict only where they recur
			sum += fmt.Sprintf("; over a standing queue (the RTT at twice the min RTT or more in %.0f%% of samples), where a limiter re-probes", 100*w.queuedHigh)
		}
		rec = oscillatingAdvice
	case StaleRTTMin:
		v["rtt_median_ms"] = decimal.Round(w.rttMed, 2)
		sum = fmt.Sprintf("min RTT flat at %.1f ms while the RTT ran at %.1f ms (%.1f×) and the limit sank from %.1f to %.1f", w.rttMinMed, w.rttMed, w.rttMed/math.Max(w.rttMinMed, 1e-9), w.limitFirst, w.limitLast)
		rec = "The min RTT is not being re-probed: use a windowed minimum with forced re-probing (reset every few minutes and briefly lower the limit)."
	case IdleGrowth:
		v["in_flight_p90_after"] = decimal.Round(w.inFlightP90, 2)
		sum = fmt.Sprintf("limit at its maximum %.1f while in-flight was %.1f (%.0f%%), then in-flight jumped to %.1f", w.limitMed, w.inFlightMed, 100*w.util, w.inFlightP90)
		rec = "The limit grew while idle: grow only while in-flight is near the limit (in-flight ≥ 0.8 × limit), so the first burst after a quiet spell does not flood the downstream."
	case StandingQueue:
		if o := f.over; o != nil {
			sum, rec = describeOvershoot(o, v)
			break
		}
		v["rtt_median_ms"] = decimal.Round(w.rttMed, 2)
		if w.queueBase > 0 {
			v["rtt_min_baseline_ms"] = decimal.Round(w.queueBase, 2)
			sum = fmt.Sprintf("the RTT ran at %.1f× the trace's lowest min RTT (%.1f ms against %.1f ms; the min-RTT estimate of the time, %.1f ms, already held the queue) while the limit held flat at %.1f: the limit is above what the downstream takes", w.rttMed/w.queueBase, w.rttMed, w.queueBase, w.rttMinMed, w.limitMed)
		} else {
			v["queued_share"] = decimal.Round(w.queuedHigh, 2)
			sum = fmt.Sprintf("the RTT ran at %.1f× the min RTT (%.1f ms against %.1f ms; twice or more in %.0f%% of samples) while the limit held flat at %.1f: the limit is above what the downstream takes", w.rttMed/math.Max(w.rttMinMed, 1e-9), w.rttMed, w.rttMinMed, 100*w.queuedHigh, w.limitMed)
		}
		rec = fmt.Sprintf("Requests queue at the downstream %q behind a limit it cannot take: lower the static limit (or the adaptive limiter's maximum) toward what the downstream completes, or let an adaptive limiter that backs off on a rising RTT set it.", s.target)
	case ErrorAcceleration:
		v["loss_share"] = decimal.Round(w.dropFrac, 2)
		sum = fmt.Sprintf("the limit rose from %.1f to %.1f while loss events were present in %.0f%% of samples and rising", w.limitFirst, w.limitLast, 100*w.dropFrac)
		rec = "Fast errors are raising the limit: treat errors and timeouts as loss events (multiplicative decrease) and keep a static safety cap above the adaptive limit."
	}
	f.Evidence = Evidence{Summary: sum, Values: v}
	for k, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			delete(v, k)
			f.Evidence.NonFinite = append(f.Evidence.NonFinite, k)
		}
	}
	sort.Strings(f.Evidence.NonFinite)
	f.Recommendation = rec
}

// fellTo says how far a window's limit fell: its median against the
// earlier level it is judged against.
func (w *windowStats) fellTo() string {
	return fmt.Sprintf("the limit fell to %.1f, %.0f%% of its earlier %.1f", w.limitMed, 100*w.limitMed/w.ref, w.ref)
}

// calmLosses names the calm level a window's losses were judged against.
func (w *windowStats) calmLosses() string { return calmLevel(w.dropCalm) }

// calmLevel says a calm level of losses (+Inf: none yet) in a finding.
func calmLevel(v float64) string {
	if math.IsInf(v, 1) {
		return "no calm level in the trace"
	}
	return fmt.Sprintf("calm level %.1f%%", 100*v)
}
