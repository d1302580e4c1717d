package scrape_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	gclcore "github.com/platinummonkey/go-concurrency-limits/core"
	gcllimit "github.com/platinummonkey/go-concurrency-limits/limit"
	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/model"

	"github.com/limitscope/limitscope/internal/testtools"
	"github.com/limitscope/limitscope/internal/thirdpartytest"
	"github.com/limitscope/limitscope/rules"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/trace"
)

// TestLibraryPresetsThroughPrometheus reads the library presets' series
// through a real Prometheus server (the fleet source and the preset's
// rules): go-concurrency-limits and failsafe-go (as Grafana Mimir
// registers it) run for real, Netflix's layout as a Micrometer registry
// renders it, tagged and as a release tags it, Envoy's as its admin
// endpoint renders it, Vector's as its prometheus_exporter sink does. Each
// setup starts its own server and returns its checks; the series must be
// a rate's window old (a minute) and more, so all are started before the
// one wait.
func TestLibraryPresetsThroughPrometheus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real Prometheus servers for over a minute")
	}
	checks := []struct {
		name  string
		check func(t *testing.T, at time.Time)
	}{
		{"go-concurrency-limits", gclThroughPrometheus(t)},
		{"netflix", netflixThroughPrometheus(t)},
		{"netflix release", netflixReleaseThroughPrometheus(t)},
		{"mimir-reactive-limiter", mimirThroughPrometheus(t)},
		{"envoy", envoyThroughPrometheus(t)},
		{"vector", vectorThroughPrometheus(t)},
	}
	time.Sleep(70 * time.Second)
	at := time.Now()
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) { c.check(t, at) })
	}
}

// gclThroughPrometheus reads go-concurrency-limits v1.0.0, run for
// real (Gradient2 and Vegas behind its DefaultLimiter, its Prometheus
// registry), through a real Prometheus server: the fleet source and the
// rules of the go-concurrency-limits preset must give each limiter its
// own limit, in-flight, min RTT, RTT and losses — as Prometheus itself
// computes them from that limiter's families — and no other target. The
// library names every limiter's families <ns>_<limiter>_… and exports
// in-flight and the RTTs as summaries without quantiles: before the
// preset read them as means and the rates kept the limiter, the fleet
// source failed outright ("vector cannot contain metrics with the same
// labelset") and the rules recorded no in-flight and no min RTT, and one
// RTT for both limiters.
func gclThroughPrometheus(t *testing.T) func(*testing.T, time.Time) {
	preset := scrape.Presets["go-concurrency-limits"]
	ruleFile := writeRules(t, preset)
	svc := thirdpartytest.GoConcurrencyLimits(t, 12, 5*time.Millisecond, func(r gclcore.MetricRegistry) map[string]gclcore.Limit {
		return map[string]gclcore.Limit{
			"g2":    gcllimit.NewDefaultGradient2Limit("g2", nil, r),
			"vegas": gcllimit.NewDefaultVegasLimit("vegas", nil, r),
		}
	})
	promURL := testtools.StartPrometheus(t, "1s", scrapeTarget(svc.URL), ruleFile)
	return func(t *testing.T, at time.Time) {
		query := promQuery(t, promURL)
		// what Prometheus computes from each limiter's own families at
		// the instant at
		wantAt := func(at time.Time) map[string]map[trace.Field]float64 {
			want := map[string]map[trace.Field]float64{}
			for _, lim := range []string{"g2", "vegas"} {
				one := func(q string) float64 { return oneValue(t, query, q, at) }
				mean := func(fam string) float64 {
					return one(fmt.Sprintf("rate(limiter_%s_%s_sum[1m]) / rate(limiter_%s_%s_count[1m])", lim, fam, lim, fam))
				}
				want[lim] = map[trace.Field]float64{
					trace.FieldLimit:    one("limiter_" + lim + "_limit"),
					trace.FieldInFlight: mean("inflight"),
					trace.FieldRTTMin:   mean("min_rtt") / 1e6, // nanoseconds to ms
					trace.FieldRTT:      mean("rtt_ms") / 1e6,
					trace.FieldDropped:  0, // the service drops nothing
				}
			}
			return want
		}
		want := wantAt(at)
		// helpers such as g2's window_min_rtt are no target
		checkFleetSource(t, promURL, preset, at, want)

		// the rules' normalised series, one per limiter, against the
		// families at each rule's evaluation
		wantEvaluated := map[time.Time]map[string]map[trace.Field]float64{}
		for _, r := range []struct {
			record string
			field  trace.Field
			scale  float64
		}{
			{"limitscope:limit", trace.FieldLimit, 1},
			{"limitscope:in_flight", trace.FieldInFlight, 1},
			{"limitscope:rtt_min_seconds", trace.FieldRTTMin, 1000},
			{"limitscope:rtt_seconds", trace.FieldRTT, 1000},
			{"limitscope:dropped:rate1m", 0, 0},
		} {
			got := map[string]float64{}
			for _, s := range query(r.record, at) {
				got[string(s.Metric["limiter"])] = float64(s.Value)
			}
			if len(got) != 2 {
				t.Errorf("rules: %s has series for %v, want g2 and vegas", r.record, got)
				continue
			}
			for lim, v := range got {
				if _, ok := want[lim]; !ok {
					t.Errorf("rules: %s for limiter %q, want g2 and vegas", r.record, lim)
					continue
				}
				if r.field == 0 {
					if v != 0 {
						t.Errorf("rules: %s for %s is %v, want 0", r.record, lim, v)
					}
					continue
				}
				// a recorded sample is the rule's last evaluation, up to
				// an evaluation interval before at, and the live limit
				// moves between: compare with the families at that
				// evaluation (Vegas' limit went from 13 to 19 in between)
				evaluated := oneValue(t, query, fmt.Sprintf("timestamp(%s{limiter=%q})", r.record, lim), at)
				when := time.Unix(0, int64(evaluated*1e9))
				if _, ok := wantEvaluated[when]; !ok {
					// one group evaluates its rules together: query the
					// families once per evaluation
					wantEvaluated[when] = wantAt(when)
				}
				if w := wantEvaluated[when][lim][r.field]; !near(v*r.scale, w) {
					t.Errorf("rules: %s for %s is %v, want %v (at its evaluation, %v)", r.record, lim, v*r.scale, w, when.UTC().Format(time.RFC3339Nano))
				}
			}
		}
	}
}

