package cmd

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/internal/testtools"
	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/sim"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/trace"
)

const hostile = "pay\x1b[31m<script>alert(1)</script>|*_`\nments"

// degradedTrace writes a trace of two targets: one healthy, one (with a
// hostile name) healthy for 15 minutes then degraded.
func degradedTrace(t *testing.T) string {
	t.Helper()
	f := func(v float64) *float64 { return &v }
	d := func(v time.Duration) *sim.Duration { x := sim.Duration(v); return &x }
	sc, err := sim.Parse([]byte("duration: 30m\nseed: 3\ndownstream: {shed_at: 3}\nschedule:\n  - {at: 0s, capacity: 40, base_latency: 20ms, demand: 3000}\n"), "t")
	if err != nil {
		t.Fatal(err)
	}
	mk := func() limiter.Limiter {
		return &limiter.Windowed{Limiter: &limiter.Gradient{InitialLimit: 40}, Window: 100 * time.Millisecond, MinSamples: 100}
	}
	healthy := sim.Run(sc, mk(), sim.Options{Name: "healthy-one"}).Samples
	sc.Schedule = append(sc.Schedule, sim.Step{At: sim.Duration(15 * time.Minute), Capacity: f(2), BaseLatency: d(20 * time.Millisecond)})
	bad := sim.Run(sc, mk(), sim.Options{Name: hostile}).Samples
	var rows []trace.Sample
	for i := range healthy {
		rows = append(rows, healthy[i], bad[i])
	}
	return testtools.WriteTrace(t, "trace.csv", rows)
}

func TestDiagnoseJSONSchemaAndExitCode(t *testing.T) {
	path := degradedTrace(t)
	out, errOut, code := run(t, "", "diagnose", path, "--format", "json")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (degraded is a default fail-on class): %s", code, errOut)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"schema", "source", "targets", "exit_code"} {
		if _, ok := doc[k]; !ok {
			t.Fatalf("missing key %s", k)
		}
	}
	if doc["schema"] != "limitscope.diagnosis/v1" || doc["exit_code"] != 1.0 {
		t.Fatalf("schema/exit_code: %v %v", doc["schema"], doc["exit_code"])
	}
	targets := doc["targets"].([]any)
	classes := map[string]string{}
	for _, x := range targets {
		tg := x.(map[string]any)
		for _, k := range []string{"target", "class", "confidence", "verdict_windows", "samples", "start", "end", "stats", "findings"} {
			if _, ok := tg[k]; !ok {
				t.Fatalf("target lacks %s: %v", k, tg)
			}
		}
		// confidence is verdict_windows of judged_windows, rounded
		judged := tg["stats"].(map[string]any)["judged_windows"].(float64)
		if n := tg["verdict_windows"].(float64); judged == 0 || n < 1 || n > judged || math.Abs(n/judged-tg["confidence"].(float64)) > 0.005 {
			t.Fatalf("verdict_windows %v of %v judged does not give confidence %v", n, judged, tg["confidence"])
		}
		if _, err := time.Parse(time.RFC3339, tg["start"].(string)); err != nil {
			t.Fatalf("start not RFC 3339: %v", tg["start"])
		}
		for _, fx := range tg["findings"].([]any) {
			f := fx.(map[string]any)
			for _, k := range []string{"class", "start", "end", "severity", "evidence", "recommendation"} {
				if _, ok := f[k]; !ok {
					t.Fatalf("finding lacks %s: %v", k, f)
				}
			}
		}
		classes[tg["target"].(string)] = tg["class"].(string)
	}
	if classes["healthy-one"] != "healthy" || classes[hostile] != "degraded-downstream" {
		t.Fatalf("classes %v (the JSON keeps the name intact)", classes)
	}
	// fail-on empty: exit 0
	if _, _, code := run(t, "", "diagnose", path, "--fail-on", "", "--format", "json"); code != 0 {
		t.Fatalf("--fail-on '': exit %d", code)
	}
	// --target
	out, _, code = run(t, "", "diagnose", path, "--target", "healthy-one")
	if code != 0 || !strings.Contains(out, "HEALTHY") || strings.Contains(out, "DEGRADED") {
		t.Fatalf("--target: exit %d\n%s", code, out)
	}
	// the text report counts the confidence's windows
	if !regexp.MustCompile(`confidence ` + confidenceWithWindows).MatchString(out) {
		t.Fatalf("the text report does not say how many windows showed the verdict:\n%s", out)
	}
}

