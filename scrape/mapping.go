// Package scrape is every source of limiter Samples behind one small Source
// interface: the /metrics scraper (prometheus/common expfmt) with presets for
// real limiters and custom mappings, the Prometheus HTTP API source for a
// fleet, and the trace-file playback for replay. Consumers (dashboard,
// record, diagnose) read every source the same way.
package scrape

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/limitscope/limitscope/trace"
)

// Kind says how a metric becomes a value.
type Kind int

const (
	// Gauge: the value as exposed (gauges, untyped; counters' raw value).
	Gauge Kind = iota
	// Mean: histograms and summaries reduce to the mean of the interval's
	// observations, Δsum/Δcount between two scrapes (not measured when no
	// observation arrived; a reset restarts from the current totals).
	Mean
	// Delta: counters become the increase since the previous scrape (a reset,
	// the value going down, counts from zero).
	Delta
)

// Unit converts a metric's unit to milliseconds (trace files hold ms).
type Unit float64

// RTT units.
const (
	Seconds      Unit = 1000
	Milliseconds Unit = 1
	Microseconds Unit = 1e-3
	Nanoseconds  Unit = 1e-6
)

// ParseUnit reads s, ms, us or ns.
func ParseUnit(s string) (Unit, error) {
	switch strings.ToLower(s) {
	case "s", "seconds":
		return Seconds, nil
	case "ms", "milliseconds":
		return Milliseconds, nil
	case "us", "µs", "microseconds":
		return Microseconds, nil
	case "ns", "nanoseconds":
		return Nanoseconds, nil
	}
	return 0, fmt.Errorf("unit %q: use s, ms, us or ns", s)
}

// Matcher selects metrics by name (exact, any of several prefixes, a suffix,
// or a regular expression whose group "target", or else first group, names
// the target) and labels. A `quantile` label selects that quantile of a
// summary rather than its interval mean.
type Matcher struct {
	Name     string
	Prefixes []string // optional name prefixes (Vector's "vector_")
	Suffix   bool     // Name is a suffix (Envoy's varying stat prefix)
	Regex    *regexp.Regexp
	// Helpers are families the Regex also matches that are not a
	// limiter's series (go-concurrency-limits' queue and window
	// families): they never make a target.
	Helpers *regexp.Regexp
	Labels  map[string]string
	// Optional marks an alternative layout of the same library: not
	// reported missing when absent.
	Optional bool
	// ZeroUnmeasured reads 0 as "not measured" (Envoy's RTT gauges are 0
	// until the first min-RTT window ends, and for sub-millisecond upstreams).
	ZeroUnmeasured bool
}

// match reports whether a family name matches and what it says of the
// target (a regex group or the text before a suffix).
func (m *Matcher) match(name string) (bool, string) {
	switch {
	case m.Regex != nil:
		g := m.Regex.FindStringSubmatch(name)
		if g == nil || m.Helpers != nil && m.Helpers.MatchString(name) {
			return false, ""
		}
		if i := m.Regex.SubexpIndex("target"); i > 0 {
			return true, g[i]
		}
		if len(g) > 1 {
			return true, g[1]
		}
		return true, ""
	case m.Suffix:
		if strings.HasSuffix(name, m.Name) {
			return true, strings.TrimSuffix(strings.TrimSuffix(name, m.Name), "_")
		}
		return false, ""
	}
	if name == m.Name {
		return true, ""
	}
	for _, p := range m.Prefixes {
		if name == p+m.Name {
			return true, ""
		}
	}
	return false, ""
}

// String renders the matcher as the README's preset table writes the
// family: a name, "…" for any prefix, <ns> and <name> for a library's
// namespace and limiter name (a status line saying "not exposed:
// …min_window_rtt", not the pattern behind it).
func (m *Matcher) String() string {
	s := m.Name
	if m.Regex != nil {
		s = readablePattern.Replace(strings.TrimSuffix(m.Regex.String(), "$"))
	} else if m.Suffix {
		s = "…" + m.Name
	}
	if len(m.Labels) > 0 {
		var ls []string
		for k, v := range m.Labels {
			ls = append(ls, fmt.Sprintf("%s=%q", k, v))
		}
		sort.Strings(ls)
		s += "{" + strings.Join(ls, ",") + "}"
	}
	return s
}

// Spec maps one metric onto one field.
type Spec struct {
	Field trace.Field
	Match Matcher
	Kind  Kind
	Unit  Unit // for RTT fields; 0 means as is
}

