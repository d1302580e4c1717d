package tui

import (
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/report"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/trace"
	"github.com/limitscope/limitscope/tune"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	flag.Parse()
	os.Exit(m.Run())
}

var t0 = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

// board builds a deterministic board: a healthy target, a pipeline-bound
// one, one degraded after 6 minutes, and a hostile name.
func board(n int) *diagnose.Board {
	b := diagnose.NewBoard(3600, diagnose.Options{Window: time.Minute})
	names := []string{"payments", "search", "ledger", "evil\x1b[2J\x1b[31m<b>名前</b>\n"}
	for i := 0; i < 600; i++ {
		for k := 0; k < n; k++ {
			name := names[k%len(names)]
			if k >= len(names) {
				name = fmt.Sprintf("svc-%03d", k)
			}
			s := trace.Sample{Time: t0.Add(time.Duration(i) * time.Second), Target: name}
			wave := 1 + 0.02*math.Sin(float64(i)/7)
			switch k % 4 {
			case 0:
				s.Set(trace.FieldLimit, 40*wave)
				s.Set(trace.FieldInFlight, 39)
				s.Set(trace.FieldRTTMin, 12.5)
				s.Set(trace.FieldRTT, 13.1*wave)
			case 1:
				s.Set(trace.FieldLimit, 30)
				s.Set(trace.FieldInFlight, 4)
				s.Set(trace.FieldRTTMin, 4)
				s.Set(trace.FieldRTT, 4.2)
			case 2:
				lim, rtt := 25.0*wave, 10.0
				if i > 360 {
					lim, rtt = 4, 10+float64(i-360)/10
				}
				s.Set(trace.FieldLimit, lim)
				s.Set(trace.FieldInFlight, lim)
				s.Set(trace.FieldRTTMin, rtt)
				s.Set(trace.FieldRTT, rtt*1.3)
			case 3:
				s.Set(trace.FieldLimit, 12*wave)
				s.Set(trace.FieldInFlight, 11)
			}
			b.Push(s)
		}
	}
	return b
}

func statuses() []scrape.Status {
	return []scrape.Status{
		{Endpoint: "http://a/metrics", State: scrape.StateUp, LastSuccess: t0.Add(599 * time.Second)},
		{Endpoint: "http://b/metrics", State: scrape.StateDown, Reason: "http://b/metrics: connection refused (is the service running and listening on b:80?)"},
	}
}

func options(n int) Options {
	return Options{Title: "watch", Board: board(n), Statuses: statuses, Now: func() time.Time { return t0.Add(600 * time.Second) }, Zoom: 10 * time.Minute}
}

// fakePlayer records what the keys asked of it.
type fakePlayer struct {
	pos, start, end time.Time
	speed           float64
	paused          bool
}

func (p *fakePlayer) Position() time.Time  { return p.pos }
func (p *fakePlayer) Start() time.Time     { return p.start }
func (p *fakePlayer) End() time.Time       { return p.end }
func (p *fakePlayer) Speed() float64       { return p.speed }
func (p *fakePlayer) SetSpeed(f float64)   { p.speed = f }
func (p *fakePlayer) Seek(d time.Duration) { p.pos = p.pos.Add(d) }
func (p *fakePlayer) SeekTo(t time.Time)   { p.pos = t }
func (p *fakePlayer) Paused() bool         { return p.paused }
func (p *fakePlayer) SetPaused(v bool)     { p.paused = v }

func keys(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return out
}

func send(m tea.Model, msgs ...tea.Msg) tea.Model {
	for _, msg := range msgs {
		m, _ = m.Update(msg)
	}
	return m
}

func goldenView(t *testing.T, m tea.Model, w, h int, msgs ...tea.Msg) {
	t.Helper()
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	for _, msg := range msgs {
		tm.Send(msg)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'q'}})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	fm.quitting = false
	golden.RequireEqual(t, []byte(fm.View()))
}

func TestGoldenOverview(t *testing.T) { goldenView(t, New(options(4)), 100, 24) }

func TestGoldenOverviewNarrow(t *testing.T) { goldenView(t, New(options(4)), 60, 16) }

func TestGoldenDetail(t *testing.T) {
	goldenView(t, New(options(4)), 100, 30, tea.KeyMsg{Type: tea.KeyDown}, tea.KeyMsg{Type: tea.KeyDown}, tea.KeyMsg{Type: tea.KeyEnter})
}

func TestGoldenDetailASCII(t *testing.T) {
	o := options(4)
	o.Chart = ASCII
	goldenView(t, New(o), 80, 24, tea.KeyMsg{Type: tea.KeyEnter})
}

