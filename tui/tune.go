package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/limitscope/limitscope/internal/decimal"
	"github.com/limitscope/limitscope/report"
	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/tune"
)

// TuneOptions configure the tuning view. Run and Write do the work (the
// view only renders and routes keys).
type TuneOptions struct {
	Title    string
	Baseline tune.Params
	Mode     tune.Mode
	// Run replays the trace with p in a mode.
	Run func(p tune.Params, mode tune.Mode) tune.Row
	// Write saves p and returns what it wrote.
	Write func(p tune.Params) (string, error)
	// RTT is the recorded RTT series; RecordedLimit the recorded limit
	// (overlaid when the file has it).
	RTTTimes, LimitTimes []time.Time
	RTT, RecordedLimit   []float64
	Chart                ChartStyle
	// Warnings are what reading the trace warned of (a count column that
	// reads as a running total, a truncated last line); the first shows
	// under the title.
	Warnings []string
}

type tuneKeys struct {
	Up, Down, Dec, Inc, Algorithm, Mode, Write, Reset, Quit key.Binding
}

func (k tuneKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Dec, k.Algorithm, k.Mode, k.Write, k.Reset, k.Quit}
}

func (k tuneKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// TuneModel is the what-if tuning view.
type TuneModel struct {
	opt    TuneOptions
	keys   tuneKeys
	help   help.Model
	params tune.Params
	mode   tune.Mode
	cursor int
	// input edits the chosen parameter's value while editing: a digit,
	// a paste or enter starts it; enter applies, esc cancels
	input   textinput.Model
	editing bool
	cur     tune.Row
	// prev is the previous algorithm's candidate, overlaid after a switch
	prev     tune.Row
	base     tune.Row
	seq      int
	running  bool
	msg      string
	width    int
	height   int
	quitting bool
}

type tuneDone struct {
	seq      int
	row      tune.Row
	baseline bool
}

// NewTune returns the tuning view; it runs the baseline at once.
func NewTune(opt TuneOptions) TuneModel {
	m := TuneModel{opt: opt, params: opt.Baseline, mode: opt.Mode, help: help.New(), width: 80, height: 24,
		keys: tuneKeys{
			Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "choose")),
			Down:      key.NewBinding(key.WithKeys("down", "j")),
			Dec:       key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/→ or type", "change")),
			Inc:       key.NewBinding(key.WithKeys("right", "l")),
			Mode:      key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "open/closed")),
			Write:     key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "write")),
			Reset:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "baseline")),
			Algorithm: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "algorithm")),
			Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		}}
	m.input = textinput.New()
	m.input.CharLimit = 32
	m.input.Prompt = ""
	m.base = opt.Run(opt.Baseline, opt.Mode)
	m.cur = m.base
	return m
}

// Params returns the parameters chosen so far.
func (m TuneModel) Params() tune.Params { return m.params }

// Init does nothing: the baseline ran in NewTune.
func (m TuneModel) Init() tea.Cmd { return nil }

func (m *TuneModel) rerun() tea.Cmd {
	m.seq++
	m.running = true
	seq, p, mode, run := m.seq, m.params, m.mode, m.opt.Run
	return func() tea.Msg { return tuneDone{seq: seq, row: run(p, mode)} }
}

// Update routes keys and results.
func (m TuneModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.Width = msg.Width
	case tuneDone:
		if msg.baseline {
			m.base = msg.row
			return m, nil
		}
		if msg.seq == m.seq {
			m.cur, m.running = msg.row, false
		}
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m TuneModel) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := &m.params.Alg().Table[m.cursor]
	if m.editing {
		switch msg.Type {
		case tea.KeyEnter:
			m.editing = false
			m.input.Blur()
			v, err := k.Parse(m.input.Value())
			if err != nil {
				m.msg = k.Name + ": " + err.Error()
				return m, nil
			}
			return m.set(k.Name, v)
		case tea.KeyEsc:
			m.editing = false
			m.input.Blur()
			return m, nil
		}
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return m, cmd
	}
	// a digit, a decimal point or a paste starts typing a value; enter
	// starts editing the current one
	if msg.Type == tea.KeyRunes && (msg.Paste || len(msg.Runes) > 0 && strings.ContainsRune("0123456789.", msg.Runes[0])) || msg.Type == tea.KeyEnter {
		m.editing = true
		m.msg = ""
		m.input.SetValue("")
		if msg.Type == tea.KeyEnter {
			cur, _ := m.params.Get(k.Name)
			m.input.SetValue(k.Format(cur))
		} else {
			m.input.SetValue(string(msg.Runes))
		}
		m.input.CursorEnd()
		return m, m.input.Focus()
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		m.quitting = true
		return m, tea.Quit
	case key.Matches(msg, m.keys.Up):
		m.cursor = (m.cursor + len(m.params.Alg().Table) - 1) % len(m.params.Alg().Table)
	case key.Matches(msg, m.keys.Down):
		m.cursor = (m.cursor + 1) % len(m.params.Alg().Table)
	case key.Matches(msg, m.keys.Dec), key.Matches(msg, m.keys.Inc):
		v, _ := m.params.Get(k.Name)
		step := k.Step
		if key.Matches(msg, m.keys.Dec) {
			step = -step
		}
		return m.set(k.Name, decimal.Snap(v+step, step))
	case key.Matches(msg, m.keys.Mode):
		if m.mode == tune.OpenLoop {
			m.mode = tune.ClosedLoop
		} else {
			m.mode = tune.OpenLoop
		}
		m.msg = "mode: " + m.mode.String() + " loop"
		bp, mode, run := m.opt.Baseline, m.mode, m.opt.Run
		return m, tea.Batch(m.rerun(), func() tea.Msg { return tuneDone{row: run(bp, mode), baseline: true} })
	case key.Matches(msg, m.keys.Algorithm):
		// the next algorithm at its defaults (the cap kept), the current
		// candidate overlaid for comparison
		next := tune.Algorithms[0]
		for i, a := range tune.Algorithms {
			if a == m.params.Alg() {
				next = tune.Algorithms[(i+1)%len(tune.Algorithms)]
			}
		}
		p := next.Defaults()
		p.Set("cap", m.params.Cap())
		m.prev, m.params, m.cursor = m.cur, p, 0
		m.msg = "algorithm: " + next.Title + " (" + next.Source + ") — previous candidate dotted"
		return m, m.rerun()
	case key.Matches(msg, m.keys.Reset):
		m.params = m.opt.Baseline
		m.msg = "back to the baseline"
		return m, m.rerun()
	case key.Matches(msg, m.keys.Write):
		if m.opt.Write == nil {
			return m, nil
		}
		out, err := m.opt.Write(m.params)
		if err != nil {
			m.msg = err.Error()
		} else {
			m.msg = "wrote " + out
		}
	}
	return m, nil
}

