package tui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/report"
	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/scrape"
)

// Player is replay's playback clock (scrape.Playback).
type Player interface {
	Position() time.Time
	Start() time.Time
	End() time.Time
	Speed() float64
	SetSpeed(float64)
	Seek(time.Duration)
	SeekTo(time.Time)
	Paused() bool
	SetPaused(bool)
}

// Action is an extra key the dashboard offers (the demo's world changes).
type Action struct {
	Key  string
	Help string
	// Do runs the action and returns a line to show.
	Do func() string
}

// Refs are reference lines for a target's limit chart.
type Refs struct {
	MinLimit, Cap float64
}

// Options configure the dashboard.
type Options struct {
	Title    string
	Board    *diagnose.Board
	Statuses func() []scrape.Status
	Player   Player
	Actions  []Action
	Chart    ChartStyle
	// Zoom is the initial time span of charts and sparklines (default 5m).
	Zoom time.Duration
	// Now is the clock for live views (default time.Now).
	Now func() time.Time
	// Refresh is the repaint period (default 250ms); 0 in tests disables
	// the ticker.
	Refresh time.Duration
	// Refs gives known reference lines per target.
	Refs map[string]Refs
	// Warnings are what reading the input warned of (a count column that
	// reads as a running total): the header says the first and how many
	// more, since the dashboard's screen covers what went to stderr.
	Warnings []string
}

type sortKey int

const (
	sortName sortKey = iota
	sortUtil
	sortVerdict
	sortLimit
)

var sortNames = []string{"name", "utilisation", "verdict (worst first)", "limit"}

type keyMap struct {
	Up, Down, PageUp, PageDown, Enter, Back, Filter, Sort, Pause, ZoomIn, ZoomOut, Help, Quit key.Binding
	SeekBack, SeekFwd, Slower, Faster, Home, End                                              key.Binding
	replay                                                                                    bool
}

func newKeys(replay bool) keyMap {
	k := keyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup/pgdn", "page")),
		PageDown: key.NewBinding(key.WithKeys("pgdown")),
		Enter:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "detail")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Sort:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort")),
		Pause:    key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "pause")),
		ZoomIn:   key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+/-", "zoom")),
		ZoomOut:  key.NewBinding(key.WithKeys("-", "_")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:     key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		SeekBack: key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/→", "seek")),
		SeekFwd:  key.NewBinding(key.WithKeys("right", "l")),
		Slower:   key.NewBinding(key.WithKeys("["), key.WithHelp("[/]", "speed")),
		Faster:   key.NewBinding(key.WithKeys("]")),
		Home:     key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home/end", "jump")),
		End:      key.NewBinding(key.WithKeys("end", "G")),
		replay:   replay,
	}
	k.SeekBack.SetEnabled(replay)
	k.SeekFwd.SetEnabled(replay)
	k.Slower.SetEnabled(replay)
	k.Faster.SetEnabled(replay)
	k.Home.SetEnabled(replay)
	k.End.SetEnabled(replay)
	return k
}

// ShortHelp is the help bar. Help and Quit come last and are the last to
// go when the terminal is narrow (see shortHelp).
func (k keyMap) ShortHelp() []key.Binding {
	b := []key.Binding{k.Up, k.Enter, k.Filter, k.Sort, k.Pause, k.ZoomIn}
	if k.replay {
		b = append(b, k.SeekBack, k.Slower)
	}
	return append(b, k.Help, k.Quit)
}

// FullHelp is the ? screen.
func (k keyMap) FullHelp() [][]key.Binding {
	cols := [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.Enter, k.Back},
		{k.Filter, k.Sort, k.Pause, k.ZoomIn},
		{k.Help, k.Quit},
	}
	if k.replay {
		cols = append(cols, []key.Binding{k.SeekBack, k.Slower, k.Home})
	}
	return cols
}

var zoomLevels = []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute, time.Hour, 3 * time.Hour, 12 * time.Hour}

