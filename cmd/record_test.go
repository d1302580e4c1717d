package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/limitscope/limitscope/internal/testtools"
	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/limiterprom"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/trace"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// serveGates serves the gates' metrics (limiterprom) over HTTP and calls
// tick(i), i = 1, 2, …, every period until the test ends.
func serveGates(t *testing.T, period time.Duration, tick func(i int), gates ...*limiter.Gate) *httptest.Server {
	t.Helper()
	reg := prometheus.NewRegistry()
	m := limiterprom.NewCollector()
	reg.MustRegister(m)
	for _, g := range gates {
		m.Add(g)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		tk := time.NewTicker(period)
		defer tk.Stop()
		for i := 1; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
			}
			tick(i)
		}
	}()
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	t.Cleanup(srv.Close)
	return srv
}

// metricsServer serves two real limiter gates whose limit steps every
// period and whose in-flight is held by permits.
func metricsServer(t *testing.T, period time.Duration) *httptest.Server {
	t.Helper()
	gp := limiter.NewGate(limiter.GateConfig{Downstream: "payments", Limiter: &limiter.Fixed{N: 10}})
	gs := limiter.NewGate(limiter.GateConfig{Downstream: "search", Limiter: &limiter.Fixed{N: 5}})
	for i := 0; i < 3; i++ {
		gs.TryAcquire() // held: search's in-flight stays 3
	}
	var held []limiter.Permit
	return serveGates(t, period, func(i int) {
		gp.Update(func(l limiter.Limiter) { l.(*limiter.Fixed).N = float64(10 + i%7) })
		for _, p := range held {
			p.Release(limiter.Success)
		}
		held = held[:0]
		for j := 0; j < i%5; j++ {
			if p, ok := gp.TryAcquire(); ok {
				held = append(held, p)
			}
		}
	}, gp, gs)
}

// startPrometheus starts the real Prometheus server on a loopback port,
// scraping target every second (testtools.StartPrometheus).
func startPrometheus(t *testing.T, target string, ruleFiles ...string) string {
	t.Helper()
	return testtools.StartPrometheus(t, "1s", target, ruleFiles...)
}