// promQuery returns an instant query of the Prometheus server at url.
func promQuery(t *testing.T, url string) func(q string, at time.Time) model.Vector {
	client, err := api.NewClient(api.Config{Address: url})
	if err != nil {
		t.Fatal(err)
	}
	prom := v1.NewAPI(client)
	return func(q string, at time.Time) model.Vector {
		t.Helper()
		v, _, err := prom.Query(context.Background(), q, at)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return v.(model.Vector)
	}
}

// netflixThroughPrometheus reads Netflix concurrency-limits' series, laid out as
// the Micrometer registry of its pull request 226 renders them to
// Prometheus (MicrometerMetricRegistry: MetricIds prefixed
// "netflix.concurrency.limits.", distributions as DistributionSummary — a
// summary without quantiles beside a _max gauge — every series tagged with
// its limiter's id), through a real Prometheus server: two limiters, a
// Gradient2 (whose min_window_rtt is the window's average RTT,
// limit/Gradient2Limit.java) and a Vegas (which exports none: Little's
// law gives it, from its in-flight and its finished calls). The Java
// library cannot run here; the layout is its registry's. Before the preset
// read the distributions as means, the fleet source and the rules found no
// in-flight and no min RTT; before it mapped min_window_rtt, no RTT.
func netflixThroughPrometheus(t *testing.T) func(*testing.T, time.Time) {
	srv := netflixServer(t, false)
	preset := scrape.Presets["netflix"]
	ruleFile := writeRules(t, preset)
	promURL := testtools.StartPrometheus(t, "1s", scrapeTarget(srv.URL), ruleFile)
	return func(t *testing.T, at time.Time) {
		query := promQuery(t, promURL)
		checkFleetSource(t, promURL, preset, at, map[string]map[trace.Field]float64{
			"grpc-server": {trace.FieldLimit: 40, trace.FieldInFlight: 30, trace.FieldRTTMin: 20, trace.FieldRTT: 30, trace.FieldDropped: 10}, // ten a second, read every second
			// batch's Vegas exports no RTT: Little's law gives it, in-flight
			// 4 over twenty calls finished a second
			"batch": {trace.FieldLimit: 10, trace.FieldInFlight: 4, trace.FieldRTTMin: 50, trace.FieldRTT: 200, trace.FieldDropped: 10},
		})
		// the same families named by flags (a custom mapping, whose kinds
		// are guesses: in-flight and the min RTT as gauges, the RTT as a
		// mean): the server's metadata says which are summaries (inflight,
		// min_rtt) and which a gauge (inflight_max, given as the RTT here)
		name := func(f trace.Field, n string, k scrape.Kind, u scrape.Unit) scrape.Spec {
			return scrape.Spec{Field: f, Match: scrape.Matcher{Name: "netflix_concurrency_limits_" + n}, Kind: k, Unit: u}
		}
		custom := scrape.Mapping{Name: "custom", KindsUnknown: true, TargetLabels: []string{"id"}, Specs: []scrape.Spec{
			name(trace.FieldLimit, "limit", scrape.Gauge, 0), name(trace.FieldInFlight, "inflight", scrape.Gauge, 0),
			name(trace.FieldRTTMin, "min_rtt", scrape.Gauge, scrape.Nanoseconds), name(trace.FieldRTT, "inflight_max", scrape.Mean, 0),
		}}
		checkFleetSource(t, promURL, custom, at, map[string]map[trace.Field]float64{
			"grpc-server": {trace.FieldLimit: 40, trace.FieldInFlight: 30, trace.FieldRTTMin: 20, trace.FieldRTT: 32},
			"batch":       {trace.FieldLimit: 10, trace.FieldInFlight: 4, trace.FieldRTTMin: 50},
		})
		for _, r := range []struct {
			record string
			want   map[string]float64
		}{
			{"limitscope:in_flight", map[string]float64{"grpc-server": 30, "batch": 4}},
			{"limitscope:rtt_min_seconds", map[string]float64{"grpc-server": 0.020, "batch": 0.050}},
			{"limitscope:rtt_seconds", map[string]float64{"grpc-server": 0.030, "batch": 0.2}},
			{"limitscope:dropped:rate1m", map[string]float64{"grpc-server": 10, "batch": 10}},
		} {
			got := map[string]float64{}
			for _, s := range query(r.record, at) {
				if v := float64(s.Value); v != 0 {
					got[string(s.Metric["limiter"])] = v
				}
			}
			if len(got) != len(r.want) {
				t.Errorf("rules: %s is %v, want %v", r.record, got, r.want)
			}
			for lim, w := range r.want {
				if v, ok := got[lim]; !ok || !near(v, w) {
					t.Errorf("rules: %s for %s is %v, want %v", r.record, lim, v, w)
				}
			}
		}
	}
}

