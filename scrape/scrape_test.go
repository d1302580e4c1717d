package scrape

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/limitscope/limitscope/trace"
)

func load(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mapOnce(t *testing.T, preset string, bodies ...[]byte) []trace.Sample {
	t.Helper()
	mp := NewMapper(Presets[preset])
	var out []trace.Sample
	for i, b := range bodies {
		fams, err := ParseExposition(b, preset)
		if err != nil {
			t.Fatal(err)
		}
		out = mp.Map(fams, time.Unix(int64(i), 0))
	}
	return out
}

// bump adds d to every value on lines starting with prefix.
func bump(b []byte, prefix string, d float64) []byte {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, prefix) {
			i := strings.LastIndex(l, " ")
			var v float64
			fmt.Sscan(l[i+1:], &v)
			l = fmt.Sprintf("%s %g", l[:i], v+d)
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n"))
}

func byTarget(s []trace.Sample) map[string]trace.Sample {
	m := map[string]trace.Sample{}
	for _, x := range s {
		m[x.Target] = x
	}
	return m
}

func approx(a, b float64) bool { return math.Abs(a-b) < 1e-9*math.Max(1, math.Abs(b)) }

func TestPresetsMapTheirExpositions(t *testing.T) {
	lim := load(t, "limitscope.prom")
	// second scrape: 100 more requests at 15 ms, 2 drops, 7 rejections
	lim2 := bump(bump(bump(bump(lim, `limiter_rtt_seconds_sum{downstream="payments"}`, 1.5), `limiter_rtt_seconds_count{downstream="payments"}`, 100),
		`limiter_requests_total{downstream="payments",outcome="dropped"}`, 2), `limiter_requests_total{downstream="payments",outcome="rejected"}`, 7)
	got := byTarget(mapOnce(t, "limitscope", lim, lim2))
	p := got["payments"]
	if p.Limit != 41 || p.InFlight != 37 || !approx(p.RTTMinMs, 12.5) || !approx(p.RTTMs, 15) || p.Dropped != 2 || p.Rejected != 7 || p.Fields != trace.AllFields {
		t.Errorf("limitscope payments: %+v", p)
	}
	if s := got["search"]; s.Limit != 12 || !s.Has(trace.FieldRejected) || s.Rejected != 0 || s.Has(trace.FieldRTT) {
		t.Errorf("limitscope search (no new RTT observations: RTT not measured): %+v", s)
	}

	env := load(t, "envoy.prom")
	got = byTarget(mapOnce(t, "envoy", env, bump(env, "envoy_http_adaptive_concurrency_gradient_controller_rq_blocked", 30)))
	e := got["ingress_http"]
	if e.Limit != 47 || e.RTTMinMs != 8 || e.RTTMs != 11 || e.Rejected != 30 || e.InFlight != 40 {
		t.Errorf("envoy ingress_http: %+v (in-flight the connection manager's active requests)", e)
	}
	if e := got["envoy_http_egress"]; e.Limit != 9 || e.RTTMinMs != 31 || e.InFlight != 6 {
		t.Errorf("envoy prefix-in-name target: %+v (targets %v)", e, got)
	}
	if len(got) != 2 {
		t.Errorf("envoy targets %v: the admin's connection manager and a redis proxy are no limiter", got)
	}

	vec := load(t, "vector.prom")
	vec2 := bump(bump(vec, "vector_adaptive_concurrency_limit_sum", 300), "vector_adaptive_concurrency_limit_count", 10)
	vec2 = bump(bump(vec2, "vector_adaptive_concurrency_observed_rtt_sum", 0.6), "vector_adaptive_concurrency_observed_rtt_count", 20)
	got = byTarget(mapOnce(t, "vector", vec, vec2))
	if v := got["http_out"]; v.Limit != 30 || !approx(v.RTTMs, 30) || v.Has(trace.FieldInFlight) || v.Has(trace.FieldRTTMin) {
		t.Errorf("vector: %+v (means over the interval; no new in-flight or averaged-RTT observations)", v)
	}

	got = byTarget(mapOnce(t, "go-concurrency-limits", load(t, "go-concurrency-limits.prom")))
	if o := got["orders"]; o.Limit != 20 || o.InFlight != 18 || !approx(o.RTTMinMs, 2.5) {
		t.Errorf("go-concurrency-limits orders (ns → ms): %+v", o)
	}
	if len(got) != 2 {
		t.Errorf("go-concurrency-limits targets %v", got)
	}

	got = byTarget(mapOnce(t, "mimir-reactive-limiter", load(t, "mimir-reactive-limiter.prom")))
	if m := got["push"]; m.Limit != 180 || m.InFlight != 150 || m.Has(trace.FieldRTTMin) {
		t.Errorf("mimir push: %+v", m)
	}
}

func TestRelevantKeepsWhatTheMappingNeeds(t *testing.T) {
	page := envoyPage()
	m := Presets["envoy"]
	full, err := ParseExposition(page, "full")
	if err != nil {
		t.Fatal(err)
	}
	part, err := ParseExposition(m.Relevant(page), "part")
	if err != nil {
		t.Fatal(err)
	}
	a := NewMapper(m).Map(full, time.Unix(0, 0))
	b := NewMapper(m).Map(part, time.Unix(0, 0))
	if fmt.Sprint(a) != fmt.Sprint(b) || len(part) > 10 {
		t.Fatalf("filtered parse differs or keeps too much: %d families\n%v\n%v", len(part), a, b)
	}
	// the re-measuring gauge is no spec's, and kept all the same: a live
	// scrape filtered it out, and read Envoy's pins as its limit
	pinned := strings.ReplaceAll(string(load(t, "envoy.prom")), `min_rtt_calculation_active{envoy_http_conn_manager_prefix="ingress_http"} 0`, `min_rtt_calculation_active{envoy_http_conn_manager_prefix="ingress_http"} 1`)
	part, err = ParseExposition(m.Relevant([]byte(pinned)), "pinned")
	if err != nil {
		t.Fatal(err)
	}
	if e := byTarget(NewMapper(m).Map(part, time.Unix(0, 0)))["ingress_http"]; e.Has(trace.FieldLimit) {
		t.Errorf("re-measuring, filtered: the pinned limit must be not measured: %+v", e)
	}
	l := Presets["limitscope"]
	if got := string(l.Relevant(load(t, "limitscope.prom"))); !strings.Contains(got, "limiter_rtt_seconds_sum") || !strings.Contains(got, "# TYPE limiter_rtt_seconds histogram") {
		t.Fatalf("histogram lines dropped:\n%s", got)
	}
}

func TestDetectPicksThePreset(t *testing.T) {
	for _, name := range []string{"limitscope", "envoy", "vector", "go-concurrency-limits", "mimir-reactive-limiter"} {
		fams, err := ParseExposition(load(t, name+".prom"), name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Detect(fams)
		if err != nil || m.Name != name {
			t.Errorf("%s detected as %q (%v)", name, m.Name, err)
		}
	}
	fams, _ := ParseExposition([]byte("# TYPE up gauge\nup 1\n"), "x")
	if _, err := Detect(fams); !errors.Is(err, ErrNoPresetMatch) || !strings.Contains(err.Error(), "choose a preset") {
		t.Errorf("no preset: %v", err)
	}
}

func TestCounterResetNaNInfAndHostileLabels(t *testing.T) {
	esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace
	body := func(dropped float64, limit string, ds string) []byte {
		return []byte(fmt.Sprintf("limiter_limit{downstream=\"%s\"} %s\nlimiter_requests_total{downstream=\"%s\",outcome=\"dropped\"} %g\n", esc(ds), limit, esc(ds), dropped))
	}
	hostile := "\x1b[31mpay\nments</td><script>"
	mp := NewMapper(Presets["limitscope"])
	var last []trace.Sample
	for i, b := range [][]byte{body(100, "5", hostile), body(110, "NaN", hostile), body(3, "+Inf", hostile), body(4, "-1", hostile)} {
		fams, err := ParseExposition(b, "t")
		if err != nil {
			t.Fatal(err)
		}
		last = mp.Map(fams, time.Unix(int64(i), 0))
		switch i {
		case 1:
			if last[0].Has(trace.FieldLimit) || last[0].Dropped != 10 {
				t.Fatalf("NaN limit must be not measured, delta 10: %+v", last[0])
			}
		case 2:
			if last[0].Has(trace.FieldLimit) || last[0].Dropped != 3 {
				t.Fatalf("+Inf not measured; counter reset 110→3 counts 3: %+v", last[0])
			}
		}
	}
	if last[0].Target != hostile || last[0].Has(trace.FieldLimit) {
		t.Fatalf("label value must be kept intact in data, negative limit dropped: %+v", last[0])
	}
}

func TestMissingMetricIsReported(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, `limiter_limit{downstream="a"} 5`)
	}))
	defer srv.Close()
	m := Presets["limitscope"]
	s, err := NewHTTPSource([]string{srv.URL + "/metrics"}, HTTPConfig{Mapping: &m})
	if err != nil {
		t.Fatal(err)
	}
	smp, errs := s.Scrape(context.Background())
	if len(errs) != 0 || len(smp) != 1 || smp[0].Has(trace.FieldInFlight) {
		t.Fatalf("samples %+v errs %v", smp, errs)
	}
	st := s.Statuses()[0]
	if st.State != StateUp || !strings.Contains(st.Reason, "limiter_in_flight") {
		t.Fatalf("status must name what is not exposed: %+v", st)
	}
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func TestReliability(t *testing.T) {
	good := load(t, "limitscope.prom")
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := "http://" + closed.Addr().String() + "/metrics"
	closed.Close()
	bomb := gz(bytes.Repeat([]byte("# "), 40<<20))
	cases := []struct {
		name    string
		handler http.HandlerFunc
		url     string
		want    string
	}{
		{"connection refused", nil, refused, "connection refused (is the service running and listening on"},
		{"timeout", func(w http.ResponseWriter, r *http.Request) { time.Sleep(2 * time.Second) }, "", "no complete answer within"},
		{"slow drip", func(w http.ResponseWriter, r *http.Request) {
			w.Write(good[:100])
			w.(http.Flusher).Flush()
			time.Sleep(2 * time.Second)
			w.Write(good[100:])
		}, "", "no complete answer within"},
		{"5xx", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", http.StatusServiceUnavailable) }, "", "HTTP 503 Service Unavailable"},
		{"404", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }, "", "HTTP 404 Not Found (is the path the metrics endpoint"},
		{"not an exposition", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html><body>hello</body></html>")) }, "", "not a Prometheus text exposition"},
		{"truncated", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", fmt.Sprint(len(good)))
			w.Write(good[:len(good)/2])
		}, "", "closed before the body ended"},
		{"over the limit", func(w http.ResponseWriter, r *http.Request) { w.Write(bytes.Repeat([]byte("# comment\n"), 200<<10)) }, "", "larger than 1 MiB"},
		{"gzip bomb", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb)
		}, "", "larger than 1 MiB"},
		{"no limiter metrics", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("up 1\n")) }, "", "no preset matches"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			url := c.url
			if c.handler != nil {
				srv := httptest.NewServer(c.handler)
				defer srv.Close()
				url = srv.URL + "/metrics"
			}
			s, err := NewHTTPSource([]string{url}, HTTPConfig{Timeout: 500 * time.Millisecond, MaxBody: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			_, errs := s.Scrape(context.Background())
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), c.want) {
				t.Fatalf("got %v, want %q", errs, c.want)
			}
			if st := s.Statuses()[0]; st.State != StateDown || st.Reason == "" || st.Failures != 1 {
				t.Fatalf("status %+v", st)
			}
		})
	}
}