// confidenceWithWindows matches a report's confidence with the windows it
// counts: "0.06 (1 of 17 windows)".
const confidenceWithWindows = `\d\.\d\d \(\d+ of \d+ windows\)`

func TestDiagnoseEveryFormatEscapesHostileNames(t *testing.T) {
	path := degradedTrace(t)
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	var args []string
	for _, f := range []string{"json", "markdown", "junit", "html", "text"} {
		args = append(args, "--output", f+"="+filepath.Join(dir, "r."+f))
	}
	c := func(args ...string) (string, int) {
		var out, errb strings.Builder
		io := &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errb, NoColor: true, Getenv: func(k string) string {
			if k == "GITHUB_STEP_SUMMARY" {
				return summary
			}
			return ""
		}}
		cmd := NewRootCmd(io)
		cmd.SetArgs(args)
		code := exitCode(cmd.Execute())
		return out.String(), code
	}
	gh, code := c(append([]string{"diagnose", path, "--format", "github"}, args...)...)
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	read := func(n string) string { b, _ := os.ReadFile(filepath.Join(dir, n)); return string(b) }

	// text: no raw escape sequence or newline from the name
	if txt := read("r.text"); strings.Contains(txt, "\x1b") || !strings.Contains(txt, `pay\x1b[31m<script>`) {
		t.Errorf("text report leaks control sequences:\n%s", txt)
	}
	// markdown: no raw HTML, table pipes escaped
	if md := read("r.markdown"); strings.Contains(md, "<script>") || !strings.Contains(md, `&lt;script\>`) || strings.Contains(md, "|*_`") {
		t.Errorf("markdown not escaped:\n%s", md)
	}
	// markdown and html count the confidence's windows, as text does
	windows := regexp.MustCompile(confidenceWithWindows)
	for _, f := range []string{"r.markdown", "r.html"} {
		if n := len(windows.FindAllString(read(f), -1)); n != 2 {
			t.Errorf("%s: %d confidences with their windows, want one per target (2)", f, n)
		}
	}
	// junit: well-formed, a failure for the degraded target only
	var suites struct {
		Suites []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Cases    []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Body string `xml:",chardata"`
				} `xml:"failure"`
				SystemOut string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(read("r.junit")), &suites); err != nil {
		t.Fatalf("junit not well-formed: %v", err)
	}
	if s := suites.Suites[0]; s.Tests != 2 || s.Failures != 1 || s.Cases[0].Failure != nil || s.Cases[1].Failure == nil {
		t.Errorf("junit: %+v", s)
	}
	for _, c := range suites.Suites[0].Cases {
		text := c.SystemOut
		if c.Failure != nil {
			text = c.Failure.Body
		}
		if !strings.HasPrefix(text, "verdict ") || !windows.MatchString(strings.SplitN(text, "\n", 2)[0]) {
			t.Errorf("junit case %s does not open with its verdict and the confidence's windows: %q", c.Name, text)
		}
	}
	// html: self-contained, escaped, one SVG chart pair per target
	html := read("r.html")
	if strings.Contains(html, "<script>alert") || strings.Contains(html, "<script") || strings.Contains(html, "http://") || strings.Count(html, "<svg") != 4 || !strings.Contains(html, "&lt;script&gt;") {
		t.Errorf("html not self-contained or not escaped (svg count %d)", strings.Count(html, "<svg"))
	}
	if !strings.Contains(html, "<rect") || !strings.Contains(html, "degraded-downstream (critical)") {
		t.Error("html does not mark findings on the chart")
	}
	// github: annotations escaped, ≤ 10, summary appended
	lines := strings.Split(strings.TrimSpace(gh), "\n")
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "::") {
			n++
			if strings.ContainsAny(strings.SplitN(l, "::", 3)[2], "\r\x1b") {
				t.Errorf("annotation not escaped: %q", l)
			}
		}
	}
	if n == 0 || n > 10 || !strings.Contains(gh, "::error title=limitscope pay") {
		t.Errorf("github annotations (%d):\n%q", n, gh)
	}
	if !strings.Contains(gh, `\x0a`) {
		t.Error(`a newline in the name must reach workflow commands as a visible \x0a`)
	}
	if sum := read("summary.md"); !strings.Contains(sum, "## limitscope diagnosis") {
		t.Errorf("GITHUB_STEP_SUMMARY not appended: %q", sum)
	}
}

