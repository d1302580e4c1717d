package scrape

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"
	"go.yaml.in/yaml/v3"

	"github.com/limitscope/limitscope/trace"
)

// PromConfig configures the Prometheus HTTP API source: the fleet path, for
// limiters Prometheus (or Thanos, Mimir, VictoriaMetrics) already scrapes.
type PromConfig struct {
	// URL of the Prometheus server (its HTTP API root).
	URL string
	// Selector restricts every query, e.g. {job="api",env="prod"}.
	Selector string
	// Mapping derives one query per series (default: the limitscope preset).
	Mapping *Mapping
	// Queries overrides the derived PromQL per field.
	Queries map[trace.Field]string
	// Interval is the query step and the follow period. Zero: the scrape
	// interval of the limit series, measured on the server when Run starts,
	// else the server's configured one (see DetectStep), or 1 s where
	// neither can be read — a finer step only repeats each scrape's
	// reading, and windows sized from it hold too few readings to see a
	// swing.
	Interval time.Duration
	// Backfill is how far back the first query_range reaches (0: none).
	Backfill time.Duration
	// Until, when set, ends the backfill there instead of now, and Run
	// returns once it is read: a past span (an incident for a postmortem)
	// is read with query_range and nothing is followed live. It needs a
	// Backfill.
	Until time.Time
	// Timeout bounds one API call (default 10 s).
	Timeout time.Duration
	// Transport overrides the HTTP transport (tests).
	Transport http.RoundTripper
	// Auth authenticates to the Prometheus server and verifies its TLS.
	Auth
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// PromSource reads limiter series from Prometheus: query_range backfills the
// window, then instant queries follow live.
type PromSource struct {
	cfg     PromConfig
	sel     string // the selector's label matchers, braces stripped
	detect  bool   // Interval was zero: DetectStep when Run starts
	api     v1.API
	queries []promQuery
	mu      sync.Mutex
	st      Status
	lastTS  map[string]time.Time
	// kinded: the mapping's kinds were read from the server (resolveKinds)
	kinded bool
}

type promQuery struct {
	field trace.Field
	expr  string
	unit  Unit
	match *Matcher
	// mean: the query is a distribution's mean, whose NaN (0/0) is an
	// interval without an observation
	mean bool
	// completed: the query counts finished requests per step
	// (Mapping.Completions), not a field
	completed bool
}

// NewPromSource builds the queries and the API client.
func NewPromSource(cfg PromConfig) (*PromSource, error) {
	if cfg.URL == "" {
		return nil, &ConfigError{Field: "PromConfig.URL", Err: errors.New("a Prometheus URL is needed")}
	}
	detect := cfg.Interval <= 0
	if detect {
		cfg.Interval = time.Second
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if !cfg.Until.IsZero() {
		switch {
		case cfg.Backfill <= 0:
			return nil, &ConfigError{Field: "PromConfig.Until", Value: cfg.Until.UTC().Format(time.RFC3339), Err: errors.New("a past span needs a length: give the history before it to read (--backfill)")}
		case cfg.Until.After(cfg.Now()):
			return nil, &ConfigError{Field: "PromConfig.Until", Value: cfg.Until.UTC().Format(time.RFC3339), Err: errors.New("it is in the future: Prometheus holds nothing after now")}
		}
	}
	if cfg.Mapping == nil {
		m := Presets["limitscope"]
		cfg.Mapping = &m
	}
	sel, err := selectorLabels(cfg.Selector)
	if err != nil {
		return nil, err
	}
	creds, tlsCfg, err := cfg.Auth.load()
	if err != nil {
		return nil, err
	}
	rt := cfg.Transport
	if rt == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.TLSClientConfig = tlsCfg
		rt = t
	}
	client, err := api.NewClient(api.Config{Address: cfg.URL, RoundTripper: authTransport{rt, creds}})
	if err != nil {
		return nil, &ConfigError{Field: "PromConfig.URL", Value: Redact(cfg.URL), Err: err}
	}
	s := &PromSource{cfg: cfg, sel: sel, detect: detect, api: v1.NewAPI(client), lastTS: map[string]time.Time{}}
	s.st = Status{Endpoint: Redact(cfg.URL), State: StatePending, Preset: cfg.Mapping.Name}
	if !detect {
		s.st.Step, s.st.StepFrom = cfg.Interval, StepGiven
	}
	s.build()
	return s, nil
}

// build derives the queries for the current step. Summaries' means and
// counters' rates are read over four steps or a minute, whichever is
// longer: the range holds two scrapes or more at a scrape interval up to
// 30 s (a slower one needs a step of half of it).
func (s *PromSource) build() {
	cfg := &s.cfg
	rangeWin := model.Duration(max(4*cfg.Interval, time.Minute))
	s.queries = s.queries[:0]
	for i := range cfg.Mapping.Specs {
		spec := &cfg.Mapping.Specs[i]
		q := promQuery{field: spec.Field, unit: spec.Unit, match: &spec.Match}
		if e, ok := cfg.Queries[spec.Field]; ok {
			q.expr = e
		} else {
			q.mean = spec.Kind == Mean
			q.expr = buildQuery(cfg.Mapping, spec, s.sel, rangeWin, model.Duration(cfg.Interval))
		}
		s.queries = append(s.queries, q)
	}
	for f, e := range cfg.Queries {
		if !cfg.Mapping.Has(f) {
			s.queries = append(s.queries, promQuery{field: f, expr: e})
		}
	}
	if c := cfg.Mapping.Completions; c != nil {
		spec := c.Spec()
		s.queries = append(s.queries, promQuery{completed: true, match: &spec.Match, expr: buildQuery(cfg.Mapping, spec, c.Selector(s.sel), rangeWin, model.Duration(cfg.Interval))})
	}
}

// maxDetectedStep bounds a measured scrape interval: Prometheus' own
// default is a minute, and a gap of hours in one series is no interval.
const maxDetectedStep = 5 * time.Minute

// Where a PromSource's step came from, as a user reads it after "rows are
// 15s apart (…)". StepGiven is PromConfig.Interval; the others are what
// DetectStep found.
const (
	StepGiven      = "given"
	StepMeasured   = "the limit series' scrape interval on the server"
	StepConfigured = "the scrape interval in the server's configuration: the limit series could not be read to measure it"
	StepDefault    = "1s: the scrape interval could neither be measured on the limit series nor read from the server's configuration"
)

// DetectStep finds the query step that reads each scrape once: the scrape
// interval of the limit series measured on the server (seriesStep), else
// the scrape interval in the server's configuration (an aggregate query
// whose result names no series; Thanos and Mimir serve no configuration),
// else 1 s. from says which, in a phrase (StepMeasured, StepConfigured or
// a variant of it, StepDefault); err is why the series could not be read,
// if it failed.
func (s *PromSource) DetectStep(ctx context.Context) (step time.Duration, from string, err error) {
	step, ok, err := s.seriesStep(ctx)
	if ok {
		return clampStep(step), StepMeasured, nil
	}
	if step, from, ok := s.configuredStep(ctx); ok {
		return clampStep(step), from, err
	}
	return time.Second, StepDefault, err
}

// clampStep bounds a detected step to 1 s – maxDetectedStep.
func clampStep(d time.Duration) time.Duration { return min(max(d, time.Second), maxDetectedStep) }

// seriesStep measures the scrape interval of the limit series on the
// server: the median spacing of one series' raw samples over the last
// detectSpan. ok is false where it cannot be told (no limit query of the
// mapping, no series yet or one without labels, fewer than three samples).
func (s *PromSource) seriesStep(ctx context.Context) (time.Duration, bool, error) {
	// the limit's raw series (a summary's _count), so that the series
	// found carries its name; an explicit limit query is taken as given
	limit, ok := s.cfg.Queries[trace.FieldLimit]
	for i := 0; !ok && i < len(s.cfg.Mapping.Specs); i++ {
		if spec := &s.cfg.Mapping.Specs[i]; spec.Field == trace.FieldLimit {
			limit, ok = spec.Series(s.sel, spec.scrapedName()), true
		}
	}
	if !ok {
		return 0, false, nil
	}
	now := s.cfg.Now()
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	v, _, err := s.api.Query(cctx, limit, now)
	if err != nil {
		return 0, false, fmt.Errorf("reading the limit series to measure the scrape interval: %w", err)
	}
	vec, ok := v.(model.Vector)
	if !ok || len(vec) == 0 || len(vec[0].Metric) == 0 {
		return 0, false, nil
	}
	series := vec[0].Metric
	if _, named := series[model.MetricNameLabel]; !named {
		// an expression's result (a rate, "max by (instance)") keeps
		// labels but no name: they may match every series of a target,
		// so one of them, which topk returns with its name, is read
		v, _, err := s.api.Query(cctx, fmt.Sprintf("topk(1, %s)", seriesSelector(series)), now)
		if err != nil {
			return 0, false, fmt.Errorf("finding a series under the limit's labels to measure the scrape interval: %w", err)
		}
		top, ok := v.(model.Vector)
		if !ok || len(top) == 0 {
			return 0, false, nil
		}
		series = top[0].Metric
	}
	// one series, by every label it has (its name among them)
	m, _, err := s.api.Query(cctx, fmt.Sprintf("%s[%s]", seriesSelector(series), model.Duration(detectSpan)), now)
	if err != nil {
		return 0, false, fmt.Errorf("reading the limit series' raw samples to measure the scrape interval: %w", err)
	}
	mat, ok := m.(model.Matrix)
	if !ok || len(mat) == 0 || len(mat[0].Values) < 3 {
		return 0, false, nil
	}
	vals := mat[0].Values
	gaps := make([]float64, 0, len(vals)-1)
	for i := 1; i < len(vals); i++ {
		gaps = append(gaps, float64(vals[i].Timestamp-vals[i-1].Timestamp))
	}
	sort.Float64s(gaps)
	return (time.Duration(gaps[len(gaps)/2]) * time.Millisecond).Round(time.Second), true, nil
}

// detectSpan is how far back DetectStep reads one series' raw samples:
// three scrapes at Prometheus' default interval of a minute, and no more
// than a few hundred samples at 1 s.
const detectSpan = 3 * time.Minute

// configuredStep reads the scrape intervals of the server's configuration
// (/api/v1/status/config, every job's interval filled in): where every job
// scrapes at one interval, that; where they differ, the shortest, which
// repeats a slower job's readings but loses none of a faster one's. ok is
// false where the server serves no configuration or it names no interval.
func (s *PromSource) configuredStep(ctx context.Context) (step time.Duration, from string, ok bool) {
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	cfg, err := s.api.Config(cctx)
	if err != nil {
		return 0, "", false
	}
	lo, hi, ok := scrapeIntervals(cfg.YAML)
	if !ok {
		return 0, "", false
	}
	from = StepConfigured
	if hi != lo {
		from = fmt.Sprintf("the shortest scrape interval in the server's configuration, whose jobs scrape every %s to %s: the limit series could not be read to measure it", model.Duration(lo), model.Duration(hi))
	}
	return lo, from, true
}

// scrapeIntervals returns the shortest and longest scrape interval of a
// Prometheus configuration: every scrape job's, or the global one where a
// job names none (or there are no jobs). ok is false where none parses.
func scrapeIntervals(config string) (lo, hi time.Duration, ok bool) {
	var c struct {
		Global struct {
			ScrapeInterval string `yaml:"scrape_interval"`
		} `yaml:"global"`
		ScrapeConfigs []struct {
			ScrapeInterval string `yaml:"scrape_interval"`
		} `yaml:"scrape_configs"`
	}
	if yaml.Unmarshal([]byte(config), &c) != nil {
		return 0, 0, false
	}
	var ds []time.Duration
	add := func(iv string) {
		if iv == "" {
			iv = c.Global.ScrapeInterval
		}
		if d, err := model.ParseDuration(iv); err == nil && d > 0 {
			ds = append(ds, time.Duration(d))
		}
	}
	if len(c.ScrapeConfigs) == 0 {
		add("")
	}
	for _, j := range c.ScrapeConfigs {
		add(j.ScrapeInterval)
	}
	if len(ds) == 0 {
		return 0, 0, false
	}
	return slices.Min(ds), slices.Max(ds), true
}

// seriesSelector writes a PromQL selector matching m exactly: its name (if
// any) and every label, values quoted.
func seriesSelector(m model.Metric) string {
	names := make([]string, 0, len(m))
	for l := range m {
		names = append(names, string(l))
	}
	sort.Strings(names)
	ms := make([]string, 0, len(names))
	for _, l := range names {
		ms = append(ms, fmt.Sprintf("%s=%s", l, strconv.Quote(string(m[model.LabelName(l)]))))
	}
	return "{" + strings.Join(ms, ",") + "}"
}

var selRe = regexp.MustCompile(`^\s*\{?(.*?)\}?\s*$`)

// selectorLabels strips the braces of a selector and checks it is a list of
// label matchers.
func selectorLabels(sel string) (string, error) {
	inner := selRe.FindStringSubmatch(sel)[1]
	if strings.TrimSpace(inner) == "" {
		return "", nil
	}
	if _, err := ParseMatcher("x{" + strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(inner, "!=", "="), "=~", "="), "!~", "=") + "}"); err != nil {
		return "", &ConfigError{Field: "PromConfig.Selector", Value: sel, Err: errors.New(`want label matchers like {job="api"}`)}
	}
	return inner, nil
}

