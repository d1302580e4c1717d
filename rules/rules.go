// Package rules writes limitscope's verdicts as Prometheus recording and
// alerting rules (standard rule-group YAML) for a preset or custom mapping,
// so any Prometheus, Thanos or Mimir ruler judges a fleet of limiters with
// the classifier's decisions and thresholds (diagnose.Threshold) expressed
// in PromQL. The rules normalise each mapped family to one series per
// limiter (labels job, instance, limiter) first, so the evidence and alert
// rules are the same for every preset; a series the mapping lacks leaves
// out, with a comment, the rules that need it, as diagnose does.
package rules

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/prometheus/common/model"
	"go.yaml.in/yaml/v3"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/internal/decimal"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/trace"
)

// Options configure the rules.
type Options struct {
	// Mapping is the preset or custom mapping of the limiter's families.
	Mapping *scrape.Mapping
	// Selector holds extra label matchers for every family, e.g. job="api"
	// (with or without the braces).
	Selector string
	// Window is the span each piece of evidence is judged over (default
	// 5m); For how long an alert's condition must hold (default 10m);
	// Baseline how far back the min RTT's and the limit's earlier levels
	// are taken (default 1h).
	Window, For, Baseline time.Duration
	// Runbook is the alerts' runbook link.
	Runbook string
}

// DefaultRunbook is the README section the alerts link to.
const DefaultRunbook = "https://github.com/limitscope/limitscope#verdicts"

// Rule is one recording or alerting rule.
type Rule struct {
	Record      string            `yaml:"record,omitempty"`
	Alert       string            `yaml:"alert,omitempty"`
	Expr        string            `yaml:"expr"`
	For         string            `yaml:"for,omitempty"`
	Labels      map[string]string `yaml:"labels,omitempty"`
	Annotations map[string]string `yaml:"annotations,omitempty"`
}

// Group is a rule group.
type Group struct {
	Name  string `yaml:"name"`
	Rules []Rule `yaml:"rules"`
}

// File is a rule file.
type File struct {
	Groups []Group `yaml:"groups"`
}

// by are the labels every normalised series keeps.
const by = "job, instance, limiter"

// roundingSlack is how far from one value a limit may read and still be
// nailed to it, and from a whole number and still be one: a limit exported
// as a distribution (Vector's histogram) is read as a ratio of two rates,
// which carries float rounding where every observation was the same.
const roundingSlack = 1e-9

// promDuration prints d as PromQL does (5m, 90s, 1h).
func promDuration(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return fmt.Sprintf("%ds", int64(math.Ceil(d.Seconds())))
}

// withLimiter wraps expr so its series carry the limiter's name in the
// label "limiter": from the first target label present, else from the
// family name (a regex's target group, or what precedes a suffix), else
// "default" — the same order the scraper names targets in. A rate (see
// rate) has lost the family name and carries the limiter already where
// the name holds it.
func withLimiter(m *scrape.Mapping, spec *scrape.Spec, expr string) string {
	out := fmt.Sprintf(`label_replace(%s, "limiter", "%s", "", "")`, expr, trace.DefaultTarget)
	if pattern, group, ok := spec.TargetPattern("(?:_sum|_count)?"); ok {
		if spec.Kind == scrape.Gauge {
			out = fmt.Sprintf(`label_replace(%s, "limiter", "$%d", "__name__", %q)`, out, group, pattern)
		} else { // a rate: labelled already where the name matched
			out = fmt.Sprintf(`label_replace(%s, "limiter", "%s", "limiter", "")`, expr, trace.DefaultTarget)
		}
	}
	for i := len(m.TargetLabels) - 1; i >= 0; i-- {
		out = fmt.Sprintf(`label_replace(%s, "limiter", "$1", %q, "(.+)")`, out, m.TargetLabels[i])
	}
	return out
}

// rate is the per-second rate over a minute of the spec's family name
// (with a suffix such as _sum) under sel, its limiter in the label
// "limiter" where the family name carries it (scrape.Spec.Rate).
func rate(spec *scrape.Spec, sel, name string) string {
	return spec.Rate(sel, name, model.Duration(time.Minute), "limiter")
}

// field is the normalised series of one field: its recording rule's
// expression, RTTs in seconds. Where the mapping counts finished requests
// (scrape.Mapping.Completions), a limiter without an RTT of its own gets
// one by Little's law, its mean in-flight over the rate its requests
// finish at, as the scraper estimates it (scrape.LittleRTT).
func field(m *scrape.Mapping, f trace.Field, sel string) (string, bool) {
	own, ok := exported(m, f, sel)
	c := m.Completions
	if f != trace.FieldRTT || c == nil {
		return own, ok
	}
	if _, hasInFlight := exported(m, trace.FieldInFlight, sel); !hasInFlight {
		return own, ok
	}
	// the in-flight series recorded just before this one in the same
	// group (trace.Columns' order), not its expression a second time
	little := fmt.Sprintf("limitscope:in_flight / (sum by (%s) (%s) > 0)", by, withLimiter(m, c.Spec(), rate(c.Spec(), c.Selector(sel), c.Spec().Match.Name)))
	if !ok {
		return little, true
	}
	return fmt.Sprintf("(%s) or (%s)", own, little), true
}