func TestCredentialsNeverInErrors(t *testing.T) {
	dir := t.TempDir()
	tok := filepath.Join(dir, "token")
	os.WriteFile(tok, []byte("s3cr3t-token\n"), 0o600)
	var gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	defer srv.Close()
	s, err := NewHTTPSource([]string{srv.URL + "/metrics"}, HTTPConfig{Auth: Auth{BearerTokenFile: tok}})
	if err != nil {
		t.Fatal(err)
	}
	_, errs := s.Scrape(context.Background())
	if gotAuth != "Bearer s3cr3t-token" || len(errs) == 0 || strings.Contains(errs[0].Error(), "s3cr3t") || !strings.Contains(errs[0].Error(), "check the credentials") {
		t.Fatalf("auth %q errs %v", gotAuth, errs)
	}
	u := strings.Replace(srv.URL, "http://", "http://alice:hunter2@", 1) + "/metrics"
	s, _ = NewHTTPSource([]string{u}, HTTPConfig{})
	_, errs = s.Scrape(context.Background())
	st := s.Statuses()[0]
	if len(errs) == 0 || strings.Contains(errs[0].Error(), "hunter2") || strings.Contains(st.Endpoint, "hunter2") || strings.Contains(st.Reason, "hunter2") {
		t.Fatalf("password leaked: %v %+v", errs, st)
	}
	if _, err := NewHTTPSource([]string{"ftp://bob:pw@x/metrics"}, HTTPConfig{}); err == nil || strings.Contains(err.Error(), "pw@") {
		t.Fatalf("bad URL error leaks or passes: %v", err)
	}
}

