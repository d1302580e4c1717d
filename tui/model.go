package tui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/report"
	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/trace"
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
}

type sortKey int

const (
	sortName sortKey = iota
	sortUtil
	sortVerdict
	sortLimit
)

var sortNames = []string{"name", "utilisation", "verdict", "limit"}

type keyMap struct {
	Up, Down, Enter, Back, Filter, Sort, Pause, ZoomIn, ZoomOut, Help, Quit key.Binding
	SeekBack, SeekFwd, Slower, Faster, Home, End                            key.Binding
	replay                                                                  bool
}

func newKeys(replay bool) keyMap {
	k := keyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
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

// ShortHelp is the help bar.
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
		{k.Up, k.Down, k.Enter, k.Back},
		{k.Filter, k.Sort, k.Pause, k.ZoomIn},
		{k.Help, k.Quit},
	}
	if k.replay {
		cols = append(cols, []key.Binding{k.SeekBack, k.Slower, k.Home})
	}
	return cols
}

var zoomLevels = []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute, time.Hour, 3 * time.Hour, 12 * time.Hour}

// Model is the dashboard.
type Model struct {
	opt       Options
	keys      keyMap
	help      help.Model
	filter    textinput.Model
	filtering bool
	width     int
	height    int
	rows      []diagnose.Row
	visible   []int
	cursor    int
	selected  string
	detail    bool
	frozen    bool
	showHelp  bool
	sortBy    sortKey
	zoom      time.Duration
	msg       string
	version   uint64
	quitting  bool
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
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "filter targets"
	ti.CharLimit = 64
	m := Model{opt: opt, keys: newKeys(opt.Player != nil), help: help.New(), filter: ti, zoom: opt.Zoom, width: 80, height: 24}
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
	m.applyView()
}

// applyView sorts and filters the rows and keeps the selection on the same
// target.
func (m *Model) applyView() {
	rows := m.rows
	switch m.sortBy {
	case sortName:
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].Target < rows[j].Target })
	case sortUtil:
		sort.SliceStable(rows, func(i, j int) bool { return util(rows[i]) > util(rows[j]) })
	case sortVerdict:
		sort.SliceStable(rows, func(i, j int) bool { return severityRank(rows[i]) > severityRank(rows[j]) })
	case sortLimit:
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].Last.Limit > rows[j].Last.Limit })
	}
	q := strings.ToLower(m.filter.Value())
	m.visible = m.visible[:0]
	for i, r := range rows {
		if q == "" || strings.Contains(strings.ToLower(r.Target), q) || strings.Contains(string(r.Class), q) {
			m.visible = append(m.visible, i)
		}
	}
	m.cursor = 0
	for vi, i := range m.visible {
		if rows[i].Target == m.selected {
			m.cursor = vi
		}
	}
	if len(m.visible) > 0 {
		m.selected = rows[m.visible[m.cursor]].Target
	}
}

func util(r diagnose.Row) float64 {
	if r.Last.Has(trace.FieldLimit|trace.FieldInFlight) && r.Last.Limit > 0 {
		return r.Last.InFlight / r.Last.Limit
	}
	return -1
}

func severityRank(r diagnose.Row) int {
	if !r.Judged {
		return -1
	}
	return diagnose.Rank(r.Class)
}

// Update handles keys, resizes and repaint ticks.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.Width = msg.Width
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
	if m.filtering {
		switch msg.Type {
		case tea.KeyEnter:
			m.filtering = false
			m.filter.Blur()
		case tea.KeyEsc:
			m.filtering = false
			m.filter.Blur()
			m.filter.SetValue("")
		default:
			var cmd tea.Cmd
			m.filter, cmd = m.filter.Update(msg)
			m.applyView()
			return m, cmd
		}
		m.applyView()
		return m, nil
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		m.quitting = true
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = !m.showHelp
	case key.Matches(msg, k.Up):
		if m.cursor > 0 {
			m.cursor--
		}
	case key.Matches(msg, k.Down):
		if m.cursor < len(m.visible)-1 {
			m.cursor++
		}
	case key.Matches(msg, k.Enter):
		if len(m.visible) > 0 {
			m.detail = true
		}
	case key.Matches(msg, k.Back):
		if m.showHelp {
			m.showHelp = false
		} else {
			m.detail = false
		}
	case key.Matches(msg, k.Filter):
		m.filtering = true
		m.detail = false
		return m, m.filter.Focus()
	case key.Matches(msg, k.Sort):
		m.sortBy = (m.sortBy + 1) % sortKey(len(sortNames))
		m.msg = "sorted by " + sortNames[m.sortBy]
		m.applyView()
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
	if len(m.visible) > 0 {
		m.selected = m.rows[m.visible[m.cursor]].Target
	}
	return m, nil
}