func TestDiagnoseExitCodes(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short.csv")
	os.WriteFile(short, []byte("time,limit,in_flight,rtt_min_ms\n1,4,3,10\n2,4,3,10\n"), 0o644)
	if out, _, code := run(t, "", "diagnose", short); code != 3 || !strings.Contains(out, "INSUFFICIENT-DATA") || !strings.HasSuffix(out, "exit 3: nothing could be evaluated\n") {
		t.Fatalf("insufficient data: exit %d\n%s", code, out)
	}
	// a header and nothing else says so
	if out, _, code := run(t, "time,limit,in_flight\n", "diagnose", "-"); code != 3 || !strings.HasSuffix(out, "exit 3: nothing could be evaluated: the input holds no samples\n") {
		t.Fatalf("a header only: exit %d\n%s", code, out)
	}
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("time,limit\n1,4\n2,-4\n"), 0o644)
	if _, errOut, code := run(t, "", "diagnose", bad); code != 2 || !strings.Contains(errOut, "bad.csv:3: limit") {
		t.Fatalf("input error: exit %d %q", code, errOut)
	}
	for _, args := range [][]string{
		{"diagnose", short, "--format", "pdf"},
		{"diagnose", short, "--output", "html"},
		{"diagnose", short, "--fail-on", "bogus"},
		{"diagnose", short, "--window", "-1s"},
		{"diagnose", short, "--window", "10ms"},
		{"diagnose"},
	} {
		if _, _, code := run(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	// stdin
	if out, _, code := run(t, "time,limit,in_flight\n1,4,3\n", "diagnose", "-", "--format", "json"); code != 3 || !strings.Contains(out, "insufficient-data") {
		t.Fatalf("stdin: %d %s", code, out)
	}
}

// A password in a target URL reaches no report format, not the step summary,
// not stdout or stderr — also when the URL is malformed.
func TestDiagnoseNeverWritesURLPasswords(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("..", "scrape", "testdata", "limitscope.prom"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) }))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	var outs []string
	for _, f := range []string{"json", "markdown", "junit", "html", "text"} {
		outs = append(outs, "--output", f+"="+filepath.Join(dir, "r."+f))
	}
	for _, target := range []string{
		"http://user:SECRETPW@" + host + "/metrics",
		"http://user:SECRETPW@x@" + host + "/metrics",
		"http://user:SECRETPW/path@" + host + "/metrics",
	} {
		var out, errb strings.Builder
		io := &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errb, NoColor: true, Getenv: func(k string) string {
			if k == "GITHUB_STEP_SUMMARY" {
				return summary
			}
			return ""
		}}
		c := NewRootCmd(io)
		c.SetArgs(append([]string{"diagnose", target, "--duration", "1500ms", "--interval", "250ms", "--format", "github"}, outs...))
		err := c.Execute()
		all := out.String() + errb.String()
		if err != nil {
			all += err.Error()
		}
		for _, f := range []string{"r.json", "r.markdown", "r.junit", "r.html", "r.text", "summary.md"} {
			b, _ := os.ReadFile(filepath.Join(dir, f))
			all += string(b)
		}
		if strings.Contains(all, "SECRETPW") {
			t.Errorf("%s: the password reached the output", target)
		}
	}
}

