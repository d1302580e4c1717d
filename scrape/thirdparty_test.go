package scrape

import (
	"context"
	"math"
	"testing"
	"time"

	gclcore "github.com/platinummonkey/go-concurrency-limits/core"
	gcllimit "github.com/platinummonkey/go-concurrency-limits/limit"
	dto "github.com/prometheus/client_model/go"

	"github.com/limitscope/limitscope/internal/thirdpartytest"
	"github.com/limitscope/limitscope/trace"
)

// TestGoConcurrencyLimitsRealLibrary runs go-concurrency-limits v1.0.0 for
// real: Gradient2 and Vegas limiters (its DefaultLimiter, its Prometheus
// registry) in front of a capacity-limited downstream under load, served on
// loopback. Every scrape's samples must match, within 5 %, what the library
// exposed in that same scrape: limit, in-flight and min RTT per limiter, with
// no bogus targets from its helper families.
func TestGoConcurrencyLimitsRealLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real library under load for a few seconds")
	}
	limiters := map[string]bool{"g2": true, "vegas": true}
	svc := thirdpartytest.GoConcurrencyLimits(t, 12, 5*time.Millisecond, func(r gclcore.MetricRegistry) map[string]gclcore.Limit {
		return map[string]gclcore.Limit{
			"g2":    gcllimit.NewDefaultGradient2Limit("g2", nil, r),
			"vegas": gcllimit.NewDefaultVegasLimit("vegas", nil, r),
		}
	})
	ctx := context.Background()
	// the test checks what each scrape read, not how fast: under -race on
	// a loaded two-core runner one scrape of the library under load took
	// longer than the default timeout (80 % of the interval, 240 ms)
	src, err := NewHTTPSource([]string{svc.URL}, HTTPConfig{Interval: 300 * time.Millisecond, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var got [][]trace.Sample
	for i := 0; i < 12; i++ {
		time.Sleep(300 * time.Millisecond)
		samples, errs := src.Scrape(ctx)
		if len(errs) > 0 {
			t.Fatalf("scrape %d: %v", i, errs)
		}
		got = append(got, samples)
	}
	served := svc.Served()
	if p := src.Statuses()[0].Preset; p != "go-concurrency-limits" {
		t.Fatalf("detected preset %q", p)
	}
	// what the library exposed: the limit gauge, and the interval means of
	// its in-flight and min-RTT summaries between consecutive scrapes
	value := func(fams []*dto.MetricFamily, name string) (v, sum, count float64) {
		for _, f := range fams {
			if f.GetName() != name {
				continue
			}
			m := f.GetMetric()[0]
			if m.Summary != nil {
				return 0, m.Summary.GetSampleSum(), float64(m.Summary.GetSampleCount())
			}
			return m.GetGauge().GetValue(), 0, 0
		}
		return math.NaN(), 0, 0
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= 0.05*math.Max(math.Abs(b), 1e-9) }
	checked := map[string]int{}
	for i := 1; i < len(got); i++ {
		targets := map[string]trace.Sample{}
		for _, s := range got[i] {
			targets[s.Target] = s
		}
		for name := range targets {
			if _, ok := limiters[name]; !ok {
				t.Errorf("scrape %d: bogus target %q (targets %v)", i, name, targets)
			}
		}
		for name := range limiters {
			s, ok := targets[name]
			if !ok {
				t.Fatalf("scrape %d: no samples of %s (targets %v)", i, name, targets)
			}
			lim, _, _ := value(served[i], "limiter_"+name+"_limit")
			if !s.Has(trace.FieldLimit) || !close(s.Limit, lim) {
				t.Errorf("scrape %d %s: limit %v, the library exposed %v", i, name, s.Limit, lim)
			}
			_, s0, c0 := value(served[i-1], "limiter_"+name+"_inflight")
			_, s1, c1 := value(served[i], "limiter_"+name+"_inflight")
			if c1 > c0 {
				if want := (s1 - s0) / (c1 - c0); !s.Has(trace.FieldInFlight) || !close(s.InFlight, want) {
					t.Errorf("scrape %d %s: in-flight %v, the library's interval mean %v", i, name, s.InFlight, want)
				}
				checked[name+" in-flight"]++
			}
			_, s0, c0 = value(served[i-1], "limiter_"+name+"_min_rtt")
			_, s1, c1 = value(served[i], "limiter_"+name+"_min_rtt")
			if c1 > c0 {
				if want := (s1 - s0) / (c1 - c0) / 1e6; !s.Has(trace.FieldRTTMin) || !close(s.RTTMinMs, want) {
					t.Errorf("scrape %d %s: min RTT %v ms, the library's interval mean %v ms", i, name, s.RTTMinMs, want)
				}
				checked[name+" min RTT"]++
			}
		}
	}
	for _, k := range []string{"g2 in-flight", "g2 min RTT", "vegas in-flight", "vegas min RTT"} {
		if checked[k] < 5 {
			t.Errorf("%s compared in only %d intervals (the library observed too little)", k, checked[k])
		}
	}
	t.Logf("compared %v", checked)
}

// Layouts of go-concurrency-limits the integration test does not produce:
// another namespace, a strategy-only page (attributed to go-concurrency-
// limits, not to limitscope), helper families that must not become targets;
// and a summary read at a named quantile through a custom mapping.
func TestGoConcurrencyLimitsLayoutsAndQuantiles(t *testing.T) {
	page := func(s string) map[string]*dto.MetricFamily {
		f, err := ParseExposition([]byte(s), "page")
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	orders := page(`# TYPE orders_api_limit gauge
orders_api_limit 40
# TYPE orders_api_inflight summary
orders_api_inflight_sum 300
orders_api_inflight_count 10
# TYPE orders_queue_limit gauge
orders_queue_limit 100
# TYPE orders_api_window_min_rtt summary
orders_api_window_min_rtt_sum 1e7
orders_api_window_min_rtt_count 1
`)
	m, err := Detect(orders)
	if err != nil || m.Name != "go-concurrency-limits" {
		t.Fatalf("namespace orders: %v %q", err, m.Name)
	}
	got := NewMapper(m).Map(orders, time.Unix(0, 0))
	if len(got) != 1 || got[0].Target != "api" || got[0].Limit != 40 {
		t.Fatalf("namespace orders: %+v (helpers must not become targets)", got)
	}
	strategy := page(`# TYPE limiter_limit gauge
limiter_limit 20
# TYPE limiter_inflight summary
limiter_inflight_sum 50
limiter_inflight_count 5
`)
	if m, err := Detect(strategy); err != nil || m.Name != "go-concurrency-limits" {
		t.Fatalf("strategy-only page: %v %q", err, m.Name)
	}
	q, err := ParseMatcher(`orders_api_inflight{quantile="0.5"}`)
	if err != nil {
		t.Fatal(err)
	}
	summary := page(`# TYPE orders_api_inflight summary
orders_api_inflight{quantile="0.5"} 17
orders_api_inflight{quantile="0.99"} 30
orders_api_inflight_sum 300
orders_api_inflight_count 10
# TYPE orders_api_limit gauge
orders_api_limit 40
`)
	lim, _ := ParseMatcher("orders_api_limit")
	custom := Mapping{Name: "custom", Specs: []Spec{{trace.FieldLimit, lim, Gauge, 0}, {trace.FieldInFlight, q, Gauge, 0}}}
	got = NewMapper(custom).Map(summary, time.Unix(0, 0))
	if len(got) != 1 || !got[0].Has(trace.FieldInFlight) || got[0].InFlight != 17 {
		t.Fatalf("quantile 0.5 of a summary: %+v", got)
	}
}

// TestFailsafeGoBehindMimirsRegistration runs failsafe-go v0.9.8's adaptive
// limiter for real, registered the way Grafana Mimir's distributor and
// ingester register theirs (pkg/distributor and pkg/ingester
// registerReactiveLimiterMetrics in grafana/mimir: GaugeFuncs of Limit(),
// Inflight() and Queued(), the ingester's with a request_type const label),
// under load on loopback. Every scrape must carry exactly what the library
// exposed in it, for both layouts.
func TestFailsafeGoBehindMimirsRegistration(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real library under load for a few seconds")
	}
	svc := thirdpartytest.FailsafeGoBehindMimir(t)
	ctx := context.Background()
	// a generous timeout, as TestGoConcurrencyLimitsRealLibrary's
	src, err := NewHTTPSource([]string{svc.URL}, HTTPConfig{Interval: 300 * time.Millisecond, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		time.Sleep(250 * time.Millisecond)
		samples, errs := src.Scrape(ctx)
		if len(errs) > 0 {
			t.Fatalf("scrape %d: %v", i, errs)
		}
		if p := src.Statuses()[0].Preset; p != "mimir-reactive-limiter" {
			t.Fatalf("detected preset %q", p)
		}
		served := svc.Served()
		gauge := func(name, label string) float64 {
			for _, f := range served[len(served)-1] {
				if f.GetName() != name {
					continue
				}
				for _, m := range f.GetMetric() {
					if label == "" || len(m.GetLabel()) > 0 && m.GetLabel()[0].GetValue() == label {
						return m.GetGauge().GetValue()
					}
				}
			}
			return math.NaN()
		}
		byTarget := map[string]trace.Sample{}
		for _, s := range samples {
			byTarget[s.Target] = s
		}
		if len(byTarget) != 2 {
			t.Fatalf("scrape %d: targets %v, want distributor and push", i, byTarget)
		}
		for target, prefix := range map[string]string{"distributor": "cortex_distributor_reactive_limiter_", "push": "cortex_ingester_reactive_limiter_"} {
			label := ""
			if target == "push" {
				label = "push"
			}
			s := byTarget[target]
			if s.Limit != gauge(prefix+"inflight_limit", label) || s.InFlight != gauge(prefix+"inflight_requests", label) {
				t.Errorf("scrape %d %s: limit %v in-flight %v, the library exposed %v and %v", i, target, s.Limit, s.InFlight,
					gauge(prefix+"inflight_limit", label), gauge(prefix+"inflight_requests", label))
			}
		}
	}
}

// A family of the library that no pattern claims is reported once as
// ignored, never made a target; unrelated families are not reported.
func TestUnclaimedLibraryFamiliesAreReportedNotTargets(t *testing.T) {
	page, err := ParseExposition([]byte(`# TYPE limiter_api_limit gauge
limiter_api_limit 40
# TYPE limiter_api_inflight summary
limiter_api_inflight_sum 300
limiter_api_inflight_count 10
# TYPE limiter_api_burst_rtt summary
limiter_api_burst_rtt_sum 5
limiter_api_burst_rtt_count 1
# TYPE process_open_fds_limit gauge
process_open_fds_limit 1024
`), "page")
	if err != nil {
		t.Fatal(err)
	}
	mp := NewMapper(Presets["go-concurrency-limits"])
	got := mp.Map(page, time.Unix(0, 0))
	mp.Map(page, time.Unix(1, 0))
	if len(got) != 1 || got[0].Target != "api" {
		t.Fatalf("targets %+v", got)
	}
	if len(mp.Ignored) != 1 || mp.Ignored[0] != "limiter_api_burst_rtt" {
		t.Fatalf("ignored %v, want [limiter_api_burst_rtt] once", mp.Ignored)
	}
}