// exported is the normalised series of one field as the mapping's own
// family exports it, RTTs converted to seconds.
func exported(m *scrape.Mapping, f trace.Field, sel string) (string, bool) {
	var spec *scrape.Spec
	for i := range m.Specs {
		if m.Specs[i].Field == f && !m.Specs[i].Match.Optional {
			spec = &m.Specs[i]
			break
		}
	}
	if spec == nil {
		return "", false
	}
	toSeconds := ""
	if f == trace.FieldRTT || f == trace.FieldRTTMin {
		if u := float64(spec.Unit); u != 0 && u != 1000 {
			toSeconds = fmt.Sprintf(" * %g", u/1000)
		}
		if spec.Unit == 0 {
			toSeconds = " / 1000" // as is means milliseconds, the trace unit
		}
	}
	var e string
	switch spec.Kind {
	case scrape.Mean:
		// a limit exported as a distribution (Vector's) reads each scrape
		// interval's mean, as diagnose reads a direct scrape's: a minute's
		// mean smooths away a saw-tooth swinging faster than that
		r := rate
		if f == trace.FieldLimit {
			r = func(spec *scrape.Spec, sel, name string) string {
				return spec.LastRate(sel, name, model.Duration(time.Minute), "limiter")
			}
		}
		// nothing observed over the interval is nothing measured (0/0,
		// NaN, would stand as a series: a min RTT a limiter never observes
		// would hide the RTT that stands in for it), as a direct scrape
		// and the fleet source read it
		e = fmt.Sprintf("max by (%s) (%s) / (max by (%s) (%s) > 0)",
			by, withLimiter(m, spec, r(spec, sel, spec.Match.Name+"_sum")),
			by, withLimiter(m, spec, r(spec, sel, spec.Match.Name+"_count")))
		if toSeconds != "" {
			e = "(" + e + ")"
		}
	case scrape.Delta:
		return fmt.Sprintf("sum by (%s) (%s)", by, withLimiter(m, spec, rate(spec, sel, spec.Match.Name))), true
	default:
		e = fmt.Sprintf("max by (%s) (%s)", by, withLimiter(m, spec, m.GaugeSeries(spec, sel)))
	}
	return e + toSeconds, true
}

