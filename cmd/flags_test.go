package cmd

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/limitscope/limitscope/tune"
)

// parse runs a command's flag parsing only: runF captures the options, so
// nothing is scraped, simulated or drawn.
func parse[T any](t *testing.T, newCmd func(*IOStreams, func(*T) error) *cobra.Command, args ...string) (*T, error) {
	t.Helper()
	var got *T
	ios := &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}, NoColor: true}
	c := newCmd(ios, func(o *T) error { got = o; return nil })
	c.SetArgs(args)
	c.SetOut(ios.Out)
	c.SetErr(ios.ErrOut)
	err := c.Execute()
	return got, err
}

func TestFlagsReachTheOptions(t *testing.T) {
	t.Run("tune", func(t *testing.T) {
		o, err := parse(t, newTuneCmd, "rtt.csv", "--rtt-window", "90s", "--cap", "none", "--smoothing", "0.3", "--sweep", "rtt_window=10s,30s", "--mode", "open", "--format", "json", "--algorithm", "gradient")
		if err != nil {
			t.Fatal(err)
		}
		base := tune.Defaults()
		if err := o.flags.Apply(&base); err != nil {
			t.Fatal(err)
		}
		rw, _ := base.Get("rtt_window")
		sm, _ := base.Get("smoothing")
		if rw != 90 || base.Cap() != 0 || sm != 0.3 || o.mode != "open" || o.format != "json" || o.algorithm != "gradient" ||
			!reflect.DeepEqual(o.sweeps, []string{"rtt_window=10s,30s"}) || !reflect.DeepEqual(o.args, []string{"rtt.csv"}) {
			t.Fatalf("%+v", o)
		}
		if _, err := parse(t, newTuneCmd, "rtt.csv", "--rtt-window", "soon"); err == nil || !strings.Contains(err.Error(), "not a duration") {
			t.Fatalf("--rtt-window soon: %v", err)
		}
	})
	t.Run("diagnose", func(t *testing.T) {
		o, err := parse(t, newDiagnoseCmd, "a.csv", "b.csv", "--format", "md", "--output", "junit=r.xml", "--fail-on", "degraded-downstream", "--window", "2m", "--preset", "envoy", "--interval", "2s")
		if err != nil {
			t.Fatal(err)
		}
		if o.format != "md" || !reflect.DeepEqual(o.outputs, []string{"junit=r.xml"}) || o.failOn != "degraded-downstream" || o.window != 2*time.Minute ||
			o.live.preset != "envoy" || o.live.interval != 2*time.Second || len(o.args) != 2 {
			t.Fatalf("%+v", o)
		}
	})
	t.Run("simulate", func(t *testing.T) {
		o, err := parse(t, newSimulateCmd, "--duration", "10m", "--seed", "7", "--format", "json", "--trace-out", "dir")
		if err != nil {
			t.Fatal(err)
		}
		if o.duration != 10*time.Minute || o.seed != 7 || o.format != "json" || o.traceOut != "dir" || o.scenario != "capacity-shift" {
			t.Fatalf("%+v", o)
		}
	})
	t.Run("record", func(t *testing.T) {
		o, err := parse(t, newRecordCmd, "-o", "x.csv", "--duration", "5s", "--append", "--ca-file", "ca.pem", "http://h:1/metrics")
		if err != nil {
			t.Fatal(err)
		}
		if o.out != "x.csv" || o.duration != 5*time.Second || !o.file.append || o.file.force || o.live.caFile != "ca.pem" || o.args[0] != "http://h:1/metrics" {
			t.Fatalf("%+v", o)
		}
		if _, err := parse(t, newRecordCmd, "http://h:1/metrics"); err == nil || !strings.Contains(err.Error(), "output") {
			t.Fatalf("record without -o: %v", err)
		}
	})
	t.Run("watch", func(t *testing.T) {
		o, err := parse(t, newWatchCmd, "--plain", "--prom", "http://p:9090", "--selector", `{job="api"}`, "--backfill", "10m", "--record", "r.jsonl", "--force", "--zoom", "10m")
		if err != nil {
			t.Fatal(err)
		}
		if !o.dash.plain || o.live.prom != "http://p:9090" || o.live.selector != `{job="api"}` || o.live.backfill != 10*time.Minute || o.record != "r.jsonl" || !o.file.force || o.dash.zoom != 10*time.Minute {
			t.Fatalf("%+v", o)
		}
	})
	t.Run("replay", func(t *testing.T) {
		o, err := parse(t, newReplayCmd, "t.csv", "--speed", "8", "--chart", "ascii")
		if err != nil {
			t.Fatal(err)
		}
		if o.speed != 8 || o.dash.chart != "ascii" || o.zoomSet || o.args[0] != "t.csv" {
			t.Fatalf("%+v", o)
		}
		if o, _ := parse(t, newReplayCmd, "t.csv", "--zoom", "1m"); o == nil || !o.zoomSet {
			t.Fatal("--zoom given must be kept")
		}
	})
	t.Run("demo", func(t *testing.T) {
		o, err := parse(t, newDemoCmd, "--headless", "--addr", "127.0.0.1:9464")
		if err != nil {
			t.Fatal(err)
		}
		if !o.headless || o.addr != "127.0.0.1:9464" {
			t.Fatalf("%+v", o)
		}
	})
}