func TestSlowAndFailingTargetsDoNotHoldBackOthers(t *testing.T) {
	good := load(t, "limitscope.prom")
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(good) }))
	defer fast.Close()
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	s, err := NewHTTPSource([]string{slow.URL + "/metrics", fast.URL + "/metrics", "http://127.0.0.1:1/metrics"}, HTTPConfig{Interval: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 1200*time.Millisecond)
	defer cancel()
	var mu sync.Mutex
	got := map[string]int{}
	s.Run(ctx, func(smp trace.Sample) {
		mu.Lock()
		got[smp.Target]++
		mu.Unlock()
	})
	host := strings.TrimPrefix(fast.URL, "http://")
	if got[host+"/payments"] < 8 {
		t.Fatalf("fast target scraped %d times in 1.2 s at 100 ms: held back (%v)", got[host+"/payments"], got)
	}
	sts := s.Statuses()
	if sts[0].State != StateDown || sts[1].State != StateUp || sts[2].State != StateDown {
		t.Fatalf("statuses %+v", sts)
	}
	if sts[2].Failures > 5 {
		t.Fatalf("refused target retried %d times in 1.2 s: no back-off", sts[2].Failures)
	}
}

func TestPlayback(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var s []trace.Sample
	for i := 0; i < 10; i++ {
		s = append(s, trace.Sample{Time: t0.Add(time.Duration(i) * time.Second), Target: "a"})
	}
	p := NewPlayback("f", s)
	if p.Visible() != 1 {
		t.Fatal("at start one sample is visible")
	}
	p.SetSpeed(2)
	p.Advance(2 * time.Second)
	if p.Visible() != 5 {
		t.Fatalf("speed 2 for 2 s: %d visible", p.Visible())
	}
	p.SetPaused(true)
	p.Advance(time.Hour)
	if p.Visible() != 5 {
		t.Fatal("paused clock moved")
	}
	p.Seek(-time.Hour)
	if !p.Position().Equal(t0) {
		t.Fatal("seek clamps at the start")
	}
	p.SetPaused(false)
	p.Advance(time.Hour)
	if !p.Done() || p.Visible() != 10 {
		t.Fatal("end")
	}
	q := NewPlayback("f", s)
	q.SetSpeed(1000)
	n := 0
	q.Run(context.Background(), func(trace.Sample) { n++ })
	if n != 10 {
		t.Fatalf("run emitted %d", n)
	}
}