// A target whose rows repeat each reading (a 15 s scrape exported every
// second) says in its detail view that it was judged on the readings.
func TestDetailSaysRowsRepeatTheirReadings(t *testing.T) {
	bd := diagnose.NewBoard(3600, diagnose.Options{})
	for i := 0; i < 600; i++ {
		k := i / 15 // the reading this row repeats
		s := trace.Sample{Time: t0.Add(time.Duration(i) * time.Second), Target: "payments"}
		s.Set(trace.FieldLimit, 40+float64(k%7))
		s.Set(trace.FieldInFlight, 39)
		s.Set(trace.FieldRTTMin, 20)
		s.Set(trace.FieldRTT, 24+float64(k%5)*0.37)
		bd.Push(s)
	}
	m := tea.Model(New(Options{Title: "replay", Board: bd, Now: func() time.Time { return t0.Add(600 * time.Second) }, Zoom: 10 * time.Minute}))
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 40}, tea.KeyMsg{Type: tea.KeyEnter})
	if v := m.View(); !strings.Contains(v, "560 rows repeat the reading before them") || !strings.Contains(v, "(readings 15s apart)") {
		t.Fatalf("the detail view does not say the rows repeat their readings:\n%s", v)
	}
}

func TestGoldenHelp(t *testing.T) { goldenView(t, New(options(4)), 80, 24, keys("?")[0]) }

func TestGoldenReplay(t *testing.T) {
	o := options(4)
	o.Player = &fakePlayer{pos: t0.Add(600 * time.Second), start: t0, end: t0.Add(20 * time.Minute), speed: 4}
	o.Actions = nil
	goldenView(t, New(o), 100, 24)
}