// Series is the PromQL selector of the spec's family name (name may carry
// a suffix like _sum) under the extra label matchers sel ("job=\"api\""):
// a plain name, or __name__ matching the spec's regex, suffix or prefixes,
// and not its helpers (go-concurrency-limits' <ns>_<limiter>_min_rtt
// pattern also matches its Gradient2's <ns>_g2_window_min_rtt, which a
// direct scrape leaves out as a helper: so must a query).
func (spec *Spec) Series(sel, name string) string {
	var ms []string
	if sel != "" {
		ms = append(ms, sel)
	}
	var keys []string
	for k := range spec.Match.Labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ms = append(ms, fmt.Sprintf("%s=%q", k, spec.Match.Labels[k]))
	}
	if h := spec.Match.Helpers; h != nil {
		// a helper's pattern is anchored at its end; PromQL anchors both
		ms = append([]string{fmt.Sprintf("__name__!~%q", ".*(?:"+strings.TrimSuffix(h.String(), "$")+")"+distributionSuffix)}, ms...)
	}
	switch {
	case spec.Match.Regex != nil || spec.Match.Suffix:
		return fmt.Sprintf("{%s}", strings.Join(append([]string{fmt.Sprintf("__name__=~%q", spec.namePattern(name))}, ms...), ","))
	case len(spec.Match.Prefixes) > 0:
		alts := []string{name}
		for _, p := range spec.Match.Prefixes {
			alts = append(alts, p+name)
		}
		return fmt.Sprintf("{%s}", strings.Join(append([]string{fmt.Sprintf("__name__=~%q", strings.Join(alts, "|"))}, ms...), ","))
	}
	return fmt.Sprintf("%s{%s}", name, strings.Join(ms, ","))
}