// oneValue is the value of q's one series at at.
func oneValue(t *testing.T, query func(string, time.Time) model.Vector, q string, at time.Time) float64 {
	t.Helper()
	v := query(q, at)
	if len(v) != 1 {
		t.Fatalf("%s: %d series, want 1", q, len(v))
	}
	return float64(v[0].Value)
}

// scrapeTarget is the host:port Prometheus scrapes for a /metrics URL.
func scrapeTarget(url string) string {
	return strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/metrics")
}

// near: within 10 % of want.
func near(got, want float64) bool { return math.Abs(got-want) <= 0.1*math.Abs(want)+1e-9 }

// writeRules writes the preset's rule file and returns its path.
func writeRules(t *testing.T, preset scrape.Mapping) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), preset.Name+".rules.yml")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := rules.Write(f, rules.Options{Mapping: &preset}); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkFleetSource reads the server at url through the preset's fleet
// source at at and checks it found exactly want's targets, each field of
// want near its value. It returns the samples read.
func checkFleetSource(t *testing.T, url string, preset scrape.Mapping, at time.Time, want map[string]map[trace.Field]float64) []trace.Sample {
	t.Helper()
	src, err := scrape.NewPromSource(scrape.PromConfig{URL: url, Mapping: &preset, Interval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	samples, err := src.Instant(context.Background(), at)
	if err != nil {
		t.Errorf("the fleet source: %v", err)
	}
	var targets, wanted []string
	for _, s := range samples {
		targets = append(targets, s.Target)
		for f, v := range want[s.Target] {
			if got, ok := s.Value(f); !ok || !near(got, v) {
				t.Errorf("fleet source, %s %s: %v (measured %v), want %v", s.Target, f, got, ok, v)
			}
		}
	}
	for target := range want {
		wanted = append(wanted, target)
	}
	sort.Strings(targets)
	sort.Strings(wanted)
	if fmt.Sprint(targets) != fmt.Sprint(wanted) {
		t.Errorf("fleet source targets %v, want %v", targets, wanted)
	}
	return samples
}

// netflixReleaseThroughPrometheus reads a Netflix concurrency-limits release's
// layout through a real Prometheus server: one limiter whose limit,
// inflight, min_rtt and min_window_rtt carry no tag and whose call counters
// carry its id (limiter/AbstractLimiter.java), read as the README says —
// --target-label instance, each instance one limiter — by the fleet source
// and by the rules: one limiter, every series joined.
func netflixReleaseThroughPrometheus(t *testing.T) func(*testing.T, time.Time) {
	srv := netflixServer(t, true)
	preset := scrape.Presets["netflix"]
	preset.TargetLabels = []string{"instance"}
	ruleFile := writeRules(t, preset)
	instance := scrapeTarget(srv.URL)
	promURL := testtools.StartPrometheus(t, "1s", instance, ruleFile)
	return func(t *testing.T, at time.Time) {
		query := promQuery(t, promURL)
		checkFleetSource(t, promURL, preset, at, map[string]map[trace.Field]float64{
			instance: {trace.FieldLimit: 40, trace.FieldInFlight: 30, trace.FieldRTTMin: 20, trace.FieldRTT: 30, trace.FieldDropped: 10},
		})
		for _, r := range []struct {
			record string
			want   float64
		}{
			{"limitscope:limit", 40}, {"limitscope:in_flight", 30}, {"limitscope:rtt_min_seconds", 0.020},
			{"limitscope:rtt_seconds", 0.030}, {"limitscope:dropped:rate1m", 10},
		} {
			v := query(r.record, at)
			if len(v) != 1 || string(v[0].Metric["limiter"]) != instance || !near(float64(v[0].Value), r.want) {
				t.Errorf("rules: %s is %v, want %v for limiter %q alone", r.record, v, r.want, instance)
			}
		}
	}
}

// netflixServer serves Netflix concurrency-limits' series as a Micrometer
// registry renders them, fed ten samples a second: grpc-server (in-flight
// 28 and 32, its long RTT 20 ms, its window RTT 25 and 35 ms, one loss a
// sample) and, unless release, batch (a Vegas: in-flight 4, min RTT 50 ms,
// one loss and one success a sample). Every series is tagged with its limiter's id, or in
// a release's layout only the call counters.
func netflixServer(t *testing.T, release bool) *httptest.Server {
	t.Helper()
	reg := prometheus.NewRegistry()
	const ns = "netflix_concurrency_limits_"
	tags := []string{"id"}
	id := func(name string) []string { return []string{name} }
	if release {
		tags, id = nil, func(string) []string { return nil }
	}
	limit := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: ns + "limit"}, tags)
	summary := func(name string) *prometheus.SummaryVec {
		return prometheus.NewSummaryVec(prometheus.SummaryOpts{Name: ns + name}, tags)
	}
	inflight, minRTT, window := summary("inflight"), summary("min_rtt"), summary("min_window_rtt")
	inflightMax := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: ns + "inflight_max"}, tags)
	calls := prometheus.NewCounterVec(prometheus.CounterOpts{Name: ns + "call_total"}, []string{"id", "status"})
	reg.MustRegister(limit, inflight, minRTT, window, inflightMax, calls)
	limit.WithLabelValues(id("grpc-server")...).Set(40)
	if !release {
		limit.WithLabelValues(id("batch")...).Set(10)
	}
	return serveWhileFed(t, reg, func(i int) {
		inflight.WithLabelValues(id("grpc-server")...).Observe(float64(28 + 4*(i%2)))
		minRTT.WithLabelValues(id("grpc-server")...).Observe(20e6)
		window.WithLabelValues(id("grpc-server")...).Observe(float64(25e6 + 10e6*(i%2)))
		inflightMax.WithLabelValues(id("grpc-server")...).Set(32)
		calls.WithLabelValues("grpc-server", "success").Inc()
		calls.WithLabelValues("grpc-server", "dropped").Inc()
		if !release {
			inflight.WithLabelValues(id("batch")...).Observe(4)
			minRTT.WithLabelValues(id("batch")...).Observe(50e6)
			calls.WithLabelValues("batch", "dropped").Inc()
			calls.WithLabelValues("batch", "success").Inc()
		}
	})
}

