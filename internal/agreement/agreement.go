// Package agreement measures, for tests, how often the alerts of limitscope
// rules agree with diagnose's findings on the same series: each trace is
// turned into a preset's families (limitscope's, go-concurrency-limits' as
// its registry exports them, or Envoy's), the real promtool
// evaluates the rules over them, and every minute each alert's firing is
// compared with whether diagnose's findings say that alert's class then.
// Only tests import it (rules' simulator cases, diagnose's real libraries).
package agreement

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/internal/testtools"
	"github.com/limitscope/limitscope/rules"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/trace"
)

// Case is one limiter's trace. Name becomes its limiter label: lower-case
// letters only.
type Case struct {
	Name    string
	Samples []trace.Sample
}

// Options are the rules' window and baseline, and the traces' sampling
// interval (every case is read at it, one value per sample). Layout is the
// preset whose families the traces are written as: "" (limitscope's),
// "go-concurrency-limits", "envoy" or "vector".
type Options struct {
	Window, Baseline, Interval time.Duration
	Layout                     string
}

// layouts write a trace as a preset's families.
var layouts = map[string]func(name string, samples []trace.Sample) []string{
	"limitscope":            seriesOf,
	"go-concurrency-limits": gclSeriesOf,
	"envoy":                 envoySeriesOf,
	"vector":                vectorSeriesOf,
}

// alertOf is the alert that says a class.
var alertOf = map[diagnose.Class]string{
	diagnose.Degraded:      "LimiterDegradedDownstream",
	diagnose.Oscillating:   "LimiterOscillating",
	diagnose.PipelineBound: "LimiterPipelineBound",
}

// RequirePromtool returns promtool's path, or skips or fails t as
// testtools.Require does: a test calls it before it runs its limiters, so
// a machine without promtool does not run them for nothing.
func RequirePromtool(t *testing.T) string {
	t.Helper()
	return testtools.Require(t, "promtool", "prometheus", "the rules are evaluated by the real promtool")
}

// verdicts are the classes of diagnose's episodes; its other findings
// (standing-queue, stale-rtt-min, error-acceleration) overlap them.
var verdicts = map[diagnose.Class]bool{diagnose.Healthy: true, diagnose.PipelineBound: true, diagnose.Degraded: true, diagnose.Oscillating: true, diagnose.Insufficient: true}