// runTTY is run with stdout claimed to be a terminal (and colour allowed).
func runTTY(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	ios := &IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errb, OutTTY: true}
	c := NewRootCmd(ios)
	c.SetArgs(args)
	err := c.Execute()
	if err != nil {
		errb.WriteString("limitscope: " + err.Error() + "\n")
	}
	return out.String(), errb.String(), exitCode(err)
}

// Both sides of every terminal branch, in process: colour only on a
// terminal, the interactive views only on a terminal (plain or an error
// naming the headless flag otherwise).
func TestTerminalAndPipeBranches(t *testing.T) {
	path := degradedTrace(t)

	tty, _, _ := runTTY(t, "", "diagnose", path)
	pipe, _, _ := run(t, "", "diagnose", path)
	if !strings.Contains(tty, "\x1b[") || strings.Contains(pipe, "\x1b[") {
		t.Fatalf("colour must follow the terminal: tty has escapes %v, pipe has escapes %v", strings.Contains(tty, "\x1b["), strings.Contains(pipe, "\x1b["))
	}

	_, errOut, code := run(t, "", "tune", path, "--target", "healthy-one")
	if code != ExitUsage || !strings.Contains(errOut, "needs a terminal") || !strings.Contains(errOut, "--sweep") {
		t.Fatalf("tune on a pipe: exit %d: %s", code, errOut)
	}
	out, errOut, code := runTTY(t, "q", "tune", path, "--target", "healthy-one")
	if code != 0 || !strings.Contains(out, "chosen parameters:") || !strings.Contains(out, "limiter.Gradient{") {
		t.Fatalf("tune on a terminal, q: exit %d: %s%s", code, out, errOut)
	}

	out, _, code = run(t, "", "replay", path, "--speed", "100000")
	if code != 0 || !strings.Contains(out, `target="healthy-one"`) || strings.Contains(out, "\x1b[?1049h") {
		t.Fatalf("replay on a pipe must print plain lines: exit %d\n%.300s", code, out)
	}
	out, errOut, code = runTTY(t, "q", "replay", path, "--speed", "100000")
	if code != 0 || !strings.Contains(out, "\x1b[?1049h") {
		t.Fatalf("replay on a terminal must open the dashboard (alt screen) and quit on q: exit %d %s\n%.300q", code, errOut, out)
	}
}