// Build returns the rule file for opt.
func Build(opt Options) (File, []string, error) {
	if opt.Mapping == nil {
		return File{}, nil, fmt.Errorf("rules: a preset or custom mapping is needed")
	}
	if opt.Window <= 0 {
		opt.Window = 5 * time.Minute
	}
	if opt.For <= 0 {
		opt.For = 10 * time.Minute
	}
	if opt.Baseline <= 0 {
		opt.Baseline = time.Hour
	}
	if opt.Runbook == "" {
		opt.Runbook = DefaultRunbook
	}
	sel := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(opt.Selector), "{"), "}")
	m := opt.Mapping
	w := promDuration(opt.Window)
	base := promDuration(opt.Baseline)
	step := promDuration(max(opt.Window/10, time.Second)) // the swings' subquery resolution
	var notes []string
	series := Group{Name: "limitscope-" + m.Name + "-series"}
	have := map[trace.Field]bool{}
	names := map[trace.Field]string{
		trace.FieldLimit: "limitscope:limit", trace.FieldInFlight: "limitscope:in_flight",
		trace.FieldRTTMin: "limitscope:rtt_min_seconds", trace.FieldRTT: "limitscope:rtt_seconds",
		trace.FieldRejected: "limitscope:rejected:rate1m", trace.FieldDropped: "limitscope:dropped:rate1m",
	}
	for _, f := range trace.Columns() {
		e, ok := field(m, f, sel)
		if !ok {
			notes = append(notes, fmt.Sprintf("the %s preset exports no %s series: rules that need it are left out", m.Name, f.Name()))
			continue
		}
		have[f] = true
		series.Rules = append(series.Rules, Rule{Record: names[f], Expr: e})
	}
	if !have[trace.FieldLimit] {
		return File{}, notes, fmt.Errorf("rules: the %s mapping has no limit series; every verdict needs it", m.Name)
	}
	ev := Group{Name: "limitscope-" + m.Name + "-evidence"}
	rec := func(name, expr string) { ev.Rules = append(ev.Rules, Rule{Record: name + ":" + w, Expr: expr}) }
	lim := "limitscope:limit"
	on := "on(" + by + ")"
	rec("limitscope:limit_median", fmt.Sprintf("quantile_over_time(0.5, %s[%s])", lim, w))
	// spread: the limit's lo–hi quantile range over the window, as a share
	// of its median
	spread := func(lo, hi float64) string {
		return fmt.Sprintf("(quantile_over_time(%g, %s[%s]) - quantile_over_time(%g, %s[%s])) / quantile_over_time(0.5, %s[%s])", hi, lim, w, lo, lim, w, lim, w)
	}
	rec("limitscope:limit_band", spread(0.1, 0.9))
	// the middle half: a swinging limit spends its time apart, a flat one
	// with brief dips does not
	rec("limitscope:limit_iqr", spread(0.25, 0.75))
	// swings: minutes in the window whose limit moved by more than the
	// jitter a limit of its size shows anyway (√limit, at least 2)
	rec("limitscope:limit_swings", fmt.Sprintf("sum_over_time((abs(delta(%s[%s])) > bool clamp_min(sqrt(%s), %g))[%s:%s])", lim, step, lim, float64(diagnose.FloorJitter), w, step))
	// pinned at the floor: the 90th percentile within 10 % (at least one
	// request) of the lowest limit of the last hour
	rec("limitscope:limit_pinned", fmt.Sprintf("quantile_over_time(0.9, %s[%s]) <= bool (min_over_time(%s[%s]) + clamp_min(%g * min_over_time(%s[%s]), 1))", lim, w, lim, base, decimal.Round(float64(diagnose.PinnedSpread)-1, 6), lim, base))
	rec("limitscope:limit_drop", fmt.Sprintf("quantile_over_time(0.5, %s[%s]) / max_over_time(%s[%s] offset %s)", lim, w, lim, base, w))
	if have[trace.FieldInFlight] {
		rec("limitscope:utilisation", fmt.Sprintf("clamp_max(avg_over_time(limitscope:in_flight[%s]) / avg_over_time(%s[%s]), 1)", w, lim, w))
	} else {
		notes = append(notes, "without in-flight, utilisation and LimiterPipelineBound are left out")
	}
	rtt := ""
	switch {
	case have[trace.FieldRTT]:
		rtt = "limitscope:rtt_seconds"
	case have[trace.FieldRTTMin]:
		rtt = "limitscope:rtt_min_seconds"
	}
	if have[trace.FieldInFlight] && !have[trace.FieldRejected] {
		// rejections not exported: the share of the window's evaluations
		// with in-flight within one request (or 5 %) of the limit, and
		// within a quarter of it at most (under a limit of 4): both bounds
		// met, a product of two bools
		rec("limitscope:at_limit_share", fmt.Sprintf("avg_over_time(((limitscope:in_flight >= bool (%s - clamp_min(%g * %s, 1))) * (limitscope:in_flight >= bool (%g * %s)))[%s:%s])",
			lim, float64(diagnose.AtLimitSlack), lim, decimal.Round(1-float64(diagnose.AtLimitSlackMax), 6), lim, w, step))
	}
	// shareOfDemand is a per-second rate's share of demand over the window:
	// rate / (rate + completions), completions by Little's law (in-flight /
	// RTT), as diagnose counts them
	shareOfDemand := func(rate string) string {
		return fmt.Sprintf("avg_over_time(%s[%s]) / (avg_over_time(%s[%s]) + avg_over_time(limitscope:in_flight[%s]) / avg_over_time(%s[%s]))", rate, w, rate, w, w, rtt, w)
	}
	if have[trace.FieldRejected] && have[trace.FieldInFlight] && rtt != "" {
		// rejected / (rejected + completions)
		rec("limitscope:rejected_share", shareOfDemand("limitscope:rejected:rate1m"))
	}
	// in-flight's median over the window: a limit nothing uses (0) binds
	// nothing, and one holding requests with nothing succeeding is stalled
	inFlightMedian := fmt.Sprintf("quantile_over_time(0.5, limitscope:in_flight[%s])", w)
	lossEvidence := have[trace.FieldDropped] && have[trace.FieldInFlight] && rtt != ""
	if lossEvidence {
		// losses / (losses + completions), and their calm level: the
		// lowest over the baseline span. Not a third of the way up, as
		// diagnose's (calmLevelDepth): diagnose takes it from windows that
		// were not degraded, while a baseline span holds the incident's own
		// minutes too, so an incident two thirds of the span long would set
		// the level it is judged against and resolve its own alert
		rec("limitscope:lost_share", shareOfDemand("limitscope:dropped:rate1m"))
		rec("limitscope:lost_share_calm", fmt.Sprintf("min_over_time(limitscope:lost_share:%s[%s])", w, base))
	} else {
		note := "without dropped requests (or in-flight and an RTT to count completions), LimiterDegradedDownstream cannot tell capacity lost with errors"
		if have[trace.FieldInFlight] {
			note += ", only a limit that fell to half and is nailed at its minimum with in-flight pressed against it (evidence=floor)"
		}
		notes = append(notes, note)
	}
	if have[trace.FieldRTTMin] {
		// the rise against the min RTT's own calm level: the lowest window
		// median over the baseline span (a degradation stays one for as
		// long as the baseline remembers the level before it)
		rec("limitscope:rtt_min_median", fmt.Sprintf("quantile_over_time(0.5, limitscope:rtt_min_seconds[%s])", w))
		rec("limitscope:rtt_min_rise", fmt.Sprintf("limitscope:rtt_min_median:%s / min_over_time(limitscope:rtt_min_median:%s[%s])", w, w, base))
		if have[trace.FieldRTT] {
			// the share of the window's evaluations with the RTT at twice
			// the min RTT or more: a standing queue where it is persistent
			rec("limitscope:rtt_queued_share", fmt.Sprintf("avg_over_time((limitscope:rtt_seconds >= bool %g * limitscope:rtt_min_seconds)[%s:%s])", float64(diagnose.StandingQueueRatio), w, step))
		}
	} else {
		notes = append(notes, "without a min RTT, LimiterDegradedDownstream cannot tell a slower downstream (a limiter exporting no RTT cannot show one)")
	}
	if have[trace.FieldRTT] && have[trace.FieldInFlight] {
		// the RTT's rise against its calm level (its lowest window
		// median over the baseline span), as the min RTT's; completions
		// by Little's law (in-flight / RTT) and their share of the best
		// window of the baseline span
		rec("limitscope:rtt_median", fmt.Sprintf("quantile_over_time(0.5, limitscope:rtt_seconds[%s])", w))
		rec("limitscope:rtt_rise", fmt.Sprintf("limitscope:rtt_median:%s / min_over_time(limitscope:rtt_median:%s[%s])", w, w, base))
		rec("limitscope:completions", fmt.Sprintf("avg_over_time(limitscope:in_flight[%s]) / avg_over_time(limitscope:rtt_seconds[%s])", w, w))
		rec("limitscope:completions_share", fmt.Sprintf("limitscope:completions:%s / max_over_time(limitscope:completions:%s[%s])", w, w, base))
		// the limit's median in calm windows: the RTT within RTTFollows
		// of its calm level, or completions within TputFall of their
		// best (a limiter creeping up over healthy minutes queues a
		// little: go-concurrency-limits' Gradient2 grew from 23 to 42
		// over 40 minutes, its RTT 1.8× the first minutes', completing
		// as much as ever). Its highest over the baseline span is the
		// level the limit held before a slowdown (diagnose's calmHigh),
		// which a limit that fell and climbed part of the way back has
		// not grown past. The median of the last window's medians, not
		// the latest: the RTT, a rate over a minute, answers a step later
		// than the limit's gauge does, and a limit stepping up with the
		// RTT (its own queue) read "calm" at a level halfway up in between
		// (a swing's lowest median would set the bar at its trough)
		rec("limitscope:limit_calm", fmt.Sprintf("quantile_over_time(0.5, limitscope:limit_median:%s[%s]) and %s (limitscope:rtt_rise:%s < %g or limitscope:completions_share:%s >= %g)",
			w, w, on, w, float64(diagnose.RTTFollows), w, float64(diagnose.TputFall)))
		rec("limitscope:limit_calm_high", fmt.Sprintf("max_over_time(limitscope:limit_calm:%s[%s])", w, base))
	}

	alerts := Group{Name: "limitscope-" + m.Name + "-alerts"}
	// optional renders format where the limiter has the recorded rule,
	// with . its query result, and nothing where it has none (a limiter
	// exporting no min RTT has no min-RTT rise); value renders the rule's
	// value
	optional := func(rule, format string) string {
		return fmt.Sprintf(`{{ with printf "%s:%s{limiter=%%q,instance=%%q,job=%%q}" $labels.limiter $labels.instance $labels.job | query }}`, rule, w) + format + "{{ end }}"
	}
	value := func(rule string) string { return optional(rule, `{{ . | first | value | printf "%.2f" }}`) }
	// alert appends one alerting rule: held for --for, labelled with its
	// severity and verdict, its summary naming the limiter and instance
	// evidence labels each of an alert's rules (LimiterDegradedDownstream
	// has three): two rules of one name firing on one limiter with the same
	// labels would be one ALERTS series twice ("duplicate sample")
	// degraded collects LimiterDegradedDownstream's conditions, which
	// LimiterOscillating stays quiet for, as diagnose's degraded evidence
	// outranks a swing
	var degraded []string
	alert := func(name, evidence, severity string, class diagnose.Class, expr, summary, description string) {
		if class == diagnose.Degraded {
			degraded = append(degraded, "("+expr+")")
		}
		labels := map[string]string{"severity": severity, "verdict": string(class)}
		if evidence != "" {
			labels["evidence"] = evidence
		}
		alerts.Rules = append(alerts.Rules, Rule{
			Alert:  name,
			Expr:   expr,
			For:    promDuration(opt.For),
			Labels: labels,
			Annotations: map[string]string{
				"summary":     "{{ $labels.limiter }} on {{ $labels.instance }}: " + summary,
				"description": description + " " + diagnose.Advice(class),
				"runbook_url": opt.Runbook,
			},
		})
	}
	// swinging, as diagnose's swings: the middle half apart by OscIQR and
	// one jitter (√limit), or the 10–90 % band at OscWideBand and two
	// jitters; a band of 20–30 % with the middle half narrow is a shallow
	// back-off, which diagnose calls calm. The alert's value stays the band
	// (the middle half spans no more than it).
	jitter := fmt.Sprintf("clamp_min(sqrt(limitscope:limit_median:%s), %g)", w, float64(diagnose.FloorJitter))
	apart := fmt.Sprintf("(limitscope:limit_iqr:%s >= %g and limitscope:limit_iqr:%s * limitscope:limit_median:%s >= %s)", w, float64(diagnose.OscIQR), w, w, jitter)
	wide := fmt.Sprintf("(limitscope:limit_band:%s >= %g and limitscope:limit_band:%s * limitscope:limit_median:%s >= 2 * %s)", w, float64(diagnose.OscWideBand), w, w, jitter)
	swinging := fmt.Sprintf("limitscope:limit_band:%s >= %g and %s (%s or %s) and %s limitscope:limit_swings:%s >= %g",
		w, float64(diagnose.OscBand), on, apart, wide, on, w, float64(diagnose.OscSlowLegs))
	// filled: a slower downstream completes less only where demand still
	// fills the limit, as diagnose judges every slower verdict where
	// in-flight is measured: in-flight at PipelineUtil of it, or at
	// BurstUtil where the min RTT doubled (SlowerGrownRTTRise) and the RTT
	// rose DegradedRTTRise — a slower downstream that sheds the rest as
	// fast failures holds fewer than the limit lets in (diagnose's
	// shedsSlower). A limit resting flat at its maximum under a light load
	// reads as pinned, and paged on a min-RTT rise without it where
	// diagnose reads pipeline-bound.
	filled := ""
	if have[trace.FieldInFlight] {
		filled = fmt.Sprintf(" and %s limitscope:utilisation:%s >= %g", on, w, float64(diagnose.PipelineUtil))
		if have[trace.FieldRTT] && have[trace.FieldRTTMin] {
			filled = fmt.Sprintf(" and %s (limitscope:utilisation:%s >= %g or limitscope:utilisation:%s >= %g and %s limitscope:rtt_min_rise:%s >= %g and %s limitscope:rtt_rise:%s >= %g)",
				on, w, float64(diagnose.PipelineUtil), w, float64(diagnose.BurstUtil), on, w, float64(diagnose.SlowerGrownRTTRise), on, w, float64(diagnose.DegradedRTTRise))
		}
	}
	// minRise: the min RTT up DegradedRTTRise — or, for a limiter exporting
	// no min RTT (AIMD, failsafe-go), the RTT, as diagnose's proxy: with
	// completions fallen far (SlowerShare: the RTT carries the limiter's
	// own queue) and where the downstream did not already shed
	// BindingShare at the calm level (then that queue may be what
	// deepened). failsafe-go v0.9.8 holding 260 (of 282) over a downstream
	// 3× slower, completions at 32 %, read degraded by diagnose and paged
	// nothing; falling to 214, its lowest of the hour ("pinned"), neither
	// aboveCapacity: the downstream already shed BindingShare of what the
	// limit sent at its calmest (diagnose's aboveCapacity), where losses
	// are exported
	aboveCapacity := ""
	if lossEvidence {
		aboveCapacity = fmt.Sprintf(" unless %s limitscope:lost_share_calm:%s >= %g", on, w, float64(diagnose.BindingShare))
	}
	minRise := fmt.Sprintf("limitscope:rtt_min_rise:%s >= %g", w, float64(diagnose.DegradedRTTRise))
	if have[trace.FieldRTT] && have[trace.FieldInFlight] {
		minRise = fmt.Sprintf("(%s or limitscope:rtt_rise:%s >= %g and %s limitscope:completions_share:%s <= %g unless %s limitscope:rtt_min_rise:%s",
			minRise, w, float64(diagnose.DegradedRTTRise), on, w, float64(diagnose.SlowerShare), on, w)
		minRise += aboveCapacity + ")"
	}
	if have[trace.FieldRTTMin] {
		alert("LimiterDegradedDownstream", "slower", "critical", diagnose.Degraded,
			fmt.Sprintf("%s and %s (limitscope:limit_pinned:%s == 1 or limitscope:limit_drop:%s <= %g)%s",
				minRise, on, w, w, float64(diagnose.CollapseDrop), filled),
			"the downstream degraded (latency {{ $value | printf \"%.2f\" }}× its lowest level in the last "+base+")",
			fmt.Sprintf("the min RTT (or the RTT, where no min RTT is exported) rose {{ $value | printf \"%%.2f\" }}× while the limit sat at %s (pinned at its floor, or at half its best or less).", value("limitscope:limit_median")))
	}
	if have[trace.FieldRTTMin] && have[trace.FieldRTT] && have[trace.FieldInFlight] {
		// slower with the limit held, as diagnose's: wherever a limit that
		// did not grow sits (not past OwnQueueGrowth of the highest level
		// it held at a calm RTT over the baseline span: a limit that fell
		// and climbed part of the way back, as go-concurrency-limits'
		// Gradient2 does once its long RTT average catches up, held; one
		// that grew as the RTT rose built its own queue), the min RTT up
		// DegradedRTTRise with the RTT following (RTTFollows) while
		// completions fall to SlowerShare of their best, demand filling
		// the limit. Not where the limit is pinned or fell (the slower
		// rule's) nor where it swings (its own queue may have raised the
		// RTT) — unless it swings around the level it held while the min
		// RTT doubled (SlowerGrownRTTRise), as diagnose's swingHeld: a
		// swing around an unchanged level cannot have doubled the no-load
		// latency (our AIMD's saw-tooth, 25–61, its downstream's latency
		// tripled: oscillating, where diagnose reads degraded).
		// A limiter exporting no min RTT is judged on the RTT (minRise).
		swingHeld := fmt.Sprintf("limitscope:rtt_min_rise:%s >= %g and %s limitscope:limit_median:%s <= %g * limitscope:limit_calm_high:%s + clamp_min(sqrt(limitscope:limit_calm_high:%s), %g)",
			w, float64(diagnose.SlowerGrownRTTRise), on, w, float64(diagnose.OwnQueueGrowth), w, w, float64(diagnose.FloorJitter))
		alert("LimiterDegradedDownstream", "slower-held", "critical", diagnose.Degraded,
			fmt.Sprintf("limitscope:completions_share:%s <= %g and %s %s and %s limitscope:rtt_rise:%s >= %g%s and %s (limitscope:limit_median:%s <= %g * limitscope:limit_calm_high:%s or %s) unless %s (limitscope:limit_pinned:%s == 1 or limitscope:limit_drop:%s <= %g) unless %s (%s unless %s (%s))",
				w, float64(diagnose.SlowerShare), on, minRise, on, w, float64(diagnose.RTTFollows), filled,
				on, w, float64(diagnose.OwnQueueGrowth), w, swingHeld, on, w, w, float64(diagnose.CollapseDrop), on, swinging, on, swingHeld),
			"the downstream got slower (completions at {{ $value | humanizePercentage }} of their best in the last "+base+", the limit held)",
			fmt.Sprintf("completions fell to {{ $value | humanizePercentage }} of their best while the RTT rose %s×%s with the limit held at %s.",
				value("limitscope:rtt_rise"), optional("limitscope:rtt_min_rise", ` (the min RTT {{ . | first | value | printf "%.2f" }}×)`), value("limitscope:limit_median")))
		// slower with the limit fallen, as diagnose's slowerFallenFar: the
		// limit at half its best or less, calm, in-flight against it
		// (UnboundUtil) and completions at SlowerShare need only the RTT
		// up RTTFollows — a limiter that sat above its downstream with a
		// standing queue sees less of the downstream's rise, and its
		// min-RTT estimate may not move at all (go-concurrency-limits'
		// Gradient keeps its no-load RTT until it probes: at 11 of 46 over
		// a downstream 3× slower, completions at 21 %, the RTT 1.56× and
		// the min RTT flat, it paged nothing for 17 minutes). Not where
		// the min RTT (or its proxy) rose 1.5× (the slower rule's), nor
		// where the downstream shed BindingShare at the calm level
		fallen := fmt.Sprintf("limitscope:completions_share:%s <= %g and %s limitscope:limit_drop:%s <= %g and %s limitscope:rtt_rise:%s >= %g and %s limitscope:utilisation:%s >= %g and %s (limitscope:limit_band:%s < %g or limitscope:limit_band:%s * limitscope:limit_median:%s <= %s) unless %s %s",
			w, float64(diagnose.SlowerShare), on, w, float64(diagnose.CollapseDrop), on, w, float64(diagnose.RTTFollows), on, w, float64(diagnose.UnboundUtil),
			on, w, float64(diagnose.OscBand), w, w, jitter, on, minRise)
		fallen += aboveCapacity
		alert("LimiterDegradedDownstream", "slower-fallen", "critical", diagnose.Degraded, fallen,
			"the downstream got slower (completions at {{ $value | humanizePercentage }} of their best in the last "+base+", the limit fell to half or less)",
			fmt.Sprintf("completions fell to {{ $value | humanizePercentage }} of their best while the RTT rose %s× and the limit fell to %s, %s of its best.",
				value("limitscope:rtt_rise"), value("limitscope:limit_median"), value("limitscope:limit_drop")))
		// slower with the limit run away, as diagnose's grown slowerFar
		// with shedsSlower's ranAway: a limiter reading a downstream's fast
		// failures as room runs its limit to RanAwayGrowth of the highest
		// calm level it held while the min RTT doubled, the RTT rose and
		// completions fell to SlowerGrownShare, requests still in flight —
		// in-flight far under the limit, yet no pipeline (Envoy's
		// controller, which exports no losses, over a downstream cut to
		// 30 % with its latency tripled: from 27 to its maximum of 220,
		// in-flight 17; pipeline-bound to both before)
		alert("LimiterDegradedDownstream", "slower-ran-away", "critical", diagnose.Degraded,
			fmt.Sprintf("limitscope:completions_share:%s <= %g and %s limitscope:rtt_min_rise:%s >= %g and %s limitscope:rtt_rise:%s >= %g and %s limitscope:limit_median:%s >= %g * limitscope:limit_calm_high:%s and %s limitscope:utilisation:%s > 0%s",
				w, float64(diagnose.SlowerGrownShare), on, w, float64(diagnose.SlowerGrownRTTRise), on, w, float64(diagnose.DegradedRTTRise), on, w, float64(diagnose.RanAwayGrowth), w, on, w, aboveCapacity),
			"the downstream got slower (completions at {{ $value | humanizePercentage }} of their best in the last "+base+", the limit ran away)",
			fmt.Sprintf("completions fell to {{ $value | humanizePercentage }} of their best while the min RTT rose %s× and the limit ran up to %s, above every level it held calm.",
				value("limitscope:rtt_min_rise"), value("limitscope:limit_median")))
	}
	if lossEvidence {
		// errors up, as diagnose's errorsUp: losses make errorShare of
		// what the limit lets through and twice their calm level
		lossesUp := fmt.Sprintf("%s limitscope:lost_share:%s >= %g and %s limitscope:lost_share:%s >= 2 * limitscope:lost_share_calm:%s",
			on, w, float64(diagnose.ErrorShare), on, w, w)
		lossesSaid := fmt.Sprintf("losses made %s of what it let through (calm level %s).", value("limitscope:lost_share"), value("limitscope:lost_share_calm"))
		// smaller: the limit fell to half its earlier level with errors
		// up — capacity lost with errors, whatever the latency did — or
		// pinned at its floor with losses at errorShare, above their calm
		// level or not, as diagnose's (w.pinned && lossy): an AIMD that
		// lost 8 % to shedding while healthy and, the downstream cut to
		// 30 %, sits at 1 losing 4 % lost capacity all the same. Not a
		// limit in-flight uses under half of (PipelineUtil), as diagnose's:
		// its fall is no capacity lost. Losses up here also means
		// LossRiseShare above their calm level, as diagnose's lossesRose:
		// a downstream that shed a steady share before it lost capacity
		// need not double it
		// used: in-flight at PipelineUtil of the limit or more, where it
		// is exported
		used := ""
		if have[trace.FieldInFlight] {
			used = fmt.Sprintf(" and %s limitscope:utilisation:%s >= %g", on, w, float64(diagnose.PipelineUtil))
		}
		capacityLost := fmt.Sprintf("limitscope:limit_drop:%s <= %g and %s limitscope:lost_share:%s >= %g and %s (limitscope:lost_share:%s >= 2 * limitscope:lost_share_calm:%s or limitscope:lost_share:%s >= limitscope:lost_share_calm:%s + %g or limitscope:limit_pinned:%s == 1)%s",
			w, float64(diagnose.CollapseDrop), on, w, float64(diagnose.ErrorShare), on, w, w, w, w, float64(diagnose.LossRiseShare), w, used)
		alert("LimiterDegradedDownstream", "capacity-lost", "critical", diagnose.Degraded,
			capacityLost,
			"the downstream lost capacity (the limit at {{ $value | humanizePercentage }} of its best in the last "+base+", with losses)",
			"the limit fell to {{ $value | humanizePercentage }} of its best while "+lossesSaid)
		// stepped with errors, as diagnose's steppedLossy: the limit at
		// StepDrop of its best or less, above half (capacity-lost's),
		// while losses appeared — ShortLossShare of what it lets through
		// and twice their calm level, where that level is under
		// ErrorShare — with in-flight at
		// PipelineUtil of it and the RTT under RTTFollows of its level: a
		// limiter deaf to losses (go-concurrency-limits' Gradient2) steps
		// down only as far as its downstream's capacity went. (diagnose
		// also asks ErrorShare of most readings, against a burst as a
		// limiter overshoots a smaller downstream; the window here spans
		// several evaluations of a per-minute rate, which a burst moves
		// less.)
		stepped := fmt.Sprintf("limitscope:limit_drop:%s <= %g and limitscope:limit_drop:%s > %g and %s limitscope:lost_share:%s >= %g and %s limitscope:lost_share:%s >= 2 * limitscope:lost_share_calm:%s and %s limitscope:lost_share_calm:%s < %g%s",
			w, float64(diagnose.StepDrop), w, float64(diagnose.CollapseDrop), on, w, float64(diagnose.ShortLossShare), on, w, w, on, w, float64(diagnose.ErrorShare), used)
		if have[trace.FieldRTT] {
			stepped += fmt.Sprintf(" and %s limitscope:rtt_rise:%s < %g", on, w, float64(diagnose.RTTFollows))
		}
		alert("LimiterDegradedDownstream", "capacity-stepped", "critical", diagnose.Degraded,
			stepped,
			"the downstream takes less and fails some of it (the limit at {{ $value | humanizePercentage }} of its best in the last "+base+", losses appeared)",
			"the limit stepped down to {{ $value | humanizePercentage }} of its best while "+lossesSaid)
		if have[trace.FieldRejected] {
			// swamped: the limit turns away most of the demand with
			// errors up — wherever the limit sits; or four fifths of it
			// with the latency flat (diagnose's swampedFlatShare: no
			// standing queue, the min RTT within rttFollows of its level),
			// where both RTTs are exported
			share := fmt.Sprintf("limitscope:rejected_share:%s >= %g", w, float64(diagnose.SwampedShare))
			if have[trace.FieldRTT] && have[trace.FieldRTTMin] {
				share = fmt.Sprintf("(%s or limitscope:rejected_share:%s >= %g and %s limitscope:rtt_min_rise:%s < %g and %s limitscope:rtt_queued_share:%s < %g)",
					share, w, float64(diagnose.SwampedFlat), on, w, float64(diagnose.RTTFollows), on, w, float64(diagnose.Persistent))
			}
			alert("LimiterDegradedDownstream", "swamped", "critical", diagnose.Degraded,
				fmt.Sprintf("%s and %s", share, lossesUp),
				"the downstream takes a small share of the demand (the limit turns away {{ $value | humanizePercentage }} of it, with losses)",
				"the limit turned away {{ $value | humanizePercentage }} of demand while "+lossesSaid)
		}
		if have[trace.FieldRTT] {
			// failing, as diagnose's: errors up while the limit is far
			// from binding — losses at BindingShare of what it lets
			// through with in-flight under PipelineUtil of it (a
			// controller fed fast errors runs its limit to its maximum:
			// our Envoy-style controller at 220, in-flight 8 % of it,
			// losing 94 % of what it sends), unless overloaded
			// (completions held at TputFall of their best behind a queue
			// the limit let in: the losses are its excess) — or losses at
			// LostMost with completions halved, wherever the limit sits;
			// at a rate of FailingRate of the best completions or more (a
			// few timeouts in a batch's idle gap are no failing
			// downstream), with requests in flight
			far := fmt.Sprintf("limitscope:lost_share:%s >= %g and %s limitscope:utilisation:%s < %g unless %s (limitscope:completions_share:%s > %g and %s limitscope:rtt_rise:%s >= %g)",
				w, float64(diagnose.BindingShare), on, w, float64(diagnose.PipelineUtil), on, w, float64(diagnose.TputFall), on, w, float64(diagnose.RTTFollows))
			if have[trace.FieldRejected] {
				// nor where LostBindingShare of the window's losses fell in
				// evaluations that also turned demand away, short of
				// LostMostOpening (diagnose's lostWhileBinding: losses that
				// came with demand pressed against the limit, the load
				// falling away after them — a batch pipeline bursting into
				// its limit every few minutes reads light over the window).
				// Diagnose also counts a reading with in-flight at the
				// limit; the rules count rejections only
				rec("limitscope:lost_binding_share", fmt.Sprintf("sum_over_time((limitscope:dropped:rate1m and %s limitscope:rejected:rate1m > 0)[%s:%s]) / sum_over_time(limitscope:dropped:rate1m[%s:%s])", on, w, step, w, step))
				far += fmt.Sprintf(" unless %s (limitscope:lost_binding_share:%s >= %g and %s limitscope:lost_share:%s < %g)", on, w, float64(diagnose.LostBindingShare), on, w, float64(diagnose.LostMostOpening))
			}
			most := fmt.Sprintf("limitscope:lost_share:%s >= %g and %s limitscope:completions_share:%s <= %g", w, float64(diagnose.LostMost), on, w, float64(diagnose.CollapseDrop))
			// never calm: every window of the baseline span lost
			// BindingShare with in-flight under PipelineUtil of the limit —
			// each would have been failing, so no calm level of losses
			// ever formed (diagnose's noCalm: a limiter running into
			// shedding from its first minute), and the losses need not
			// have doubled. (lossesUp continues a conjunction: the
			// lost share at 0 or more leads it here.)
			neverCalm := fmt.Sprintf("min_over_time(limitscope:lost_share:%s[%s]) >= %g and %s max_over_time(limitscope:utilisation:%s[%s]) < %g",
				w, base, float64(diagnose.BindingShare), on, w, base, float64(diagnose.PipelineUtil))
			alert("LimiterDegradedDownstream", "failing", "critical", diagnose.Degraded,
				fmt.Sprintf("(%s or %s) and %s (limitscope:lost_share:%s >= 0 and %s or %s) and %s avg_over_time(limitscope:dropped:rate1m[%s]) >= %g * max_over_time(limitscope:completions:%s[%s]) and %s %s > 0",
					far, most, on, w, lossesUp, neverCalm, on, w, float64(diagnose.FailingRate), w, base, on, inFlightMedian),
				"the downstream fails what it is sent (losses make {{ $value | humanizePercentage }} of what the limit lets through)",
				fmt.Sprintf("losses made {{ $value | humanizePercentage }} of what the limit let through (calm level %s) with in-flight at %s of the limit and completions at %s of their best.", value("limitscope:lost_share_calm"), value("limitscope:utilisation"), value("limitscope:completions_share")))
		}
	}
	if !lossEvidence && have[trace.FieldInFlight] {
		// floor, as diagnose's pressed-to-its-floor, where no losses are
		// exported (Vector, Envoy): a limit at CollapseDrop of its best
		// or less, nailed to one value (its 10–90 % band within rounding)
		// with in-flight pressed against it (IdleUtil) is a limiter held
		// at its configured minimum — where the limit takes fractional
		// values (it took one over the baseline span), or at 1–2. A limit
		// following a smaller downstream jitters around its new level,
		// and an integer limit may sit on one value at its own equilibrium
		// (Vegas at 14). Without it, a downstream cut to 30 % with 5 %
		// errors at a flat latency, in Vector's layout, paged nothing where
		// diagnose read degraded: our Gradient nailed at its minimum of 4,
		// go-concurrency-limits' Vegas and AIMD at 1
		// (each evaluation's distance from a whole number, then its
		// highest over the baseline span: a subquery over that span loads
		// more samples than promtool's test engine allows)
		ev.Rules = append(ev.Rules, Rule{Record: "limitscope:limit_off_whole", Expr: fmt.Sprintf("abs(%s - round(%s))", lim, lim)})
		rec("limitscope:limit_fractional", fmt.Sprintf("max_over_time(limitscope:limit_off_whole[%s]) > bool %g", base, roundingSlack))
		alert("LimiterDegradedDownstream", "floor", "critical", diagnose.Degraded,
			fmt.Sprintf("limitscope:limit_drop:%s <= %g and %s limitscope:limit_band:%s <= %g and %s (limitscope:limit_median:%s <= %g or %s limitscope:limit_fractional:%s == 1) and %s limitscope:utilisation:%s >= %g",
				w, float64(diagnose.CollapseDrop), on, w, roundingSlack, on, w, float64(diagnose.FloorJitter), on, w, on, w, float64(diagnose.IdleUtil)),
			"the limiter is held at its minimum (the limit at {{ $value | humanizePercentage }} of its best in the last "+base+", nailed there)",
			fmt.Sprintf("the limit fell to {{ $value | humanizePercentage }} of its best and sits nailed at %s with in-flight at %s of it; losses are not exported, so whether the downstream fails or got slower cannot be told.",
				value("limitscope:limit_median"), value("limitscope:utilisation")))
	}
	// stalled, as diagnose's: no RTT all window (the RTT, a mean of
	// successes, is NaN where none completed) while in-flight holds
	// requests, where the baseline span had an RTT and the window spans
	// StalledRTTs of it — whatever the loss series says
	if have[trace.FieldRTT] && have[trace.FieldInFlight] {
		measured := func(span string) string { return fmt.Sprintf("(limitscope:rtt_seconds >= 0)[%s:%s]", span, step) }
		stalled := fmt.Sprintf("%s > 0 unless %s count_over_time(%s) > 0 and %s quantile_over_time(0.5, %s) * %g <= %g",
			inFlightMedian, on, measured(w), on, measured(base), float64(diagnose.StalledRTTs), opt.Window.Seconds())
		alert("LimiterDegradedDownstream", "stalled", "critical", diagnose.Degraded, stalled,
			"the downstream completes nothing it is sent (no request succeeded in the last "+w+", {{ $value }} in flight)",
			"no request succeeded in "+w+" while in-flight held {{ $value }} by its median: the downstream completes nothing it is sent.")
	}
	// limitscope:degraded: 1 for each limiter on which a
	// LimiterDegradedDownstream rule holds — recorded once, so the
	// oscillating and pipeline-bound alerts stay quiet for it (diagnose's
	// degraded evidence outranks a swing and a pipeline) without carrying
	// every degraded condition in their own expressions
	quiet := ""
	if len(degraded) > 0 {
		rec("limitscope:degraded", fmt.Sprintf("group by (%s) (%s)", by, strings.Join(degraded, " or ")))
		quiet = fmt.Sprintf(" unless %s limitscope:degraded:%s", on, w)
	}
	oscillating := swinging + quiet
	alert("LimiterOscillating", "", "warning", diagnose.Oscillating, oscillating,
		"the limit swings widely (10–90% band {{ $value | humanizePercentage }} of its median)",
		fmt.Sprintf("the limit's 10–90%% band is {{ $value | humanizePercentage }} of its median %s, moving by more than its jitter (√limit) again and again in %s.", value("limitscope:limit_median"), w))
	if have[trace.FieldInFlight] {
		expr := fmt.Sprintf("limitscope:utilisation:%s < %g", w, float64(diagnose.PipelineUtil))
		switch {
		case have[trace.FieldRejected] && rtt != "":
			// or, with in-flight below the limit at all, the limit turning
			// away under UnboundShare of demand
			expr = fmt.Sprintf("(limitscope:utilisation:%s < %g or (limitscope:utilisation:%s < %g and %s limitscope:rejected_share:%s < %g) or (limitscope:utilisation:%s < 1 and %s limitscope:rejected_share:%s < %g))",
				w, float64(diagnose.PipelineUtil), w, float64(diagnose.UnboundUtil), on, w, float64(diagnose.BindingShare), w, on, w, float64(diagnose.UnboundShare))
		case !have[trace.FieldRejected]:
			// as diagnose judges a limiter that exports no rejections:
			// in-flight seldom reaches the limit
			expr = fmt.Sprintf("(limitscope:utilisation:%s < %g or (limitscope:utilisation:%s < %g and %s limitscope:at_limit_share:%s < %g))",
				w, float64(diagnose.PipelineUtil), w, float64(diagnose.IdleUtil), on, w, float64(diagnose.RareAtLimit))
		}
		if have[trace.FieldRTTMin] {
			expr += fmt.Sprintf(" unless %s limitscope:rtt_min_rise:%s >= %g", on, w, float64(diagnose.DegradedRTTRise))
		}
		// a stalled downstream holds fewer than the limit lets in, and a
		// failing one runs a limiter fed fast errors to its maximum
		expr += quiet
		alert("LimiterPipelineBound", "", "info", diagnose.PipelineBound, expr,
			"the pipeline, not the downstream, is the constraint",
			fmt.Sprintf("in-flight is %s of the limit %s and the limit turns away little demand.", value("limitscope:utilisation"), value("limitscope:limit_median")))
	}
	return File{Groups: []Group{series, ev, alerts}}, notes, nil
}

// Write writes the rule file as YAML, each note a comment above it.
func Write(w io.Writer, opt Options) error {
	f, notes, err := Build(opt)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# limitscope rules for the %s preset: recording rules normalise each limiter's\n# series (labels job, instance, limiter), evidence rules judge them over the window,\n# alerts carry the classifier's verdicts. limitscope help verdicts explains them.\n", opt.Mapping.Name)
	for _, n := range notes {
		fmt.Fprintf(&b, "# note: %s\n", n)
	}
	y, err := yaml.Marshal(f)
	if err != nil {
		return err
	}
	b.Write(y)
	_, err = io.WriteString(w, b.String())
	return err
}
