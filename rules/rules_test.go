package rules

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/internal/testtools"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/trace"
)

// TestEveryPresetPassesPromtoolCheck: the rules of every preset are valid
// rule files, and the rules a preset cannot support are left out with a
// note.
func TestEveryPresetPassesPromtoolCheck(t *testing.T) {
	promtool := testtools.Require(t, "promtool", "prometheus", "the rules are checked with the real promtool")
	dir := t.TempDir()
	for name := range scrape.Presets {
		m := scrape.Presets[name]
		var b strings.Builder
		if err := Write(&b, Options{Mapping: &m, Selector: `job="api"`}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		path := filepath.Join(dir, name+".yml")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(promtool, "check", "rules", path).CombinedOutput(); err != nil {
			t.Errorf("%s: promtool check rules: %v\n%s", name, err, out)
		}
		if !m.Has(1<<1) && !strings.Contains(b.String(), "LimiterPipelineBound are left out") { // in-flight
			t.Errorf("%s: no in-flight, but no note that LimiterPipelineBound is left out", name)
		}
	}
}

// series is one input series of a promtool test, value per 15 s step.
type series struct {
	name   string
	values []float64
}

const steps = 400 // 100 minutes at 15 s

func constant(v float64) []float64 {
	out := make([]float64, steps+1)
	for i := range out {
		out[i] = v
	}
	return out
}

// from is a before b at step at.
func from(a, b float64, at int) []float64 {
	out := constant(a)
	for i := at; i <= steps; i++ {
		out[i] = b
	}
	return out
}

// counter accumulates rate per second over 15 s steps.
func counter(rate []float64) []float64 {
	out := make([]float64, len(rate))
	for i := 1; i < len(rate); i++ {
		out[i] = out[i-1] + 15*rate[i]
	}
	return out
}

func mul(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] * b[i]
	}
	return out
}

// limiterSeries are one limiter's families as the limitscope preset names
// them: its limit, in-flight, min RTT and RTT (s), and rejections per
// second; completions are in-flight / RTT (Little's law).
func limiterSeries(name string, limit, inFlight, rttMin, rtt, rejected []float64) []series {
	l := fmt.Sprintf(`downstream=%q,job="api",instance="svc:9090"`, name)
	done := make([]float64, len(inFlight))
	for i := range done {
		done[i] = inFlight[i] / rtt[i]
	}
	return []series{
		{"limiter_limit{" + l + "}", limit},
		{"limiter_in_flight{" + l + "}", inFlight},
		{"limiter_rtt_min_seconds{" + l + "}", rttMin},
		{"limiter_rtt_seconds_count{" + l + "}", counter(done)},
		{"limiter_rtt_seconds_sum{" + l + "}", counter(mul(done, rtt))},
		{`limiter_requests_total{outcome="rejected",` + l + "}", counter(rejected)},
		{`limiter_requests_total{outcome="dropped",` + l + "}", constant(0)},
	}
}

// writeInputSeries starts a promtool test file over rules.yml at 15 s
// steps with the series as its input.
func writeInputSeries(b *strings.Builder, in []series) {
	// the groups in the order their rules read each other: promtool
	// otherwise evaluates them in any order, so an alert could read the
	// evidence of one evaluation earlier from one run to the next
	b.WriteString("rule_files: [rules.yml]\nevaluation_interval: 15s\ngroup_eval_order: [limitscope-limitscope-series, limitscope-limitscope-evidence, limitscope-limitscope-alerts]\ntests:\n  - interval: 15s\n    input_series:\n")
	for _, s := range in {
		vals := make([]string, len(s.values))
		for i, v := range s.values {
			vals[i] = fmt.Sprintf("%g", v)
		}
		fmt.Fprintf(b, "      - series: '%s'\n        values: '%s'\n", s.name, strings.Join(vals, " "))
	}
}