// TargetLabel is the label a query's series carry their target in where
// Rate took it from the family name.
const TargetLabel = "limitscope_target"

// distributionSuffix matches the series suffixes a summary or histogram
// adds to its family name.
const distributionSuffix = "(?:_sum|_count|_bucket)?"

// namePattern is the PromQL regex (anchored at both ends by PromQL) of
// the spec's family name with name's suffix (a _sum or _count family of
// the spec's): its regex, or anything ending in its suffix name.
func (spec *Spec) namePattern(name string) string {
	if spec.Match.Regex == nil {
		return ".*" + regexp.QuoteMeta(name)
	}
	re := strings.Trim(spec.Match.Regex.String(), "^$")
	if name != spec.Match.Name {
		re += strings.TrimPrefix(name, spec.Match.Name) // a _sum or _count family of the regex's
	}
	return re
}

// TargetPattern is the PromQL regex of the spec's family names followed
// by suffix (a regex fragment, e.g. for a summary's _sum), and which of its
// groups holds the target; ok is false where the family name carries no
// target (a plain name, or a regex without a target group).
func (spec *Spec) TargetPattern(suffix string) (pattern string, group int, ok bool) {
	switch {
	case spec.Match.Regex != nil:
		if i := spec.Match.Regex.SubexpIndex("target"); i > 0 {
			return strings.Trim(spec.Match.Regex.String(), "^$") + suffix, i, true
		}
	case spec.Match.Suffix:
		return "(.+)_" + regexp.QuoteMeta(spec.Match.Name) + suffix, 1, true
	}
	return "", 0, false
}

