package cmd

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/limitscope/limitscope/limiter/sim"
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
		o, err := parse(t, newTuneCmd, "rtt.csv", "--rtt-window", "90s", "--cap", "none", "--smoothing", "0.3", "--sweep", "rtt_window=10s,30s", "--mode", "open", "--format", "json")
		if err != nil {
			t.Fatal(err)
		}
		if o.base.RTTWindow != sim.Duration(90*time.Second) || o.base.Cap != 0 || o.base.Smoothing != 0.3 || o.mode != "open" || o.format != "json" ||
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