func stepZoom(z time.Duration, dir int) time.Duration {
	i := sort.Search(len(zoomLevels), func(i int) bool { return zoomLevels[i] >= z })
	i += dir
	if dir < 0 && i >= 0 && i < len(zoomLevels) && zoomLevels[i] >= z {
		i--
	}
	return zoomLevels[max(0, min(i, len(zoomLevels)-1))]
}

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
	var parts []string
	header := m.header()
	parts = append(parts, header)
	bodyH := m.height - strings.Count(header, "\n") - 1 - m.footerHeight()
	var body string
	switch {
	case m.showHelp:
		body = m.fullHelp(bodyH)
	case m.detail && len(m.visible) > 0:
		body = m.detailView(m.rows[m.visible[m.cursor]], bodyH)
	default:
		body = m.overview(bodyH)
	}
	parts = append(parts, clampLines(body, max(bodyH, 0), m.width))
	parts = append(parts, m.footer())
	return strings.Join(parts, "\n")
}

func (m Model) footerHeight() int {
	h := 2
	if len(m.opt.Actions) > 0 {
		h++
	}
	return h
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
	}
	if p := m.opt.Player; p != nil {
		state := fmt.Sprintf("▶ %gx", p.Speed())
		if p.Paused() {
			state = "⏸ paused"
		}
		fmt.Fprintf(&b, " · %s %s / %s · %s", state, p.Position().Sub(p.Start()).Round(time.Second), p.End().Sub(p.Start()).Round(time.Second), p.Position().UTC().Format("15:04:05"))
	} else if m.frozen {
		b.WriteString(" · ⏸ paused")
	}
	line := fit(b.String(), m.width)
	if reason != "" {
		line += "\n" + styles.Err.Render(fit("down: "+reason, m.width))
	}
	return line
}

func (m Model) footer() string {
	var lines []string
	msg := m.msg
	if m.filtering {
		msg = m.filter.View()
	} else if f := m.filter.Value(); f != "" {
		msg = fmt.Sprintf("filter %q · %s", f, msg)
	}
	lines = append(lines, fit(styles.Dim.Render(safetext.Terminal(msg)), m.width))
	if len(m.opt.Actions) > 0 {
		var a []string
		for _, x := range m.opt.Actions {
			a = append(a, styles.Key.Render(x.Key)+" "+x.Help)
		}
		lines = append(lines, fit(strings.Join(a, " · "), m.width))
	}
	lines = append(lines, fit(m.help.ShortHelpView(m.keys.ShortHelp()), m.width))
	return strings.Join(lines, "\n")
}