// descriptions are the alerts' rendered descriptions on the test's series.
var descriptions = map[string]string{
	"LimiterDegradedDownstream": "the min RTT (or the RTT, where no min RTT is exported) rose 2.00× while the limit sat at 4.00 (pinned at its floor, or at half its best or less). " + degradedAdvice,
	"LimiterOscillating":        "the limit's 10–90% band is 50% of its median 40.00, moving by more than its jitter (√limit) again and again in 5m. Lower the smoothing (the weight of the new target): halve it, e.g. 0.2 → 0.1, or lengthen the sample window; try candidates first with: limitscope tune FILE --sweep smoothing=0.05:0.3:0.05. (An AIMD limiter saws by design: a gradient limiter reacts before the queue fills.)",
	"LimiterPipelineBound":      "in-flight is 0.10 of the limit 100.00 and the limit turns away little demand. The pipeline, not the downstream, is the constraint: look upstream (producers, consumers, worker pools, batching).",
}

// degradedAdvice is diagnose's advice on a degraded downstream, which every
// LimiterDegradedDownstream description ends with.
const degradedAdvice = "The downstream degraded (it got slower, takes less than it did, or fails what it is sent): page its owner. The limiter is protecting it; raising the limit would only queue or lose more."

// collapseDescription is LimiterDegradedDownstream's description where the
// limit fell with losses (capacity lost with errors, the latency flat).
const collapseDescription = "the limit fell to 40% of its best while losses made 0.05 of what it let through (calm level 0.00). " + degradedAdvice

// swampedDescription is LimiterDegradedDownstream's description where the
// limit turns away most of the demand with losses (wherever it sits).
const swampedDescription = "the limit turned away 90% of demand while losses made 0.05 of what it let through (calm level 0.00). " + degradedAdvice

// flatDescription is LimiterDegradedDownstream's description where the
// limit turns away four fifths of the demand with losses at a flat latency.
const flatDescription = "the limit turned away 81.13% of demand while losses made 0.05 of what it let through (calm level 0.00). " + degradedAdvice

// withoutMinRTT leaves out a limiter's min-RTT series, as a limiter that
// keeps none (AIMD, failsafe-go) exports.
func withoutMinRTT(in []series) []series {
	var out []series
	for _, sr := range in {
		if !strings.HasPrefix(sr.name, "limiter_rtt_min_seconds") {
			out = append(out, sr)
		}
	}
	return out
}

// withDropped sets a limiter's dropped requests per second.
func withDropped(in []series, dropped []float64) []series {
	for i := range in {
		if strings.Contains(in[i].name, `outcome="dropped"`) {
			in[i].values = counter(dropped)
		}
	}
	return in
}