// TestPlaybackIdleLimit: a gap longer than the idle limit plays as the
// limit, then the clock jumps to the gap's end; shorter gaps play whole.
func TestPlaybackIdleLimit(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(d time.Duration) trace.Sample { return trace.Sample{Time: t0.Add(d), Target: "a"} }
	// three samples a second apart, a gap of 100 years, three more; a
	// second target 30 s into the gap (a gap of one target is no idle
	// stretch of the trace while another still reports)
	century := 100 * 365 * 24 * time.Hour
	s := []trace.Sample{at(0), at(time.Second), at(2 * time.Second),
		{Time: t0.Add(32 * time.Second), Target: "b"},
		at(century), at(century + time.Second), at(century + 2*time.Second)}
	cases := []struct {
		name    string
		idle    time.Duration
		advance []time.Duration // real time at speed 1, one after another
		visible []int
		pos     []time.Duration // the position after each advance, from t0
	}{
		{"gaps within the limit play whole", time.Minute,
			[]time.Duration{2 * time.Second, 30 * time.Second, 59 * time.Second},
			[]int{3, 4, 4},
			[]time.Duration{2 * time.Second, 32 * time.Second, 91 * time.Second}},
		{"a longer gap plays as the limit, then jumps", time.Minute,
			[]time.Duration{91 * time.Second, time.Second, time.Second},
			[]int{4, 5, 6},
			[]time.Duration{91 * time.Second, century, century + time.Second}},
		{"one large step crosses the gap and goes on", time.Minute,
			[]time.Duration{93 * time.Second},
			[]int{6},
			[]time.Duration{century + time.Second}},
		{"no limit plays the gap", 0,
			[]time.Duration{93 * time.Second, time.Hour},
			[]int{4, 4},
			[]time.Duration{93 * time.Second, time.Hour + 93*time.Second}},
		{"the clock stops at the end", time.Minute,
			[]time.Duration{time.Hour},
			[]int{7},
			[]time.Duration{century + 2*time.Second}},
	}
	for _, c := range cases {
		p := NewPlayback("f", s)
		p.SetIdleLimit(c.idle)
		for i, d := range c.advance {
			p.Advance(d)
			if got := p.Visible(); got != c.visible[i] {
				t.Errorf("%s, advance %d: %d samples visible, want %d", c.name, i, got, c.visible[i])
			}
			if got := p.Position().Sub(t0); got != c.pos[i] {
				t.Errorf("%s, advance %d: position %v, want %v", c.name, i, got, c.pos[i])
			}
		}
	}
	// seeking stays in sample time: back into the gap, the limit's rest
	// plays, then the jump
	p := NewPlayback("f", s)
	p.SetIdleLimit(time.Minute)
	p.SeekTo(t0.Add(80 * time.Second))
	p.Advance(11 * time.Second)
	if got := p.Position().Sub(t0); got != 91*time.Second {
		t.Errorf("seek to 80 s, advance 11 s: %v, want 91 s (the limit ends 60 s after the sample at 32 s)", got)
	}
	p.Advance(time.Second)
	if got := p.Position().Sub(t0); got != century {
		t.Errorf("past the limit: %v, want the gap's end", got)
	}
}

func FuzzMapExposition(f *testing.F) {
	for _, n := range []string{"limitscope.prom", "envoy.prom", "vector.prom", "go-concurrency-limits.prom", "mimir-reactive-limiter.prom"} {
		f.Add(load(f, n))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fams, err := ParseExposition(body, "fuzz")
		if err != nil {
			return
		}
		if m, err := Detect(fams); err == nil {
			mp := NewMapper(m)
			for i := 0; i < 2; i++ {
				for _, s := range mp.Map(fams, time.Unix(int64(i), 0)) {
					for _, fl := range []trace.Field{trace.FieldLimit, trace.FieldInFlight, trace.FieldRTTMin, trace.FieldRTT, trace.FieldDropped, trace.FieldRejected} {
						if v, ok := s.Value(fl); ok && (v < 0 || !finite(v)) {
							t.Fatalf("invalid value mapped: %v", v)
						}
					}
				}
			}
		}
	})
}

// scrapeIntervals reads a server's configuration, which a hostile or broken
// server may fill with anything: it never panics, and what it returns is
// an ordered pair of positive durations.
func FuzzScrapeIntervals(f *testing.F) {
	f.Add("global:\n  scrape_interval: 15s\nscrape_configs:\n- job_name: a\n  scrape_interval: 5s\n- job_name: b\n")
	f.Add("global: [")
	f.Add("scrape_configs: {a: 1}\n")
	f.Add("global:\n  scrape_interval: -1s\n")
	f.Fuzz(func(t *testing.T, config string) {
		lo, hi, ok := scrapeIntervals(config)
		if ok && (lo <= 0 || hi < lo) {
			t.Fatalf("%q: intervals %v to %v", config, lo, hi)
		}
	})
}

// envoyPage builds an Envoy-sized exposition: ~5,500 series, ~1 MiB.
func envoyPage() []byte {
	var b bytes.Buffer
	for _, m := range []string{"upstream_rq_total", "upstream_cx_active", "upstream_rq_retry", "upstream_rq_pending_active", "upstream_cx_total"} {
		fmt.Fprintf(&b, "# TYPE envoy_cluster_%s gauge\n", m)
		for c := 0; c < 110; c++ {
			for i := 0; i < 10; i++ {
				fmt.Fprintf(&b, "envoy_cluster_%s{envoy_cluster_name=\"cluster_%03d_some_service_name_in_the_mesh_of_a_large_company\",zone=\"eu-west-1-availability-zone-%d\",envoy_response_code_class=\"%dxx\"} %d\n", m, c, i, i%5+1, c*i)
			}
		}
	}
	tail, _ := os.ReadFile(filepath.Join("testdata", "envoy.prom"))
	b.Write(tail)
	return b.Bytes()
}