func (m Model) fullHelp(h int) string {
	var b strings.Builder
	b.WriteString(styles.Header.Render("keys") + "\n\n")
	b.WriteString(m.help.FullHelpView(m.keys.FullHelp()))
	b.WriteString("\n\n" + styles.Dim.Render("Smoothing is the weight of the new target: limit = limit·(1−s) + target·s. Higher reacts faster and oscillates more."))
	return clampLines(b.String(), h, m.width)
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

// columns of the overview, dropped right to left as the terminal narrows
type column struct {
	title string
	width int
	cell  func(m Model, r diagnose.Row, w int) string
}

func fmtMs(v float64, ok bool) string {
	if !ok {
		return "–"
	}
	if v >= 1000 {
		return fmt.Sprintf("%.2fs", v/1000)
	}
	return fmt.Sprintf("%.1fms", v)
}

func fmtVal(v float64, ok bool) string {
	if !ok {
		return "–"
	}
	return report.Number(v)
}

func bar(f float64, w int) string {
	if f < 0 {
		return strings.Repeat("·", w)
	}
	f = min(max(f, 0), 1)
	n := int(f*float64(w) + 0.5)
	return lipgloss.NewStyle().Foreground(styles.InFlight).Render(strings.Repeat("█", n)) + styles.Dim.Render(strings.Repeat("░", w-n))
}

// valueCol renders the newest value of one field, right-aligned.
func valueCol(f trace.Field, format func(float64, bool) string) func(Model, diagnose.Row, int) string {
	return func(m Model, r diagnose.Row, w int) string {
		v, ok := r.Last.Value(f)
		return padLeft(format(v, ok), w)
	}
}

var columns = []column{
	{"LIMIT", 7, valueCol(trace.FieldLimit, fmtVal)},
	{"IN-FL", 6, valueCol(trace.FieldInFlight, fmtVal)},
	{"UTIL", 10, func(m Model, r diagnose.Row, w int) string { return bar(util(r), w) }},
	{"MIN RTT", 9, valueCol(trace.FieldRTTMin, fmtMs)},
	{"RTT", 9, valueCol(trace.FieldRTT, fmtMs)},
	{"VERDICT", 22, func(m Model, r diagnose.Row, w int) string { return pad(badge(r.Class, r.Judged), w) }},
}

func (m Model) overview(h int) string {
	nameW := 16
	used := nameW + 2
	// columns by priority (the verdict matters most), shown in table order
	keep := map[string]bool{}
	for _, title := range []string{"LIMIT", "VERDICT", "IN-FL", "UTIL", "MIN RTT", "RTT"} {
		for _, c := range columns {
			if c.title == title && used+c.width+1 <= m.width {
				keep[title] = true
				used += c.width + 1
			}
		}
	}
	var cols []column
	for _, c := range columns {
		if keep[c.title] {
			cols = append(cols, c)
		}
	}
	sparkW := m.width - used - 1
	if sparkW < 6 {
		sparkW = 0
	}
	if extra := m.width - used - sparkW - 1; extra > 0 && sparkW == 0 {
		nameW += extra
	} else if sparkW > 24 {
		nameW += sparkW - 24
		sparkW = 24
	}
	var b strings.Builder
	hdr := "  " + pad("TARGET", nameW)
	for _, c := range cols {
		if c.title == "VERDICT" || c.title == "UTIL" {
			hdr += " " + pad(c.title, c.width)
		} else {
			hdr += " " + padLeft(c.title, c.width)
		}
	}
	if sparkW > 0 {
		hdr += " " + pad("LIMIT "+m.zoom.String(), sparkW)
	}
	b.WriteString(styles.Header.Render(fit(hdr, m.width)))
	lines := 1
	if len(m.visible) == 0 {
		b.WriteString("\n" + styles.Dim.Render(fit("  no targets yet — waiting for samples", m.width)))
		lines++
	}
	start := 0
	if m.cursor >= h-2 {
		start = m.cursor - (h - 3)
	}
	now := m.now()
	for vi := start; vi < len(m.visible) && lines < h-1; vi++ {
		r := m.rows[m.visible[vi]]
		line := "  " + pad(safetext.Terminal(r.Target), nameW)
		for _, c := range cols {
			line += " " + c.cell(m, r, c.width)
		}
		if sparkW > 0 {
			line += " " + lipgloss.NewStyle().Foreground(styles.Limit).Render(report.Sparkline(m.limitsSince(r.Target, now), sparkW))
		}
		line = fit(line, m.width)
		if vi == m.cursor {
			line = "▌" + line[len("  ")-1:]
		}
		b.WriteString("\n" + line)
		lines++
	}
	// the selected target's verdict in one line
	if len(m.visible) > 0 {
		r := m.rows[m.visible[m.cursor]]
		if r.Judged {
			b.WriteString("\n" + fit(styles.Dim.Render(safetext.Terminal(r.Target)+": ")+r.Finding.Evidence.Summary, m.width))
			lines++
		}
	}
	for ; lines < h; lines++ {
		b.WriteString("\n")
	}
	return b.String()
}

func (m Model) limitsSince(target string, now time.Time) []float64 {
	s := m.opt.Board.Series(nil, target, now.Add(-m.zoom))
	out := make([]float64, 0, len(s))
	for _, x := range s {
		if x.Has(trace.FieldLimit) && !x.Time.After(now) {
			out = append(out, x.Limit)
		}
	}
	return out
}

func (m Model) detailView(r diagnose.Row, h int) string {
	now := m.now()
	from := now.Add(-m.zoom)
	series := m.opt.Board.Series(nil, r.Target, from)
	var lim, inf, rmin, rtt Series
	lim.Color, inf.Color, rmin.Color, rtt.Color = styles.Limit, styles.InFlight, styles.RTTMin, styles.RTT
	lim.Mark, inf.Mark, rmin.Mark, rtt.Mark = '#', '+', 'o', '.'
	for _, s := range series {
		if s.Time.After(now) {
			continue
		}
		if v, ok := s.Value(trace.FieldLimit); ok {
			lim.Times, lim.Values = append(lim.Times, s.Time), append(lim.Values, v)
		}
		if v, ok := s.Value(trace.FieldInFlight); ok {
			inf.Times, inf.Values = append(inf.Times, s.Time), append(inf.Values, v)
		}
		if v, ok := s.Value(trace.FieldRTTMin); ok {
			rmin.Times, rmin.Values = append(rmin.Times, s.Time), append(rmin.Values, v)
		}
		if v, ok := s.Value(trace.FieldRTT); ok {
			rtt.Times, rtt.Values = append(rtt.Times, s.Time), append(rtt.Values, v)
		}
	}
	var refs []RefLine
	if ref, ok := m.opt.Refs[r.Target]; ok {
		if ref.MinLimit > 0 {
			refs = append(refs, RefLine{ref.MinLimit, styles.Ref})
		}
		if ref.Cap > 0 {
			refs = append(refs, RefLine{ref.Cap, styles.Cap})
		}
	} else if r.Floor > 0 {
		refs = append(refs, RefLine{r.Floor, styles.Ref})
	}
	var b strings.Builder
	l := r.Last
	v1, ok1 := l.Value(trace.FieldLimit)
	v2, ok2 := l.Value(trace.FieldInFlight)
	v3, ok3 := l.Value(trace.FieldRTTMin)
	v4, ok4 := l.Value(trace.FieldRTT)
	b.WriteString(fit(styles.Title.Render(safetext.Terminal(r.Target))+"  "+badge(r.Class, r.Judged)+
		fmt.Sprintf("  limit %s  in-flight %s  min RTT %s  RTT %s", fmtVal(v1, ok1), fmtVal(v2, ok2), fmtMs(v3, ok3), fmtMs(v4, ok4)), m.width))
	textLines := 5
	chartH := h - 1 - textLines - 4
	if chartH < 4 {
		chartH = 4
	}
	topH := chartH * 2 / 3
	botH := chartH - topH
	legend := lipgloss.NewStyle().Foreground(styles.Limit).Render("━ limit") + "  " + lipgloss.NewStyle().Foreground(styles.InFlight).Render("━ in-flight")
	if len(refs) > 0 {
		legend += "  " + styles.Dim.Render("╌ floor/cap")
	}
	b.WriteString("\n" + fit(legend+styles.Dim.Render(fmt.Sprintf("   last %s", m.zoom)), m.width))
	b.WriteString("\n" + Chart([]Series{inf, lim}, refs, from, now, m.width, topH, 0, m.opt.Chart, ""))
	b.WriteString("\n" + fit(lipgloss.NewStyle().Foreground(styles.RTTMin).Render("━ min RTT")+"  "+lipgloss.NewStyle().Foreground(styles.RTT).Render("━ RTT (ms)"), m.width))
	b.WriteString("\n" + Chart([]Series{rtt, rmin}, nil, from, now, m.width, botH, 0, m.opt.Chart, ""))
	b.WriteString("\n" + m.timeAxis(r, from, now))
	lines := 5 + topH + botH
	text := []string{}
	if r.Judged {
		text = append(text, "evidence: "+r.Finding.Evidence.Summary)
		if r.Class != diagnose.Healthy {
			text = append(text, "→ "+r.Finding.Recommendation)
		}
	} else {
		text = append(text, "not enough samples in the window yet to judge")
	}
	var eps []string
	for _, e := range r.Episodes {
		if e.Class == diagnose.Insufficient {
			continue
		}
		eps = append(eps, fmt.Sprintf("%s %s", e.Start.UTC().Format("15:04:05"), e.Class))
	}
	if len(eps) > 0 {
		if len(eps) > 6 {
			eps = eps[len(eps)-6:]
		}
		text = append(text, "episodes: "+strings.Join(eps, " → "))
	}
	for _, t := range text {
		for _, wl := range wrap(t, m.width) {
			if lines >= h {
				break
			}
			b.WriteString("\n" + wl)
			lines++
		}
	}
	for ; lines < h; lines++ {
		b.WriteString("\n")
	}
	return b.String()
}

// timeAxis draws the span's ends and a marker where each episode began.
func (m Model) timeAxis(r diagnose.Row, from, to time.Time) string {
	const yw = 7
	w := m.width - yw
	if w < 10 {
		return ""
	}
	axis := []rune(strings.Repeat("─", w))
	for _, e := range r.Episodes {
		if e.Start.After(from) && e.Start.Before(to) {
			x := int(float64(w-1) * float64(e.Start.Sub(from)) / float64(to.Sub(from)))
			axis[x] = '┴'
		}
	}
	left := from.UTC().Format("15:04:05")
	right := to.UTC().Format("15:04:05")
	line := strings.Repeat(" ", yw) + string(axis)
	lbl := strings.Repeat(" ", yw) + left + strings.Repeat(" ", max(1, w-len(left)-len(right))) + right
	return styles.Axis.Render(fit(line, m.width)) + "\n" + styles.Axis.Render(fit(lbl, m.width))
}

func wrap(s string, w int) []string {
	s = safetext.Terminal(s)
	if w < 10 {
		return []string{fit(s, w)}
	}
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case lipgloss.Width(line)+1+lipgloss.Width(word) <= w:
			line += " " + word
		default:
			out = append(out, fit(line, w))
			line = word
		}
	}
	return append(out, fit(line, w))
}