// TestAlertsFireOnTheirClassOnly runs promtool test rules on nine limiters,
// one per class, one that lost capacity with errors, one swamped, one
// swamped at four fifths with the latency flat, the same shares over a
// standing queue and one settled with brief back-offs, for 100 minutes:
// each alert fires on its class and no other (the exp_alerts lists are
// exhaustive).
func TestAlertsFireOnTheirClassOnly(t *testing.T) {
	square := make([]float64, steps+1) // 20 ↔ 40 every minute
	for i := range square {
		square[i] = 20 + 20*float64((i/4)%2)
	}
	shallow := make([]float64, steps+1) // 400, dipping to 300 one scrape in six
	for i := range shallow {
		shallow[i] = 400
		if i%6 == 0 {
			shallow[i] = 300
		}
	}
	var in []series
	// healthy: in-flight near a settled limit, a fifth of demand turned away
	in = append(in, limiterSeries("healthy", constant(40), constant(38), constant(0.020), constant(0.022), constant(400))...)
	// degraded: at 60 min the downstream slows 2×; the limit falls to its floor
	in = append(in, limiterSeries("degraded", from(40, 4, 240), from(38, 4, 240), from(0.020, 0.040, 240), from(0.022, 0.060, 240), constant(0))...)
	// oscillating: the limit swings 20 ↔ 40 every minute, saturated
	in = append(in, limiterSeries("oscillating", square, square, constant(0.020), constant(0.025), constant(0))...)
	// shallow: a settled limit with brief back-offs (its 10–90 % band 25 %
	// of the median, the middle half flat): diagnose calls it calm, and no
	// alert fires on it
	in = append(in, limiterSeries("shallow", shallow, shallow, constant(0.020), constant(0.022), constant(4000))...)
	// pipeline-bound: a tenth of the limit in use, nothing turned away
	in = append(in, limiterSeries("pipeline", constant(100), constant(10), constant(0.020), constant(0.021), constant(0))...)
	// collapse: at 60 min the downstream loses capacity and fails 5 % of
	// requests at the same latency; the limit falls to 40 % of its level
	in = append(in, withDropped(limiterSeries("collapse", from(40, 16, 240), from(38, 16, 240), constant(0.020), constant(0.022), constant(400)), from(0, 40, 240))...)
	// swamped: at 60 min the limit holds, but it turns away 90 % of demand
	// (nine times the 1727 completions a second) while 5 % of what
	// completes is lost
	in = append(in, withDropped(limiterSeries("swamped", constant(40), constant(38), constant(0.020), constant(0.022), from(400, 9*38/0.022, 240)), from(0, 0.05*38/0.022, 240))...)
	// flat: at 60 min the limit holds and turns away 81 % of demand (4.3
	// times what completes) while 5 % of what completes is lost, the RTT
	// at its level: swamped at a flat latency (diagnose's swampedFlatShare)
	in = append(in, withDropped(limiterSeries("flat", constant(40), constant(38), constant(0.020), constant(0.022), from(400, 4.3*38/0.022, 240)), from(0, 0.05*38/0.022, 240))...)
	// queued: the same shares over a queue the limit built (the RTT 2.5×
	// the min RTT throughout) — a limiter probing a small downstream's shed
	// point; no alert
	in = append(in, withDropped(limiterSeries("queued", constant(40), constant(38), constant(0.020), constant(0.050), from(0.25*38/0.050, 4.3*38/0.050, 240)), from(0, 0.05*38/0.050, 240))...)
	// each alert fires on these limiters and no other; the annotations
	// carry the numbers and diagnose's advice
	expect := map[string][]firing{
		"LimiterDegradedDownstream": {
			{"degraded", "slower", "critical", "degraded on svc:9090: the downstream degraded (latency 2.00× its lowest level in the last 1h)", descriptions["LimiterDegradedDownstream"]},
			{"collapse", "capacity-lost", "critical", "collapse on svc:9090: the downstream lost capacity (the limit at 40% of its best in the last 1h, with losses)", collapseDescription},
			{"swamped", "swamped", "critical", "swamped on svc:9090: the downstream takes a small share of the demand (the limit turns away 90% of it, with losses)", swampedDescription},
			{"flat", "swamped", "critical", "flat on svc:9090: the downstream takes a small share of the demand (the limit turns away 81.13% of it, with losses)", flatDescription},
		},
		"LimiterOscillating":   {{"oscillating", "", "warning", "oscillating on svc:9090: the limit swings widely (10–90% band 50% of its median)", descriptions["LimiterOscillating"]}},
		"LimiterPipelineBound": {{"pipeline", "", "info", "pipeline on svc:9090: the pipeline, not the downstream, is the constraint", descriptions["LimiterPipelineBound"]}},
	}
	promtoolAlerts(t, in, expect)
}

// firing is one alert promtool must see at 100 minutes.
type firing struct{ limiter, evidence, severity, summary, description string }

// promtoolAlerts runs promtool test rules over the limitscope preset's
// rules and the series in: at 100 minutes each alert named in expect fires
// on exactly the limiters listed (an alert not named is not checked).
func promtoolAlerts(t *testing.T, in []series, expect map[string][]firing) {
	t.Helper()
	promtoolAlertsOf(t, scrape.Presets["limitscope"], in, expect)
}

// without is the limitscope preset without its series of field f, as a
// limiter that does not export it.
func without(f trace.Field) scrape.Mapping {
	m := scrape.Presets["limitscope"]
	var specs []scrape.Spec
	for _, s := range m.Specs {
		if s.Field != f {
			specs = append(specs, s)
		}
	}
	m.Specs = specs
	return m
}