// Rate is PromQL for the per-second increase over win of the spec's family
// name (with a suffix such as _sum), per series. A rate drops the series'
// name, and with it the target where the name carries it
// (go-concurrency-limits names every limiter's families
// <ns>_<limiter>_…, metric_registry/prometheus/registry.go: their rates,
// alike but for the lost name, cannot even be divided — "vector cannot
// contain metrics with the same labelset"). Such a family's rate is
// therefore its value now less its value win ago, each first labelled
// with its target in label, over win; a counter reset in between (a
// negative difference) gives no value. Other families' rate is
// Prometheus' own.
func (spec *Spec) Rate(sel, name string, win model.Duration, label string) string {
	series := spec.Series(sel, name)
	pattern, group, ok := spec.TargetPattern(regexp.QuoteMeta(strings.TrimPrefix(name, spec.Match.Name)))
	if !ok {
		return fmt.Sprintf("rate(%s[%s])", series, win)
	}
	named := func(s string) string {
		return fmt.Sprintf("label_replace(%s, %q, \"$%d\", \"__name__\", %q)", s, label, group, pattern)
	}
	return fmt.Sprintf("(((%s - %s) >= 0) / %s)", named(series), named(series+" offset "+win.String()), strconv.FormatFloat(time.Duration(win).Seconds(), 'g', -1, 64))
}