func BenchmarkParseAndMapEnvoyPage(b *testing.B) {
	page := envoyPage()
	m := Presets["envoy"]
	mp := NewMapper(m)
	b.SetBytes(int64(len(page)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fams, err := ParseExposition(m.Relevant(page), "bench")
		if err != nil {
			b.Fatal(err)
		}
		mp.Map(fams, time.Unix(int64(i), 0))
	}
	b.ReportMetric(float64(strings.Count(string(page), "\n")), "lines")
	b.ReportMetric(float64(len(page))/(1<<20), "MiB")
}

// BenchmarkParseFullEnvoyPage is the baseline: the same page parsed whole,
// as the first (auto-detecting) scrape does.
func BenchmarkParseFullEnvoyPage(b *testing.B) {
	page := envoyPage()
	mp := NewMapper(Presets["envoy"])
	b.SetBytes(int64(len(page)))
	for i := 0; i < b.N; i++ {
		fams, err := ParseExposition(page, "bench")
		if err != nil {
			b.Fatal(err)
		}
		mp.Map(fams, time.Unix(int64(i), 0))
	}
}

// BenchmarkScrapeLoopback is the CPU of one scrape of one loopback target
// serving a pre-rendered limitscope exposition (two limiters): request,
// parse, map. 100 targets every second cost 100 of these per second.
func BenchmarkScrapeLoopback(b *testing.B) {
	body := load(b, "limitscope.prom")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer srv.Close()
	s, err := NewHTTPSource([]string{srv.URL + "/metrics"}, HTTPConfig{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, errs := s.Scrape(ctx); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// Vector: past_rtt_mean (the baseline) is the min-RTT stand-in; a custom
// namespace is matched; an idle sink (no observation between scrapes) is idle
// — in-flight 0, nothing else measured — not down.
func TestVectorBaselineNamespaceAndIdleSink(t *testing.T) {
	vec := load(t, "vector.prom")
	vec2 := bump(bump(vec, "vector_adaptive_concurrency_past_rtt_mean_sum", 0.25), "vector_adaptive_concurrency_past_rtt_mean_count", 10)
	vec2 = bump(bump(vec2, "vector_adaptive_concurrency_limit_sum", 300), "vector_adaptive_concurrency_limit_count", 10)
	if v := byTarget(mapOnce(t, "vector", vec, vec2))["http_out"]; !approx(v.RTTMinMs, 25) {
		t.Errorf("past_rtt_mean as the min RTT: %+v", v)
	}
	custom := []byte(strings.ReplaceAll(string(vec), "vector_adaptive", "edge_adaptive"))
	fams, _ := ParseExposition(custom, "custom")
	if m, err := Detect(fams); err != nil || m.Name != "vector" {
		t.Fatalf("namespace edge: %v %q", err, m.Name)
	}
	idle := byTarget(mapOnce(t, "vector", vec, vec))["http_out"]
	if idle.Fields != trace.FieldInFlight || idle.InFlight != 0 {
		t.Errorf("idle sink: %+v, want in-flight 0 and nothing else measured", idle)
	}
}

// Envoy after a statsd/OTel hop (rq_blocked_total), RTT gauges at 0 before the
// first min-RTT window (not measured), and the limit pinned for re-measuring
// (min_rtt_calculation_active 1: not measured).
func TestEnvoyVariants(t *testing.T) {
	env := string(load(t, "envoy.prom"))
	hop := strings.ReplaceAll(env, "gradient_controller_rq_blocked", "gradient_controller_rq_blocked_total")
	mp := NewMapper(Presets["envoy"])
	var got map[string]trace.Sample
	for i, body := range []string{hop, strings.ReplaceAll(hop, `{envoy_http_conn_manager_prefix="ingress_http"} 120`, `{envoy_http_conn_manager_prefix="ingress_http"} 150`)} {
		fams, err := ParseExposition([]byte(body), "envoy")
		if err != nil {
			t.Fatal(err)
		}
		got = byTarget(mp.Map(fams, time.Unix(int64(i), 0)))
	}
	if e := got["ingress_http"]; e.Rejected != 30 || len(mp.Missing) != 0 {
		t.Errorf("rq_blocked_total: %+v, missing %v", e, mp.Missing)
	}
	zero := strings.ReplaceAll(env, `min_rtt_msecs{envoy_http_conn_manager_prefix="ingress_http"} 8`, `min_rtt_msecs{envoy_http_conn_manager_prefix="ingress_http"} 0`)
	zero = strings.ReplaceAll(zero, `sample_rtt_msecs{envoy_http_conn_manager_prefix="ingress_http"} 11`, `sample_rtt_msecs{envoy_http_conn_manager_prefix="ingress_http"} 0`)
	if e := byTarget(mapOnce(t, "envoy", []byte(zero)))["ingress_http"]; e.Has(trace.FieldRTTMin) || e.Has(trace.FieldRTT) || e.Limit != 47 {
		t.Errorf("RTT gauges at 0 must be not measured: %+v", e)
	}
	pinned := strings.ReplaceAll(env, `min_rtt_calculation_active{envoy_http_conn_manager_prefix="ingress_http"} 0`, `min_rtt_calculation_active{envoy_http_conn_manager_prefix="ingress_http"} 1`)
	if e := byTarget(mapOnce(t, "envoy", []byte(pinned)))["ingress_http"]; e.Has(trace.FieldLimit) || !e.Has(trace.FieldRTTMin) {
		t.Errorf("re-measuring: the pinned limit must be not measured: %+v", e)
	}
}

// Netflix concurrency-limits through Micrometer: detected, the limiter named
// by its id tag, summaries as interval means (min_window_rtt the RTT),
// call statuses as counts.
func TestNetflixPreset(t *testing.T) {
	nf := load(t, "netflix.prom")
	fams, _ := ParseExposition(nf, "netflix")
	if m, err := Detect(fams); err != nil || m.Name != "netflix" {
		t.Fatalf("detect: %v %q", err, m.Name)
	}
	nf2 := bump(bump(nf, `netflix_concurrency_limits_inflight_count{id="grpc-server"}`, 10), `netflix_concurrency_limits_inflight_sum{id="grpc-server"}`, 550)
	nf2 = bump(bump(nf2, `netflix_concurrency_limits_min_rtt_count{id="grpc-server"}`, 2), `netflix_concurrency_limits_min_rtt_sum{id="grpc-server"}`, 2.4e7)
	nf2 = bump(bump(nf2, `netflix_concurrency_limits_min_window_rtt_count{id="grpc-server"}`, 4), `netflix_concurrency_limits_min_window_rtt_sum{id="grpc-server"}`, 6e7)
	nf2 = bump(bump(nf2, `netflix_concurrency_limits_call_total{id="grpc-server",status="dropped"}`, 3), `netflix_concurrency_limits_call_total{id="grpc-server",status="rejected"}`, 40)
	g := byTarget(mapOnce(t, "netflix", nf, nf2))["grpc-server"]
	if g.Limit != 64 || g.InFlight != 55 || !approx(g.RTTMinMs, 12) || !approx(g.RTTMs, 15) || g.Dropped != 3 || g.Rejected != 40 {
		t.Errorf("netflix grpc-server: %+v", g)
	}
	// a release's page: one limiter, named only in its call counters, is
	// one target; the same page with a second limiter's counters keeps the
	// untagged series apart (which limiter they are cannot be told)
	rel := load(t, "netflix-release.prom")
	rel2 := bump(bump(rel, `netflix_concurrency_limits_inflight_count`, 10), `netflix_concurrency_limits_inflight_sum`, 550)
	rel2 = bump(bump(rel2, `netflix_concurrency_limits_min_window_rtt_count`, 4), `netflix_concurrency_limits_min_window_rtt_sum`, 6e7)
	rel2 = bump(rel2, `netflix_concurrency_limits_call_total{id="grpc-server",status="dropped"}`, 3)
	got := mapOnce(t, "netflix", rel, rel2)
	if len(got) != 1 || got[0].Target != "grpc-server" || got[0].Limit != 64 || got[0].InFlight != 55 || !approx(got[0].RTTMs, 15) || got[0].Dropped != 3 {
		t.Errorf("netflix release page: %+v, want one target grpc-server with every series", got)
	}
	two := append(append([]byte{}, rel...), []byte("netflix_concurrency_limits_call_total{id=\"batch\",status=\"dropped\"} 1.0\n")...)
	if got := byTarget(mapOnce(t, "netflix", two, two)); len(got) != 3 || got["default"].Limit != 64 {
		t.Errorf("netflix release page of two limiters: %+v, want default, batch and grpc-server apart", got)
	}
	// a Vegas exports no window RTT: the status says so as the README's
	// table names the family
	vegas := strings.ReplaceAll(string(rel), "min_window_rtt", "unrelated")
	fams, _ = ParseExposition([]byte(vegas), "vegas")
	mp := NewMapper(Presets["netflix"])
	mp.Map(fams, time.Unix(0, 0))
	if fmt.Sprint(mp.Missing) != "[…min_window_rtt]" {
		t.Errorf("a Vegas page's missing families: %q, want […min_window_rtt]", mp.Missing)
	}
	// ...but its RTT is had by Little's law: the mean in-flight (20) over
	// the rate its calls finished at (95 successes and 5 drops in the
	// second; the 50 rejections held no slot): 200 ms
	vegas = strings.ReplaceAll(string(nf), "min_window_rtt", "unrelated")
	vegas2 := bump(bump([]byte(vegas), `netflix_concurrency_limits_inflight_count{id="grpc-server"}`, 10), `netflix_concurrency_limits_inflight_sum{id="grpc-server"}`, 200)
	vegas2 = bump(bump(vegas2, `netflix_concurrency_limits_call_total{id="grpc-server",status="success"}`, 95), `netflix_concurrency_limits_call_total{id="grpc-server",status="dropped"}`, 5)
	vegas2 = bump(vegas2, `netflix_concurrency_limits_call_total{id="grpc-server",status="rejected"}`, 50)
	if v := byTarget(mapOnce(t, "netflix", []byte(vegas), vegas2))["grpc-server"]; !approx(v.RTTMs, 200) || v.InFlight != 20 || v.Rejected != 50 {
		t.Errorf("a Vegas page's RTT by Little's law: %+v, want 200 ms", v)
	}
	stalled := bump(bump([]byte(vegas), `netflix_concurrency_limits_inflight_count{id="grpc-server"}`, 10), `netflix_concurrency_limits_inflight_sum{id="grpc-server"}`, 200)
	if v := byTarget(mapOnce(t, "netflix", []byte(vegas), stalled))["grpc-server"]; v.InFlight != 20 || v.Has(trace.FieldRTT) {
		t.Errorf("a Vegas page with calls in flight and none finished: %+v, want in-flight 20 and no RTT", v)
	}
	// our own page and go-concurrency-limits' stay theirs
	for _, f := range []string{"limitscope.prom", "go-concurrency-limits.prom"} {
		fams, _ := ParseExposition(load(t, f), f)
		if m, _ := Detect(fams); m.Name == "netflix" {
			t.Errorf("%s detected as netflix", f)
		}
	}
}

// A scrape cut short by the stop is not a failure: the endpoint stays up.
func TestCancelledScrapeIsNotAFailure(t *testing.T) {
	body := load(t, "limitscope.prom")
	var hang atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hang.Load() {
			<-r.Context().Done()
			return
		}
		w.Write(body)
	}))
	defer srv.Close()
	src, err := NewHTTPSource([]string{srv.URL}, HTTPConfig{Interval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, errs := src.Scrape(context.Background()); len(errs) > 0 {
		t.Fatal(errs)
	}
	hang.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	src.Scrape(ctx)
	if st := src.Statuses()[0]; st.State != StateUp {
		t.Fatalf("after a cancelled scrape: %s (%s), want up", st.State, st.Reason)
	}
}

// --prom honours the credential flags: every API call carries the bearer
// token (fleet Prometheus servers are usually behind auth).
func TestPromSourceAuthenticates(t *testing.T) {
	tok := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tok, []byte("s3cret\n"), 0o600)
	var calls, authed atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		authed.Add(1)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"success","data":{"resultType":"vector","result":[]}}`)
	}))
	defer srv.Close()
	src, err := NewPromSource(PromConfig{URL: srv.URL, Interval: 100 * time.Millisecond, Auth: Auth{BearerTokenFile: tok}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel()
	src.Run(ctx, func(trace.Sample) {})
	if calls.Load() == 0 || authed.Load() != calls.Load() {
		t.Fatalf("%d API calls, %d authenticated", calls.Load(), authed.Load())
	}
}

// Our own gate exports a min RTT of 0 until its first request completes:
// not measured, never a min RTT of 0 ms (it read as rtt_min_ms=0 in watch
// --plain and would be a baseline for the rise).
func TestLimitscopeMinRTTZeroIsNotMeasured(t *testing.T) {
	body := []byte("# TYPE limiter_limit gauge\nlimiter_limit{downstream=\"pay\"} 16\n# TYPE limiter_rtt_min_seconds gauge\nlimiter_rtt_min_seconds{downstream=\"pay\"} 0\n")
	if e := byTarget(mapOnce(t, "limitscope", body))["pay"]; e.Has(trace.FieldRTTMin) || e.Limit != 16 {
		t.Fatalf("a min RTT of 0 must be not measured: %+v", e)
	}
	body = []byte("# TYPE limiter_limit gauge\nlimiter_limit{downstream=\"pay\"} 16\n# TYPE limiter_rtt_min_seconds gauge\nlimiter_rtt_min_seconds{downstream=\"pay\"} 0.012\n")
	if e := byTarget(mapOnce(t, "limitscope", body))["pay"]; !e.Has(trace.FieldRTTMin) || e.RTTMinMs != 12 {
		t.Fatalf("a min RTT of 12 ms: %+v", e)
	}
}

// DetectStep reads one limit series' raw samples and takes the median gap
// as the step (a missed scrape does not move it), selecting that series by
// every label it has, its hostile values quoted; where nothing answers it
// says it cannot tell.
func TestDetectStepReadsTheScrapeInterval(t *testing.T) {
	var rangeQuery atomic.Value
	series := `{"__name__":"limiter_limit","downstream":"a\"b\n\u001b[31m","job":"api"}`
	var empty atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		q := r.Form.Get("query")
		w.Header().Set("Content-Type", "application/json")
		switch {
		case empty.Load():
			io.WriteString(w, `{"status":"success","data":{"resultType":"vector","result":[]}}`)
		case strings.HasSuffix(q, "[3m]"):
			rangeQuery.Store(q)
			// 15 s apart, one scrape missed
			io.WriteString(w, `{"status":"success","data":{"resultType":"matrix","result":[{"metric":`+series+`,"values":[[1000,"4"],[1015,"4"],[1030,"5"],[1060,"5"],[1075.002,"6"],[1090,"6"]]}]}}`)
		default:
			io.WriteString(w, `{"status":"success","data":{"resultType":"vector","result":[{"metric":`+series+`,"value":[1090,"6"]}]}}`)
		}
	}))
	defer srv.Close()
	src, err := NewPromSource(PromConfig{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	step, from, err := src.DetectStep(context.Background())
	if err != nil || from != StepMeasured || step != 15*time.Second {
		t.Fatalf("DetectStep: %v %q %v, want 15s measured", step, from, err)
	}
	if want := `{__name__="limiter_limit",downstream="a\"b\n\x1b[31m",job="api"}[3m]`; rangeQuery.Load() != want {
		t.Errorf("raw samples read with %q, want %q", rangeQuery.Load(), want)
	}
	empty.Store(true)
	if step, from, err := src.DetectStep(context.Background()); step != time.Second || from != StepDefault || err != nil {
		t.Fatalf("no limit series and no configuration: DetectStep %v %q %v, want 1s by default", step, from, err)
	}
	// a summary's limit (Vector's) is found by its raw _count series, which
	// carries its name; a rate over it would not
	var firstQuery atomic.Value
	vec := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		firstQuery.CompareAndSwap(nil, r.Form.Get("query"))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"success","data":{"resultType":"vector","result":[]}}`)
	}))
	defer vec.Close()
	m := Presets["vector"]
	vsrc, err := NewPromSource(PromConfig{URL: vec.URL, Mapping: &m, Selector: `{job="vector"}`})
	if err != nil {
		t.Fatal(err)
	}
	vsrc.DetectStep(context.Background())
	if want := `{__name__=~"(?:[a-zA-Z_:][a-zA-Z0-9_:]*_)?adaptive_concurrency_limit_count",job="vector"}`; firstQuery.Load() != want {
		t.Errorf("Vector's limit found with %q, want %q", firstQuery.Load(), want)
	}
	// Run without a step falls back to 1 s when it cannot be told
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	src.Run(ctx, func(trace.Sample) {})
	if st := src.Statuses()[0]; st.Step != time.Second || st.StepFrom != StepDefault {
		t.Fatalf("step %v (%q) after an undetectable scrape interval, want 1s by default", st.Step, st.StepFrom)
	}
}