// promtoolAlertsOf is promtoolAlerts over mapping m's rules (the
// limitscope preset's families, less the series m leaves out).
func promtoolAlertsOf(t *testing.T, m scrape.Mapping, in []series, expect map[string][]firing) {
	t.Helper()
	promtool := testtools.Require(t, "promtool", "prometheus", "the alerts are unit-tested with the real promtool")
	dir := t.TempDir()
	var rules strings.Builder
	if err := Write(&rules, Options{Mapping: &m, Window: 5 * time.Minute, For: 10 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rules.yml"), []byte(rules.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	writeInputSeries(&b, in)
	b.WriteString("    alert_rule_test:\n")
	verdict := map[string]string{"LimiterDegradedDownstream": "degraded-downstream", "LimiterOscillating": "oscillating", "LimiterPipelineBound": "pipeline-bound"}
	for alert, fs := range expect {
		fmt.Fprintf(&b, "      - eval_time: 100m\n        alertname: %s\n        exp_alerts:\n", alert)
		for _, f := range fs {
			evidence := ""
			if f.evidence != "" {
				evidence = ", evidence: " + f.evidence
			}
			fmt.Fprintf(&b, "          - exp_labels: {job: api, instance: \"svc:9090\", limiter: %s, severity: %s, verdict: %s%s}\n", f.limiter, f.severity, verdict[alert], evidence)
			fmt.Fprintf(&b, "            exp_annotations:\n              summary: %q\n              description: %q\n              runbook_url: %q\n", f.summary, f.description, DefaultRunbook)
		}
	}
	test := filepath.Join(dir, "test.yml")
	if err := os.WriteFile(test, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(promtool, "test", "rules", test).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool test rules: %v\n%s", err, out)
	}
}

// A limit that falls to 40 % with losses while nothing is in flight at the
// median (a batch every fourth scrape, idle between) is no capacity lost:
// a limit nothing uses binds nothing. The same fall with in-flight against
// the limit fires capacity-lost, and so does a limit pinned at 1 losing no
// more than it lost while healthy, and one wandering at a quarter of its
// level whose losses rose five points over a calm level they did not
// double.
func TestCapacityLostNeedsInFlight(t *testing.T) {
	batches := make([]float64, steps+1)
	for i := range batches {
		if i%4 == 0 {
			batches[i] = 8
		}
	}
	var in []series
	in = append(in, withDropped(limiterSeries("collapse", from(40, 16, 240), from(38, 16, 240), constant(0.020), constant(0.022), constant(400)), from(0, 40, 240))...)
	in = append(in, withDropped(limiterSeries("unused", from(40, 16, 240), batches, constant(0.020), constant(0.022), constant(0)), from(0, 40, 240))...)
	// an AIMD that sheds 8 % of what it sends while healthy and, its
	// downstream cut, sits pinned at 1 losing 4 %: losses at no more than
	// their calm level, yet capacity lost (diagnose's pinned and lossy;
	// go-concurrency-limits' AIMD in rules/agreement_test.go)
	in = append(in, withDropped(limiterSeries("pinned", from(40, 1, 240), from(38, 1, 240), constant(0.020), constant(0.022), constant(400)), from(150, 1.9, 240))...)
	// a downstream that shed 15 % of what completed under a limit held
	// above it and, cut to a quarter, sheds 25 % of what completes under a
	// limit wandering 10–13: losses LossRiseShare above their calm level,
	// short of doubling it, with the limit neither flat nor pinned (the
	// simulator's Vector ARC at a capacity of 8 in diagnose's testdata)
	wander := make([]float64, steps+1)
	for i := range wander {
		wander[i] = 40
		if i >= 240 {
			wander[i] = float64(10 + 3*(i%2))
		}
	}
	in = append(in, withDropped(limiterSeries("shed", wander, from(38, 10, 240), constant(0.020), constant(0.022), constant(400)), from(0.15*38/0.022, 0.25*10/0.022, 240))...)
	promtoolAlerts(t, in, map[string][]firing{"LimiterDegradedDownstream": {
		{"collapse", "capacity-lost", "critical", "collapse on svc:9090: the downstream lost capacity (the limit at 40% of its best in the last 1h, with losses)", collapseDescription},
		{"shed", "capacity-lost", "critical", "shed on svc:9090: the downstream lost capacity (the limit at 25% of its best in the last 1h, with losses)",
			"the limit fell to 25% of its best while losses made 0.20 of what it let through (calm level 0.13). " + degradedAdvice},
		{"pinned", "capacity-lost", "critical", "pinned on svc:9090: the downstream lost capacity (the limit at 2.5% of its best in the last 1h, with losses)",
			"the limit fell to 2.5% of its best while losses made 0.04 of what it let through (calm level 0.04). " + degradedAdvice},
	}})
}

// A downstream that fails what it is sent while the limit is far from
// binding fires LimiterDegradedDownstream's failing rule, as diagnose's:
// at 60 minutes a controller fed fast errors runs its limit from 40 to 220
// while in-flight falls to 18 and losses make 60 % of what it lets through
// (LimiterPipelineBound, which in-flight at 8 % of the limit would fire,
// stays quiet). Not where the losses are a queue's excess: completions held
// at their best behind an RTT 2.5× up, 10 % lost, in-flight at 43 % of the
// limit (overloaded) — a pipeline-bound reading there, as diagnose's. A
// limiter losing 40 % from its first minute at half its limit fires too
// (no calm level of losses ever formed); one losing 10 % while it fills
// its limit (an AIMD probing its downstream's shed point) does not, nor
// does a batch pipeline bursting into its limit every 4 minutes whose
// losses all come while it turns demand away (LostBindingShare), though
// in-flight averages under a third of the limit: it is pipeline-bound.
// Losses of two thirds of what it lets through in those bursts are
// failing, wherever they fall (LostMostOpening).
func TestFailingDownstreamFires(t *testing.T) {
	var in []series
	in = append(in, withDropped(limiterSeries("shedding", constant(130), constant(60), constant(0.020), constant(0.022), constant(0)), constant(60/0.022*2/3))...)
	in = append(in, withDropped(limiterSeries("probing", constant(40), constant(38), constant(0.020), constant(0.022), constant(400)), constant(38/0.022/9))...)
	in = append(in, withDropped(limiterSeries("failing", from(40, 220, 240), from(38, 18, 240), constant(0.020), constant(0.022), constant(0)), from(0, 1.5*18/0.022, 240))...)
	in = append(in, withDropped(limiterSeries("overloaded", from(40, 220, 240), from(38, 95, 240), constant(0.020), from(0.022, 0.055, 240), constant(0)), from(0, 95/0.055/9, 240))...)
	// a batch every 4 minutes: 1 minute pressed against a limit of 20,
	// turning demand away and losing 30 % of completions, then 1 request
	burst := func(in, out float64) []float64 {
		v := constant(out)
		for i := range v {
			if i%16 < 4 {
				v[i] = in
			}
		}
		return v
	}
	in = append(in, withDropped(limiterSeries("bursting", constant(20), burst(20, 1), constant(0.020), constant(0.022), burst(300, 0)), burst(0.3*20/0.022, 0))...)
	in = append(in, withDropped(limiterSeries("bursts-failing", constant(20), burst(20, 1), constant(0.020), constant(0.022), burst(300, 0)), burst(3*20/0.022, 0))...)
	promtoolAlerts(t, in, map[string][]firing{
		"LimiterDegradedDownstream": {{"failing", "failing", "critical",
			"failing on svc:9090: the downstream fails what it is sent (losses make 60% of what the limit lets through)",
			"losses made 60% of what the limit let through (calm level 0.00) with in-flight at 0.08 of the limit and completions at 0.47 of their best. " + degradedAdvice},
			{"bursts-failing", "failing", "critical",
				"bursts-failing on svc:9090: the downstream fails what it is sent (losses make 68.73% of what the limit lets through)",
				"losses made 68.73% of what the limit let through (calm level 0.68) with in-flight at 0.28 of the limit and completions at 0.67 of their best. " + degradedAdvice},
			{"shedding", "failing", "critical",
				"shedding on svc:9090: the downstream fails what it is sent (losses make 40% of what the limit lets through)",
				"losses made 40% of what the limit let through (calm level 0.40) with in-flight at 0.46 of the limit and completions at 1.00 of their best. " + degradedAdvice}},
		"LimiterPipelineBound": {{"overloaded", "", "info",
			"overloaded on svc:9090: the pipeline, not the downstream, is the constraint",
			"in-flight is 0.43 of the limit 220.00 and the limit turns away little demand. " + diagnose.Advice(diagnose.PipelineBound)},
			{"bursting", "", "info",
				"bursting on svc:9090: the pipeline, not the downstream, is the constraint",
				"in-flight is 0.28 of the limit 20.00 and the limit turns away little demand. " + diagnose.Advice(diagnose.PipelineBound)}},
	})
}

// A downstream whose requests stop succeeding (the RTT's count flat from
// minute 60, so the RTT, a mean of successes, is NaN) while 8 stay in flight
// under a limit of 20 fires LimiterDegradedDownstream's stalled rule, and
// not LimiterPipelineBound, which its in-flight at 40 % of the limit would;
// the same limiter whose requests keep succeeding is pipeline-bound.
func TestStalledDownstreamFires(t *testing.T) {
	stalled := limiterSeries("stalled", constant(20), constant(8), constant(0.020), constant(0.022), constant(0))
	for i := range stalled {
		if strings.Contains(stalled[i].name, "limiter_rtt_seconds_") {
			for k := 240; k <= steps; k++ {
				stalled[i].values[k] = stalled[i].values[239] // nothing succeeds
			}
		}
	}
	in := append(stalled, limiterSeries("working", constant(20), constant(8), constant(0.020), constant(0.022), constant(0))...)
	promtoolAlerts(t, in, map[string][]firing{
		"LimiterDegradedDownstream": {{"stalled", "stalled", "critical",
			"stalled on svc:9090: the downstream completes nothing it is sent (no request succeeded in the last 5m, 8 in flight)",
			"no request succeeded in 5m while in-flight held 8 by its median: the downstream completes nothing it is sent. " + degradedAdvice}},
		"LimiterPipelineBound": {{"working", "", "info",
			"working on svc:9090: the pipeline, not the downstream, is the constraint",
			"in-flight is 0.40 of the limit 20.00 and the limit turns away little demand. " + diagnose.Advice(diagnose.PipelineBound)}},
	})
}

// A limiter that exports no rejections is pipeline-bound, as diagnose
// judges it, when in-flight is under 80 % of the limit and seldom reaches
// it (one request under a limit of 2 does not); in-flight at about the
// same mean that touches the limit every third scrape is bound by it.
func TestPipelineBoundWithoutRejections(t *testing.T) {
	m := without(trace.FieldRejected)
	var rules strings.Builder
	if err := Write(&rules, Options{Mapping: &m, Window: 5 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rules.String(), "limitscope:at_limit_share:5m") {
		t.Fatalf("no at-limit share without a rejected series:\n%s", rules.String())
	}
	touching := make([]float64, steps+1) // 20, 50, 35, 20, 50, 35, …: a mean of 0.7 of the limit, at it a third of the time
	for i := range touching {
		touching[i] = []float64{20, 50, 35}[i%3]
	}
	var in []series
	in = append(in, limiterSeries("pool", constant(50), constant(30), constant(0.020), constant(0.021), constant(0))...)
	in = append(in, limiterSeries("bound", constant(50), touching, constant(0.020), constant(0.021), constant(0))...)
	// one request in flight under a limit of 2 (a single worker): one
	// below the limit is half of it, not at it (AtLimitSlackMax)
	in = append(in, limiterSeries("single", constant(2), constant(1), constant(0.020), constant(0.021), constant(0))...)
	promtoolAlertsOf(t, m, in, map[string][]firing{"LimiterPipelineBound": {{"pool", "", "info",
		"pool on svc:9090: the pipeline, not the downstream, is the constraint",
		"in-flight is 0.60 of the limit 50.00 and the limit turns away little demand. " + diagnose.Advice(diagnose.PipelineBound)},
		{"single", "", "info",
			"single on svc:9090: the pipeline, not the downstream, is the constraint",
			"in-flight is 0.50 of the limit 2.00 and the limit turns away little demand. " + diagnose.Advice(diagnose.PipelineBound)}}})
}

// Where no losses are exported (Vector, Envoy), a limit that fell to half
// or less and is nailed to one value with in-flight pressed against it
// fires LimiterDegradedDownstream's floor rule, as diagnose's
// pressed-to-its-floor: a limit that took fractional values, nailed at its
// configured minimum of 4, and an integer limit at 1. Not an integer limit
// nailed at 14 (Vegas at its own equilibrium), one jittering around its new
// level (following a smaller downstream), nor one nothing fills.
func TestFloorWithoutLossesFires(t *testing.T) {
	m := without(trace.FieldDropped)
	jittering := from(40.3, 16, 240)
	for i := 240; i <= steps; i++ {
		jittering[i] += float64(i%3 - 1)
	}
	var in []series
	in = append(in, limiterSeries("minimum", from(40.3, 4, 240), from(38, 4, 240), constant(0.020), constant(0.022), constant(400))...)
	in = append(in, limiterSeries("one", from(40, 1, 240), from(38, 1, 240), constant(0.020), constant(0.022), constant(400))...)
	in = append(in, limiterSeries("equilibrium", from(40, 14, 240), from(38, 14, 240), constant(0.020), constant(0.022), constant(400))...)
	in = append(in, limiterSeries("following", jittering, from(38, 15, 240), constant(0.020), constant(0.022), constant(400))...)
	in = append(in, limiterSeries("unused", from(40.3, 4, 240), from(38, 1, 240), constant(0.020), constant(0.022), constant(0))...)
	floor := func(name, share, median string) firing {
		return firing{name, "floor", "critical",
			name + " on svc:9090: the limiter is held at its minimum (the limit at " + share + " of its best in the last 1h, nailed there)",
			"the limit fell to " + share + " of its best and sits nailed at " + median + " with in-flight at 1.00 of it; losses are not exported, so whether the downstream fails or got slower cannot be told. " + degradedAdvice}
	}
	promtoolAlertsOf(t, m, in, map[string][]firing{"LimiterDegradedDownstream": {
		floor("minimum", "9.926%", "4.00"),
		floor("one", "2.5%", "1.00"),
	}})
}

// A downstream that got slower under a limit that held (diagnose's slower
// downstream wherever a limit that did not grow sits, and its shedsSlower)
// fires LimiterDegradedDownstream's slower-held rule: at 60 minutes the min
// RTT and the RTT triple while the limit holds around 22 with 19 in flight
// (completions at a third), or while a limit holds around 150 and in-flight
// falls from 140 to 43 (the rest shed as fast failures). The limits jitter
// by ±10 %, as a held limit does: a flat one reads as pinned at its floor,
// which the slower rule covers. A limit that fell and climbed part of the
// way back held too. Not where only the RTT rose (the min RTT
// flat: a queue), where the limit grew with it, nor where in-flight fell
// under a fifth of the limit, flat at its maximum or not.
func TestSlowerWithTheLimitHeldFires(t *testing.T) {
	tripled := func(v float64) []float64 { return from(v, 3*v, 240) }
	held := func(level float64) []float64 { // level, +10 %, level, −10 %, …
		out := constant(level)
		for i := range out {
			out[i] *= []float64{1, 1.1, 1, 0.9}[i%4]
		}
		return out
	}
	grown := held(22)
	for i := 240; i <= steps; i++ {
		grown[i] *= 2
	}
	var in []series
	in = append(in, limiterSeries("held", held(22), constant(19), tripled(0.020), tripled(0.022), constant(0))...)
	in = append(in, limiterSeries("sheds", held(150), from(140, 43, 240), from(0.020, 0.052, 240), tripled(0.022), constant(0))...)
	in = append(in, limiterSeries("queue", held(22), constant(19), constant(0.020), tripled(0.022), constant(0))...)
	in = append(in, limiterSeries("grown", grown, constant(19), tripled(0.020), tripled(0.022), constant(0))...)
	in = append(in, limiterSeries("idle", held(150), from(140, 14, 240), tripled(0.020), tripled(0.022), constant(0))...)
	// a limit resting flat at its maximum (so at its lowest of the hour:
	// "pinned") under a load falling to a tenth of it: diagnose reads
	// pipeline-bound, and the slower rule paged on it before it asked that
	// demand fill the limit
	in = append(in, limiterSeries("atmax", constant(150), from(140, 14, 240), tripled(0.020), tripled(0.022), constant(0))...)
	// a limit that fell to 16 and climbed back to 28 of the 40 it held, as
	// go-concurrency-limits' Gradient2 does once its long RTT average
	// catches up: held (not past the level it held at a calm RTT), where
	// its lowest window (16) once set the bar
	climbed := held(40)
	for i := 240; i <= steps; i++ {
		climbed[i] *= 0.7
		if i < 260 {
			climbed[i] *= 0.4 / 0.7
		}
	}
	climbedIn := from(36, 25.2, 240)
	for i := 240; i < 260; i++ {
		climbedIn[i] = 14.4
	}
	in = append(in, limiterSeries("climbed", climbed, climbedIn, tripled(0.020), tripled(0.022), constant(0))...)
	// a saw-tooth (25 ↔ 40 every minute, saturated) whose downstream's
	// latency triples: a swing around the level it held while the min RTT
	// tripled (diagnose's swingHeld) is slower-held, not oscillating; the
	// same swing with the min RTT up 1.6× stays oscillating
	saw := make([]float64, steps+1)
	for i := range saw {
		saw[i] = 25 + 15*float64((i/4)%2)
	}
	in = append(in, limiterSeries("saw", saw, saw, tripled(0.020), tripled(0.022), constant(0))...)
	in = append(in, limiterSeries("sawmild", saw, saw, from(0.020, 0.032, 240), tripled(0.022), constant(0))...)
	// the "held" limiter exporting no min RTT (AIMD, failsafe-go): judged
	// on the RTT, as diagnose's proxy
	in = append(in, withoutMinRTT(limiterSeries("nomin", held(22), constant(19), tripled(0.020), tripled(0.022), constant(0)))...)
	// the same limiter pinned at 4 (its floor) as its RTT triples and
	// completions fall to 4 %: the slower rule on the RTT, not
	// slower-fallen beside it
	in = append(in, withoutMinRTT(limiterSeries("nominpinned", from(40, 4, 240), from(38, 4, 240), constant(0.020), tripled(0.022), constant(0)))...)
	// a limit fallen from 40 to 11, calm, in-flight against it, while the
	// RTT rose 1.6× and the min RTT stayed (a no-load estimate kept until
	// it probes): completions at 17 % — slower-fallen
	in = append(in, limiterSeries("fallen", from(40, 11, 240), from(40, 11, 240), constant(0.020), from(0.022, 0.035, 240), constant(0))...)
	promtoolAlerts(t, in, map[string][]firing{"LimiterOscillating": {
		{"sawmild", "", "warning", "sawmild on svc:9090: the limit swings widely (10–90% band 37.5% of its median)",
			"the limit's 10–90% band is 37.5% of its median 40.00, moving by more than its jitter (√limit) again and again in 5m. " + diagnose.Advice(diagnose.Oscillating)},
	}, "LimiterDegradedDownstream": {
		{"climbed", "slower-held", "critical", "climbed on svc:9090: the downstream got slower (completions at 23.33% of their best in the last 1h, the limit held)",
			"completions fell to 23.33% of their best while the RTT rose 3.00× (the min RTT 3.00×) with the limit held at 28.00. " + degradedAdvice},
		{"fallen", "slower-fallen", "critical", "fallen on svc:9090: the downstream got slower (completions at 17.29% of their best in the last 1h, the limit fell to half or less)",
			"completions fell to 17.29% of their best while the RTT rose 1.59× and the limit fell to 11.00, 0.28 of its best. " + degradedAdvice},
		{"held", "slower-held", "critical", "held on svc:9090: the downstream got slower (completions at 33.33% of their best in the last 1h, the limit held)",
			"completions fell to 33.33% of their best while the RTT rose 3.00× (the min RTT 3.00×) with the limit held at 22.00. " + degradedAdvice},
		{"nominpinned", "slower", "critical", "nominpinned on svc:9090: the downstream degraded (latency 3.00× its lowest level in the last 1h)",
			"the min RTT (or the RTT, where no min RTT is exported) rose 3.00× while the limit sat at 4.00 (pinned at its floor, or at half its best or less). " + degradedAdvice},
		{"nomin", "slower-held", "critical", "nomin on svc:9090: the downstream got slower (completions at 33.33% of their best in the last 1h, the limit held)",
			"completions fell to 33.33% of their best while the RTT rose 3.00× with the limit held at 22.00. " + degradedAdvice},
		{"saw", "slower-held", "critical", "saw on svc:9090: the downstream got slower (completions at 33.33% of their best in the last 1h, the limit held)",
			"completions fell to 33.33% of their best while the RTT rose 3.00× (the min RTT 3.00×) with the limit held at 40.00. " + degradedAdvice},
		{"sheds", "slower-held", "critical", "sheds on svc:9090: the downstream got slower (completions at 10.24% of their best in the last 1h, the limit held)",
			"completions fell to 10.24% of their best while the RTT rose 3.00× (the min RTT 2.60×) with the limit held at 150.00. " + degradedAdvice},
	}})
}