func (m TuneModel) set(name string, v float64) (tea.Model, tea.Cmd) {
	p := m.params
	p.Set(name, v)
	if err := p.Validate(); err != nil {
		m.msg = err.Error()
		return m, nil
	}
	m.params = p
	m.msg = ""
	return m, m.rerun()
}

// View renders the tuning screen.
func (m TuneModel) View() string {
	if m.quitting {
		return ""
	}
	if m.width < 50 || m.height < 16 {
		return fit(fmt.Sprintf("limitscope tune: the terminal is %d×%d; it needs at least 50×16", m.width, m.height), m.width)
	}
	var b strings.Builder
	mode := "closed loop: the candidate runs against a downstream model fitted to the trace"
	if m.mode == tune.OpenLoop {
		mode = "open loop: recorded RTTs replayed as they were — blind to how a different limit would change them"
	}
	b.WriteString(fit(styles.Title.Render("limitscope · tune · "+safetext.Terminal(m.opt.Title)), m.width) + "\n")
	b.WriteString(fit(styles.Dim.Render(mode), m.width) + "\n")
	chartsH := m.height - 2 - 2 - 8
	if len(m.opt.Warnings) > 0 {
		b.WriteString(warningLine(m.opt.Warnings, m.width) + "\n")
		chartsH--
	}
	panelW := 34
	chartW := m.width - panelW - 1
	if chartW < 30 {
		chartW, panelW = m.width, 0
	}
	chartsH -= 2 // the time axis
	topH := max(3, chartsH*3/5)
	botH := max(2, chartsH-topH-1)
	var tl report.Timeline // a month between two recordings draws as a break
	if n := len(m.opt.RTTTimes); n > 0 {
		tl = report.NewTimeline(m.opt.RTTTimes[0], m.opt.RTTTimes[n-1], m.opt.RTTTimes)
	}
	var lim, inf, recLim Series
	lim.Color, inf.Color, recLim.Color = styles.Limit, styles.InFlight, styles.Ref
	lim.Mark, inf.Mark, recLim.Mark = '#', '+', '.'
	for _, s := range m.cur.Samples {
		lim.Times, lim.Values = append(lim.Times, s.Time), append(lim.Values, s.Limit)
		inf.Times, inf.Values = append(inf.Times, s.Time), append(inf.Values, s.InFlight)
	}
	recLim.Times, recLim.Values = m.opt.LimitTimes, m.opt.RecordedLimit
	shown, names := []Series{lim, inf}, []string{"what-if limit (" + m.params.Alg().Name + ")", "in-flight"}
	prev := Series{Color: styles.Ref, Mark: ':'}
	if m.prev.Params.Alg() != m.params.Alg() && len(m.prev.Samples) > 0 {
		for _, s := range m.prev.Samples {
			prev.Times, prev.Values = append(prev.Times, s.Time), append(prev.Values, s.Limit)
		}
		shown, names = append(shown, prev), append(names, "previous: "+m.prev.Params.Short())
	}
	if len(recLim.Values) > 0 {
		shown, names = append(shown, recLim), append(names, "recorded limit")
	}
	left := []string{fit(Legend(m.opt.Chart, shown, names), chartW), Chart([]Series{recLim, prev, inf, lim}, nil, tl, chartW, topH, 0, m.opt.Chart, "")}
	rtt := Series{Times: m.opt.RTTTimes, Values: m.opt.RTT, Color: styles.RTT, Mark: '.'}
	left = append(left, fit(Legend(m.opt.Chart, []Series{rtt}, []string{"recorded RTT (ms)"}), chartW), Chart([]Series{rtt}, nil, tl, chartW, botH, 0, m.opt.Chart, ""))
	if axis := TimeAxis(tl, chartW, 7, nil); axis != "" {
		left = append(left, axis)
	}
	leftBlock := strings.Join(left, "\n")
	if panelW > 0 {
		b.WriteString(lipgloss.JoinHorizontal(lipgloss.Top, leftBlock, " ", m.panel(panelW, topH+botH+4)))
	} else {
		b.WriteString(leftBlock)
	}
	b.WriteString("\n" + m.results())
	status := styles.Dim.Render(safetext.Terminal(m.msg))
	if m.editing {
		k := &m.params.Alg().Table[m.cursor]
		hint := "a number"
		if k.Unit == tune.Seconds {
			hint = `a duration like "2m" or seconds`
		} else if k.ZeroIsNone {
			hint = `a number, or "none"`
		}
		status = k.Name + " = " + m.input.View() + styles.Dim.Render("  ("+hint+"; enter sets, esc cancels)")
	} else if m.running {
		status = styles.Dim.Render("re-running…")
	}
	b.WriteString("\n" + fit(status, m.width))
	b.WriteString("\n" + shortHelp(m.help, m.keys.ShortHelp(), m.width))
	return clampLines(b.String(), m.height, m.width)
}