// An expression that keeps labels but drops the name (a rate, "max by
// (instance)") may match every series of a target: one of them is found
// with topk, which keeps its name, and only its raw samples are read.
func TestDetectStepNamesOneSeriesUnderAnExpression(t *testing.T) {
	var queries []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		q := r.Form.Get("query")
		mu.Lock()
		queries = append(queries, q)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasPrefix(q, "topk(1, "):
			io.WriteString(w, `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"orders_limit","instance":"a:9090","job":"api"},"value":[1090,"6"]}]}}`)
		case strings.HasSuffix(q, "[3m]"):
			io.WriteString(w, `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"orders_limit","instance":"a:9090","job":"api"},"values":[[1000,"4"],[1005,"4"],[1010,"5"],[1015,"5"]]}]}}`)
		default:
			io.WriteString(w, `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"instance":"a:9090","job":"api"},"value":[1090,"6"]}]}}`)
		}
	}))
	defer srv.Close()
	src, err := NewPromSource(PromConfig{URL: srv.URL, Queries: map[trace.Field]string{trace.FieldLimit: "max by (instance, job) (orders_limit)"}})
	if err != nil {
		t.Fatal(err)
	}
	step, from, err := src.DetectStep(context.Background())
	if step != 5*time.Second || from != StepMeasured || err != nil {
		t.Fatalf("DetectStep %v %q %v, want 5s measured", step, from, err)
	}
	want := []string{"max by (instance, job) (orders_limit)", `topk(1, {instance="a:9090",job="api"})`, `{__name__="orders_limit",instance="a:9090",job="api"}[3m]`}
	if !slices.Equal(queries, want) {
		t.Errorf("queries %q, want %q", queries, want)
	}
}