func TestRedactHidesEverythingBeforeTheLastAt(t *testing.T) {
	for in, want := range map[string]string{
		"http://user:pw@host/metrics":       "http://REDACTED@host/metrics",
		"http://user:pw@x@host/metrics":     "http://REDACTED@host/metrics",
		"http://user:123/path@host/metrics": "http://REDACTED@host/metrics",
		"user:pw@host:9464/metrics":         "REDACTED@host:9464/metrics",
		"http://host/metrics?u=a@b":         "http://host/metrics?u=a@b",
		"http://host:9464/metrics":          "http://host:9464/metrics",
	} {
		if got := scrape.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// A report that cannot be written fails alone (exit 4) and leaves no partial
// file; the other reports are written. Huge finite values give valid JSON.
func TestDiagnoseOutputsAreAtomicAndFinite(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.csv")
	var b strings.Builder
	b.WriteString("time,limit,in_flight,rtt_min_ms,rtt_ms,dropped,rejected\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "%d,1e308,1e308,1e-300,1e308,1e308,1e308\n", 1764410400+i)
	}
	os.WriteFile(huge, []byte(b.String()), 0o644)
	good := filepath.Join(dir, "r.json")
	bad := filepath.Join(dir, "missing-dir", "r.md")
	_, errOut, code := run(t, "", "diagnose", huge, "--format", "json", "--output", "markdown="+bad, "--output", "json="+good)
	if code != ExitOutput || !strings.Contains(errOut, "missing-dir") {
		t.Fatalf("exit %d (%s), want %d naming the failed output", code, errOut, ExitOutput)
	}
	js, err := os.ReadFile(good)
	if err != nil || !json.Valid(js) || len(js) == 0 {
		t.Fatalf("the writable JSON report: %v, valid %v", err, json.Valid(js))
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// repeatedTrace writes a real go-concurrency-limits AIMD recording read
// every 15 s (diagnose/testdata/gcl-aimd-oscillating-15s.csv) as exported
// every second: each reading in 15 rows.
func repeatedTrace(t *testing.T) string {
	t.Helper()
	samples := testtools.ReadTrace(t, filepath.Join("..", "diagnose", "testdata", "gcl-aimd-oscillating-15s.csv"))
	return testtools.WriteTrace(t, "repeated.csv", testtools.RepeatReadings(samples, 15, false))
}

// A trace read every second from a 15 s source is judged as its readings
// (oscillating, a default fail-on class), and the report says so.
func TestDiagnoseSaysRowsRepeatTheirReadings(t *testing.T) {
	out, _, code := run(t, "", "diagnose", repeatedTrace(t))
	if code != diagnose.ExitFailed || !strings.Contains(out, "OSCILLATING") || !strings.Contains(out, "1092 rows repeat the reading before them and were judged as one reading each (readings 15s apart)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// replay --plain reports the same episodes as diagnose on the same file, at
// any speed: both judge in sample time.
func TestReplayEpisodesEqualDiagnoseAtAnySpeed(t *testing.T) {
	replayEqualsDiagnose(t, degradedTrace(t), 3)
	replayEqualsDiagnose(t, repeatedTrace(t), 1)
	// two recordings a year apart: the idle limit plays the year in five
	// minutes of sample time (at speed 1, 4.4 hours at 2000), and both
	// read as they read alone, in replay and in diagnose
	replayEqualsDiagnose(t, joinedTrace(t, degradedTrace(t), 365*24*time.Hour), 6)
}

// joinedTrace writes the trace at path followed by itself gap after its
// end: two recordings of one file.
func joinedTrace(t *testing.T, path string, gap time.Duration) string {
	t.Helper()
	samples := testtools.ReadTrace(t, path)
	shift := samples[len(samples)-1].Time.Sub(samples[0].Time) + gap
	joined := append([]trace.Sample(nil), samples...)
	for _, s := range samples {
		s.Time = s.Time.Add(shift)
		joined = append(joined, s)
	}
	return testtools.WriteTrace(t, "joined.csv", joined)
}

func replayEqualsDiagnose(t *testing.T, path string, episodes int) {
	t.Helper()
	out, _, _ := run(t, "", "diagnose", path, "--format", "json")
	var doc struct {
		Targets []struct {
			Target   string
			Findings []struct {
				Class      string
				Start, End time.Time
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, tg := range doc.Targets {
		for _, f := range tg.Findings {
			if f.Class == "healthy" || f.Class == "degraded-downstream" || f.Class == "pipeline-bound" || f.Class == "oscillating" {
				want = append(want, fmt.Sprintf("%s %s %s", f.Class, f.Start.UTC().Format(time.RFC3339), f.End.UTC().Format(time.RFC3339)))
			}
		}
	}
	if len(want) < episodes {
		t.Fatalf("%s: diagnose found too few episodes to compare: %v", path, want)
	}
	for _, speed := range []string{"2000", "50000"} {
		rep, errOut, code := run(t, "", "replay", path, "--plain", "--speed", speed)
		if code != 0 {
			t.Fatalf("speed %s: exit %d %s", speed, code, errOut)
		}
		var got []string
		for _, l := range strings.Split(rep, "\n") {
			if !strings.HasPrefix(l, "episode ") {
				continue
			}
			var class, start, end string
			for _, kv := range strings.Fields(l) {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "class":
					class = v
				case "start":
					start = v
				case "end":
					end = v
				}
			}
			if class == "healthy" || class == "degraded-downstream" || class == "pipeline-bound" || class == "oscillating" {
				got = append(got, class+" "+start+" "+end)
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("speed %s: replay episodes\n%s\nwant (diagnose)\n%s", speed, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// Small frictions: a host:port/path argument is scraped over http (as curl
// does) and says so; --target names the targets that exist; a header-only
// file has no samples; no argument says what is expected.
func TestDiagnoseFrictions(t *testing.T) {
	body, _ := os.ReadFile(filepath.Join("..", "scrape", "testdata", "limitscope.prom"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(body) }))
	defer srv.Close()
	_, errOut, _ := run(t, "", "diagnose", strings.TrimPrefix(srv.URL, "http://")+"/metrics", "--duration", "600ms", "--interval", "200ms")
	if !strings.Contains(errOut, "is not a file; scraping http://") || strings.Contains(errOut, "cannot open trace file") {
		t.Errorf("host:port/path: %q", errOut)
	}
	path := degradedTrace(t)
	if _, errOut, code := run(t, "", "diagnose", path, "--target", "nosuch"); code != ExitUsage || !strings.Contains(errOut, "it has: healthy-one") {
		t.Errorf("--target nosuch: exit %d %q", code, errOut)
	}
	header := filepath.Join(t.TempDir(), "h.csv")
	os.WriteFile(header, []byte("time,target,limit\n"), 0o644)
	if _, errOut, _ := run(t, "", "diagnose", header, "--target", "x"); !strings.Contains(errOut, "no samples") {
		t.Errorf("header only: %q", errOut)
	}
	if _, errOut, code := run(t, "", "diagnose"); code != ExitUsage || !strings.Contains(errOut, "needs a trace file") {
		t.Errorf("no argument: exit %d %q", code, errOut)
	}
}

// tune: a header-only file has no samples; an unknown --target lists those
// that exist.
func TestTuneSaysWhatTheTraceHolds(t *testing.T) {
	header := filepath.Join(t.TempDir(), "h.csv")
	os.WriteFile(header, []byte("time,target,rtt_ms\n"), 0o644)
	if _, errOut, code := run(t, "", "tune", header, "--sweep", "smoothing=0.1,0.2"); code != ExitUsage || !strings.Contains(errOut, "no samples") || strings.Contains(errOut, `target ""`) {
		t.Errorf("header only: exit %d %q", code, errOut)
	}
	if _, errOut, code := run(t, "", "tune", degradedTrace(t), "--target", "nosuch", "--sweep", "smoothing=0.1,0.2"); code != ExitUsage || !strings.Contains(errOut, "it has: healthy-one") {
		t.Errorf("--target nosuch: exit %d %q", code, errOut)
	}
}

// The scraper's configuration errors name its fields; the command names
// its flags.
func TestScrapeConfigErrorsNameTheFlag(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(bad, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"watch", "--plain", "--ca-file", bad, "http://127.0.0.1:1/metrics"}, `--ca-file "` + bad + `": no PEM certificate in it`},
		{[]string{"watch", "--plain", "--bearer-token-file", filepath.Join(dir, "none"), "http://127.0.0.1:1/metrics"}, "--bearer-token-file: open "},
		{[]string{"watch", "--plain", "--prom", "http://127.0.0.1:1", "--selector", "{job=}"}, `--selector "{job=}": want label matchers`},
	}
	for _, c := range cases {
		_, errOut, code := run(t, "", c.args...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "Auth.") || strings.Contains(errOut, "PromConfig.") {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, errOut, c.want)
		}
	}
}

// runningTotalTrace writes go-concurrency-limits' healthy AIMD recording
// with its dropped and rejected columns as running totals (counters
// exported as is), which the trace reader warns of (warnedOfRunningTotal
// for dropped) and the classifier, so misled, reads degraded-downstream.
func runningTotalTrace(t *testing.T) string {
	t.Helper()
	samples := testtools.ReadTrace(t, filepath.Join("..", "diagnose", "testdata", "gcl-aimd-healthy-15s.csv"))
	dropped, rejected := 0.0, 0.0
	for i := range samples {
		dropped += samples[i].Dropped
		rejected += samples[i].Rejected
		samples[i].Dropped, samples[i].Rejected = dropped, rejected
	}
	return testtools.WriteTrace(t, "counter.csv", samples)
}

const warnedOfRunningTotal = `dropped rises in`

// The input's warnings reach every report: a dropped column written as a
// running total (a counter's value) turns a healthy recording into a
// critical page, and the report that pages says why it may be wrong. The
// text report opens with them (and stderr stays quiet); the other formats
// carry them and stderr says them too.
func TestDiagnoseReportsCarryTheInputsWarnings(t *testing.T) {
	path := runningTotalTrace(t)
	const said = warnedOfRunningTotal
	for _, c := range []struct {
		format, want string
		stderr       bool
	}{
		{"text", "warning: " + path + `: target "gcl-aimd": ` + said, false},
		{"json", `"warnings": [`, true},
		{"markdown", "> ⚠️ warning: ", true},
		{"junit", "<system-err>warning: ", true},
		{"github", "::warning title=limitscope input::", true},
		{"html", `<p class="warn">warning: `, true},
	} {
		out, errOut, _ := run(t, "", "diagnose", path, "--format", c.format)
		if !strings.Contains(out, c.want) || !strings.Contains(out, said) {
			t.Errorf("%s: the report does not carry the warning (%q):\n%s", c.format, c.want, out)
		}
		if strings.Contains(errOut, said) != c.stderr {
			t.Errorf("%s: stderr %q, want the warning there %v", c.format, errOut, c.stderr)
		}
	}
	if out, _, _ := run(t, "", "diagnose", filepath.Join("..", "diagnose", "testdata", "gcl-aimd-healthy-15s.csv"), "--format", "json"); strings.Contains(out, `"warnings"`) {
		t.Errorf("the recording as written warns of something:\n%s", out)
	}
}

// TestRunningTotalsFlag: --running-totals dropped,rejected reads the real
// AIMD recording written as counters (degraded-downstream at confidence
// 1.00 without the flag) as the recording itself reads (every
// verdict and finding alike; only the first row's count, which a running
// total cannot tell, is missing from the totals), with no warning; in every
// command that reads a trace, a column that is no count is refused.
func TestRunningTotalsFlag(t *testing.T) {
	orig := filepath.Join("..", "diagnose", "testdata", "gcl-aimd-healthy-15s.csv")
	counter := runningTotalTrace(t)
	type judged struct {
		Targets []struct {
			Class    string            `json:"class"`
			Findings []json.RawMessage `json:"findings"`
		} `json:"targets"`
		Warnings []string `json:"warnings"`
	}
	read := func(args ...string) judged {
		t.Helper()
		out, errOut, code := run(t, "", append([]string{"diagnose", "--format", "json", "--fail-on", ""}, args...)...)
		var j judged
		if code != 0 || json.Unmarshal([]byte(out), &j) != nil {
			t.Fatalf("%v: exit %d: %s %s", args, code, errOut, out)
		}
		return j
	}
	want, got := read(orig), read(counter, "--running-totals", "dropped,rejected")
	if len(got.Warnings) != 0 {
		t.Errorf("read as a running total, the counter still warns: %q", got.Warnings)
	}
	wb, _ := json.Marshal(want.Targets)
	gb, _ := json.Marshal(got.Targets)
	if string(wb) != string(gb) || len(want.Targets) == 0 {
		t.Errorf("the counter read with --running-totals judges otherwise:\n%s\nwant\n%s", gb, wb)
	}
	if misread := read(counter); misread.Targets[0].Class == want.Targets[0].Class {
		t.Errorf("without the flag the counter reads %s as the recording does: the test shows nothing", misread.Targets[0].Class)
	}
	for _, cmd := range [][]string{{"diagnose"}, {"replay", "--plain"}, {"tune", "--sweep", "smoothing=0.2"}} {
		_, errOut, code := run(t, "", append(cmd, counter, "--running-totals", "rtt_ms")...)
		if code != ExitUsage || !strings.Contains(errOut, `--running-totals "rtt_ms": only the count columns can be running totals: dropped, rejected`) {
			t.Errorf("%s --running-totals rtt_ms: exit %d: %s", cmd[0], code, errOut)
		}
	}
	replayed, _, _ := run(t, "", "replay", "--plain", "--speed", "100000", orig)
	if got, errOut, _ := run(t, "", "replay", "--plain", "--speed", "100000", counter, "--running-totals", "dropped,rejected"); got != replayed || errOut != "" {
		t.Errorf("replay --running-totals:\n%s%s\nwant\n%s", errOut, got, replayed)
	}
	out, errOut, code := run(t, "", "tune", counter, "--running-totals", "dropped,rejected", "--sweep", "smoothing=0.2", "--format", "json")
	if code != 0 || strings.Contains(out, `"warnings"`) || strings.Contains(errOut, "warning") {
		t.Errorf("tune --running-totals dropped,rejected: exit %d, a warning left: %s %.300s", code, errOut, out)
	}
}

func TestTuneReportsCarryTheInputsWarnings(t *testing.T) {
	path := runningTotalTrace(t)
	for _, c := range []struct {
		name   string
		args   []string
		want   string
		stderr bool
	}{
		{"sweep text", []string{"--sweep", "smoothing=0.2,0.5"}, "warning: " + path + `: target "gcl-aimd": `, false},
		{"sweep json", []string{"--sweep", "smoothing=0.2,0.5", "--format", "json"}, `"warnings": [`, true},
		{"compare text", []string{"--compare"}, "warning: " + path + `: target "gcl-aimd": `, false},
		{"compare json", []string{"--compare", "--format", "json"}, `"warnings": [`, true},
	} {
		out, errOut, code := run(t, "", append([]string{"tune", path}, c.args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, errOut)
		}
		if !strings.Contains(out, c.want) || !strings.Contains(out, warnedOfRunningTotal) {
			t.Errorf("%s: the report does not carry the warning (%q):\n%.600s", c.name, c.want, out)
		}
		if strings.Contains(errOut, warnedOfRunningTotal) != c.stderr {
			t.Errorf("%s: stderr %q, want the warning there %v", c.name, errOut, c.stderr)
		}
	}
	out, _, _ := run(t, "", "tune", filepath.Join("..", "diagnose", "testdata", "gcl-aimd-healthy-15s.csv"), "--compare", "--format", "json")
	if strings.Contains(out, `"warnings"`) {
		t.Errorf("the recording as written warns of something:\n%.600s", out)
	}
}

// A Prometheus range read at a 1-minute step gets a verdict from 8
// readings: the real Prometheus server holds a recording of our gradient
// limiter pinned at its floor mid-incident, 15 s apart, in the series
// limiterprom exports (limiter/limiterprom/collector.go: the gauges, the
// RTT histogram's sum and count, the requests counter by outcome), written
// into its storage by the real promtool as a backfill is. diagnose --prom
// reads 10, 7 and 6 minutes of it at --interval 1m: 11 and 8 readings a
// minute apart read degraded-downstream (shortSpanSamples, and the first
// window held until the window is sized), 7 (6 minutes) read insufficient
// data.
func TestDiagnoseReadsAMinuteStepRangeFromPrometheus(t *testing.T) {
	_, promURL, end, _ := backfilledFixture(t, filepath.Join("testdata", "gradient-pinned-mid-incident-15s.csv"))
	for _, c := range []struct {
		backfill string
		readings int
		want     diagnose.Class
		code     int
	}{
		{"10m", 11, diagnose.Degraded, diagnose.ExitFailed},
		{"7m", 8, diagnose.Degraded, diagnose.ExitFailed},
		{"6m", 7, diagnose.Insufficient, ExitNoData},
	} {
		out, errOut, code := run(t, "", "diagnose", "--prom", promURL, "--backfill", c.backfill, "--until", end.Format(time.RFC3339), "--interval", "1m", "--format", "json")
		var d struct {
			Targets []struct {
				Target  string         `json:"target"`
				Class   diagnose.Class `json:"class"`
				Samples int            `json:"samples"`
			} `json:"targets"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil || code != c.code {
			t.Fatalf("--backfill %s: exit %d, want %d (%v): %s %s", c.backfill, code, c.code, err, out, errOut)
		}
		if len(d.Targets) != 1 || d.Targets[0].Target != "search" || d.Targets[0].Samples != c.readings || d.Targets[0].Class != c.want {
			t.Errorf("--backfill %s: %+v, want search with %d readings, %s", c.backfill, d.Targets, c.readings, c.want)
		}
	}
}

// A 30-minute range read at a 1-minute step judges its last 5 minutes:
// the window holds 12 readings, and the incident in our gradient's
// recording (fallen from 159 to 4 at minute 16, losing 5 % of completions)
// shares the second window with the minutes before it. Through the real
// Prometheus, as TestDiagnoseReadsAMinuteStepRangeFromPrometheus reads
// its recording, the verdict is degraded-downstream, its finding from the
// reading before the one at which the limit fell (the fall and its losses
// came in the minute since it) to the end.
func TestDiagnoseJudgesTheLastMinutesOfAMinuteStepRange(t *testing.T) {
	rows, promURL, end, shift := backfilledFixture(t, filepath.Join("..", "diagnose", "testdata", "gradient-degraded-60s.csv"))
	fell := rows[14].Time.Add(shift)
	if rows[15].Limit != 4 || rows[14].Limit < 150 {
		t.Fatalf("the fixture's limit falls %v → %v at row 15, want 150 or more → 4", rows[14].Limit, rows[15].Limit)
	}
	out, errOut, code := run(t, "", "diagnose", "--prom", promURL, "--backfill", "29m", "--until", end.Format(time.RFC3339), "--interval", "1m", "--format", "json")
	var d struct {
		Targets []struct {
			Class    diagnose.Class `json:"class"`
			Samples  int            `json:"samples"`
			Findings []struct {
				Class diagnose.Class `json:"class"`
				Start time.Time      `json:"start"`
				End   time.Time      `json:"end"`
			} `json:"findings"`
		} `json:"targets"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || code != diagnose.ExitFailed || len(d.Targets) != 1 {
		t.Fatalf("exit %d, want %d (%v): %s %s", code, diagnose.ExitFailed, err, out, errOut)
	}
	tg := d.Targets[0]
	found := false
	for _, f := range tg.Findings {
		found = found || f.Class == diagnose.Degraded && f.Start.Equal(fell) && !f.End.Before(end)
	}
	if tg.Samples != 30 || tg.Class != diagnose.Degraded || !found {
		t.Errorf("%d readings, %s, findings %+v; want 30 readings, degraded-downstream from %v to %v", tg.Samples, tg.Class, tg.Findings, fell, end)
	}
}

// backfilledFixture starts the real Prometheus over the recording at path,
// rendered as limiterprom exports it (limiterpromHistory) and moved to end
// at a whole minute an hour ago: in the past, as a backfill is, and well
// inside the server's retention. It returns the rows as read, the
// server's URL, that end and how far the rows were moved.
func backfilledFixture(t *testing.T, path string) (rows []trace.Sample, promURL string, end time.Time, shift time.Duration) {
	t.Helper()
	rows, _, err := trace.ReadFile(path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	end = time.Now().Add(-time.Hour).Truncate(time.Minute)
	shift = end.Sub(rows[len(rows)-1].Time)
	return rows, testtools.BackfilledPrometheus(t, limiterpromHistory(rows, shift)), end, shift
}

// limiterpromHistory renders rows, shifted by shift, as OpenMetrics text of
// the series limiterprom exports for the downstream "search": gauges as
// read, counters summed from the rows' counts, the RTT histogram's count
// the completions Little's law gives (in-flight over the RTT, per row's
// interval) and its sum those completions at the row's RTT.
func limiterpromHistory(rows []trace.Sample, shift time.Duration) string {
	type sample struct {
		labels string
		value  float64
		at     time.Time
	}
	families := map[string][]sample{}
	var order []string
	add := func(family, series, labels string, v float64, at time.Time) {
		if _, ok := families[family]; !ok {
			order = append(order, family)
		}
		families[family] = append(families[family], sample{series + labels, v, at})
	}
	var success, dropped, rejected, count, sum float64
	for i, r := range rows {
		at := r.Time.Add(shift)
		iv := 15 * time.Second
		if i > 0 {
			iv = r.Time.Sub(rows[i-1].Time)
		}
		done := r.InFlight / (r.RTTMs / 1000) * iv.Seconds()
		success, dropped, rejected = success+done, dropped+r.Dropped, rejected+r.Rejected
		count, sum = count+done, sum+done*r.RTTMs/1000
		add("gauge limiter_limit", "limiter_limit", `{downstream="search"}`, r.Limit, at)
		add("gauge limiter_in_flight", "limiter_in_flight", `{downstream="search"}`, r.InFlight, at)
		add("gauge limiter_rtt_min_seconds", "limiter_rtt_min_seconds", `{downstream="search"}`, r.RTTMinMs/1000, at)
		add("histogram limiter_rtt_seconds", "limiter_rtt_seconds_bucket", `{downstream="search",le="+Inf"}`, count, at)
		add("histogram limiter_rtt_seconds", "limiter_rtt_seconds_sum", `{downstream="search"}`, sum, at)
		add("histogram limiter_rtt_seconds", "limiter_rtt_seconds_count", `{downstream="search"}`, count, at)
		add("counter limiter_requests", "limiter_requests_total", `{downstream="search",outcome="success"}`, success, at)
		add("counter limiter_requests", "limiter_requests_total", `{downstream="search",outcome="dropped"}`, dropped, at)
		add("counter limiter_requests", "limiter_requests_total", `{downstream="search",outcome="rejected"}`, rejected, at)
	}
	var b strings.Builder
	for _, f := range order {
		fmt.Fprintf(&b, "# TYPE %s %s\n", strings.Fields(f)[1], strings.Fields(f)[0])
		// each series' samples together, in time order
		series := map[string]bool{}
		for _, s := range families[f] {
			if series[s.labels] {
				continue
			}
			series[s.labels] = true
			for _, o := range families[f] {
				if o.labels == s.labels {
					fmt.Fprintf(&b, "%s %g %d\n", o.labels, o.value, o.at.Unix())
				}
			}
		}
	}
	b.WriteString("# EOF\n")
	return b.String()
}