// LastRate is Rate over the last two samples within win (Prometheus'
// irate), per series: a distribution's sum over its count then reads the
// mean of the last scrape interval, as a direct scrape reads it, where a
// rate averages the whole window. A family whose name carries the target
// keeps Rate's window.
func (spec *Spec) LastRate(sel, name string, win model.Duration, label string) string {
	if _, _, named := spec.TargetPattern(""); named {
		return spec.Rate(sel, name, win, label)
	}
	return fmt.Sprintf("irate(%s[%s])", spec.Series(sel, name), win)
}

// scrapedName is the name of one series the spec's metric is scraped as:
// its own, or a summary's or histogram's _count.
func (spec *Spec) scrapedName() string {
	if spec.Kind == Mean {
		return spec.Match.Name + "_count"
	}
	return spec.Match.Name
}

// buildQuery derives the PromQL for one mapped series. Summaries and
// histograms are the mean over win; counters are their rate over win times
// the step — the events of one step, as a direct scrape's increase since
// the previous scrape gives them. Not increase over the step itself: a
// range as long as the scrape interval holds one sample, and increase
// needs two (prometheus/prometheus promql/functions.go, extrapolatedRate,
// returns nothing for fewer), so at a step equal to the scrape interval
// every counter came back empty (dropped and rejected were missing from
// every row).
func buildQuery(m *Mapping, spec *Spec, sel string, win, step model.Duration) string {
	switch spec.Kind {
	case Mean:
		return fmt.Sprintf("%s / %s", spec.Rate(sel, spec.Match.Name+"_sum", win, TargetLabel), spec.Rate(sel, spec.scrapedName(), win, TargetLabel))
	case Delta:
		return fmt.Sprintf("%s * %s", spec.Rate(sel, spec.Match.Name, win, TargetLabel), strconv.FormatFloat(time.Duration(step).Seconds(), 'g', -1, 64))
	}
	return m.GaugeSeries(spec, sel)
}

