package cmd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/limitscope/limitscope/internal/testtools"
	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/sim"
	"github.com/limitscope/limitscope/trace"
	"github.com/limitscope/limitscope/tune"
)

// tmuxSocket is the tmux server the tests run their panes on: a server of
// their own, so a developer's sessions neither see them nor get in their way.
const tmuxSocket = "limitscope-test"

// tmux runs a tmux command against the tests' server.
func tmux(args ...string) *exec.Cmd {
	return exec.Command("tmux", append([]string{"-L", tmuxSocket}, args...)...)
}

// tmuxSession runs the real binary in a detached tmux pane of w×h, as a
// person would in a terminal.
type tmuxSession struct {
	t        *testing.T
	name     string
	exitFile string
}

func startTmux(t *testing.T, w, h int, args ...string) *tmuxSession {
	t.Helper()
	requireTool(t, "tmux", "the TUI is tested under tmux")
	bin := binary(t)
	s := &tmuxSession{t: t, name: fmt.Sprintf("ls%d", time.Now().UnixNano()), exitFile: filepath.Join(t.TempDir(), "exit")}
	cmdline := bin
	for _, a := range args {
		cmdline += " " + strconv.Quote(a)
	}
	shell := fmt.Sprintf("TERM=xterm-256color %s; echo $? > %s; sleep 60", cmdline, s.exitFile)
	out, err := tmux("new-session", "-d", "-s", s.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), shell).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() { tmux("kill-session", "-t", s.name).Run() })
	// A test killed from outside (a timeout, ^C on make test) runs no
	// Cleanup, and the demo never exits on its own: the tmux server itself
	// ends the session once this test process is gone.
	reaper := fmt.Sprintf("while kill -0 %d 2>/dev/null; do sleep 1; done; tmux -L %s kill-session -t %s",
		os.Getpid(), tmuxSocket, s.name)
	if out, err := tmux("run-shell", "-b", reaper).CombinedOutput(); err != nil {
		t.Fatalf("tmux run-shell: %v %s", err, out)
	}
	return s
}

func (s *tmuxSession) screen() string {
	out, _ := tmux("capture-pane", "-p", "-t", s.name).Output()
	return string(out)
}

func (s *tmuxSession) keys(k ...string) {
	tmux(append([]string{"send-keys", "-t", s.name}, k...)...).Run()
}