// screen is what the dashboard shows.
type screen int

const (
	screenOverview screen = iota
	screenDetail
	screenHelp
)

// Model is the dashboard: a header and a footer around one of three
// components — the overview table (overview.go), one target's charts
// (detail.go) and the key help (help.go) — chosen by screen.
type Model struct {
	opt     Options
	keys    keyMap
	help    help.Model
	screen  screen
	back    screen // the screen the help returns to
	list    overview
	width   int
	height  int
	rows    []diagnose.Row
	frozen  bool
	zoom    time.Duration
	msg     string
	version uint64
	// quitting blanks the last frame so the shell prompt is clean
	quitting bool
}

type tickMsg time.Time

// New returns the dashboard model.
func New(opt Options) Model {
	if opt.Zoom <= 0 {
		opt.Zoom = 5 * time.Minute
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Statuses == nil {
		opt.Statuses = func() []scrape.Status { return nil }
	}
	m := Model{opt: opt, keys: newKeys(opt.Player != nil), help: help.New(), list: newOverview(), zoom: opt.Zoom, width: 80, height: 24}
	m.list.sortBy = sortVerdict // the worst targets first
	m.refresh()
	return m
}

// Init starts the repaint ticker.
func (m Model) Init() tea.Cmd { return m.tick() }

func (m Model) tick() tea.Cmd {
	if m.opt.Refresh <= 0 {
		return nil
	}
	return tea.Tick(m.opt.Refresh, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// refresh re-reads the board.
func (m *Model) refresh() {
	m.version = m.opt.Board.Version()
	m.rows = m.opt.Board.Rows()
	m.list.apply(m.rows)
}

// Update handles keys, resizes and repaint ticks.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case tickMsg:
		if !m.frozen && m.opt.Board.Version() != m.version {
			m.refresh()
		}
		return m, m.tick()
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m Model) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.list.filtering {
		return m, m.list.typeFilter(msg, m.rows)
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		m.quitting = true
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		if m.screen == screenHelp {
			m.screen = m.back
		} else {
			m.back, m.screen = m.screen, screenHelp
		}
	case key.Matches(msg, k.Back):
		switch m.screen {
		case screenHelp:
			m.screen = m.back
		case screenDetail:
			m.screen = screenOverview
		}
	case key.Matches(msg, k.Up):
		m.list.move(-1, m.rows)
	case key.Matches(msg, k.Down):
		m.list.move(+1, m.rows)
	case key.Matches(msg, k.PageUp):
		m.list.move(-m.pageRows(), m.rows)
	case key.Matches(msg, k.PageDown):
		m.list.move(+m.pageRows(), m.rows)
	case key.Matches(msg, k.Enter):
		if _, ok := m.list.current(m.rows); ok {
			m.screen = screenDetail
		}
	case key.Matches(msg, k.Filter):
		m.screen = screenOverview
		return m, m.list.startFilter()
	case key.Matches(msg, k.Sort):
		m.list.sortBy = (m.list.sortBy + 1) % sortKey(len(sortNames))
		m.msg = "sorted by " + sortNames[m.list.sortBy]
		m.list.apply(m.rows)
	case key.Matches(msg, k.Pause):
		if p := m.opt.Player; p != nil {
			p.SetPaused(!p.Paused())
		} else {
			m.frozen = !m.frozen
		}
	case key.Matches(msg, k.ZoomIn):
		m.zoom = stepZoom(m.zoom, -1)
		m.msg = "showing " + m.zoom.String()
	case key.Matches(msg, k.ZoomOut):
		m.zoom = stepZoom(m.zoom, +1)
		m.msg = "showing " + m.zoom.String()
	case key.Matches(msg, k.SeekBack):
		m.opt.Player.Seek(-m.zoom / 5)
	case key.Matches(msg, k.SeekFwd):
		m.opt.Player.Seek(m.zoom / 5)
	case key.Matches(msg, k.Slower):
		m.opt.Player.SetSpeed(m.opt.Player.Speed() / 2)
	case key.Matches(msg, k.Faster):
		m.opt.Player.SetSpeed(m.opt.Player.Speed() * 2)
	case key.Matches(msg, k.Home):
		m.opt.Player.SeekTo(m.opt.Player.Start())
	case key.Matches(msg, k.End):
		m.opt.Player.SeekTo(m.opt.Player.End())
	default:
		for _, a := range m.opt.Actions {
			if msg.String() == a.Key {
				m.msg = a.Do()
			}
		}
	}
	return m, nil
}

// verdictCounts is the fleet at a glance: how many targets show each
// verdict, worst first ("2 ✖ degraded-downstream, 1 ≈ oscillating, 40
// ● healthy"); "" with fewer than two judged targets.
func verdictCounts(rows []diagnose.Row) string {
	n := map[diagnose.Class]int{}
	judged := 0
	for _, r := range rows {
		if r.Judged {
			n[r.Class]++
			judged++
		}
	}
	if judged < 2 {
		return ""
	}
	classes := append([]diagnose.Class(nil), diagnose.Classes...)
	sort.SliceStable(classes, func(i, j int) bool { return diagnose.Rank(classes[i]) > diagnose.Rank(classes[j]) })
	var parts []string
	for _, c := range classes {
		if n[c] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[c], badge(c, true)))
		}
	}
	return strings.Join(parts, ", ")
}