func TestKeysDriveTheModel(t *testing.T) {
	pl := &fakePlayer{pos: t0.Add(5 * time.Minute), start: t0, end: t0.Add(20 * time.Minute), speed: 1}
	o := options(4)
	o.Player = pl
	called := 0
	o.Actions = []Action{{Key: "d", Help: "deploy", Do: func() string { called++; return "deployed" }}}
	m := tea.Model(New(o))
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	mm := m.(Model)
	first := mm.list.selected
	m = send(m, tea.KeyMsg{Type: tea.KeyDown})
	if m.(Model).list.selected == first {
		t.Fatal("down did not move the selection")
	}
	m = send(m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.(Model).screen != screenDetail {
		t.Fatal("enter did not open the detail")
	}
	m = send(m, tea.KeyMsg{Type: tea.KeyEsc})
	if m.(Model).screen == screenDetail {
		t.Fatal("esc did not close the detail")
	}
	// filter
	m = send(m, keys("/")[0])
	m = send(m, keys("pay")[0], keys("pay")[1], keys("pay")[2], tea.KeyMsg{Type: tea.KeyEnter})
	if v := m.(Model).list.visible; len(v) != 1 || m.(Model).list.selected != "payments" {
		t.Fatalf("filter 'pay' shows %d rows, selected %q", len(v), m.(Model).list.selected)
	}
	m = send(m, keys("/")[0], tea.KeyMsg{Type: tea.KeyEsc})
	if len(m.(Model).list.visible) != 4 {
		t.Fatal("esc in the filter must clear it")
	}
	// the worst targets first by default; s cycles to the limit, then names
	mm = m.(Model)
	if mm.list.sortBy != sortVerdict || mm.rows[mm.list.visible[0]].Class != diagnose.Degraded {
		t.Fatalf("default sort: %v first is %s", mm.list.sortBy, mm.rows[mm.list.visible[0]].Class)
	}
	m = send(m, keys("ss")...)
	mm = m.(Model)
	if mm.list.sortBy != sortName || mm.rows[mm.list.visible[0]].Target > mm.rows[mm.list.visible[1]].Target {
		t.Fatalf("s s: sort %v", mm.list.sortBy)
	}
	// pgdown and pgup page through the targets
	m = send(m, tea.KeyMsg{Type: tea.KeyPgDown})
	if c := m.(Model).list.cursor; c != len(m.(Model).list.visible)-1 {
		t.Fatalf("pgdown on 4 targets: cursor %d, want the last", c)
	}
	m = send(m, tea.KeyMsg{Type: tea.KeyPgUp})
	if c := m.(Model).list.cursor; c != 0 {
		t.Fatalf("pgup: cursor %d, want the first", c)
	}
	// zoom
	z := mm.zoom
	m = send(m, keys("+")...)
	if m.(Model).zoom >= z {
		t.Fatal("+ must zoom in")
	}
	m = send(m, keys("--")...)
	if m.(Model).zoom <= z {
		t.Fatal("- must zoom out")
	}
	// replay controls
	m = send(m, tea.KeyMsg{Type: tea.KeyRight})
	if !pl.pos.After(t0.Add(5 * time.Minute)) {
		t.Fatal("→ must seek forward")
	}
	m = send(m, keys("]]")...)
	if pl.speed != 4 {
		t.Fatalf("] ] speed %v, want 4", pl.speed)
	}
	m = send(m, keys(" ")...)
	if !pl.paused {
		t.Fatal("space must pause playback")
	}
	m = send(m, tea.KeyMsg{Type: tea.KeyHome})
	if !pl.pos.Equal(t0) {
		t.Fatal("home must jump to the start")
	}
	// an action
	m = send(m, keys("d")...)
	if called != 1 || m.(Model).msg != "deployed" {
		t.Fatal("action key not run")
	}
	// help toggles; q quits
	m = send(m, keys("?")...)
	if m.(Model).screen != screenHelp {
		t.Fatal("? must show help")
	}
	_, cmd := m.Update(keys("q")[0])
	if cmd == nil {
		t.Fatal("q must quit")
	}
}

func TestLivePauseFreezesTheView(t *testing.T) {
	o := options(2)
	m := tea.Model(New(o))
	m = send(m, keys(" ")...)
	v := m.(Model).version
	o.Board.Push(trace.Sample{Time: t0.Add(time.Hour), Target: "payments", Limit: 1, Fields: trace.FieldLimit})
	m = send(m, tickMsg(t0))
	if m.(Model).version != v {
		t.Fatal("a paused live view must not refresh")
	}
	m = send(m, keys(" ")[0], tickMsg(t0))
	_ = m
	if m.(Model).version == v {
		t.Fatal("unpaused view must refresh on tick")
	}
}

// A fleet read from Prometheus shows how far apart its readings are (the
// step the source chose: the scrape interval); /metrics endpoints, read at
// the interval given, show none.
func TestHeaderShowsTheFleetStep(t *testing.T) {
	if h := New(options(2)).header(); strings.Contains(h, "every") {
		t.Fatalf("/metrics endpoints show a step: %q", h)
	}
	o := options(2)
	o.Statuses = func() []scrape.Status {
		return []scrape.Status{{Endpoint: "http://prometheus:9090", State: scrape.StateUp, LastSuccess: t0.Add(599 * time.Second), Step: 15 * time.Second, StepFrom: scrape.StepMeasured}}
	}
	if h := New(o).header(); !strings.Contains(h, "every 15s") {
		t.Fatalf("a fleet read every 15 s: header %q", h)
	}
}

func TestHostileNamesNeverReachTheScreenRaw(t *testing.T) {
	m := tea.Model(New(options(4)))
	for _, size := range [][2]int{{100, 30}, {80, 24}, {60, 16}, {45, 10}, {30, 5}} {
		m = send(m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for _, v := range []string{m.View(), send(m, tea.KeyMsg{Type: tea.KeyEnter}).View()} {
			if strings.Contains(v, "\x1b[2J") || strings.Contains(v, "\x1b[31m") {
				t.Fatalf("%v: control sequence from a target name reached the screen", size)
			}
			for i, line := range strings.Split(v, "\n") {
				if w := lipgloss.Width(line); w > size[0] {
					t.Fatalf("%v: line %d is %d wide: %q", size, i, w, line)
				}
			}
			if n := strings.Count(v, "\n") + 1; n > size[1] {
				t.Fatalf("%v: %d lines", size, n)
			}
		}
	}
}

func TestChartStyles(t *testing.T) {
	s := Series{Times: []time.Time{t0, t0.Add(time.Minute)}, Values: []float64{0, 10}, Color: styles.Limit, Mark: '#'}
	for _, st := range []ChartStyle{Braille, Block, ASCII} {
		c := Chart([]Series{s}, []RefLine{{5, styles.Ref, "floor"}}, report.NewTimeline(t0, t0.Add(time.Minute), nil), 30, 6, 0, st, "")
		lines := strings.Split(c, "\n")
		if len(lines) != 6 {
			t.Fatalf("style %d: %d lines", st, len(lines))
		}
		for _, l := range lines {
			if lipgloss.Width(l) != 30 {
				t.Fatalf("style %d: width %d: %q", st, lipgloss.Width(l), l)
			}
		}
		if st == ASCII && (strings.ContainsAny(c, "⠁⣿▀▄") || !strings.Contains(c, "#")) {
			t.Fatalf("ascii chart uses non-ascii marks:\n%s", c)
		}
	}
}

func BenchmarkViewFiftyTargetsAndADetailChart(b *testing.B) {
	o := options(50)
	m := tea.Model(New(o))
	m = send(m, tea.WindowSizeMsg{Width: 200, Height: 60})
	b.Run("overview", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = m.View()
		}
	})
	d := send(m, tea.WindowSizeMsg{Width: 200, Height: 72}, tea.KeyMsg{Type: tea.KeyEnter})
	if h := strings.Count(d.View(), "\n"); h != 71 {
		b.Fatalf("frame has %d lines", h+1)
	}
	b.Run("detail-200x50-chart", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = d.View()
		}
	})
}

// hourOf100Targets is a board holding an hour of 100 targets at 1 s.
func hourOf100Targets() *diagnose.Board {
	bd := diagnose.NewBoard(3600, diagnose.Options{})
	for i := 0; i < 3600; i++ {
		for k := 0; k < 100; k++ {
			s := trace.Sample{Time: t0.Add(time.Duration(i) * time.Second), Target: fmt.Sprintf("svc-%03d", k)}
			s.Set(trace.FieldLimit, 40+float64(i%13))
			s.Set(trace.FieldInFlight, 38)
			s.Set(trace.FieldRTTMin, 10)
			s.Set(trace.FieldRTT, 11)
			bd.Push(s)
		}
	}
	return bd
}