func (m TuneModel) panel(w, h int) string {
	var lines []string
	lines = append(lines, styles.Header.Render(pad("parameter", 18)+padLeft("value", 8)+padLeft("base", 8)))
	for i := range m.params.Alg().Table {
		k := &m.params.Alg().Table[i]
		cur, _ := m.params.Get(k.Name)
		base, _ := m.opt.Baseline.Get(k.Name)
		v, bv := k.Format(cur), k.Format(base)
		label := strings.ReplaceAll(k.Name, "_", " ")
		line := pad(label, 18) + padLeft(v, 8) + styles.Dim.Render(padLeft(bv, 8))
		if i == m.cursor {
			line = styles.Selected.Render(pad(label, 18)+padLeft(v, 8)) + styles.Dim.Render(padLeft(bv, 8))
		}
		lines = append(lines, fit(line, w))
	}
	// what the chosen knob does, wrapped to the panel
	sel := &m.params.Alg().Table[m.cursor]
	lines = append(lines, "")
	for _, l := range strings.Split(ansi.Wordwrap(strings.ReplaceAll(sel.Name, "_", " ")+": "+sel.Help, w, " "), "\n") {
		lines = append(lines, styles.Dim.Render(fit(l, w)))
	}
	return clampLines(strings.Join(lines, "\n"), h, w)
}

func delta(a, b float64, pct bool, lowerBetter bool) string {
	d := a - b
	s := ""
	if pct {
		s = fmt.Sprintf("%+.1f pt", 100*d) // percentage points
	} else {
		s = fmt.Sprintf("%+.3g", d)
	}
	if d == 0 {
		return styles.Dim.Render("±0")
	}
	good := (d > 0) != lowerBetter
	if good {
		return fg(styles.Good, s)
	}
	return fg(styles.Bad, s)
}

func (m TuneModel) results() string {
	c, b := m.cur, m.base
	row := func(label, cur, base, d string) string {
		return fit(pad(label, 20)+padLeft(cur, 12)+padLeft(base, 12)+"  "+d, m.width)
	}
	lines := []string{
		styles.Header.Render(row("result", "current", "baseline", "Δ current − baseline")),
		row("utilisation", fmt.Sprintf("%.1f%%", 100*c.Utilisation), fmt.Sprintf("%.1f%%", 100*b.Utilisation), delta(c.Utilisation, b.Utilisation, true, false)),
		row("p99 latency", fmt.Sprintf("%.1fms", c.P99Ms), fmt.Sprintf("%.1fms", b.P99Ms), delta(c.P99Ms, b.P99Ms, false, true)),
		row("overload episodes", fmt.Sprint(c.OverloadEpisodes), fmt.Sprint(b.OverloadEpisodes), delta(float64(c.OverloadEpisodes), float64(b.OverloadEpisodes), false, true)),
		row("deferred", report.Number(c.Deferred), report.Number(b.Deferred), delta(c.Deferred, b.Deferred, false, true)),
		row("oscillation index", fmt.Sprintf("%.2f", c.OscillationIndex), fmt.Sprintf("%.2f", b.OscillationIndex), delta(c.OscillationIndex, b.OscillationIndex, false, true)),
		fit(pad("verdict", 20)+pad(" "+badge(c.Verdict, c.Verdict != ""), 24)+" "+badge(b.Verdict, b.Verdict != ""), m.width),
	}
	return strings.Join(lines, "\n")
}