// An aggregate limit query names no series to measure: the step is the
// scrape interval of the server's configuration, the shortest where its
// jobs differ; a configuration naming none, or none served (Thanos,
// Mimir), leaves the 1 s default.
func TestDetectStepFallsBackToTheConfiguration(t *testing.T) {
	for _, c := range []struct {
		name, config string
		status       int
		want         time.Duration
		from         string
	}{
		{"jobs agree", "global:\n  scrape_interval: 15s\nscrape_configs:\n- job_name: api\n  scrape_interval: 15s\n", 200, 15 * time.Second, StepConfigured},
		{"jobs differ", "global:\n  scrape_interval: 1m\nscrape_configs:\n- job_name: api\n  scrape_interval: 10s\n- job_name: batch\n  scrape_interval: 1m\n", 200, 10 * time.Second, "whose jobs scrape every 10s to 1m"},
		{"no job names one", "global:\n  scrape_interval: 30s\n", 200, 30 * time.Second, StepConfigured},
		{"nothing parses", "global: [", 200, time.Second, StepDefault},
		{"not served", "", 404, time.Second, StepDefault},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			if strings.HasSuffix(r.URL.Path, "/status/config") {
				if c.status != 200 {
					w.WriteHeader(c.status)
					io.WriteString(w, `{"status":"error","errorType":"not_found","error":"not found"}`)
					return
				}
				b, _ := json.Marshal(map[string]any{"status": "success", "data": map[string]string{"yaml": c.config}})
				w.Write(b)
				return
			}
			// sum(limiter_limit): one value, no labels
			io.WriteString(w, `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1090,"12"]}]}}`)
		}))
		src, err := NewPromSource(PromConfig{URL: srv.URL, Queries: map[trace.Field]string{trace.FieldLimit: "sum(limiter_limit)"}})
		if err != nil {
			t.Fatal(err)
		}
		step, from, err := src.DetectStep(context.Background())
		srv.Close()
		if step != c.want || !strings.Contains(from, c.from) || err != nil {
			t.Errorf("%s: DetectStep %v %q %v, want %v %q", c.name, step, from, err, c.want, c.from)
		}
	}
}