// BenchmarkKeyToRepaint is one key press (move the selection) and the frame
// it repaints, with 100 targets holding an hour of history at 1 s.
func BenchmarkKeyToRepaint(b *testing.B) {
	bd := hourOf100Targets()
	m := tea.Model(New(Options{Title: "watch", Board: bd, Now: func() time.Time { return t0.Add(time.Hour) }}))
	m = send(m, tea.WindowSizeMsg{Width: 160, Height: 50}, tickMsg(t0))
	b.ResetTimer()
	alternateKeys(b, m, tea.KeyMsg{Type: tea.KeyDown}, tea.KeyMsg{Type: tea.KeyUp})
}

// alternateKeys presses a and b in turn, b.N times, repainting after each:
// the key-to-repaint cost.
func alternateKeys(bm *testing.B, m tea.Model, a, b tea.Msg) {
	for i := 0; i < bm.N; i++ {
		k := a
		if i%2 == 1 {
			k = b
		}
		m = send(m, k)
		_ = m.View()
	}
}

// BenchmarkBoardRefresh is the per-tick work of a live dashboard with 100
// targets: re-reading every row and its live verdict.
func BenchmarkBoardRefresh(b *testing.B) {
	bd := hourOf100Targets()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bd.Rows()
	}
}

func tuneOpts() TuneOptions {
	return TuneOptions{
		Title:    "rtt.csv · orders · 1200 samples",
		Baseline: tune.Defaults(),
		Mode:     tune.ClosedLoop,
		Run: func(p tune.Params, mode tune.Mode) tune.Row {
			smoothing, _ := p.Get("smoothing")
			var s []trace.Sample
			for i := 0; i < 300; i++ {
				x := trace.Sample{Time: t0.Add(time.Duration(i) * time.Second)}
				x.Set(trace.FieldLimit, 40+40*smoothing*math.Sin(float64(i)/5))
				x.Set(trace.FieldInFlight, 38)
				s = append(s, x)
			}
			v := diagnose.Healthy
			if smoothing > 0.5 {
				v = diagnose.Oscillating
			}
			return tune.Row{Params: p, Utilisation: 0.9 - smoothing/10, P99Ms: 30 + 10*smoothing, OscillationIndex: 10 * smoothing, Verdict: v, Samples: s}
		},
		RTTTimes: []time.Time{t0, t0.Add(150 * time.Second), t0.Add(299 * time.Second)},
		RTT:      []float64{20, 26, 21},
	}
}

func TestGoldenTune(t *testing.T) {
	m := NewTune(tuneOpts())
	goldenTune(t, m, 100, 30, tea.KeyMsg{Type: tea.KeyRight}, tea.KeyMsg{Type: tea.KeyRight})
}

// TestGoldenTuneTwoRecordings: a file holding two recordings a month apart
// (record --append) whose dropped column read as a running total: the
// warning under the title, each recording half the chart with a break
// between them, and dated labels after it.
func TestGoldenTuneTwoRecordings(t *testing.T) {
	o := tuneOpts()
	later := 30 * 24 * time.Hour
	at := func(i int) time.Time {
		if i >= 150 {
			return t0.Add(later + time.Duration(i-150)*time.Second)
		}
		return t0.Add(time.Duration(i) * time.Second)
	}
	run := o.Run
	o.Run = func(p tune.Params, mode tune.Mode) tune.Row {
		r := run(p, mode)
		for i := range r.Samples {
			r.Samples[i].Time = at(i)
		}
		return r
	}
	o.Title = "two.csv · orders · 300 samples"
	o.RTTTimes, o.RTT = []time.Time{at(0), at(75), at(149), at(150), at(225), at(299)}, []float64{20, 26, 21, 20, 27, 22}
	o.Warnings = []string{`two.csv: target "orders": dropped rises in 290 of its 300 rows and falls in 1: it reads as a running total`}
	goldenTune(t, NewTune(o), 100, 30)
}

func goldenTune(t *testing.T, m tea.Model, w, h int, msgs ...tea.Msg) {
	t.Helper()
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	for _, msg := range msgs {
		tm.Send(msg)
	}
	time.Sleep(100 * time.Millisecond)
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'q'}})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(TuneModel)
	fm.quitting = false
	golden.RequireEqual(t, []byte(fm.View()))
}