// pageRows is how many targets one page of the overview shows.
func (m Model) pageRows() int { return max(1, m.height-8) }

func stepZoom(z time.Duration, dir int) time.Duration {
	i := sort.Search(len(zoomLevels), func(i int) bool { return zoomLevels[i] >= z })
	i += dir
	if dir < 0 && i >= 0 && i < len(zoomLevels) && zoomLevels[i] >= z {
		i--
	}
	return zoomLevels[max(0, min(i, len(zoomLevels)-1))]
}

// frame is what every component renders against: the terminal width, the
// charts' right edge and span, and the data behind them.
type frame struct {
	width int
	now   time.Time
	zoom  time.Duration
	opt   *Options
}

func (m Model) frame() frame { return frame{width: m.width, now: m.now(), zoom: m.zoom, opt: &m.opt} }

// now is the right edge of the charts: the playback position, or the newest
// sample (live), or the clock.
func (m Model) now() time.Time {
	if m.opt.Player != nil {
		return m.opt.Player.Position()
	}
	var t time.Time
	for _, r := range m.rows {
		if r.Last.Time.After(t) {
			t = r.Last.Time
		}
	}
	if t.IsZero() {
		return m.opt.Now()
	}
	return t
}

// View renders the current screen.
func (m Model) View() string {
	if m.quitting {
		return ""
	}
	if m.width < 40 || m.height < 8 {
		return fit(fmt.Sprintf("limitscope: the terminal is %d×%d; it needs at least 40×8", m.width, m.height), m.width)
	}
	header := m.header()
	footer := m.footer()
	bodyH := max(m.height-strings.Count(header, "\n")-1-strings.Count(footer, "\n")-1, 0)
	var body string
	f := m.frame()
	switch r, ok := m.list.current(m.rows); {
	case m.screen == screenHelp:
		body = helpView(m.help, m.keys, f.width, bodyH)
	case m.screen == screenDetail && ok:
		body = detailView(f, r, bodyH)
	default:
		body = m.list.view(f, m.rows, bodyH)
	}
	return strings.Join([]string{header, clampLines(body, bodyH, m.width), footer}, "\n")
}

func fit(s string, w int) string { return ansi.Truncate(s, w, "…") }

func pad(s string, w int) string {
	s = fit(s, w)
	if d := w - lipgloss.Width(s); d > 0 {
		s += strings.Repeat(" ", d)
	}
	return s
}