// Mapping is a preset or a custom mapping of an exposition onto Samples.
type Mapping struct {
	Name  string
	Specs []Spec
	// TargetLabels name the label whose value names the limiter (the first
	// present wins); without one the name match or "default" does.
	TargetLabels []string
	// Note documents what the preset cannot provide.
	Note string
	// Corroborate: a target is made only when at least two of its specs
	// match (a lone "…_limit" family of another exporter is not a limiter).
	Corroborate bool
	// KindsUnknown: the specs' kinds are guesses (a custom mapping from
	// flags, which cannot know whether a family is a gauge or a summary).
	// A scrape reads each metric's type from the exposition anyway; a
	// Prometheus source asks the server's metadata (PromSource).
	KindsUnknown bool
	// JoinUntagged: a page's series without a target label join the one
	// target its labelled series name, where that target carries no limit
	// of its own (a library that labels only some series with the
	// limiter's name: see joinUntagged).
	JoinUntagged bool
	// Owns, when set, matches every family of the library (its namespace):
	// one that no spec and no helper claims is reported once as ignored
	// (Mapper.Ignored), never turned into a target.
	Owns *regexp.Regexp
	// Completions, when set, counts the limiter's finished requests: where
	// a target exports in-flight but no RTT, its RTT is estimated from them
	// by Little's law (LittleRTT).
	Completions *Completions
	// Remeasuring, when set, matches a gauge that is 1 while the limiter
	// pins its limit to re-measure the min RTT (Envoy's
	// min_rtt_calculation_active): the limit of those scrapes is the pin,
	// not a judgement, and is left not measured.
	Remeasuring *Matcher
}

// Completions matches the counter of a limiter's requests by outcome and
// names the outcomes that finished: requests that held a slot of the
// limit and left it (Netflix's call counter: success, dropped, ignored;
// not rejected, which never held one, nor bypassed, which is not
// counted in flight).
type Completions struct {
	Match    Matcher
	Label    string
	Outcomes []string
}

// finished returns the outcome of m, and whether it is a finished one.
func (c *Completions) finished(m *dto.Metric) (outcome string, ok bool) {
	if !labelsMatch(m, c.Match.Labels) {
		return "", false
	}
	for _, lp := range m.GetLabel() {
		if lp.GetName() == c.Label {
			return lp.GetValue(), slices.Contains(c.Outcomes, lp.GetValue())
		}
	}
	return "", false
}

// Spec is the counter as a spec of the mapping's (its rate is Spec.Rate
// under Selector).
func (c *Completions) Spec() *Spec { return &Spec{Match: c.Match, Kind: Delta} }

// Selector adds to the label matchers sel (braces stripped, may be empty)
// the PromQL matcher of the finished outcomes.
func (c *Completions) Selector(sel string) string {
	alts := make([]string, len(c.Outcomes))
	for i, o := range c.Outcomes {
		alts[i] = regexp.QuoteMeta(o)
	}
	outcomes := fmt.Sprintf("%s=~%q", c.Label, strings.Join(alts, "|"))
	if sel == "" {
		return outcomes
	}
	return sel + "," + outcomes
}

// LittleRTT estimates a mean RTT in milliseconds by Little's law: the mean
// number in flight over a span divided by the rate at which requests left
// it (completed over span). ok is false where nothing completed or nothing
// was in flight — a stalled downstream has no RTT to estimate.
//
// Netflix's limiters other than Gradient and Gradient2 export no RTT at
// all, but their in-flight (each arrival's reading, SimpleLimiter.acquire)
// and their call counter by outcome (limiter/AbstractLimiter.java) give
// it. Without it the classifier read go-concurrency-limits' AIMD, exported
// as Netflix's AIMD is, degraded on half its healthy runs and on every
// swinging one (the real-library suite, TestNetflixLayoutVerdicts).
func LittleRTT(inFlight, completed float64, span time.Duration) (ms float64, ok bool) {
	if !(inFlight > 0) || !(completed > 0) || span <= 0 || !finite(inFlight) || !finite(completed) {
		return 0, false
	}
	return inFlight / completed * span.Seconds() * 1e3, true
}

// Has reports whether the mapping provides field f at all.
func (m *Mapping) Has(f trace.Field) bool {
	for _, s := range m.Specs {
		if s.Field == f {
			return true
		}
	}
	return false
}