// serveWhileFed serves reg's /metrics, calling feed(i) ten times a second
// (i counting up from 0) until the test ends.
func serveWhileFed(t *testing.T, reg *prometheus.Registry, feed func(i int)) *httptest.Server {
	t.Helper()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			feed(i)
		}
	}()
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	t.Cleanup(func() {
		close(stop)
		<-done
		srv.Close()
	})
	return srv
}

// mimirThroughPrometheus reads failsafe-go v0.9.8's adaptive limiter, run
// for real and registered as Grafana Mimir's distributor and ingester
// register theirs (the limiter named by the family name, and by
// request_type for the ingester's), through a real Prometheus server: the
// fleet source and the rules must give each limiter the limit and
// in-flight Prometheus holds for it, and no other target.
func mimirThroughPrometheus(t *testing.T) func(*testing.T, time.Time) {
	preset := scrape.Presets["mimir-reactive-limiter"]
	ruleFile := writeRules(t, preset)
	svc := thirdpartytest.FailsafeGoBehindMimir(t)
	promURL := testtools.StartPrometheus(t, "1s", scrapeTarget(svc.URL), ruleFile)
	return func(t *testing.T, at time.Time) {
		query := promQuery(t, promURL)
		one := func(q string) float64 { return oneValue(t, query, q, at) }
		want := map[string]map[trace.Field]float64{}
		for target, prefix := range map[string]string{"distributor": "cortex_distributor_reactive_limiter_", "push": "cortex_ingester_reactive_limiter_"} {
			want[target] = map[trace.Field]float64{trace.FieldLimit: one(prefix + "inflight_limit"), trace.FieldInFlight: one(prefix + "inflight_requests")}
		}
		checkFleetSource(t, promURL, preset, at, want)
		for record, f := range map[string]trace.Field{"limitscope:limit": trace.FieldLimit, "limitscope:in_flight": trace.FieldInFlight} {
			got := map[string]float64{}
			for _, s := range query(record, at) {
				got[string(s.Metric["limiter"])] = float64(s.Value)
			}
			// within 10 %: the recording was evaluated up to a second
			// before the raw sample the query reads
			if len(got) != 2 || !near(got["distributor"], want["distributor"][f]) || !near(got["push"], want["push"][f]) {
				t.Errorf("rules: %s is %v, want distributor %v and push %v", record, got, want["distributor"][f], want["push"][f])
			}
		}
	}
}