// GaugeSeries is PromQL for a gauge spec's series under sel. The limit's
// leaves out the scrapes in which the mapping's Remeasuring gauge reads 1,
// as a direct scrape does. Envoy pins its limit to min_concurrency (3
// unless configured) while it re-measures the min RTT: every
// min_rtt_calc_params.interval plus up to 15 % jitter, and whenever the
// limit sat at that minimum five windows running
// (enterMinRTTSamplingWindow and updateConcurrencyLimit,
// controller/gradient_controller.cc in envoyproxy/envoy). Read as limits,
// those pins made a healthy simulated Envoy swing: "oscillating" on a
// quarter of the calibration draw's healthy traces. A limiter's limit and
// its Remeasuring gauge are matched on every label but the name, and
// where the name carries the limiter (a stat prefix kept in the name), on
// that too.
func (m *Mapping) GaugeSeries(spec *Spec, sel string) string {
	series := spec.Series(sel, spec.Match.Name)
	if m.Remeasuring == nil || spec.Field != trace.FieldLimit {
		return series
	}
	pin := &Spec{Field: trace.FieldLimit, Match: *m.Remeasuring, Kind: Gauge}
	pinned := pin.Series(sel, pin.Match.Name)
	if pattern, group, ok := spec.TargetPattern(""); ok {
		if pinPattern, pinGroup, ok := pin.TargetPattern(""); ok {
			named := func(s, pattern string, group int) string {
				return fmt.Sprintf("label_replace(%s, %q, \"$%d\", \"__name__\", %q)", s, TargetLabel, group, pattern)
			}
			series, pinned = named(series, pattern, group), named(pinned, pinPattern, pinGroup)
		}
	}
	return fmt.Sprintf("(%s unless ignoring(__name__) (%s == 1))", series, pinned)
}

// Queries returns the PromQL the source runs, per field name (for --help
// output and tests).
func (s *PromSource) Queries() map[string]string {
	out := map[string]string{}
	for _, q := range s.queries {
		name := q.field.String()
		if q.completed {
			name = "completed"
		}
		out[name] = q.expr
	}
	return out
}

// Statuses returns the server's status.
func (s *PromSource) Statuses() []Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	if st.State == StateUp && s.cfg.Now().Sub(st.LastSuccess) > 3*s.cfg.Interval+s.cfg.Timeout {
		st.State, st.Reason = StateStale, "no successful query recently"
	}
	return []Status{st}
}

// BackfillChunk is how many steps one query_range of a backfill asks for:
// a fleet's hour at 15 s arrives in a few bounded responses, oldest first,
// and the dashboard fills as they come.
const BackfillChunk = 250

// Run backfills, then follows until ctx ends; with Until it returns once
// the backfill is read.
func (s *PromSource) Run(ctx context.Context, emit func(trace.Sample)) error {
	if s.detect {
		step, from, err := s.DetectStep(ctx)
		if err != nil {
			s.note(err, 0)
		}
		s.mu.Lock()
		s.cfg.Interval, s.st.Step, s.st.StepFrom = step, step, from
		s.build()
		s.mu.Unlock()
	}
	now := s.cfg.Now()
	if !s.cfg.Until.IsZero() {
		now = s.cfg.Until
	}
	if s.cfg.Backfill > 0 {
		span := time.Duration(BackfillChunk) * s.cfg.Interval
		for from := now.Add(-s.cfg.Backfill); !from.After(now) && ctx.Err() == nil; from = from.Add(span) {
			to := from.Add(span - s.cfg.Interval)
			if to.After(now) {
				to = now
			}
			samples, err := s.Range(ctx, from, to)
			s.note(err, len(samples))
			for _, smp := range samples {
				emit(smp)
			}
		}
	}
	if !s.cfg.Until.IsZero() {
		return nil
	}
	t := time.NewTicker(s.cfg.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		samples, err := s.Instant(ctx, s.cfg.Now())
		if ctx.Err() != nil {
			return nil
		}
		s.note(err, len(samples))
		for _, smp := range samples {
			emit(smp)
		}
	}
}