func re(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// envoyHTTPPrefix matches an Envoy HTTP connection manager's stat names'
// prefix up to the stat, the prefix the target: envoy_http (the stat
// prefix a tag) or envoy_http_<stat prefix>, as the adaptive concurrency
// filter's families are named (not the redis, memcached or other
// proxies' envoy_<filter>_…).
const envoyHTTPPrefix = `^(?P<target>(?:[a-zA-Z0-9_:]*_)?http(?:_[a-zA-Z0-9_:]+)?)_`

// readablePattern writes the presets' name patterns' prefixes as words.
var readablePattern = strings.NewReplacer(
	envoyHTTPPrefix, "…http…_",
	"^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?", "…",
	"^[a-zA-Z0-9:]+_(?P<target>.+)_", "<ns>_<name>_",
	"^[a-zA-Z0-9:]+_", "<ns>_",
	"(?P<target>distributor|ingester)", "{distributor,ingester}",
	"(?:reactive|adaptive)", "{reactive,adaptive}",
	"^", "",
)

// netflixNot are families the Netflix patterns would take that are not
// Netflix's: go-concurrency-limits' window and queue families, and our own.
var netflixNot = re(`(window_min_rtt|_queue_limit|_queue_size|^limiter_limit)$`)

// gclHelpers are go-concurrency-limits families that are not a limiter's
// series (see the preset).
var gclHelpers = re(`_(window_min_rtt|window_queue_size|queue_limit|queue_size|limit_partition)$`)

// Presets are the mappings for limiters people run, established from their
// documentation and source.
var Presets = map[string]Mapping{
	"limitscope": {
		Name: "limitscope",
		Specs: []Spec{
			{trace.FieldLimit, Matcher{Name: "limiter_limit"}, Gauge, 0},
			{trace.FieldInFlight, Matcher{Name: "limiter_in_flight"}, Gauge, 0},
			{trace.FieldRTTMin, Matcher{Name: "limiter_rtt_min_seconds", ZeroUnmeasured: true}, Gauge, Seconds}, // 0 before the first completed request
			{trace.FieldRTT, Matcher{Name: "limiter_rtt_seconds"}, Mean, Seconds},
			{trace.FieldDropped, Matcher{Name: "limiter_requests_total", Labels: map[string]string{"outcome": "dropped"}}, Delta, 0},
			{trace.FieldRejected, Matcher{Name: "limiter_requests_total", Labels: map[string]string{"outcome": "rejected"}}, Delta, 0},
		},
		TargetLabels: []string{"downstream"},
	},
	// Envoy's adaptive concurrency filter, gradient controller
	// (source/extensions/filters/http/adaptive_concurrency/controller/
	// gradient_controller.h in envoyproxy/envoy: the counter rq_blocked and
	// the gauges concurrency_limit, gradient, burst_queue_size,
	// min_rtt_msecs, sample_rtt_msecs, min_rtt_calculation_active), under
	// the connection manager's stat prefix. /stats/prometheus renders
	// counters without _total; a statsd or OpenTelemetry hop adds it. The RTT
	// gauges read 0 until the first min-RTT window ends: not measured. The
	// filter counts no in-flight of its own; the connection manager's
	// downstream_rq_active (ALL_HTTP_CONN_MAN_STATS, source/common/http/
	// conn_manager_config.h) stands in: the filter holds a request's slot
	// from decodeHeaders to encodeComplete (adaptive_concurrency_filter.cc),
	// nearly all of the stream's life, and answers a blocked one at once.
	// Other connection managers (the admin's) and other filters' active
	// requests are no limiter: a target needs two of the preset's series
	// (Corroborate).
	"envoy": {
		Name: "envoy",
		Specs: []Spec{
			{trace.FieldLimit, Matcher{Name: "adaptive_concurrency_gradient_controller_concurrency_limit", Suffix: true}, Gauge, 0},
			{trace.FieldInFlight, Matcher{Regex: re(envoyHTTPPrefix + `downstream_rq_active$`)}, Gauge, 0},
			{trace.FieldRTTMin, Matcher{Name: "adaptive_concurrency_gradient_controller_min_rtt_msecs", Suffix: true, ZeroUnmeasured: true}, Gauge, Milliseconds},
			{trace.FieldRTT, Matcher{Name: "adaptive_concurrency_gradient_controller_sample_rtt_msecs", Suffix: true, ZeroUnmeasured: true}, Gauge, Milliseconds},
			{trace.FieldRejected, Matcher{Name: "adaptive_concurrency_gradient_controller_rq_blocked", Suffix: true}, Delta, 0},
			{trace.FieldRejected, Matcher{Name: "adaptive_concurrency_gradient_controller_rq_blocked_total", Suffix: true, Optional: true}, Delta, 0},
		},
		TargetLabels: []string{"envoy_http_conn_manager_prefix"},
		Corroborate:  true,
		Remeasuring:  &Matcher{Name: "adaptive_concurrency_gradient_controller_min_rtt_calculation_active", Suffix: true},
		Note:         "in-flight is the connection manager's downstream_rq_active (the filter counts none of its own); the limit is not measured while Envoy pins it to re-measure the min RTT; RTTs of 0 (before the first window, or sub-millisecond) are not measured",
	},
	// Vector's adaptive request concurrency (src/internal_events/
	// adaptive_concurrency.rs in vectordotdev/vector): histograms in
	// seconds, named with the internal_metrics namespace ("vector" unless
	// configured) by the prometheus_exporter sink. adaptive_concurrency_
	// past_rtt_mean is the controller's long-term RTT baseline: it stands in
	// for the min RTT. averaged_rtt is the current window's mean RTT, not a
	// baseline, so it is not used; releases without past_rtt_mean export no
	// min-RTT stand-in. observed_rtt is each request's RTT.
	"vector": {
		Name: "vector",
		Specs: []Spec{
			{trace.FieldLimit, Matcher{Regex: re(`^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?adaptive_concurrency_limit$`)}, Mean, 0},
			{trace.FieldInFlight, Matcher{Regex: re(`^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?adaptive_concurrency_in_flight$`)}, Mean, 0},
			{trace.FieldRTT, Matcher{Regex: re(`^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?adaptive_concurrency_observed_rtt$`)}, Mean, Seconds},
			{trace.FieldRTTMin, Matcher{Regex: re(`^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?adaptive_concurrency_past_rtt_mean$`)}, Mean, Seconds},
		},
		TargetLabels: []string{"component_id"},
		Note:         "the min RTT is Vector's past_rtt_mean (its long-term RTT baseline; older releases export none); all four are histograms reduced to the interval mean; an interval with no observation is idle (in-flight 0), not down",
	},
	// go-concurrency-limits v1.0.0 with its metric_registry/prometheus
	// registry (metric_registry/prometheus/registry.go there): a limit
	// algorithm named N registers under the namespace ("limiter" unless
	// configured) the gauge <ns>_N_limit, the summaries <ns>_N_inflight,
	// <ns>_N_min_rtt and <ns>_N_rtt_ms (RegisterTiming appends "_ms"; the
	// values are nanoseconds all the same, core/metric_registry.go) and the
	// counter <ns>_N_dropped_total. Gradient2 adds <ns>_N_window_min_rtt and
	// <ns>_N_window_queue_size, the LIFO queue <ns>_queue_limit and
	// <ns>_queue_size, partitions <ns>_limit_partition: helpers, never
	// targets. A strategy alone registers <ns>_limit and <ns>_inflight
	// (strategy/simple.go), mapped to the target "default". Its
	// distributions are summaries without quantiles (RegisterDistribution
	// there: prometheus.NewSummary with no Objectives), so Prometheus holds
	// only their _sum and _count: in-flight and the min RTT are read as
	// means (Mean), or a query of the fleet would find neither.
	"go-concurrency-limits": {
		Name: "go-concurrency-limits",
		Specs: []Spec{
			{trace.FieldLimit, Matcher{Regex: re(`^[a-zA-Z0-9:]+_(?P<target>.+)_limit$`), Helpers: gclHelpers}, Gauge, 0},
			{trace.FieldInFlight, Matcher{Regex: re(`^[a-zA-Z0-9:]+_(?P<target>.+)_inflight$`), Helpers: gclHelpers}, Mean, 0},
			{trace.FieldRTTMin, Matcher{Regex: re(`^[a-zA-Z0-9:]+_(?P<target>.+)_min_rtt$`), Helpers: gclHelpers}, Mean, Nanoseconds},
			{trace.FieldRTT, Matcher{Regex: re(`^[a-zA-Z0-9:]+_(?P<target>.+)_rtt_ms$`), Helpers: gclHelpers}, Mean, Nanoseconds},
			{trace.FieldDropped, Matcher{Regex: re(`^[a-zA-Z0-9:]+_(?P<target>.+)_dropped_total$`), Helpers: gclHelpers}, Delta, 0},
			{trace.FieldLimit, Matcher{Regex: re(`^[a-zA-Z0-9:]+_limit$`), Optional: true}, Gauge, 0},
			{trace.FieldInFlight, Matcher{Regex: re(`^[a-zA-Z0-9:]+_inflight$`), Optional: true}, Mean, 0},
		},
		Owns:        re(`^[a-zA-Z0-9:]+_.*(limit|inflight|rtt|rtt_ms|dropped_total|queue_size|queue_limit|partition)$`),
		Corroborate: true,
		Note:        "in-flight and min RTT are summaries read as the interval mean of the library's observations (one per sample window); RTTs are nanoseconds whatever the names say; Gradient2's \"min RTT\" is its long RTT average",
	},
	// Netflix concurrency-limits (Java), as its MetricIds name the series
	// (concurrency-limits-core MetricIds.java: limit, call, inflight,
	// min_rtt, min_window_rtt, queue_size, limit.partition) under a base
	// id, reaching Prometheus through Micrometer (the
	// MicrometerMetricRegistry of the project's open pull request 226
	// prefixes "netflix.concurrency.limits."; dots become underscores,
	// counters gain _total, distributions become summaries or histograms):
	// the limiter's name is the "id" tag — on every series with that pull
	// request, on the call counters only in releases (see joinUntagged),
	// call{status=dropped|rejected} counts losses and rejections, min_rtt is
	// nanoseconds (or seconds when rendered as a _seconds timer).
	// inflight, min_rtt and min_window_rtt are distributions (a Micrometer
	// DistributionSummary: Prometheus holds their _sum and _count), read
	// as means. min_window_rtt is, despite its name, the RTT: Gradient2Limit
	// and GradientLimit record into it the rtt each onSample is given
	// (limit/Gradient2Limit.java shortRttSampleListener, limit/
	// GradientLimit.java minWindowRttSampleListener), which WindowedLimit
	// passes as its window's average RTT (limit/WindowedLimit.java,
	// getTrackedRttNanos of the default limit/window/
	// ImmutableAverageSampleWindow.java: sum / count) and a bare limit
	// gets per request. VegasLimit and AIMDLimit record none: their RTT is
	// Little's law's (Completions: the call counter's outcomes that held
	// a slot, over the in-flight SimpleLimiter.acquire samples on every
	// acquire).
	"netflix": {
		Name: "netflix",
		Specs: []Spec{
			{trace.FieldLimit, Matcher{Regex: re(`^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?limit$`), Helpers: netflixNot}, Gauge, 0},
			{trace.FieldInFlight, Matcher{Regex: re(`^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?inflight$`), Helpers: netflixNot}, Mean, 0},
			{trace.FieldRTTMin, Matcher{Regex: re(`^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?min_rtt$`), Helpers: netflixNot}, Mean, Nanoseconds},
			{trace.FieldRTTMin, Matcher{Regex: re(`^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?min_rtt_seconds$`), Optional: true}, Mean, Seconds},
			{trace.FieldRTT, Matcher{Regex: re(`^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?min_window_rtt$`), Helpers: netflixNot}, Mean, Nanoseconds},
			{trace.FieldRTT, Matcher{Regex: re(`^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?min_window_rtt_seconds$`), Optional: true}, Mean, Seconds},
			{trace.FieldDropped, Matcher{Regex: re(`^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?call_total$`), Labels: map[string]string{"status": "dropped"}}, Delta, 0},
			{trace.FieldRejected, Matcher{Regex: re(`^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?call_total$`), Labels: map[string]string{"status": "rejected"}}, Delta, 0},
		},
		TargetLabels: []string{"id", "name"},
		JoinUntagged: true,
		Completions:  &Completions{Match: Matcher{Regex: re(`^(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?call_total$`)}, Label: "status", Outcomes: []string{"success", "dropped", "ignored"}},
		Note:         "releases label only the call counters with the limiter's id: a page of one limiter joins its untagged limit, in-flight and RTTs to that id; in-flight, min RTT and RTT are distributions read as the interval mean; the RTT is min_window_rtt (the window's average RTT, exported by Gradient and Gradient2 only), else in-flight over the rate of finished calls (Little's law); RTTs are nanoseconds unless rendered as _seconds; Gradient2's \"min RTT\" is its long RTT average",
	},
	// Grafana Mimir's reactive limiters (failsafe-go's adaptivelimiter inside)
	// as Mimir registers them (pkg/distributor and pkg/ingester
	// registerReactiveLimiterMetrics there): gauges
	// cortex_<component>_reactive_limiter_inflight_limit and
	// …_inflight_requests (plus …_queued_requests or …_blocked_requests,
	// not mapped), the ingester's labelled request_type="push"|"read", the
	// distributor's unlabelled; older releases named them
	// cortex_ingester_adaptive_limiter_*.
	"mimir-reactive-limiter": {
		Name: "mimir-reactive-limiter",
		Specs: []Spec{
			{trace.FieldLimit, Matcher{Regex: re(`^cortex_(?P<target>distributor|ingester)_(?:reactive|adaptive)_limiter_inflight_limit$`)}, Gauge, 0},
			{trace.FieldInFlight, Matcher{Regex: re(`^cortex_(?P<target>distributor|ingester)_(?:reactive|adaptive)_limiter_inflight_requests$`)}, Gauge, 0},
		},
		TargetLabels: []string{"request_type"},
		Note:         "failsafe-go's reactive limiter exports no RTT: degraded-downstream cannot be judged; queued requests are not mapped; where in-flight is the sampling window's maximum (failsafe-go's MaxInflight) it can exceed the limit, so utilisation is capped at 100 %",
	},
}

// PresetNames lists the presets, "auto" first.
func PresetNames() []string {
	names := []string{"auto"}
	for n := range Presets {
		names = append(names, n)
	}
	sort.Strings(names[1:])
	return names
}

// ParseMatcher reads `name` or `name{label="value",…}`.
func ParseMatcher(s string) (Matcher, error) {
	s = strings.TrimSpace(s)
	name, rest, hasLabels := strings.Cut(s, "{")
	m := Matcher{Name: strings.TrimSpace(name)}
	if m.Name == "" {
		return m, fmt.Errorf("%q: a metric name is needed", s)
	}
	if !hasLabels {
		return m, nil
	}
	if !strings.HasSuffix(rest, "}") {
		return m, fmt.Errorf("%q: the label matchers must end with }", s)
	}
	rest = strings.TrimSuffix(rest, "}")
	m.Labels = map[string]string{}
	for strings.TrimSpace(rest) != "" {
		k, after, ok := strings.Cut(rest, "=")
		if !ok {
			return m, fmt.Errorf("%q: want label=\"value\"", s)
		}
		after = strings.TrimSpace(after)
		v, err := strconv.QuotedPrefix(after)
		if err != nil {
			return m, fmt.Errorf("%q: label %s needs a quoted value", s, strings.TrimSpace(k))
		}
		uq, _ := strconv.Unquote(v)
		m.Labels[strings.TrimSpace(k)] = uq
		rest = strings.TrimPrefix(strings.TrimSpace(after[len(v):]), ",")
	}
	return m, nil
}

// seriesKey identifies one mapped series of one target.
type seriesKey struct {
	target string
	field  trace.Field
	// outcome tells apart the counters of one field and target by their
	// Completions label
	outcome string
}

type prevValue struct {
	a, b float64 // counter value, or histogram sum and count
	ok   bool
}

// Mapper turns successive expositions of one endpoint into Samples. It keeps
// the previous counter and histogram totals to compute deltas and means; it
// is not safe for concurrent use (one per endpoint).
type Mapper struct {
	m    Mapping
	idle bool // set by value: a distribution had no new observation
	prev map[seriesKey]prevValue
	// prevTime is when the previous exposition was taken
	prevTime time.Time
	// Missing lists the specs no metric matched in the last exposition.
	Missing []string
	// Ignored lists the library's families that no spec claims, each once,
	// in the order first seen.
	Ignored []string
	ignored map[string]bool
}

// NewMapper returns a mapper for m.
func NewMapper(m Mapping) *Mapper { return &Mapper{m: m, prev: map[seriesKey]prevValue{}} }

// Mapping returns the mapping in use.
func (mp *Mapper) Mapping() Mapping { return mp.m }

func labelsMatch(m *dto.Metric, want map[string]string) bool {
	for k, v := range want {
		if k == "quantile" && m.Summary != nil {
			continue // a summary's quantiles are values, not labels
		}
		found := false
		for _, lp := range m.GetLabel() {
			if lp.GetName() == k && lp.GetValue() == v {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func (mp *Mapper) targetOf(m *dto.Metric, fromName string) string {
	for _, tl := range mp.m.TargetLabels {
		for _, lp := range m.GetLabel() {
			if lp.GetName() == tl && lp.GetValue() != "" {
				return lp.GetValue()
			}
		}
	}
	if fromName != "" {
		return fromName
	}
	return trace.DefaultTarget
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// joinUntagged folds the default target (series without a target label)
// into the page's one other target where that one carries no limit: a
// single limiter whose library labels only some of its series with its
// name. Netflix concurrency-limits releases label only the call counters
// (limiter/AbstractLimiter.java: counter(CALL_NAME, ID_TAG, name, …)),
// and register the limit, inflight and min_rtt with no tag at all (gauge
// (LIMIT_NAME, this::getLimit), limiter/SimpleLimiter.java and the limit
// algorithms' distribution(…)): one limiter read as "default" with its
// limit and "<id>" with its losses. A page of several limiters keeps its
// targets as they are.
func joinUntagged(byTarget map[string]*trace.Sample) {
	untagged, ok := byTarget[trace.DefaultTarget]
	if !ok || len(byTarget) != 2 {
		return
	}
	for name, s := range byTarget {
		if name == trace.DefaultTarget || s.Has(trace.FieldLimit) {
			continue
		}
		for _, f := range trace.Columns() {
			if v, ok := untagged.Value(f); ok && !s.Has(f) {
				s.Set(f, v)
			}
		}
		delete(byTarget, trace.DefaultTarget)
	}
}

// Map converts one exposition taken at t into one Sample per target, in
// target order. Values that are NaN, infinite or negative are left not
// measured.
func (mp *Mapper) Map(fams map[string]*dto.MetricFamily, t time.Time) []trace.Sample {
	byTarget := map[string]*trace.Sample{}
	idle := map[string]bool{}
	seen, fields := map[string]trace.Field{}, map[string]int{}
	var covered trace.Field
	mp.Missing = mp.Missing[:0]
	names := make([]string, 0, len(fams))
	for n := range fams {
		names = append(names, n)
	}
	sort.Strings(names)
	for si := range mp.m.Specs {
		spec := &mp.m.Specs[si]
		matched := false
		for _, name := range names {
			ok, fromName := spec.Match.match(name)
			if !ok {
				continue
			}
			for _, m := range fams[name].GetMetric() {
				if !labelsMatch(m, spec.Match.Labels) {
					continue
				}
				matched = true
				target := mp.targetOf(m, fromName)
				if seen[target]&spec.Field == 0 {
					seen[target] |= spec.Field
					fields[target]++
				}
				v, ok := mp.value(spec, m, target)
				if !ok && mp.idle {
					// a distribution with no observation since the last
					// scrape: if none of the target's has one, the target
					// is idle (a quiet Vector sink), not gone
					mp.idle = false
					if byTarget[target] == nil {
						byTarget[target] = &trace.Sample{Time: t, Target: target}
					}
					idle[target] = true
					continue
				}
				if !ok || !finite(v) || v < 0 || v == 0 && spec.Match.ZeroUnmeasured {
					continue
				}
				if spec.Unit != 0 {
					v *= float64(spec.Unit)
				}
				s := byTarget[target]
				if s == nil {
					s = &trace.Sample{Time: t, Target: target}
					byTarget[target] = s
				}
				s.Set(spec.Field, v)
			}
		}
		if matched {
			covered |= spec.Field
		}
	}
	// a field is missing when no spec of it matched (alternatives of one
	// field cover each other; optional ones are never reported)
	for si := range mp.m.Specs {
		if spec := &mp.m.Specs[si]; covered&spec.Field == 0 && !spec.Match.Optional {
			mp.Missing = append(mp.Missing, spec.Match.String())
		}
	}
	if rm := mp.m.Remeasuring; rm != nil {
		for _, name := range names {
			ok, fromName := rm.match(name)
			if !ok {
				continue
			}
			for _, m := range fams[name].GetMetric() {
				if v, ok := scalar(m); ok && v == 1 && labelsMatch(m, rm.Labels) {
					if s := byTarget[mp.targetOf(m, fromName)]; s != nil {
						s.Unset(trace.FieldLimit)
					}
				}
			}
		}
	}
	for target := range idle {
		if s := byTarget[target]; s.Fields == 0 {
			s.Set(trace.FieldInFlight, 0) // idle: nothing in flight, nothing measured
		}
	}
	if mp.m.JoinUntagged {
		joinUntagged(byTarget)
	}
	// a target without an RTT of its own: Little's law over the interval
	// since the previous exposition
	if done := mp.completed(fams, names); done != nil && !mp.prevTime.IsZero() {
		for target, n := range done {
			if s := byTarget[target]; s != nil && s.Has(trace.FieldInFlight) && !s.Has(trace.FieldRTT) {
				if rtt, ok := LittleRTT(s.InFlight, n, t.Sub(mp.prevTime)); ok {
					s.Set(trace.FieldRTT, rtt)
				}
			}
		}
	}
	mp.prevTime = t
	if mp.m.Corroborate {
		for target := range byTarget {
			if fields[target] < 2 {
				delete(byTarget, target)
			}
		}
	}
	mp.noteIgnored(names)
	targets := make([]string, 0, len(byTarget))
	for k := range byTarget {
		targets = append(targets, k)
	}
	sort.Strings(targets)
	out := make([]trace.Sample, 0, len(targets))
	for _, k := range targets {
		out = append(out, *byTarget[k])
	}
	return out
}

// noteIgnored records, once each, the library's families no spec claims.
func (mp *Mapper) noteIgnored(names []string) {
	if mp.m.Owns == nil {
		return
	}
	// the library's namespaces: the first word of every family a spec
	// claims ("limiter" by default), found once per exposition
	claims := func(name string) bool {
		for i := range mp.m.Specs {
			if ok, _ := mp.m.Specs[i].Match.match(name); ok {
				return true
			}
		}
		return false
	}
	ns := map[string]bool{}
	for _, name := range names {
		if first, _, ok := strings.Cut(name, "_"); ok && !ns[first] && claims(name) {
			ns[first] = true
		}
	}
	for _, name := range names {
		first, _, ok := strings.Cut(name, "_")
		if !ok || !ns[first] || mp.ignored[name] || !mp.m.Owns.MatchString(name) || claims(name) {
			continue
		}
		helper := false
		for i := range mp.m.Specs {
			if h := mp.m.Specs[i].Match.Helpers; h != nil && h.MatchString(name) {
				helper = true
				break
			}
		}
		if helper {
			continue
		}
		if mp.ignored == nil {
			mp.ignored = map[string]bool{}
		}
		mp.ignored[name] = true
		mp.Ignored = append(mp.Ignored, name)
	}
}

func (mp *Mapper) value(spec *Spec, m *dto.Metric, target string) (float64, bool) {
	key := seriesKey{target: target, field: spec.Field}
	if q, ok := spec.Match.Labels["quantile"]; ok && m.Summary != nil {
		for _, sq := range m.Summary.GetQuantile() {
			if strconv.FormatFloat(sq.GetQuantile(), 'g', -1, 64) == q || fmt.Sprint(sq.GetQuantile()) == q {
				return sq.GetValue(), true
			}
		}
		return 0, false
	}
	kind := spec.Kind
	if kind != Delta && (m.Histogram != nil || m.Summary != nil) {
		kind = Mean // any field may be exported as a distribution
	}
	switch kind {
	case Mean:
		var sum, count float64
		switch {
		case m.Histogram != nil:
			sum, count = m.Histogram.GetSampleSum(), float64(m.Histogram.GetSampleCount())
		case m.Summary != nil:
			sum, count = m.Summary.GetSampleSum(), float64(m.Summary.GetSampleCount())
		default:
			return scalar(m)
		}
		p := mp.prev[key]
		mp.prev[key] = prevValue{sum, count, true}
		if !p.ok {
			return 0, false
		}
		ds, dc := sum-p.a, count-p.b
		if dc < 0 || ds < 0 { // reset
			ds, dc = sum, count
		}
		if dc <= 0 {
			mp.idle = true
			return 0, false
		}
		return ds / dc, true
	case Delta:
		return mp.delta(key, m)
	}
	return scalar(m)
}

// delta is the increase of the counter m, the series key, since the
// previous exposition; not ok on its first.
func (mp *Mapper) delta(key seriesKey, m *dto.Metric) (float64, bool) {
	v, ok := scalar(m)
	if !ok {
		return 0, false
	}
	p := mp.prev[key]
	mp.prev[key] = prevValue{a: v, ok: true}
	if !p.ok {
		return 0, false
	}
	if v < p.a { // counter reset
		return v, true
	}
	return v - p.a, true
}

// completed counts, per target, the requests that finished since the
// previous exposition (Mapping.Completions).
func (mp *Mapper) completed(fams map[string]*dto.MetricFamily, names []string) map[string]float64 {
	c := mp.m.Completions
	if c == nil {
		return nil
	}
	done := map[string]float64{}
	for _, name := range names {
		ok, fromName := c.Match.match(name)
		if !ok {
			continue
		}
		for _, m := range fams[name].GetMetric() {
			outcome, finished := c.finished(m)
			if !finished {
				continue
			}
			target := mp.targetOf(m, fromName)
			if n, ok := mp.delta(seriesKey{target: target, outcome: outcome}, m); ok && finite(n) && n >= 0 {
				done[target] += n
			}
		}
	}
	return done
}

func scalar(m *dto.Metric) (float64, bool) {
	switch {
	case m.Gauge != nil:
		return m.Gauge.GetValue(), true
	case m.Counter != nil:
		return m.Counter.GetValue(), true
	case m.Untyped != nil:
		return m.Untyped.GetValue(), true
	}
	return 0, false
}

// ErrNoPresetMatch is Detect's error when no preset fits an exposition.
var ErrNoPresetMatch = errors.New("no preset matches")

// Detect picks the preset that maps the most series of an exposition (a
// limit series is required), or reports that none fits.
func Detect(fams map[string]*dto.MetricFamily) (Mapping, error) {
	best, bestScore := Mapping{}, 0
	for _, name := range PresetNames()[1:] {
		m := Presets[name]
		score := 0
		hasLimit := false
		for _, s := range m.Specs {
			for fname := range fams {
				if ok, _ := s.Match.match(fname); ok {
					score++
					if s.Field == trace.FieldLimit {
						hasLimit = true
					}
					break
				}
			}
		}
		if hasLimit && score > bestScore {
			best, bestScore = m, score
		}
	}
	if bestScore == 0 {
		return Mapping{}, fmt.Errorf("%w: no limit metric of %s found; choose a preset or name the metrics", ErrNoPresetMatch, strings.Join(PresetNames()[1:], ", "))
	}
	return best, nil
}

// wants reports whether a family name can feed the mapping (histogram and
// summary series carry _sum, _count and _bucket suffixes).
func (m *Mapping) wants(name string) bool {
	// the gauge saying the limit is pinned, and the finished requests'
	// counter, whichever spec claims it
	if m.Remeasuring != nil {
		if ok, _ := m.Remeasuring.match(name); ok {
			return true
		}
	}
	if m.Completions != nil {
		if ok, _ := m.Completions.Match.match(name); ok {
			return true
		}
	}
	for i := range m.Specs {
		if ok, _ := m.Specs[i].Match.match(name); ok {
			return true
		}
		{ // any field may be a histogram or summary
			for _, suf := range []string{"_sum", "_count", "_bucket"} {
				if strings.HasSuffix(name, suf) {
					if ok, _ := m.Specs[i].Match.match(strings.TrimSuffix(name, suf)); ok {
						return true
					}
				}
			}
		}
	}
	return false
}

// Relevant returns the lines of an exposition the mapping can use: sample,
// TYPE and HELP lines of wanted families. Parsing only those makes an
// Envoy-sized page (thousands of unrelated series) cheap.
func (m *Mapping) Relevant(data []byte) []byte {
	out := make([]byte, 0, 4096)
	// a family's lines come together: its name is judged once (a regex
	// per line made an Envoy-sized page five times slower)
	var lastName []byte
	lastWanted := false
	for len(data) > 0 {
		line := data
		next := []byte(nil)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, next = data[:i+1], data[i+1:]
		}
		data = next
		name := line
		if len(name) > 0 && name[0] == '#' {
			f := bytes.Fields(name)
			if len(f) < 3 || (string(f[1]) != "TYPE" && string(f[1]) != "HELP") {
				continue
			}
			name = f[2]
		} else {
			end := bytes.IndexAny(name, "{ \t")
			if end < 0 {
				continue
			}
			name = name[:end]
		}
		if lastName == nil || !bytes.Equal(name, lastName) {
			lastName, lastWanted = name, m.wants(string(name))
		}
		if lastWanted {
			out = append(out, line...)
			if line[len(line)-1] != '\n' {
				out = append(out, '\n')
			}
		}
	}
	return out
}