func (s *tmuxSession) waitFor(what string, timeout time.Duration, ok func(string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		scr := s.screen()
		if ok(scr) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out after %s waiting for %s; screen:\n%s", timeout, what, scr)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

func (s *tmuxSession) exitCode(timeout time.Duration) int {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(s.exitFile); err == nil && len(b) > 0 {
			n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			return n
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.t.Fatalf("the program did not exit; screen:\n%s", s.screen())
	return -1
}

var rowRe = regexp.MustCompile(`(?m)^\W*(payments|search)\s+([\d.]+)\s+([\d.]+)\s.*?([\d.]+ms)\s+([\d.]+ms)\s+\S+\s+([a-z-]+)`)

type demoRow struct {
	limit         float64
	rttMin, rtt   string
	verdict, line string
}

func demoRows(scr string) map[string]demoRow {
	out := map[string]demoRow{}
	for _, m := range rowRe.FindAllStringSubmatch(scr, -1) {
		l, _ := strconv.ParseFloat(m[2], 64)
		out[m[1]] = demoRow{limit: l, rttMin: m[4], rtt: m[5], verdict: m[6], line: m[0]}
	}
	return out
}

func TestDemoUnderTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo end-to-end run takes a minute or two")
	}
	s := startTmux(t, 120, 36, "demo")
	first := s.waitFor("both targets with numbers", 30*time.Second, func(scr string) bool { return len(demoRows(scr)) == 2 })
	s.waitFor("numbers that change", 20*time.Second, func(scr string) bool {
		a, b := demoRows(first), demoRows(scr)
		return len(b) == 2 && (a["payments"].line != b["payments"].line || a["search"].line != b["search"].line)
	})
	// let the limiter settle and the board judge a whole window of the
	// healthy downstream (the baseline a later slowdown is measured
	// against), then the noisy neighbour cuts capacity
	s.waitFor("a judged healthy baseline", 60*time.Second, func(scr string) bool {
		return demoRows(scr)["payments"].verdict == "healthy"
	})
	time.Sleep(32 * time.Second) // one whole 30 s window of it
	before := demoRows(s.screen())["payments"].limit
	s.keys("n")
	s.waitFor("the payments limit to fall after the noisy neighbour", 40*time.Second, func(scr string) bool {
		r, ok := demoRows(scr)["payments"]
		return ok && r.limit <= 0.8*before
	})
	s.keys("w")
	s.waitFor("payments turning degraded-downstream", 120*time.Second, func(scr string) bool {
		return demoRows(scr)["payments"].verdict == "degraded-downstream"
	})
	s.keys("q")
	if code := s.exitCode(10 * time.Second); code != 0 {
		t.Fatalf("q exited %d", code)
	}
}

func TestReplayUnderTmux(t *testing.T) {
	sc, err := sim.Load("capacity-shift")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = sim.Duration(20 * time.Minute)
	a := sim.Run(sc, &limiter.Windowed{Limiter: limiter.NewGradient(), Window: 100 * time.Millisecond}, sim.Options{Name: "payments"})
	b := sim.Run(sc, &limiter.Fixed{N: 24}, sim.Options{Name: "search"})
	var rows []trace.Sample
	for i := range a.Samples {
		rows = append(rows, a.Samples[i], b.Samples[i])
	}
	path := testtools.WriteTrace(t, "incident.csv", rows)

	s := startTmux(t, 110, 30, "replay", path, "--speed", "1")
	posRe := regexp.MustCompile(`▶ 1x (\S+) / 19m59s`)
	scr := s.waitFor("both targets and the playback position", 20*time.Second, func(scr string) bool {
		return strings.Contains(scr, "payments") && strings.Contains(scr, "search") && posRe.MatchString(scr)
	})
	pos := func(scr string) time.Duration {
		m := posRe.FindStringSubmatch(scr)
		if m == nil {
			return -1
		}
		d, _ := time.ParseDuration(m[1])
		return d
	}
	p0 := pos(scr)
	s.keys("Right")
	s.keys("Right")
	s.waitFor("a seek forward of two minutes", 10*time.Second, func(scr string) bool { return pos(scr) >= p0+2*time.Minute })
	s.keys("Enter")
	s.waitFor("the detail view", 10*time.Second, func(scr string) bool { return strings.Contains(scr, "━ min RTT") })
	s.keys("q")
	if code := s.exitCode(10 * time.Second); code != 0 {
		t.Fatalf("replay: q exited %d", code)
	}
}

func TestTuneUnderTmux(t *testing.T) {
	dir := t.TempDir()
	scen := filepath.Join(dir, "osc.yaml")
	os.WriteFile(scen, []byte(`name: mistuned
duration: 10m
seed: 4
downstream: {latency_sigma: 0.1, shed_at: 3}
client: {sample_window: 75ms}
schedule:
  - {at: 0s, capacity: 120, base_latency: 300ms, demand: 600}
limiters:
  - {name: orders, kind: gradient, smoothing: 1}
`), 0o644)
	if _, errOut, code := run(t, "", "simulate", "--scenario", scen, "--trace-out", dir); code != 0 {
		t.Fatalf("simulate: %s", errOut)
	}
	stem := filepath.Join(dir, "chosen")
	s := startTmux(t, 110, 34, "tune", filepath.Join(dir, "orders.csv"), "--smoothing", "0.8", "--sample-window", "75ms", "--out", stem)
	smoothRe := regexp.MustCompile(`smoothing\s+([\d.]+)\s+0\.8`)
	utilRe := regexp.MustCompile(`utilisation\s+([\d.]+%)`)
	first := s.waitFor("the tune view", 30*time.Second, func(scr string) bool { return smoothRe.MatchString(scr) && utilRe.MatchString(scr) })
	util0 := utilRe.FindStringSubmatch(first)[1]
	s.keys("Right")
	s.keys("Right")
	s.keys("Right")
	scr := s.waitFor("smoothing 0.95 after → three times", 15*time.Second, func(scr string) bool {
		m := smoothRe.FindStringSubmatch(scr)
		return m != nil && m[1] == "0.95" && !strings.Contains(scr, "re-running")
	})
	if u := utilRe.FindStringSubmatch(scr)[1]; u == util0 {
		t.Fatalf("results did not change with the smoothing (utilisation %s):\n%s", u, scr)
	}
	s.keys("w")
	s.waitFor("the write confirmation", 10*time.Second, func(scr string) bool { return strings.Contains(scr, "wrote ") })
	s.keys("q")
	if code := s.exitCode(10 * time.Second); code != 0 {
		t.Fatalf("tune: q exited %d", code)
	}
	for _, ext := range []string{".json", ".yaml"} {
		p, err := tune.ReadParams(stem + ext)
		sm, _ := p.Get("smoothing")
		ml, _ := p.Get("max_limit")
		if err != nil || sm != 0.95 || ml != 400 {
			t.Fatalf("%s: %+v %v", ext, p, err)
		}
	}
	if b, err := os.ReadFile(stem + ".go"); err != nil || !strings.Contains(string(b), "limiter.Gradient{") {
		t.Fatalf("Go literal file: %v", err)
	}
}