// Shares returns, per case name, the share of alert-minutes (each minute
// from the baseline plus one window to the end of the shortest trace, times
// the three alerts) on which an alert fires exactly when diagnose's finding
// at that minute says its class. It fails t where promtool cannot run the
// test file. DEBUG_RULES=FILE writes promtool's answer to FILE and logs
// every minute; DEBUG_RULES_AT="45m,52m" lists the evidence at those times
// (DEBUG_RULES_LIMITER: for one case; DEBUG_RULES_EXPRS: ;-separated PromQL
// instead).
func Shares(t *testing.T, cases []Case, opt Options) map[string]float64 {
	t.Helper()
	promtool := RequirePromtool(t)
	dir := t.TempDir()
	if opt.Layout == "" {
		opt.Layout = "limitscope"
	}
	m, write := scrape.Presets[opt.Layout], layouts[opt.Layout]
	if write == nil {
		t.Fatalf("agreement: no layout %q", opt.Layout)
	}
	var rf strings.Builder
	if err := rules.Write(&rf, rules.Options{Mapping: &m, Window: opt.Window, For: time.Second, Baseline: opt.Baseline}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rules.yml"), []byte(rf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	// the groups in the order their rules read each other (promtool
	// otherwise evaluates them in any order, and an alert reads the
	// evidence of one evaluation earlier in some runs)
	fmt.Fprintf(&b, "rule_files: [rules.yml]\nevaluation_interval: %s\ngroup_eval_order: [limitscope-%s-series, limitscope-%s-evidence, limitscope-%s-alerts]\ntests:\n  - interval: %s\n    input_series:\n",
		opt.Interval, m.Name, m.Name, m.Name, opt.Interval)
	says := map[string][]diagnose.Finding{}
	dur := time.Duration(1<<63 - 1)
	for _, cs := range cases {
		// diagnose reads what the preset carries: go-concurrency-limits
		// counts no rejections, Envoy exports no losses
		var lacks trace.Field
		for _, f := range trace.Columns() {
			if !m.Has(f) {
				lacks |= f
			}
		}
		smp := cs.Samples
		if lacks != 0 {
			smp = make([]trace.Sample, len(cs.Samples))
			for i, s := range cs.Samples {
				for _, f := range trace.Columns() {
					if f&lacks != 0 {
						s.Unset(f)
					}
				}
				smp[i] = s
			}
		}
		says[cs.Name] = diagnose.Classify(cs.Name, smp, diagnose.Options{Window: opt.Window}).Findings
		for _, l := range write(cs.Name, cs.Samples) {
			b.WriteString(l)
		}
		dur = min(dur, time.Duration(len(cs.Samples)-1)*opt.Interval)
	}
	// ask for every firing alert each minute, expecting none: promtool
	// lists what it got, which is what we want to know
	first := opt.Baseline + opt.Window
	b.WriteString("    promql_expr_test:\n")
	for tm := first; tm <= dur; tm += time.Minute {
		fmt.Fprintf(&b, "      - expr: ALERTS{alertstate=\"firing\"}\n        eval_time: %s\n        exp_samples: []\n", promDuration(tm))
	}
	debugEvidence(&b, opt.Window)
	if err := os.WriteFile(filepath.Join(dir, "t.yml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command(promtool, "test", "rules", filepath.Join(dir, "t.yml")).CombinedOutput()
	if f := os.Getenv("DEBUG_RULES"); f != "" {
		if err := os.WriteFile(f, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(string(out), "FAILED") && !strings.Contains(string(out), "SUCCESS") {
		t.Fatalf("promtool test rules gave no verdict:\n%s", out)
	}
	// a rule promtool could not evaluate (its test engine loads at most
	// 10,000 samples per query) leaves every alert after it silent, which
	// would read as agreement wherever diagnose says healthy
	if mm := regexp.MustCompile(`(?m)^.*rule: .*, err: .*$`).FindString(string(out)); mm != "" {
		t.Fatalf("promtool could not evaluate a rule: %s", strings.TrimSpace(mm))
	}
	// firing[minute][limiter] = alert names
	firing := map[time.Duration]map[string][]string{}
	blockRe := regexp.MustCompile(`time: ([0-9hms]+),`)
	gotRe := regexp.MustCompile(`\{__name__="ALERTS", alertname="([A-Za-z]+)"[^}]*limiter="([a-z]+)"[^}]*\}`)
	var cur time.Duration
	for _, line := range strings.Split(string(out), "\n") {
		if mm := blockRe.FindStringSubmatch(line); mm != nil {
			cur, _ = time.ParseDuration(mm[1])
			continue
		}
		for _, mm := range gotRe.FindAllStringSubmatch(line, -1) {
			if firing[cur] == nil {
				firing[cur] = map[string][]string{}
			}
			firing[cur][mm[2]] = append(firing[cur][mm[2]], mm[1])
		}
	}
	shares := map[string]float64{}
	for _, cs := range cases {
		t0 := cs.Samples[0].Time // promtool's time 0
		agree, total := 0, 0
		for tm := first; tm <= dur; tm += time.Minute {
			when := t0.Add(tm)
			class := diagnose.Insufficient
			for _, f := range says[cs.Name] {
				if !when.Before(f.Start) && when.Before(f.End) && verdicts[f.Class] {
					class = f.Class
				}
			}
			if os.Getenv("DEBUG_RULES") != "" {
				t.Logf("%s %v: diagnose %s, firing %v", cs.Name, tm, class, firing[tm][cs.Name])
			}
			for want, alert := range alertOf {
				fires := false
				for _, a := range firing[tm][cs.Name] {
					fires = fires || a == alert
				}
				total++
				if fires == (class == want) {
					agree++
				}
			}
		}
		shares[cs.Name] = float64(agree) / float64(max(total, 1))
	}
	return shares
}

// debugEvidence asks for the evidence at DEBUG_RULES_AT's times.
func debugEvidence(b *strings.Builder, window time.Duration) {
	at := os.Getenv("DEBUG_RULES_AT")
	if at == "" {
		return
	}
	sel := ""
	if l := os.Getenv("DEBUG_RULES_LIMITER"); l != "" {
		sel = fmt.Sprintf("{limiter=%q}", l)
	}
	w := promDuration(window)
	var exprs []string
	for _, e := range []string{"rtt_min_rise", "rtt_rise", "completions_share", "utilisation", "limit_drop", "limit_pinned", "limit_band", "limit_swings", "limit_median", "limit_calm_high", "lost_share", "lost_share_calm"} {
		exprs = append(exprs, "limitscope:"+e+":"+w+sel)
	}
	if e := os.Getenv("DEBUG_RULES_EXPRS"); e != "" {
		exprs = strings.Split(e, ";")
	}
	for _, tm := range strings.Split(at, ",") {
		for _, e := range exprs {
			fmt.Fprintf(b, "      - expr: '%s'\n        eval_time: %s\n        exp_samples: []\n", e, tm)
		}
	}
}

// seriesOf turns a trace into the limitscope preset's families, one value
// per sample ("_" where a field was not measured): the limit, in-flight and
// min RTT as gauges; completions (Little's law: in-flight / RTT over each
// interval) and their RTTs as the RTT histogram's count and sum; rejected
// and dropped as the outcome counter.
func seriesOf(name string, samples []trace.Sample) []string {
	l := fmt.Sprintf(`downstream=%q,job="api",instance="svc:9090"`, name)
	var lim, inf, rmin, cnt, sum, rej, drop []string
	var c, s, r, d float64
	val := func(smp trace.Sample, f trace.Field, scale float64) string {
		if v, ok := smp.Value(f); ok {
			return fmt.Sprintf("%g", v*scale)
		}
		return "_"
	}
	for i, smp := range samples {
		lim, inf, rmin = append(lim, val(smp, trace.FieldLimit, 1)), append(inf, val(smp, trace.FieldInFlight, 1)), append(rmin, val(smp, trace.FieldRTTMin, 1e-3))
		if i > 0 {
			n := completed(samples[i-1], smp)
			c, s = c+n, s+n*smp.RTTMs/1e3
			r, d = r+smp.Rejected, d+smp.Dropped
		}
		cnt, sum = append(cnt, fmt.Sprintf("%g", c)), append(sum, fmt.Sprintf("%g", s))
		rej, drop = append(rej, fmt.Sprintf("%g", r)), append(drop, fmt.Sprintf("%g", d))
	}
	line := func(series string, v []string) string {
		return fmt.Sprintf("      - series: '%s'\n        values: '%s'\n", series, strings.Join(v, " "))
	}
	return []string{
		line("limiter_limit{"+l+"}", lim), line("limiter_in_flight{"+l+"}", inf), line("limiter_rtt_min_seconds{"+l+"}", rmin),
		line("limiter_rtt_seconds_count{"+l+"}", cnt), line("limiter_rtt_seconds_sum{"+l+"}", sum),
		line(`limiter_requests_total{outcome="rejected",`+l+"}", rej), line(`limiter_requests_total{outcome="dropped",`+l+"}", drop),
	}
}

// completed is how many requests completed between prev and smp by
// Little's law (in-flight / RTT over the interval); 0 where smp has no RTT
// or in-flight.
func completed(prev, smp trace.Sample) float64 {
	if !smp.Has(trace.FieldRTT|trace.FieldInFlight) || smp.RTTMs <= 0 {
		return 0
	}
	return smp.InFlight / (smp.RTTMs / 1e3) * smp.Time.Sub(prev.Time).Seconds()
}

// gclSeriesOf turns a trace into go-concurrency-limits' families as its
// Prometheus registry exports them for a limit algorithm named name under
// the namespace "limiter" (metric_registry/prometheus/registry.go there:
// summaries without quantiles, so only their _sum and _count; RTTs in
// nanoseconds): the limit gauge; in-flight and the min RTT as one
// observation per sample (the library observes once per sample window);
// completions (Little's law, as seriesOf) and their RTTs as rtt_ms; dropped
// as its counter. A field not measured adds no observation.
func gclSeriesOf(name string, samples []trace.Sample) []string {
	l := `{job="api",instance="svc:9090"}`
	var lim, infC, infS, minC, minS, cnt, sum, drop []string
	var ic, is, mc, ms, c, s, d float64
	for i, smp := range samples {
		if v, ok := smp.Value(trace.FieldLimit); ok {
			lim = append(lim, fmt.Sprintf("%g", v))
		} else {
			lim = append(lim, "_")
		}
		if v, ok := smp.Value(trace.FieldInFlight); ok {
			ic, is = ic+1, is+v
		}
		if v, ok := smp.Value(trace.FieldRTTMin); ok {
			mc, ms = mc+1, ms+v*1e6
		}
		if i > 0 {
			n := completed(samples[i-1], smp)
			c, s = c+n, s+n*smp.RTTMs*1e6
			d += smp.Dropped
		}
		for _, x := range []struct {
			dst *[]string
			v   float64
		}{{&infC, ic}, {&infS, is}, {&minC, mc}, {&minS, ms}, {&cnt, c}, {&sum, s}, {&drop, d}} {
			*x.dst = append(*x.dst, fmt.Sprintf("%g", x.v))
		}
	}
	line := func(family string, v []string) string {
		return fmt.Sprintf("      - series: 'limiter_%s_%s%s'\n        values: '%s'\n", name, family, l, strings.Join(v, " "))
	}
	return []string{
		line("limit", lim), line("inflight_count", infC), line("inflight_sum", infS),
		line("min_rtt_count", minC), line("min_rtt_sum", minS),
		line("rtt_ms_count", cnt), line("rtt_ms_sum", sum), line("dropped_total", drop),
	}
}

// envoySeriesOf turns a trace into Envoy's adaptive concurrency families
// as /stats/prometheus renders them for an HTTP connection manager whose
// stat prefix is name, extracted as a tag (the scrape preset's comment
// cites their source): the limit gauge, which while the controller
// re-measures its min RTT (the trace's limit not measured, as
// limiter/sim leaves it then) holds the pin, Envoy's default
// min_concurrency of 3, with min_rtt_calculation_active at 1; the min RTT
// and the sample RTT in whole milliseconds, as Envoy truncates them; the
// rejections as rq_blocked, a counter without _total; the in-flight as
// the connection manager's downstream_rq_active. Envoy exports no losses.
func envoySeriesOf(name string, samples []trace.Sample) []string {
	l := fmt.Sprintf(`{envoy_http_conn_manager_prefix=%q,job="api",instance="svc:9090"}`, name)
	var lim, active, rmin, rtt, blocked, inFlight []string
	var b float64
	whole := func(smp trace.Sample, f trace.Field) string {
		if v, ok := smp.Value(f); ok {
			return fmt.Sprintf("%g", math.Floor(v))
		}
		return "_"
	}
	for _, smp := range samples {
		if v, ok := smp.Value(trace.FieldLimit); ok {
			lim, active = append(lim, fmt.Sprintf("%g", v)), append(active, "0")
		} else {
			lim, active = append(lim, "3"), append(active, "1")
		}
		rmin, rtt = append(rmin, whole(smp, trace.FieldRTTMin)), append(rtt, whole(smp, trace.FieldRTT))
		inFlight = append(inFlight, whole(smp, trace.FieldInFlight))
		b += smp.Rejected
		blocked = append(blocked, fmt.Sprintf("%g", b))
	}
	line := func(family string, v []string) string {
		return fmt.Sprintf("      - series: 'envoy_http_%s%s'\n        values: '%s'\n", family, l, strings.Join(v, " "))
	}
	const gc = "adaptive_concurrency_gradient_controller_"
	return []string{
		line(gc+"concurrency_limit", lim), line(gc+"min_rtt_calculation_active", active),
		line(gc+"min_rtt_msecs", rmin), line(gc+"sample_rtt_msecs", rtt), line(gc+"rq_blocked", blocked),
		line("downstream_rq_active", inFlight),
	}
}

// vectorSeriesOf turns a trace into Vector's adaptive request concurrency
// histograms as its prometheus_exporter sink renders internal_metrics for
// a sink whose component_id is name (the scrape preset's comment cites
// their source), in seconds, only their _sum and _count: the limit, the
// in-flight and past_rtt_mean (the min-RTT stand-in) one observation per
// sample, as the controller observes them once per update; observed_rtt
// one per completion (Little's law, as seriesOf). A field not measured
// adds no observation. Vector exports no losses and no rejections.
func vectorSeriesOf(name string, samples []trace.Sample) []string {
	l := fmt.Sprintf(`{component_id=%q,component_kind="sink",component_type="http",job="api",instance="svc:9090"}`, name)
	type hist struct{ sum, count []string }
	var lim, inf, past, obs hist
	var ls, lc, is, ic, ps, pc, os, oc float64
	for i, smp := range samples {
		if v, ok := smp.Value(trace.FieldLimit); ok {
			ls, lc = ls+v, lc+1
		}
		if v, ok := smp.Value(trace.FieldInFlight); ok {
			is, ic = is+v, ic+1
		}
		if v, ok := smp.Value(trace.FieldRTTMin); ok {
			ps, pc = ps+v/1e3, pc+1
		}
		if i > 0 {
			n := completed(samples[i-1], smp)
			os, oc = os+n*smp.RTTMs/1e3, oc+n
		}
		for _, x := range []struct {
			h        *hist
			sum, cnt float64
		}{{&lim, ls, lc}, {&inf, is, ic}, {&past, ps, pc}, {&obs, os, oc}} {
			x.h.sum, x.h.count = append(x.h.sum, fmt.Sprintf("%g", x.sum)), append(x.h.count, fmt.Sprintf("%g", x.cnt))
		}
	}
	var out []string
	for _, f := range []struct {
		family string
		h      hist
	}{{"limit", lim}, {"in_flight", inf}, {"past_rtt_mean", past}, {"observed_rtt", obs}} {
		for _, part := range []struct {
			suffix string
			v      []string
		}{{"_sum", f.h.sum}, {"_count", f.h.count}} {
			out = append(out, fmt.Sprintf("      - series: 'vector_adaptive_concurrency_%s%s%s'\n        values: '%s'\n", f.family, part.suffix, l, strings.Join(part.v, " ")))
		}
	}
	return out
}

// promDuration writes d as promtool's test files take it ("1h30m").
func promDuration(d time.Duration) string { return model.Duration(d).String() }

// Floor is the share of alert-minutes on which the rules and diagnose must
// agree, per case (the issue asks for 0.9).
const Floor = 0.9