func (s *PromSource) note(err error, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.st.State, s.st.Reason = StateDown, err.Error()
		s.st.Failures++
		return
	}
	s.st.State, s.st.Reason, s.st.Failures = StateUp, "", 0
	s.st.LastSuccess = s.cfg.Now()
	s.st.Targets = s.st.Targets[:0]
	for t := range s.lastTS {
		s.st.Targets = append(s.st.Targets, t)
	}
	sort.Strings(s.st.Targets)
	if n == 0 {
		// the preset is named: with --prom it is not detected, and a
		// fleet of another library's limiters queried by our own names
		// finds nothing
		s.st.Reason = fmt.Sprintf("the queries returned no series (check the selector, and that the limiters export the %s preset's metric names)", s.cfg.Mapping.Name)
	}
}

// Range runs every query over [start, end] at the interval step.
func (s *PromSource) Range(ctx context.Context, start, end time.Time) ([]trace.Sample, error) {
	return s.collect(ctx, func(ctx context.Context, q string) (model.Value, v1.Warnings, error) {
		return s.api.QueryRange(ctx, q, v1.Range{Start: start, End: end, Step: s.cfg.Interval})
	})
}

// Instant runs every query at t.
func (s *PromSource) Instant(ctx context.Context, t time.Time) ([]trace.Sample, error) {
	return s.collect(ctx, func(ctx context.Context, q string) (model.Value, v1.Warnings, error) {
		return s.api.Query(ctx, q, t)
	})
}

type point struct {
	target string
	ts     time.Time
}

func (s *PromSource) collect(ctx context.Context, run func(context.Context, string) (model.Value, v1.Warnings, error)) ([]trace.Sample, error) {
	if !s.kinded {
		s.kinded = true
		if s.resolveKinds(ctx) {
			s.mu.Lock()
			s.build()
			s.mu.Unlock()
		}
	}
	byKey := map[point]*trace.Sample{}
	instances := map[string]map[string]bool{} // target label value → instances
	type raw struct {
		q      *promQuery
		metric model.Metric
		ts     time.Time
		v      float64
	}
	var raws []raw
	for i := range s.queries {
		q := &s.queries[i]
		cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
		val, _, err := run(cctx, q.expr)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("%s: query %s: %s", s.st.Endpoint, q.expr, explain(err, s.st.Endpoint, s.cfg.Timeout))
		}
		add := func(m model.Metric, ts model.Time, v model.SampleValue) {
			raws = append(raws, raw{q, m, ts.Time().UTC(), float64(v)})
			name := s.targetName(q, m)
			if instances[name] == nil {
				instances[name] = map[string]bool{}
			}
			instances[name][string(m["instance"])] = true
		}
		switch v := val.(type) {
		case model.Matrix:
			for _, ss := range v {
				for _, p := range ss.Values {
					add(ss.Metric, p.Timestamp, p.Value)
				}
			}
		case model.Vector:
			for _, smp := range v {
				add(smp.Metric, smp.Timestamp, smp.Value)
			}
		case *model.Scalar:
			add(model.Metric{}, v.Timestamp, v.Value)
		}
	}
	idle := map[point]bool{}
	done := map[point]float64{}
	for _, r := range raws {
		name := s.targetName(r.q, r.metric)
		if len(instances[name]) > 1 {
			name = string(r.metric["instance"]) + "/" + name
		}
		k := point{name, r.ts}
		if math.IsNaN(r.v) && r.q.mean {
			idle[k] = true
		}
		if !finite(r.v) || r.v < 0 || r.v == 0 && r.q.match != nil && r.q.match.ZeroUnmeasured {
			continue
		}
		if r.q.completed {
			done[k] += r.v
			continue
		}
		smp := byKey[k]
		if smp == nil {
			smp = &trace.Sample{Time: r.ts, Target: name}
			byKey[k] = smp
		}
		v := r.v
		if r.q.unit != 0 {
			v *= float64(r.q.unit)
		}
		smp.Set(r.q.field, v)
	}
	// a target whose distributions had no observation in the window and
	// that measured nothing else is idle (a quiet Vector sink), not gone:
	// in-flight 0, as a direct scrape reads it (Mapper.Map)
	for k := range idle {
		if byKey[k] == nil {
			smp := &trace.Sample{Time: k.ts, Target: k.target}
			smp.Set(trace.FieldInFlight, 0)
			byKey[k] = smp
		}
	}
	// a target without an RTT of its own: Little's law over the step, as
	// the direct scrape over its interval (LittleRTT)
	for k, n := range done {
		if smp := byKey[k]; smp != nil && smp.Has(trace.FieldInFlight) && !smp.Has(trace.FieldRTT) {
			if rtt, ok := LittleRTT(smp.InFlight, n, s.cfg.Interval); ok {
				smp.Set(trace.FieldRTT, rtt)
			}
		}
	}
	// a target made by one series alone is no limiter (Corroborate: the
	// admin's connection manager beside Envoy's filtered ones), as a
	// direct scrape judges it
	if s.cfg.Mapping.Corroborate {
		seen := map[string]trace.Field{}
		for k, smp := range byKey {
			seen[k.target] |= smp.Fields
		}
		for k := range byKey {
			if bits.OnesCount64(uint64(seen[k.target])) < 2 {
				delete(byKey, k)
			}
		}
	}
	out := make([]trace.Sample, 0, len(byKey))
	s.mu.Lock()
	for _, smp := range byKey {
		// follow mode re-reads the newest point: emit each (target, time) once
		if last, ok := s.lastTS[smp.Target]; ok && !smp.Time.After(last) {
			continue
		}
		out = append(out, *smp)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Time.Equal(out[j].Time) {
			return out[i].Time.Before(out[j].Time)
		}
		return out[i].Target < out[j].Target
	})
	for _, smp := range out {
		s.lastTS[smp.Target] = smp.Time
	}
	s.mu.Unlock()
	return out, nil
}