// tune replays every algorithm: --algorithm with its own knobs and sweeps,
// a knob of another algorithm refused by name, and --compare ranking them
// all (text and limitscope.compare/v1).
func TestTuneAlgorithmsAndCompare(t *testing.T) {
	path := degradedTrace(t)
	out, errOut, code := run(t, "", "tune", path, "--target", "healthy-one", "--algorithm", "vegas", "--sweep", "smoothing=0.5,1", "--format", "json")
	if code != 0 {
		t.Fatalf("vegas sweep: exit %d: %s", code, errOut)
	}
	var sweep struct {
		Rows []struct {
			Params map[string]any `json:"params"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &sweep); err != nil || len(sweep.Rows) != 2 || sweep.Rows[0].Params["algorithm"] != "vegas" || sweep.Rows[1].Params["smoothing"] != 1.0 {
		t.Fatalf("vegas sweep rows: %v %.300s", err, out)
	}
	_, errOut, code = run(t, "", "tune", path, "--algorithm", "vegas", "--rtt-window", "2m", "--sweep", "smoothing=0.5")
	if code != ExitUsage || !strings.Contains(errOut, "--rtt-window is not a parameter of vegas") || !strings.Contains(errOut, "--probe-multiplier") {
		t.Fatalf("a gradient knob on vegas: exit %d: %s", code, errOut)
	}
	_, errOut, code = run(t, "", "tune", path, "--algorithm", "tcp-cubic", "--sweep", "smoothing=0.5")
	if code != ExitUsage || !strings.Contains(errOut, "gradient, gradient2, vegas, aimd, envoy, vector") {
		t.Fatalf("unknown algorithm: exit %d: %s", code, errOut)
	}

	out, errOut, code = run(t, "", "tune", path, "--target", "healthy-one", "--compare")
	if code != 0 {
		t.Fatalf("--compare: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"algorithms on", "gradient2, tolerance", "vegas, smoothing", "envoy, buffer", "vector, rtt deviation scale", "aimd, backoff",
		"recorded settings (gradient, smoothing 0.2)", "caveat: closed loop: the downstream model misses the recorded RTTs by"} {
		if !strings.Contains(out, want) {
			t.Fatalf("--compare text lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "recommendation: ") && !strings.Contains(out, "no recommendation: ") {
		t.Fatalf("--compare must end with a recommendation or say why not:\n%s", out)
	}
	out, _, code = run(t, "", "tune", path, "--target", "healthy-one", "--compare", "--format", "json", "--mode", "open")
	var c struct {
		Schema string `json:"schema"`
		Model  struct {
			FitErrorMedian float64 `json:"fit_error_median"`
			TraceS         float64 `json:"trace_s"`
		} `json:"model"`
		Rows []struct {
			Algorithm string  `json:"algorithm"`
			Eligible  bool    `json:"eligible"`
			P99Ratio  float64 `json:"p99_ratio"`
		} `json:"rows"`
		Caveats []string `json:"caveats"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil || code != 0 || c.Schema != "limitscope.compare/v1" || c.Model.TraceS < 1700 {
		t.Fatalf("--compare json: %v exit %d %.300s", err, code, out)
	}
	algs := map[string]bool{}
	for _, r := range c.Rows {
		algs[r.Algorithm] = true
	}
	if len(algs) != 6 || len(c.Caveats) == 0 || !strings.Contains(strings.Join(c.Caveats, " "), "open loop") {
		t.Fatalf("--compare json: algorithms %v, caveats %v", algs, c.Caveats)
	}
}

// --until takes an RFC 3339 time or a duration ago, needs --prom and
// --backfill, and cannot lie in the future; each mistake names the flag.
func TestUntilFlag(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"diagnose", "http://127.0.0.1:1/metrics", "--until", "2h"}, "--until reads history from Prometheus: it needs --prom"},
		{[]string{"record", "--prom", "http://127.0.0.1:1", "--backfill", "1h", "--until", "yesterday", "-o", filepath.Join(dir, "a.csv")}, `--until "yesterday": want an RFC 3339 time (2026-12-02T14:30:00Z) or a duration ago (90m)`},
		{[]string{"record", "--prom", "http://127.0.0.1:1", "--until", "2h", "-o", filepath.Join(dir, "b.csv")}, "--until \"20"},
		{[]string{"diagnose", "--prom", "http://127.0.0.1:1", "--backfill", "1h", "--until", "2999-01-01T00:00:00Z"}, `--until "2999-01-01T00:00:00Z": it is in the future`},
		{[]string{"watch", "--prom", "http://127.0.0.1:1", "--backfill", "1h", "--until", "2h", "--plain"}, "--until reads a past span, which watch (live) cannot show: record it, then replay it"},
	} {
		_, errOut, code := run(t, "", c.args...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d: %s, want %q", c.args, code, errOut, c.want)
		}
	}
	if _, errOut, _ := run(t, "", "record", "--prom", "http://127.0.0.1:1", "--until", "2h", "-o", filepath.Join(dir, "c.csv")); !strings.Contains(errOut, "a past span needs a length: give the history before it to read (--backfill)") {
		t.Errorf("--until without --backfill: %s", errOut)
	}
	o := &liveOptions{until: "90m"}
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	if got, err := o.untilTime(now); err != nil || !got.Equal(now.Add(-90*time.Minute)) {
		t.Errorf("--until 90m: %v %v", got, err)
	}
	o.until = "2026-12-02T14:30:00Z"
	if got, err := o.untilTime(now); err != nil || !got.Equal(time.Date(2026, 12, 2, 14, 30, 0, 0, time.UTC)) {
		t.Errorf("--until 2026-12-02T14:30:00Z: %v %v", got, err)
	}
}