// envoyThroughPrometheus reads Envoy's adaptive concurrency filter as
// /stats/prometheus renders it (source/server/admin/prometheus_stats.cc
// in envoyproxy/envoy: a TYPE line per family, counters without _total,
// untagged series with empty braces, a blank line after each family)
// through a real Prometheus server: ingress_http, whose stat prefix is a
// tag, re-measures its min RTT three seconds in every ten, its limit then
// pinned at min_concurrency 3; egress, whose prefix stayed in the name,
// re-measures throughout. The fleet source and the rules must leave every
// pinned limit out, as a direct scrape does: before they did, they read
// the pins, and a healthy Envoy swung between its limit and 3. The
// blocked counters' rates must keep their listeners apart. Envoy cannot
// run here; the page is its renderer's.
func envoyThroughPrometheus(t *testing.T) func(*testing.T, time.Time) {
	srv := envoyServer(t)
	preset := scrape.Presets["envoy"]
	ruleFile := writeRules(t, preset)
	promURL := testtools.StartPrometheus(t, "1s", scrapeTarget(srv.URL), ruleFile)
	return func(t *testing.T, at time.Time) {
		query := promQuery(t, promURL)
		// the scenario holds: Prometheus holds ingress_http's pins
		const limit = "envoy_http_adaptive_concurrency_gradient_controller_concurrency_limit"
		if n := oneValue(t, query, "count_over_time(("+limit+" == 3)[50s:1s])", at); n < 5 {
			t.Fatalf("ingress_http pinned in %v of the last 50 s, want 15 or so", n)
		}
		checkFleetSource(t, promURL, preset, at, map[string]map[trace.Field]float64{
			"ingress_http":      {trace.FieldInFlight: 30, trace.FieldRTTMin: 8, trace.FieldRTT: 11, trace.FieldRejected: 10}, // ten a second, read every second
			"envoy_http_egress": {trace.FieldInFlight: 2, trace.FieldRTTMin: 31, trace.FieldRTT: 40, trace.FieldRejected: 20},
		}) // and not the admin's connection manager, nor the redis proxy
		src, err := scrape.NewPromSource(scrape.PromConfig{URL: promURL, Mapping: &preset, Interval: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		samples, err := src.Range(context.Background(), at.Add(-50*time.Second), at)
		if err != nil {
			t.Fatalf("the fleet source's range: %v", err)
		}
		limits := map[string][]float64{}
		for _, s := range samples {
			if s.Has(trace.FieldLimit) {
				limits[s.Target] = append(limits[s.Target], s.Limit)
			}
		}
		if l := limits["ingress_http"]; len(l) < 25 || slices.Min(l) != 47 || slices.Max(l) != 47 {
			t.Errorf("fleet source, ingress_http's limits over 50 s: %v, want 47 alone (the pins at 3 not measured) and 30 or so", l)
		}
		if l := limits["envoy_http_egress"]; len(l) > 0 {
			t.Errorf("fleet source, envoy_http_egress's limits %v: it re-measures throughout, so none is measured", l)
		}
		for _, r := range []struct {
			record string
			want   map[string]float64
		}{
			{"min_over_time(limitscope:limit[50s])", map[string]float64{"ingress_http": 47}},
			{"max_over_time(limitscope:limit[50s])", map[string]float64{"ingress_http": 47}},
			// the admin's active requests are recorded too, and join no limit
			{"limitscope:in_flight", map[string]float64{"ingress_http": 30, "envoy_http_egress": 2, "admin": 1}},
			{"limitscope:rtt_min_seconds", map[string]float64{"ingress_http": 0.008, "envoy_http_egress": 0.031}},
			{"limitscope:rtt_seconds", map[string]float64{"ingress_http": 0.011, "envoy_http_egress": 0.040}},
			{"limitscope:rejected:rate1m", map[string]float64{"ingress_http": 10, "envoy_http_egress": 20}},
		} {
			got := map[string]float64{}
			for _, s := range query(r.record, at) {
				got[string(s.Metric["limiter"])] = float64(s.Value)
			}
			if len(got) != len(r.want) {
				t.Errorf("rules: %s is %v, want %v", r.record, got, r.want)
			}
			for lim, w := range r.want {
				if v, ok := got[lim]; !ok || !near(v, w) {
					t.Errorf("rules: %s for %s is %v, want %v", r.record, lim, v, w)
				}
			}
		}
	}
}

// envoyServer serves the two listeners of envoyThroughPrometheus as
// Envoy's admin endpoint renders them: ingress_http (limit 47, pinned to
// 3 while it re-measures in the first three seconds of every ten; min RTT
// 8 ms, sample RTT 11 ms, ten blocked a second, 30 requests active) and
// egress (re-measuring throughout, its limit pinned to 3; 31 ms, 40 ms,
// twenty blocked a second, 2 active), beside the admin's connection
// manager and a redis proxy, one and three requests active.
func envoyServer(t *testing.T) *httptest.Server {
	t.Helper()
	start := time.Now()
	const ns = "envoy_http_"
	const gc = "adaptive_concurrency_gradient_controller_"
	const tag = `envoy_http_conn_manager_prefix="ingress_http"`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		now := time.Now()
		secs := now.Sub(start).Seconds()
		limit, active := 47, 0
		if now.Unix()%10 < 3 {
			limit, active = 3, 1
		}
		family := func(typ, name string, lines ...string) {
			fmt.Fprintf(w, "# TYPE %s %s\n", name, typ)
			for _, l := range lines {
				fmt.Fprintln(w, l)
			}
			fmt.Fprintln(w)
		}
		// counters first, then gauges, as Envoy orders them
		family("counter", ns+gc+"rq_blocked", fmt.Sprintf("%s%srq_blocked{%s} %d", ns, gc, tag, int(secs*10)))
		family("counter", ns+"egress_"+gc+"rq_blocked", fmt.Sprintf("%segress_%srq_blocked{} %d", ns, gc, int(secs*20)))
		family("gauge", ns+"downstream_rq_active", fmt.Sprintf(`%sdownstream_rq_active{envoy_http_conn_manager_prefix="admin"} 1`, ns), fmt.Sprintf("%sdownstream_rq_active{%s} 30", ns, tag))
		family("gauge", ns+"egress_downstream_rq_active", fmt.Sprintf("%segress_downstream_rq_active{} 2", ns))
		family("gauge", "envoy_redis_downstream_rq_active", `envoy_redis_downstream_rq_active{envoy_redis_prefix="cache"} 3`)
		for _, g := range []struct {
			name            string
			ingress, egress int
		}{
			{"burst_queue_size", 7, 2}, {"concurrency_limit", limit, 3}, {"gradient", 1, 1},
			{"min_rtt_calculation_active", active, 1}, {"min_rtt_msecs", 8, 31}, {"sample_rtt_msecs", 11, 40},
		} {
			family("gauge", ns+gc+g.name, fmt.Sprintf("%s%s%s{%s} %d", ns, gc, g.name, tag, g.ingress))
			family("gauge", ns+"egress_"+gc+g.name, fmt.Sprintf("%segress_%s%s{} %d", ns, gc, g.name, g.egress))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// vectorThroughPrometheus reads Vector's adaptive request concurrency as
// its prometheus_exporter sink renders internal_metrics (histograms in
// seconds under the namespace "vector", labelled with the sink's
// component_id, kind and type; the families of src/internal_events/
// adaptive_concurrency.rs, rendered by src/sinks/prometheus/collector.rs
// in vectordotdev/vector) through a real Prometheus server: http_out
// busy, quiet_out observed once at the start and idle since. The fleet
// source must give http_out each histogram's mean, and quiet_out in-flight
// 0 and nothing else: idle, as a direct scrape reads a sink with no new
// observation, not gone (before, its every mean was 0/0 and it had no
// sample at all). Vector cannot run here; the layout is its exporter's.
func vectorThroughPrometheus(t *testing.T) func(*testing.T, time.Time) {
	reg := prometheus.NewRegistry()
	hist := func(name string) *prometheus.HistogramVec {
		h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "vector", Name: "adaptive_concurrency_" + name}, []string{"component_id", "component_kind", "component_type"})
		reg.MustRegister(h)
		return h
	}
	limit, inFlight, observed, past := hist("limit"), hist("in_flight"), hist("observed_rtt"), hist("past_rtt_mean")
	observe := func(sink string, i int) {
		limit.WithLabelValues(sink, "sink", "http").Observe(25)
		inFlight.WithLabelValues(sink, "sink", "http").Observe(float64(18 + 4*(i%2)))
		observed.WithLabelValues(sink, "sink", "http").Observe(0.050)
		past.WithLabelValues(sink, "sink", "http").Observe(0.040)
	}
	observe("quiet_out", 0)
	srv := serveWhileFed(t, reg, func(i int) { observe("http_out", i) })
	preset := scrape.Presets["vector"]
	ruleFile := writeRules(t, preset)
	promURL := testtools.StartPrometheus(t, "1s", scrapeTarget(srv.URL), ruleFile)
	return func(t *testing.T, at time.Time) {
		samples := checkFleetSource(t, promURL, preset, at, map[string]map[trace.Field]float64{
			"http_out":  {trace.FieldLimit: 25, trace.FieldInFlight: 20, trace.FieldRTT: 50, trace.FieldRTTMin: 40},
			"quiet_out": {trace.FieldInFlight: 0},
		})
		for _, s := range samples {
			if s.Target == "quiet_out" && s.Fields != trace.FieldInFlight {
				t.Errorf("fleet source, quiet_out: %+v, want in-flight 0 and nothing else measured", s)
			}
		}
		query := promQuery(t, promURL)
		for record, want := range map[string]float64{"limitscope:limit": 25, "limitscope:in_flight": 20, "limitscope:rtt_seconds": 0.050, "limitscope:rtt_min_seconds": 0.040} {
			v := query(record+`{limiter="http_out"}`, at)
			if len(v) != 1 || !near(float64(v[0].Value), want) {
				t.Errorf("rules: %s for http_out is %v, want %v", record, v, want)
			}
		}
	}
}
