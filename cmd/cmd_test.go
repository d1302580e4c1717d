package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/limitscope/limitscope/trace"
)

// run executes the command line with in-memory streams.
func run(t testing.TB, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	io := &IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errb, NoColor: true}
	c := NewRootCmd(io)
	c.SetArgs(args)
	err := c.Execute()
	if err != nil {
		errb.WriteString("limitscope: " + err.Error() + "\n")
	}
	return out.String(), errb.String(), exitCode(err)
}

func TestVersionAndCompletion(t *testing.T) {
	out, _, code := run(t, "", "version")
	if code != 0 || !strings.HasPrefix(out, "limitscope ") {
		t.Fatalf("version: %q %d", out, code)
	}
	out, _, code = run(t, "", "completion", "bash")
	if code != 0 || !strings.Contains(out, "bash completion") {
		t.Fatalf("completion bash: code %d", code)
	}
}

func TestSimulateJSONShapeAndTraceOut(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := run(t, "", "simulate", "--duration", "90s", "--format", "json", "--trace-out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got["scenario"] != "capacity-shift" || got["duration_s"] != 90.0 {
		t.Fatalf("header %v", got)
	}
	results := got["results"].([]any)
	if len(results) != 9 {
		t.Fatalf("%d results", len(results))
	}
	r := results[3].(map[string]any)
	keys := []string{"limiter", "utilisation", "p50_ms", "p99_ms", "overload_episodes", "deferred"}
	if len(r) != len(keys) {
		t.Fatalf("result has keys %v, want exactly %v", r, keys)
	}
	for _, k := range keys {
		if _, ok := r[k]; !ok {
			t.Fatalf("missing %s in %v", k, r)
		}
	}
	if r["limiter"] != "gradient" || r["utilisation"].(float64) <= 0 || r["utilisation"].(float64) > 1 {
		t.Fatalf("gradient row %v", r)
	}
	s, _, err := trace.ReadFile(filepath.Join(dir, "gradient.csv"), nil, nil)
	if err != nil || len(s) != 90 || s[0].Target != "gradient" {
		t.Fatalf("trace-out: %d samples, %v", len(s), err)
	}
}

func TestSimulateTextShowsSeedFigures(t *testing.T) {
	out, _, code := run(t, "", "simulate", "--duration", "30s")
	if code != 0 || !strings.Contains(out, "published: util") || !strings.Contains(out, "890 ms") || !strings.Contains(out, "gradient-cap") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// The published figures were measured on capacity-shift's workload only:
// another scenario's table does not print them beside its own.
func TestSimulateOtherScenariosShowNoPublishedFigures(t *testing.T) {
	out, _, code := run(t, "", "simulate", "--scenario", "worker-pool", "--duration", "30s")
	if code != 0 || strings.Contains(out, "published") || strings.Contains(out, "890 ms") || !strings.Contains(out, "scenario worker-pool") || !strings.Contains(out, "vector-arc") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestUsageErrorsExit2AndNameTheProblem(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	_ = os.WriteFile(bad, []byte("duration: 1h\nschedule: []\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", "--format", "xml"}, `--format "xml"`},
		{[]string{"simulate", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"simulate", "--scenario", "nope"}, "neither built in"},
		{[]string{"simulate", "--scenario", bad}, "bad.yaml: the schedule must start"},
		{[]string{"simulate", "--duration", "-1s"}, "--duration"},
		{[]string{"frobnicate"}, "unknown command"},
	} {
		_, errOut, code := run(t, "", c.args...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// Flag values that used to hang or crash are refused at once with exit 2.
func TestNumericFlagsThatHungOrCrashedAreRefused(t *testing.T) {
	path := degradedTrace(t)
	for _, args := range [][]string{
		{"diagnose", path, "--window", "1us"},
		{"replay", path, "--plain", "--speed", "NaN"},
		{"replay", path, "--plain", "--speed", "+Inf"},
		{"replay", path, "--plain", "--idle-limit", "-1s"},
		{"replay", path, "--plain", "--history", "2000000000"},
		{"tune", path, "--sweep", "smoothing=0:NaN:0.1"},
		{"tune", path, "--sweep", "smoothing=0.1,Inf"},
		{"tune", path, "--sweep", "smoothing=0.001:1:0.001", "--sweep", "min_limit=1:1000:1", "--sweep", "max_limit=1:1000:1"},
	} {
		done := make(chan int, 1)
		var errOut string
		go func() {
			var code int
			_, errOut, code = run(t, "", args...)
			done <- code
		}()
		select {
		case code := <-done:
			if code != ExitUsage || errOut == "" {
				t.Errorf("%v: exit %d (%q), want 2 with a message", args, code, errOut)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%v: still running after 20 s", args)
		}
	}
}

// replay's charts open on the whole trace when it is shorter than the
// default zoom (a 19 s recording used to fill the last 6 % of a 5 min chart).
func TestReplayZoomFitsAShortTrace(t *testing.T) {
	for _, c := range []struct{ span, want time.Duration }{
		{19 * time.Second, 19 * time.Second},
		{3 * time.Second, 10 * time.Second},
		{time.Hour, 5 * time.Minute},
	} {
		if got := fitZoom(c.span, 5*time.Minute); got != c.want {
			t.Errorf("span %v: zoom %v, want %v", c.span, got, c.want)
		}
	}
}