func TestTuneKeys(t *testing.T) {
	var wrote tune.Params
	o := tuneOpts()
	o.Write = func(p tune.Params) (string, error) { wrote = p; return "params.json", nil }
	m := tea.Model(NewTune(o))
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	step := func(m tea.Model, msg tea.Msg) tea.Model {
		m, cmd := m.Update(msg)
		if cmd != nil {
			m, _ = m.Update(cmd())
		}
		return m
	}
	for i := 0; i < 3; i++ {
		m = step(m, tea.KeyMsg{Type: tea.KeyRight})
	}
	tm := m.(TuneModel)
	if get(tm.params, "smoothing") != 0.35 || get(tm.cur.Params, "smoothing") != 0.35 {
		t.Fatalf("→×3 on smoothing 0.2: %v (result for %v)", get(tm.params, "smoothing"), get(tm.cur.Params, "smoothing"))
	}
	// typed value on max_limit
	m = step(m, tea.KeyMsg{Type: tea.KeyDown})
	m = step(m, tea.KeyMsg{Type: tea.KeyDown})
	for _, r := range "250" {
		m = step(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	m = step(m, tea.KeyMsg{Type: tea.KeyEnter})
	if get(m.(TuneModel).params, "max_limit") != 250 {
		t.Fatalf("typed max_limit: %v", get(m.(TuneModel).params, "max_limit"))
	}
	// an invalid value is refused with a message
	m = step(m, tea.KeyMsg{Type: tea.KeyUp})
	m = step(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'0'}})
	m = step(m, tea.KeyMsg{Type: tea.KeyEnter})
	if tm := m.(TuneModel); get(tm.params, "min_limit") != 4 || !strings.Contains(tm.msg, "min_limit") {
		t.Fatalf("min_limit 0 accepted or unexplained: %v %q", get(tm.params, "min_limit"), tm.msg)
	}
	m = step(m, keys("m")[0])
	if m.(TuneModel).mode != tune.OpenLoop {
		t.Fatal("m must toggle the mode")
	}
	m = step(m, keys("w")[0])
	if get(wrote, "max_limit") != 250 || get(wrote, "smoothing") != get(m.(TuneModel).params, "smoothing") {
		t.Fatalf("w wrote %+v", wrote)
	}
	if !strings.Contains(m.View(), "open loop: recorded RTTs replayed") {
		t.Fatal("open loop must say it is blind")
	}
}