func TestRecordFromPrometheusMatchesDirectScrape(t *testing.T) {
	srv := metricsServer(t, 4*time.Second)
	promURL := startPrometheus(t, strings.TrimPrefix(srv.URL, "http://"))
	dir := t.TempDir()
	direct := filepath.Join(dir, "direct.csv")
	fromProm := filepath.Join(dir, "prom.csv")
	_, errOut, code := run(t, "", "record", srv.URL+"/metrics", "-o", direct, "--duration", "14s", "--interval", "500ms")
	if code != 0 {
		t.Fatalf("record direct: exit %d %s", code, errOut)
	}
	_, errOut, code = run(t, "", "record", "--prom", promURL, "--selector", `{job="limiter"}`, "--backfill", "12s", "--duration", "1500ms", "-o", fromProm)
	if code != 0 {
		t.Fatalf("record --prom: exit %d %s", code, errOut)
	}
	a, _, err := trace.ReadFile(direct, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := trace.ReadFile(fromProm, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 10 {
		t.Fatalf("only %d samples from Prometheus", len(b))
	}
	// every Prometheus sample equals a direct one of the same target within
	// the scrape-timing tolerance
	const tol = 2500 * time.Millisecond
	matched := 0
	for _, p := range b {
		if p.Target != "payments" && p.Target != "search" {
			t.Fatalf("unexpected target %q", p.Target)
		}
		for _, d := range a {
			if d.Target == p.Target && absDur(d.Time.Sub(p.Time)) <= tol && d.Limit == p.Limit && d.InFlight == p.InFlight && math.Abs(d.RTTMinMs-p.RTTMinMs) < 1e-9 {
				matched++
				break
			}
		}
	}
	if matched < len(b)*9/10 {
		t.Fatalf("%d of %d Prometheus samples match the direct scrape", matched, len(b))
	}
	for _, p := range b {
		if !p.Has(trace.FieldLimit) || !p.Has(trace.FieldInFlight) {
			t.Fatalf("prometheus sample lacks limit or in-flight: %+v", p)
		}
	}

	// a past span: --until reads the --backfill before it and stops, in
	// record and in diagnose; following live would add rows after it
	// (--duration only bounds a run that failed to stop)
	until := time.Now().Add(-3 * time.Second).UTC().Truncate(time.Second) // Prometheus keeps milliseconds
	past := filepath.Join(dir, "past.csv")
	_, errOut, code = run(t, "", "record", "--prom", promURL, "--selector", `{job="limiter"}`, "--backfill", "8s", "--until", until.Format(time.RFC3339), "--duration", "20s", "-o", past)
	if code != 0 {
		t.Fatalf("record --until: exit %d %s", code, errOut)
	}
	p, _, err := trace.ReadFile(past, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p) < 2 {
		t.Fatalf("record --until: %d rows", len(p))
	}
	for _, s := range p {
		if s.Time.After(until) || s.Time.Before(until.Add(-9*time.Second)) {
			t.Fatalf("record --until %s --backfill 8s: a row at %s", until.Format(time.RFC3339Nano), s.Time.Format(time.RFC3339Nano))
		}
	}
	out, errOut, code := run(t, "", "diagnose", "--prom", promURL, "--selector", `{job="limiter"}`, "--backfill", "8s", "--until", "3s", "--duration", "20s", "--format", "json", "--fail-on", "")
	var d struct {
		Targets []struct {
			End time.Time `json:"end"`
		} `json:"targets"`
	}
	if code != 0 && code != ExitNoData || json.Unmarshal([]byte(out), &d) != nil || len(d.Targets) == 0 {
		t.Fatalf("diagnose --until: exit %d %s %s", code, errOut, out)
	}
	for _, tg := range d.Targets {
		if tg.End.After(time.Now().Add(-3 * time.Second)) {
			t.Fatalf("diagnose --until 3s: a target's samples end at %s, after the span", tg.End)
		}
	}
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func TestKilledRecorderLeavesReadableFile(t *testing.T) {
	srv := metricsServer(t, 200*time.Millisecond)
	out := filepath.Join(t.TempDir(), "rec.csv")
	cmd := exec.Command(binary(t), "record", srv.URL+"/metrics", "-o", out, "--interval", "100ms")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	r, c, err := trace.Open(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := r.ReadAll()
	if err != nil {
		t.Fatalf("killed recording unreadable: %v", err)
	}
	if len(s) < 10 {
		t.Fatalf("only %d rows survived kill -9 after 2.5 s", len(s))
	}
}

func TestRecordStopsCleanlyOnSIGTERM(t *testing.T) {
	srv := metricsServer(t, 200*time.Millisecond)
	out := filepath.Join(t.TempDir(), "rec.csv.gz")
	cmd := exec.Command(binary(t), "record", srv.URL+"/metrics", "-o", out, "--interval", "100ms")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.Start()
	time.Sleep(1200 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("SIGTERM: %v\n%s", err, stderr.String())
	}
	s, _, err := trace.ReadFile(out, nil, nil)
	if err != nil || len(s) < 6 {
		t.Fatalf("rows %d err %v", len(s), err)
	}
	if !strings.Contains(stderr.String(), "endpoints 1 up, 0 down, 0 stale; 2 targets") || !strings.Contains(stderr.String(), "recorded") {
		t.Fatalf("status lines missing: %s", stderr.String())
	}
}

// An existing recording is never clobbered: refused with exit 2 naming
// --force and --append, its content intact; unknown extensions are refused;
// --append continues the file and the result reads back; a recording of
// nothing exits 3.
func TestRecordNeverClobbersAndSaysWhenNothingWasRecorded(t *testing.T) {
	srv := metricsServer(t, 100*time.Millisecond)
	dir := t.TempDir()
	path := filepath.Join(dir, "old.csv")
	if _, _, code := run(t, "", "record", srv.URL, "-o", path, "--duration", "1200ms", "--interval", "200ms"); code != 0 {
		t.Fatalf("first recording: exit %d", code)
	}
	before, _ := os.ReadFile(path)
	_, errOut, code := run(t, "", "record", srv.URL, "-o", path, "--duration", "500ms", "--interval", "200ms")
	if code != ExitUsage || !strings.Contains(errOut, "--force") || !strings.Contains(errOut, "--append") {
		t.Fatalf("existing file: exit %d, stderr %q; want exit 2 naming --force and --append", code, errOut)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("the refused recording changed the existing file")
	}
	if _, errOut, code := run(t, "", "record", srv.URL, "-o", path, "--append", "--duration", "1200ms", "--interval", "200ms"); code != 0 {
		t.Fatalf("--append: exit %d: %s", code, errOut)
	}
	r, _, err := trace.ReadFile(path, nil, func(string) {})
	if err != nil {
		t.Fatalf("the appended file does not read back: %v", err)
	}
	after, _ := os.ReadFile(path)
	if len(r) == 0 || strings.Count(string(after), "time,target") != 1 || len(after) <= len(before) {
		t.Fatalf("--append: %d samples, %d headers", len(r), strings.Count(string(after), "time,target"))
	}
	if _, _, code := run(t, "", "record", srv.URL, "-o", path, "--force", "--duration", "500ms", "--interval", "200ms"); code != 0 {
		t.Fatalf("--force: exit %d", code)
	}
	if _, errOut, code := run(t, "", "record", srv.URL, "-o", filepath.Join(dir, "x.parquet"), "--duration", "500ms"); code != ExitUsage || !strings.Contains(errOut, ".csv") {
		t.Fatalf(".parquet: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.parquet")); err == nil {
		t.Fatal(".parquet: a file was created")
	}
	// an unreachable endpoint records nothing: exit 3, not 0
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + ln.Addr().String() + "/metrics"
	ln.Close()
	if _, errOut, code := run(t, "", "record", dead, "-o", filepath.Join(dir, "none.csv"), "--duration", "700ms", "--interval", "200ms"); code != ExitNoData {
		t.Fatalf("unreachable: exit %d (%s), want %d", code, errOut, ExitNoData)
	}
}

// Two endpoints on one host exposing the same target name stay two targets,
// and the recording reads back (it used to merge them out of time order).
func TestRecordKeepsSameNamedTargetsOfOneHostApart(t *testing.T) {
	reg := func(limit float64) http.Handler {
		r := prometheus.NewRegistry()
		m := limiterprom.NewCollector()
		r.MustRegister(m)
		m.Add(limiter.NewGate(limiter.GateConfig{Downstream: "payments", Limiter: &limiter.Fixed{N: limit}}))
		return promhttp.HandlerFor(r, promhttp.HandlerOpts{})
	}
	mux := http.NewServeMux()
	mux.Handle("/a/metrics", reg(10))
	mux.Handle("/b/metrics", reg(20))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "two.csv")
	if _, errOut, code := run(t, "", "record", srv.URL+"/a/metrics", srv.URL+"/b/metrics", "-o", path, "--duration", "1500ms", "--interval", "200ms"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	samples, _, err := trace.ReadFile(path, nil, func(string) {})
	if err != nil {
		t.Fatalf("the recording does not read back: %v", err)
	}
	limits := map[string]float64{}
	for _, s := range samples {
		limits[s.Target] = s.Limit
	}
	if len(limits) != 2 {
		t.Fatalf("targets %v, want two distinct", limits)
	}
	for name, l := range limits {
		if strings.Contains(name, "/a/") && l != 10 || strings.Contains(name, "/b/") && l != 20 {
			t.Errorf("%s: limit %v", name, l)
		}
	}
}

// watch --plain against a refused endpoint says why on stderr within about
// an interval (it used to print nothing at all).
func TestWatchPlainSaysWhyAnEndpointIsDown(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + ln.Addr().String() + "/metrics"
	ln.Close()
	cmd := exec.Command(binary(t), "watch", dead, "--plain")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	if !strings.Contains(stderr.String(), "refused") || !strings.Contains(stderr.String(), "1 down") {
		t.Fatalf("stderr %q: want the endpoint down and why", stderr.String())
	}
}

// The headless demo takes the dashboard's keys on stdin (one per line) and
// at POST /control/KEY, so CI can record a sick downstream end to end; the
// /metrics URL is the first thing it prints.
func TestHeadlessDemoTakesKeys(t *testing.T) {
	cmd := exec.Command(binary(t), "demo", "--headless", "--addr", "127.0.0.1:0")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() string {
		select {
		case l := <-lines:
			return l
		case <-time.After(10 * time.Second):
			t.Fatal("no output from the headless demo")
		}
		return ""
	}
	first := next()
	i := strings.Index(first, "http://")
	if i < 0 {
		t.Fatalf("first line %q does not name the /metrics URL", first)
	}
	metrics := strings.Fields(first[i:])[0]
	control := strings.TrimSuffix(metrics, "/metrics") + "/control/"
	resp, err := http.Post(control+"w", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "sick") {
		t.Fatalf("POST /control/w: %d %q", resp.StatusCode, b)
	}
	if resp, _ := http.Post(control+"zz", "text/plain", nil); resp == nil || resp.StatusCode != 404 {
		t.Fatalf("unknown key: %v", resp)
	}
	io.WriteString(stdin, "n\n")
	if l := next(); !strings.Contains(l, "noisy neighbour") {
		t.Fatalf("key n on stdin: %q", l)
	}
}

// simulate interrupted prints what finished and exits 130 (it used to die
// with no output).
func TestSimulateInterruptedExits130(t *testing.T) {
	cmd := exec.Command(binary(t), "simulate")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(stderr.String(), "interrupted:") || !strings.Contains(stdout.String(), "limiter") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// tune --compare on a recording of the demo: the real gates behind real
// HTTP downstreams, recorded over loopback, ranked by every algorithm — with
// the short-trace caveat a 15-second recording deserves.
func TestCompareOnADemoRecording(t *testing.T) {
	demo := exec.Command(binary(t), "demo", "--headless", "--addr", "127.0.0.1:0")
	stdout, _ := demo.StdoutPipe()
	if err := demo.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { demo.Process.Signal(syscall.SIGTERM); demo.Wait() }()
	first, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(first, "http://")
	if i < 0 {
		t.Fatalf("first line %q names no URL", first)
	}
	metrics := strings.Fields(first[i:])[0]
	trace := filepath.Join(t.TempDir(), "demo.csv")
	if _, errOut, code := run(t, "", "record", metrics, "-o", trace, "--duration", "15s", "--interval", "250ms"); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	out, errOut, code := run(t, "", "tune", trace, "--target", "payments", "--compare")
	if code != 0 {
		t.Fatalf("tune --compare: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"algorithms on", "vegas, smoothing", "recorded settings (gradient", "caveat: the trace covers 15s"} {
		if !strings.Contains(out, want) {
			t.Fatalf("--compare on the demo lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "recommendation: ") {
		t.Fatalf("no recommendation line:\n%s", out)
	}
}

// countingServer serves one real limiter gate, "orders", at a fixed limit
// of 4 that is offered 6 requests every 250 ms: per second 8 are rejected,
// and of the 16 let through 4 end dropped.
func countingServer(t *testing.T) *httptest.Server {
	t.Helper()
	g := limiter.NewGate(limiter.GateConfig{Downstream: "orders", Limiter: &limiter.Fixed{N: 4}})
	var held []limiter.Permit
	return serveGates(t, 250*time.Millisecond, func(int) {
		for i, p := range held {
			if i == 0 {
				p.Release(limiter.Dropped)
			} else {
				p.Release(limiter.Success)
			}
		}
		held = held[:0]
		for j := 0; j < 6; j++ {
			if p, ok := g.TryAcquire(); ok {
				held = append(held, p)
			}
		}
	}, g)
}

// Counters read from Prometheus are the events of each row's interval, as
// a direct scrape gives them — also at a step equal to the scrape interval,
// where an increase over the step holds one sample and came back empty:
// every row lacked dropped and rejected. Without --interval the step is the
// limit series' scrape interval, read from the server: a finer step only
// repeats each reading.
func TestRecordFromPrometheusKeepsCounters(t *testing.T) {
	srv := countingServer(t)
	target := strings.TrimPrefix(srv.URL, "http://")
	every1s, every3s := startPrometheus(t, target), testtools.StartPrometheus(t, "3s", target)
	// history for the backfill: a rate over a range longer than the
	// series' life is extrapolated only half a scrape past its first
	// sample, so rows are read once the series is older than the range
	// (a minute at these steps)
	time.Sleep(75 * time.Second)
	dir := t.TempDir()
	i := 0
	for _, c := range []struct {
		prom     string
		interval string // "": not given
		want     time.Duration
	}{
		{every1s, "1s", time.Second},
		{every1s, "3s", 3 * time.Second},
		{every3s, "", 3 * time.Second},
	} {
		i++
		name := fmt.Sprintf("scraped every %s, --interval %q", map[string]string{every1s: "1s", every3s: "3s"}[c.prom], c.interval)
		out := filepath.Join(dir, fmt.Sprintf("%d.csv", i))
		args := []string{"record", "--prom", c.prom, "--selector", `{job="limiter"}`, "--backfill", "20s", "--duration", "1500ms", "-o", out}
		if c.interval != "" {
			args = append(args, "--interval", c.interval)
		}
		_, errOut, code := run(t, "", args...)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", name, code, errOut)
		}
		if want := fmt.Sprintf("rows are %s apart", c.want); !strings.Contains(errOut, want) {
			t.Errorf("%s: the command does not say %q: %s", name, want, errOut)
		}
		rows, _, err := trace.ReadFile(out, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var dropped, rejected []float64
		for k, r := range rows {
			if r.Target != "orders" {
				t.Fatalf("%s: unexpected target %q", name, r.Target)
			}
			if k > 0 && k < len(rows)-1 {
				// the backfill's rows are a step apart (the last may be the
				// follow's first instant query)
				if gap := r.Time.Sub(rows[k-1].Time); gap != c.want {
					t.Fatalf("%s: rows %d and %d are %s apart, want %s", name, k-1, k, gap, c.want)
				}
			}
			if r.Has(trace.FieldDropped) && r.Has(trace.FieldRejected) {
				dropped, rejected = append(dropped, r.Dropped), append(rejected, r.Rejected)
			}
		}
		if len(rows) < 5 || len(dropped) < len(rows)*3/4 {
			t.Fatalf("%s: %d of %d rows carry dropped and rejected", name, len(dropped), len(rows))
		}
		sort.Float64s(dropped)
		sort.Float64s(rejected)
		wantDropped, wantRejected := 4*c.want.Seconds(), 8*c.want.Seconds()
		if d, r := dropped[len(dropped)/2], rejected[len(rejected)/2]; math.Abs(d-wantDropped) > 0.3*wantDropped || math.Abs(r-wantRejected) > 0.3*wantRejected {
			t.Errorf("%s: median dropped %.2f and rejected %.2f per row, want about %.0f and %.0f", name, d, r, wantDropped, wantRejected)
		}
	}
	// a limit query that keeps labels but drops the name is measured on
	// one series under them (topk keeps its name)
	_, errOut, code := run(t, "", "record", "--prom", every3s, "--prom-query", `limit=max by (downstream, instance, job) (limiter_limit)`, "--backfill", "20s", "--duration", "1500ms", "-o", filepath.Join(dir, "max.csv"))
	if want := "rows are 3s apart (" + scrape.StepMeasured; code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("limit query without a name: exit %d, the command does not say %q: %s", code, want, errOut)
	}
	// an aggregate limit query names no series whose samples could be
	// measured: the step is the scrape interval of the server's
	// configuration, and the command says so
	out := filepath.Join(dir, "sum.csv")
	_, errOut, code = run(t, "", "record", "--prom", every3s, "--prom-query", `limit=sum(limiter_limit{job="limiter"})`, "--backfill", "20s", "--duration", "1500ms", "-o", out)
	if code != 0 {
		t.Fatalf("aggregate limit query: exit %d %s", code, errOut)
	}
	if want := "rows are 3s apart (" + scrape.StepConfigured; !strings.Contains(errOut, want) {
		t.Errorf("aggregate limit query: the command does not say %q: %s", want, errOut)
	}
	rows, _, err := trace.ReadFile(out, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sums []time.Time
	for _, r := range rows {
		if r.Target == trace.DefaultTarget && r.Has(trace.FieldLimit) {
			sums = append(sums, r.Time)
		}
	}
	if len(sums) < 5 {
		t.Fatalf("aggregate limit query: %d rows of the summed limit", len(sums))
	}
	for k := 1; k < len(sums)-1; k++ {
		if gap := sums[k].Sub(sums[k-1]); gap != 3*time.Second {
			t.Fatalf("aggregate limit query: rows %d and %d are %s apart, want 3s", k-1, k, gap)
		}
	}
}