func (m Model) header() string {
	var b strings.Builder
	b.WriteString(styles.Title.Render("limitscope · " + m.opt.Title))
	fmt.Fprintf(&b, " · %d targets", len(m.rows))
	sts := m.opt.Statuses()
	sum := scrape.Summarize(sts)
	var reason string
	if len(sum.Reasons) > 0 {
		reason = safetext.Terminal(sum.Reasons[0])
	}
	if len(sts) > 0 && m.opt.Player == nil {
		fmt.Fprintf(&b, " · sources %d up", sum.Up)
		if sum.Down > 0 {
			b.WriteString(styles.Err.Render(fmt.Sprintf(", %d down", sum.Down)))
		}
		if sum.Stale > 0 {
			b.WriteString(styles.Err.Render(fmt.Sprintf(", %d stale", sum.Stale)))
		}
		if !sum.LastSuccess.IsZero() {
			fmt.Fprintf(&b, " · scraped %s ago", m.opt.Now().Sub(sum.LastSuccess).Round(100*time.Millisecond))
		}
		if sum.Step > 0 {
			fmt.Fprintf(&b, " · every %s", sum.Step)
		}
	}
	if p := m.opt.Player; p != nil {
		state := fmt.Sprintf("▶ %gx", p.Speed())
		if p.Paused() {
			state = "⏸ paused"
		}
		fmt.Fprintf(&b, " · %s %s / %s · %s", state, p.Position().Sub(p.Start()).Round(time.Second), p.End().Sub(p.Start()).Round(time.Second), p.Position().UTC().Format(report.ClockLayout(p.Start(), p.End())))
	} else if m.frozen {
		b.WriteString(" · ⏸ paused")
	}
	line := fit(b.String(), m.width)
	if reason != "" {
		line += "\n" + styles.Err.Render(fit("down: "+reason, m.width))
	}
	if len(m.opt.Warnings) > 0 {
		line += "\n" + warningLine(m.opt.Warnings, m.width)
	}
	return line
}

// warningLine is one screen line for what reading the input warned of: the
// first warning, and how many there are, since the screen covers stderr.
func warningLine(w []string, width int) string {
	head := "warning: "
	if len(w) > 1 {
		head = fmt.Sprintf("warning 1 of %d (all on stderr): ", len(w)) // before the text, which the width cuts
	}
	return styles.Err.Render(fit(head+safetext.Terminal(w[0]), width))
}

func (m Model) footer() string {
	var lines []string
	msg := styles.Dim.Render(safetext.Terminal(m.msg))
	switch {
	case m.list.filtering:
		msg = m.list.filter.View() // the input's own cursor styling, not escaped
	case m.list.filter.Value() != "":
		msg = styles.Dim.Render(fmt.Sprintf("filter %q · %s", safetext.Terminal(m.list.filter.Value()), safetext.Terminal(m.msg)))
	}
	lines = append(lines, fit(msg, m.width))
	if len(m.opt.Actions) > 0 {
		var a []string
		for _, x := range m.opt.Actions {
			a = append(a, styles.Key.Render(x.Key)+" "+x.Help)
		}
		lines = append(lines, fit(strings.Join(a, " · "), m.width))
	}
	lines = append(lines, shortHelp(m.help, m.keys.ShortHelp(), m.width))
	return strings.Join(lines, "\n")
}

// shortHelp renders the key hints in w cells: when they do not fit, hints
// before the last two (help, quit) are dropped from the right, so "q quit"
// never falls off the edge.
func shortHelp(h help.Model, b []key.Binding, w int) string {
	h.Width = 0
	for len(b) > 2 {
		if v := h.ShortHelpView(b); lipgloss.Width(v) <= w {
			return v
		}
		b = append(b[:len(b)-3], b[len(b)-2:]...)
	}
	return fit(h.ShortHelpView(b), w)
}

func clampLines(s string, h, w int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i := range lines {
		lines[i] = fit(lines[i], w)
	}
	return strings.Join(lines, "\n")
}