// The dashboard defects a reviewer found, each pinned.
func TestDashboardDefectsStayFixed(t *testing.T) {
	t.Run("filter prompt is drawn, not escaped", func(t *testing.T) {
		lipgloss.SetColorProfile(termenv.ANSI)
		defer lipgloss.SetColorProfile(termenv.Ascii)
		m := send(tea.Model(New(options(4))), tea.WindowSizeMsg{Width: 100, Height: 24}, keys("/")[0], keys("p")[0])
		if v := m.View(); strings.Contains(v, `\x1b`) && !strings.Contains(v, `evil\x1b`) || strings.Contains(v, `\x1b[7m`) {
			t.Fatalf("the filter prompt shows an escaped escape sequence:\n%s", v)
		}
	})
	t.Run("a filter matching nothing says so", func(t *testing.T) {
		m := send(tea.Model(New(options(4))), tea.WindowSizeMsg{Width: 100, Height: 24})
		m = send(m, append(keys("/zzz"), tea.KeyMsg{Type: tea.KeyEnter})...)
		v := m.View()
		if strings.Contains(v, "waiting for samples") || !strings.Contains(v, `no target matches "zzz"`) {
			t.Fatalf("filter matching nothing:\n%s", v)
		}
	})
	t.Run("the chart scales to the data; a cap above it is a marker", func(t *testing.T) {
		s := Series{Times: []time.Time{t0, t0.Add(time.Minute)}, Values: []float64{38, 40}, Color: styles.Limit, Mark: '#'}
		c := Chart([]Series{s}, []RefLine{{200, styles.Cap, "cap"}, {4, styles.Ref, "floor"}}, report.NewTimeline(t0, t0.Add(time.Minute), nil), 60, 8, 0, ASCII, "")
		lines := strings.Split(c, "\n")
		if !strings.HasPrefix(strings.TrimSpace(lines[0]), "44") || !strings.Contains(lines[0], "↑ cap 200") {
			t.Fatalf("top row %q: want the scale at 44 (data ×1.1) and the cap as a marker", lines[0])
		}
		if !strings.Contains(c, "-") {
			t.Fatal("the floor, inside the scale, must still be drawn")
		}
	})
	t.Run("time axis labels round times between the ends", func(t *testing.T) {
		a := TimeAxis(report.NewTimeline(t0, t0.Add(10*time.Minute), nil), 100, 7, nil)
		for _, want := range []string{"10:00", "10:02", "10:05", "10:08"} {
			if !strings.Contains(a, want) {
				t.Fatalf("axis lacks %s:\n%s", want, a)
			}
		}
		if strings.Count(a, "┬") < 5 {
			t.Fatalf("too few ticks:\n%s", a)
		}
	})
	t.Run("two recordings a month apart draw side by side, with a break", func(t *testing.T) {
		var s Series
		for _, start := range []time.Time{t0, t0.Add(30 * 24 * time.Hour)} {
			for i := 0; i < 600; i++ {
				s.Times, s.Values = append(s.Times, start.Add(time.Duration(i)*time.Second)), append(s.Values, 30)
			}
		}
		s.Color, s.Mark = styles.Limit, '#'
		from, to := s.Times[0], s.Times[len(s.Times)-1]
		for _, c := range []struct {
			tl                 report.Timeline
			breaks, blankInRow int
			labels             []string
		}{
			// to scale: two slivers at the edges, the month a line between
			{report.NewTimeline(from, to, nil), 0, 0, nil},
			{report.NewTimeline(from, to, s.Times), 1, 1, []string{"Nov 29 10:", "Dec 29 10:"}},
		} {
			chart := ansi.Strip(Chart([]Series{s}, nil, c.tl, 107, 6, 0, Braille, ""))
			axis := ansi.Strip(TimeAxis(c.tl, 107, 7, nil))
			// the row the flat line runs along, past its y axis
			var row string
			for _, l := range strings.Split(chart, "\n") {
				if body := []rune(l)[7:]; strings.TrimSpace(string(body)) != "" {
					row = string(body)
				}
			}
			blank := strings.Count(strings.TrimSpace(row), " ")
			if got := strings.Count(axis, "≈"); got != c.breaks || c.breaks > 0 && blank < c.blankInRow || c.breaks == 0 && blank != 0 {
				t.Fatalf("%d breaks on the axis (want %d), %d blank cells inside the line:\n%s\n%s", got, c.breaks, blank, chart, axis)
			}
			for _, want := range c.labels {
				if !strings.Contains(axis, want) {
					t.Fatalf("axis lacks %q:\n%s", want, axis)
				}
			}
		}
	})
	t.Run("a week's axis reads dates, not 00:00 at every tick", func(t *testing.T) {
		a := ansi.Strip(TimeAxis(report.NewTimeline(t0, t0.Add(7*24*time.Hour), nil), 100, 7, nil))
		if strings.Contains(a, "00:00") || !strings.Contains(a, "Dec 01") {
			t.Fatalf("a week's axis:\n%s", a)
		}
		a = ansi.Strip(TimeAxis(report.NewTimeline(t0, t0.Add(30*time.Hour), nil), 100, 7, nil))
		if !strings.Contains(a, "Nov 29 12:00") || !strings.Contains(a, "Nov 30") {
			t.Fatalf("30 hours from 10:00: the first label and midnight carry the date:\n%s", a)
		}
	})
	t.Run("q quit stays visible at any width", func(t *testing.T) {
		o := options(4)
		o.Player = &fakePlayer{pos: t0.Add(5 * time.Minute), start: t0, end: t0.Add(20 * time.Minute), speed: 1}
		for _, w := range []int{80, 60, 45} {
			m := send(tea.Model(New(o)), tea.WindowSizeMsg{Width: w, Height: 24})
			lines := strings.Split(m.View(), "\n")
			if last := lines[len(lines)-1]; !strings.Contains(last, "q quit") {
				t.Fatalf("width %d: key hints %q", w, last)
			}
		}
	})
	t.Run("UTIL shows its number", func(t *testing.T) {
		v := send(tea.Model(New(options(4))), tea.WindowSizeMsg{Width: 100, Height: 24}).View()
		if !strings.Contains(v, " 13%") || !strings.Contains(v, "100%") {
			t.Fatalf("UTIL without numbers:\n%s", v)
		}
	})
}

// steadyBoard is a board of one target read every second for five
// minutes, its values held.
func steadyBoard(target string, values map[trace.Field]float64) *diagnose.Board {
	b := diagnose.NewBoard(3600, diagnose.Options{Window: time.Minute})
	for i := 0; i < 300; i++ {
		s := trace.Sample{Time: t0.Add(time.Duration(i) * time.Second), Target: target}
		for f, v := range values {
			s.Set(f, v)
		}
		b.Push(s)
	}
	return b
}

// A target exporting rejections shows the rejected share in the overview's
// REJ column and as a series in its detail.
func TestRejectedShareOnScreen(t *testing.T) {
	// 80 completed a second: a fifth of demand turned away
	b := steadyBoard("payments", map[trace.Field]float64{trace.FieldLimit: 10, trace.FieldInFlight: 8, trace.FieldRTTMin: 90, trace.FieldRTT: 100, trace.FieldRejected: 20})
	o := Options{Title: "watch", Board: b, Now: func() time.Time { return t0.Add(300 * time.Second) }, Zoom: 5 * time.Minute}
	m := send(tea.Model(New(o)), tea.WindowSizeMsg{Width: 110, Height: 30})
	if v := m.View(); !strings.Contains(v, "REJ") || !strings.Contains(v, "20%") {
		t.Fatalf("overview without the rejected share:\n%s", v)
	}
	v := send(m, tea.KeyMsg{Type: tea.KeyEnter}).View()
	if !strings.Contains(v, "rejected 20%") || !strings.Contains(v, "rejected share of demand (%)") {
		t.Fatalf("detail without the rejected share:\n%s", v)
	}
}