// resolveKinds reads, where the mapping's kinds are guesses
// (KindsUnknown), each plainly named family's type from the server
// (/api/v1/metadata): a summary or histogram is read as its mean, a gauge
// as itself. A query of a summary's bare name finds nothing — a direct
// scrape sees the type in the exposition, a query does not — so
// --in-flight-metric naming a summary gave no in-flight in fleet mode. A
// family the server has no metadata for (or a server without the API)
// keeps its guess. It reports whether a kind changed.
func (s *PromSource) resolveKinds(ctx context.Context) bool {
	if !s.cfg.Mapping.KindsUnknown {
		return false
	}
	m := *s.cfg.Mapping
	m.Specs = append([]Spec(nil), m.Specs...)
	changed := false
	for i := range m.Specs {
		spec := &m.Specs[i]
		if spec.Kind == Delta || spec.Match.Name == "" || spec.Match.Regex != nil || spec.Match.Suffix {
			continue
		}
		if _, ok := spec.Match.Labels["quantile"]; ok {
			continue // one quantile's series: a gauge
		}
		cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
		md, err := s.api.Metadata(cctx, spec.Match.Name, "1")
		cancel()
		if err != nil || len(md[spec.Match.Name]) == 0 {
			continue
		}
		kind := spec.Kind
		switch md[spec.Match.Name][0].Type {
		case v1.MetricTypeSummary, v1.MetricTypeHistogram, v1.MetricTypeGaugeHistogram:
			kind = Mean
		case v1.MetricTypeGauge, v1.MetricTypeUnknown:
			kind = Gauge
		}
		changed = changed || kind != spec.Kind
		spec.Kind = kind
	}
	s.cfg.Mapping = &m
	return changed
}

func (s *PromSource) targetName(q *promQuery, m model.Metric) string {
	for _, tl := range s.cfg.Mapping.TargetLabels {
		if v := m[model.LabelName(tl)]; v != "" {
			return string(v)
		}
	}
	if v := m[TargetLabel]; v != "" {
		return string(v)
	}
	if q.match != nil {
		if ok, fromName := q.match.match(string(m[model.MetricNameLabel])); ok && fromName != "" {
			return fromName
		}
	}
	if inst := m["instance"]; inst != "" {
		return string(inst)
	}
	return trace.DefaultTarget
}