// With Until, a PromSource reads the Backfill before it with query_range
// only, and Run returns: a past span, nothing followed live. Until needs a
// Backfill and cannot lie in the future.
func TestPromSourceReadsAPastSpanAndStops(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	until := now.Add(-26 * time.Hour)
	var mu sync.Mutex
	var paths []string
	var starts, ends []float64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		mu.Lock()
		paths = append(paths, r.URL.Path)
		if r.URL.Path == "/api/v1/query_range" {
			s, _ := strconv.ParseFloat(r.Form.Get("start"), 64)
			e, _ := strconv.ParseFloat(r.Form.Get("end"), 64)
			starts, ends = append(starts, s), append(ends, e)
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"success","data":{"resultType":"matrix","result":[]}}`)
	}))
	defer srv.Close()
	src, err := NewPromSource(PromConfig{URL: srv.URL, Interval: 15 * time.Second, Backfill: 2 * time.Hour, Until: until, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	src.Run(ctx, func(trace.Sample) {})
	if ctx.Err() != nil {
		t.Fatal("Run followed live past the span instead of returning")
	}
	// nothing came back: the status says whose metric names were asked for
	if r := src.Statuses()[0].Reason; !strings.Contains(r, "no series") || !strings.Contains(r, "the limitscope preset's metric names") {
		t.Errorf("status reason %q: want it to say no series came back and which preset's names were queried", r)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(starts) == 0 {
		t.Fatalf("no query_range: %v", paths)
	}
	for _, p := range paths {
		if p != "/api/v1/query_range" {
			t.Fatalf("a past span asked %s", p)
		}
	}
	lo, hi := float64(until.Add(-2*time.Hour).Unix()), float64(until.Unix())
	for i := range starts {
		if starts[i] < lo || ends[i] > hi {
			t.Fatalf("a range %v–%v outside the span %v–%v", starts[i], ends[i], lo, hi)
		}
	}
	if slices.Max(ends) != hi || slices.Min(starts) != lo {
		t.Fatalf("the ranges cover %v–%v, want %v–%v", slices.Min(starts), slices.Max(ends), lo, hi)
	}
	for _, c := range []struct {
		cfg  PromConfig
		want string
	}{
		{PromConfig{URL: srv.URL, Until: until}, "a past span needs a length"},
		{PromConfig{URL: srv.URL, Until: now.Add(time.Hour), Backfill: time.Hour, Now: func() time.Time { return now }}, "it is in the future"},
	} {
		if _, err := NewPromSource(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Until %v, Backfill %v: %v, want %q", c.cfg.Until, c.cfg.Backfill, err, c.want)
		}
	}
}