// Values typed fast or pasted arrive whole, and each knob reads its own
// unit: a pasted 300, and rtt_window typed as "90s" after enter.
func TestTunePastedAndTypedValues(t *testing.T) {
	m := tea.Model(NewTune(tuneOpts()))
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	step := func(m tea.Model, msg tea.Msg) tea.Model {
		m, cmd := m.Update(msg)
		if cmd != nil {
			if r, ok := cmd().(tuneDone); ok {
				m, _ = m.Update(r)
			}
		}
		return m
	}
	m = step(m, tea.KeyMsg{Type: tea.KeyDown})
	m = step(m, tea.KeyMsg{Type: tea.KeyDown}) // max_limit
	m = step(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("300"), Paste: true})
	m = step(m, tea.KeyMsg{Type: tea.KeyEnter})
	if got := get(m.(TuneModel).params, "max_limit"); got != 300 {
		t.Fatalf("pasted 300: max_limit %v", got)
	}
	m = step(m, tea.KeyMsg{Type: tea.KeyDown})
	m = step(m, tea.KeyMsg{Type: tea.KeyDown}) // rtt_window
	m = step(m, tea.KeyMsg{Type: tea.KeyEnter})
	if v := m.View(); !strings.Contains(v, "rtt_window = 2m0s") || !strings.Contains(v, "a duration") {
		t.Fatalf("enter must edit the current value and say what it takes:\n%s", v)
	}
	for i := 0; i < 4; i++ {
		m = step(m, tea.KeyMsg{Type: tea.KeyBackspace})
	}
	m = step(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("90s")})
	m = step(m, tea.KeyMsg{Type: tea.KeyEnter})
	if got := get(m.(TuneModel).params, "rtt_window"); got != 90 {
		t.Fatalf("typed 90s: rtt_window %vs (%q)", got, m.(TuneModel).msg)
	}
}

// get is a parameter's value (durations in seconds).
func get(p tune.Params, name string) float64 { v, _ := p.Get(name); return v }

// a switches algorithm: the panel shows the new algorithm's knobs, and the
// previous candidate's limit is overlaid and named.
func TestTuneSwitchesAlgorithm(t *testing.T) {
	m := tea.Model(NewTune(tuneOpts()))
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 34})
	m, cmd := m.Update(keys("a")[0])
	if cmd != nil {
		m, _ = m.Update(cmd())
	}
	tm := m.(TuneModel)
	if tm.params.Alg().Name != "gradient2" {
		t.Fatalf("a: algorithm %s, want gradient2", tm.params.Alg().Name)
	}
	v := m.View()
	for _, want := range []string{"tolerance", "queue size", "what-if limit (gradient2)", "previous: gradient, smoothing 0.2", "Netflix Gradient2"} {
		if !strings.Contains(v, want) {
			t.Fatalf("after a, the view lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "rtt window") {
		t.Fatalf("gradient's knobs must leave the panel:\n%s", v)
	}
}

// fleet is a board of n targets holding an hour at 15 s (what watch --prom
// over a fleet holds), a tenth of them degraded in the last 20 minutes.
func fleet(n int) *diagnose.Board {
	bd := diagnose.NewBoard(240, diagnose.Options{})
	for i := 0; i < 240; i++ {
		for k := 0; k < n; k++ {
			s := trace.Sample{Time: t0.Add(time.Duration(i) * 15 * time.Second), Target: fmt.Sprintf("svc-%04d", k)}
			lim, rtt := 40+float64((i+k)%5), 10.0
			if k%10 == 0 && i > 160 {
				lim, rtt = 4, 25
			}
			s.Set(trace.FieldLimit, lim)
			s.Set(trace.FieldInFlight, lim-1)
			s.Set(trace.FieldRTTMin, rtt)
			s.Set(trace.FieldRTT, rtt*1.1)
			bd.Push(s)
		}
	}
	return bd
}

// BenchmarkFleet2000 is watch --prom over 2,000 targets with an hour of
// history at 15 s: the per-tick refresh (every row's live verdict), one
// overview frame at 200×50, and a key press (page down) with its repaint.
func BenchmarkFleet2000(b *testing.B) {
	bd := fleet(2000)
	opt := Options{Title: "watch", Board: bd, Now: func() time.Time { return t0.Add(time.Hour) }}
	b.Run("refresh", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			bd.Rows()
		}
	})
	m := tea.Model(New(opt))
	m = send(m, tea.WindowSizeMsg{Width: 200, Height: 50})
	if v := m.View(); !strings.Contains(v, "200 ✖ degraded-downstream") || !strings.Contains(v, "1800 ● healthy") {
		b.Fatalf("fleet overview does not lead with the verdict counts:\n%s", v)
	}
	b.Run("frame", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = m.View()
		}
	})
	b.Run("key-to-repaint", func(b *testing.B) {
		alternateKeys(b, m, tea.KeyMsg{Type: tea.KeyPgDown}, tea.KeyMsg{Type: tea.KeyPgUp})
	})
}

// A fleet of 2,000 targets with an hour at 15 s fits well inside 256 MiB.
func TestFleetMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 2,000-target board")
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	bd := fleet(2000)
	rows := bd.Rows()
	runtime.GC()
	runtime.ReadMemStats(&after)
	used := float64(after.HeapInuse-before.HeapInuse) / (1 << 20)
	t.Logf("2,000 targets, an hour at 15 s: %.0f MiB of heap in use (%d rows)", used, len(rows))
	if used > 256 {
		t.Fatalf("%.0f MiB of heap for the fleet; the budget is 256 MiB", used)
	}
	runtime.KeepAlive(bd)
}

// Limits and in-flight beyond float32's range (1e308 is a valid trace
// value) read as in-flight at 100 % of the limit on the overview and in the
// detail, and a row whose in-flight / limit is NaN draws the unknown bar:
// the bar's width from a NaN share panicked the dashboard.
func TestValuesAtTheFloat64RangeOnScreen(t *testing.T) {
	b := steadyBoard("huge", map[trace.Field]float64{trace.FieldLimit: 1e308, trace.FieldInFlight: 1e308, trace.FieldRTTMin: 10, trace.FieldRTT: 12})
	o := Options{Title: "replay", Board: b, Now: func() time.Time { return t0.Add(300 * time.Second) }, Zoom: 5 * time.Minute}
	m := send(tea.Model(New(o)), tea.WindowSizeMsg{Width: 110, Height: 30})
	if v := m.View(); !strings.Contains(v, "100%") || strings.Contains(v, "NaN") {
		t.Fatalf("overview of 1e308 limits:\n%s", v)
	}
	if v := send(m, tea.KeyMsg{Type: tea.KeyEnter}).View(); strings.Contains(v, "NaN") || strings.Contains(v, "Inf") {
		t.Fatalf("detail of 1e308 limits:\n%s", v)
	}
	var last trace.Sample
	last.Set(trace.FieldLimit, math.Inf(1))
	last.Set(trace.FieldInFlight, math.Inf(1))
	if got := utilCell(diagnose.Row{Target: "x", Last: last}, 12); !strings.HasSuffix(got, "–") {
		t.Errorf("in-flight / limit of Inf/Inf: %q, want the unknown bar", got)
	}
}

// The input's warnings show under the header of the dashboard and of the
// tuning view: the first (made safe for the terminal) and how many there
// are, ahead of its text, which the width cuts: the screen covers what went
// to stderr. The view keeps to the terminal's height.
func TestInputWarningsUnderTheHeader(t *testing.T) {
	const h = 30
	b := steadyBoard("payments", map[trace.Field]float64{trace.FieldLimit: 10, trace.FieldInFlight: 8, trace.FieldRTTMin: 90, trace.FieldRTT: 100})
	views := []struct {
		name   string
		header int // lines: the title, then what may carry the warning
		view   func(w []string) string
	}{
		{"dashboard", 2, func(w []string) string {
			o := Options{Title: "replay", Board: b, Now: func() time.Time { return t0.Add(300 * time.Second) }, Zoom: 5 * time.Minute, Warnings: w}
			return send(tea.Model(New(o)), tea.WindowSizeMsg{Width: 110, Height: h}).View()
		}},
		{"tune", 3, func(w []string) string {
			o := tuneOpts()
			o.Warnings = w
			return send(tea.Model(NewTune(o)), tea.WindowSizeMsg{Width: 110, Height: h}).View()
		}},
	}
	for _, c := range []struct {
		warnings []string
		want     string
	}{
		{nil, ""},
		{[]string{"f.csv: target \"payments\": dropped rises in 75 of its 79 rows"}, "warning: f.csv: target \"payments\": dropped rises in 75"},
		{[]string{"f.csv: one\x1b[31m", "f.csv: two"}, "warning 1 of 2 (all on stderr): f.csv: one"},
	} {
		for _, vw := range views {
			v := vw.view(c.warnings)
			lines := strings.Split(v, "\n")
			header := strings.Join(lines[:vw.header], "\n")
			switch {
			case c.want == "" && strings.Contains(v, "warning"):
				t.Errorf("%s: no warnings, yet the screen says one:\n%s", vw.name, v)
			case c.want != "" && !strings.Contains(header, c.want):
				t.Errorf("%s: header without %q:\n%s", vw.name, c.want, header)
			case strings.Contains(v, "\x1b[31m"):
				t.Errorf("%s: a raw escape sequence from the input reached the screen", vw.name)
			case len(lines) > h:
				t.Errorf("%s, %d warnings: the view is %d lines in a %d-line terminal", vw.name, len(c.warnings), len(lines), h)
			}
		}
	}
}
