package tui

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/report"
	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/trace"
)

// overview is the table of every target: sorted, filtered, one selected.
type overview struct {
	filter    textinput.Model
	filtering bool
	sortBy    sortKey
	visible   []int // indexes into the rows, in display order
	cursor    int   // index into visible
	selected  string
}

func newOverview() overview {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "filter targets"
	ti.CharLimit = 64
	return overview{filter: ti}
}

// apply sorts and filters the rows and keeps the selection on the same
// target.
func (o *overview) apply(rows []diagnose.Row) {
	switch o.sortBy {
	case sortName:
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].Target < rows[j].Target })
	case sortUtil:
		sort.SliceStable(rows, func(i, j int) bool { return util(rows[i]) > util(rows[j]) })
	case sortVerdict:
		sort.SliceStable(rows, func(i, j int) bool { return severityRank(rows[i]) > severityRank(rows[j]) })
	case sortLimit:
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].Last.Limit > rows[j].Last.Limit })
	}
	q := strings.ToLower(o.filter.Value())
	o.visible = o.visible[:0]
	for i, r := range rows {
		if q == "" || strings.Contains(strings.ToLower(r.Target), q) || strings.Contains(string(r.Class), q) {
			o.visible = append(o.visible, i)
		}
	}
	o.cursor = 0
	for vi, i := range o.visible {
		if rows[i].Target == o.selected {
			o.cursor = vi
		}
	}
	if len(o.visible) > 0 {
		o.selected = rows[o.visible[o.cursor]].Target
	}
}

// current is the selected row.
func (o *overview) current(rows []diagnose.Row) (diagnose.Row, bool) {
	if len(o.visible) == 0 {
		return diagnose.Row{}, false
	}
	return rows[o.visible[o.cursor]], true
}

// move moves the selection by d rows.
func (o *overview) move(d int, rows []diagnose.Row) {
	o.cursor = min(max(o.cursor+d, 0), max(len(o.visible)-1, 0))
	if r, ok := o.current(rows); ok {
		o.selected = r.Target
	}
}

func (o *overview) startFilter() tea.Cmd {
	o.filtering = true
	return o.filter.Focus()
}

// typeFilter handles a key while the filter has the focus: enter keeps the
// filter, esc clears it, anything else edits it; the table follows each key.
func (o *overview) typeFilter(msg tea.KeyMsg, rows []diagnose.Row) tea.Cmd {
	var cmd tea.Cmd
	switch msg.Type {
	case tea.KeyEnter:
		o.filtering = false
		o.filter.Blur()
	case tea.KeyEsc:
		o.filtering = false
		o.filter.Blur()
		o.filter.SetValue("")
	default:
		o.filter, cmd = o.filter.Update(msg)
	}
	o.apply(rows)
	return cmd
}

func util(r diagnose.Row) float64 {
	if r.Last.Has(trace.FieldLimit|trace.FieldInFlight) && r.Last.Limit > 0 {
		// not NaN: two infinite values (a row built by a caller; the
		// store saturates what it holds at float32's range) are Inf/Inf
		if f := r.Last.InFlight / r.Last.Limit; !math.IsNaN(f) {
			return f
		}
	}
	return -1
}

func severityRank(r diagnose.Row) int {
	if !r.Judged {
		return -1
	}
	return diagnose.Rank(r.Class)
}

// column of the table; columns are dropped by priority as the terminal
// narrows
type column struct {
	title string
	width int
	left  bool // left-aligned (text, bars); numbers are right-aligned
	cell  func(r diagnose.Row, w int) string
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

// utilCell is in-flight / limit as a bar and its percentage.
func utilCell(r diagnose.Row, w int) string {
	f := util(r)
	barW := w - 5
	if f < 0 {
		return strings.Repeat("·", barW) + padLeft("–", 5)
	}
	f = min(max(f, 0), 1)
	n := int(f*float64(barW) + 0.5)
	return fg(styles.InFlight, strings.Repeat("█", n)) + styles.Dim.Render(strings.Repeat("░", barW-n)) + padLeft(fmt.Sprintf("%.0f%%", 100*f), 5)
}

// rejectedCell is the share of demand the limit turned away in the newest
// interval.
func rejectedCell(r diagnose.Row, w int) string {
	if !r.HasRejectedShare {
		return padLeft("–", w)
	}
	s := report.Percent(r.RejectedShare)
	if r.RejectedShare >= 0.05 {
		s = fg(styles.Rejected, s)
	}
	return padLeft(s, w)
}

// valueCol renders the newest value of one field.
func valueCol(f trace.Field, format func(float64, bool) string) func(diagnose.Row, int) string {
	return func(r diagnose.Row, w int) string {
		v, ok := r.Last.Value(f)
		return padLeft(format(v, ok), w)
	}
}

var columns = []column{
	{"LIMIT", 7, false, valueCol(trace.FieldLimit, fmtVal)},
	{"IN-FL", 6, false, valueCol(trace.FieldInFlight, fmtVal)},
	{"UTIL", 10, true, utilCell},
	{"REJ", 5, false, rejectedCell},
	{"MIN RTT", 8, false, valueCol(trace.FieldRTTMin, fmtMs)},
	{"RTT", 8, false, valueCol(trace.FieldRTT, fmtMs)},
	{"VERDICT", 21, true, func(r diagnose.Row, w int) string { return pad(badge(r.Class, r.Judged), w) }},
}

// columnPriority: what stays when the terminal narrows (the verdict matters
// most after the limit).
var columnPriority = []string{"LIMIT", "VERDICT", "IN-FL", "UTIL", "REJ", "MIN RTT", "RTT"}

func (o overview) view(f frame, rows []diagnose.Row, h int) string {
	nameW := 16
	used := nameW + 2
	keep := map[string]bool{}
	for _, title := range columnPriority {
		for _, c := range columns {
			if c.title == title && used+c.width+1 <= f.width {
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
	sparkW := f.width - used - 1
	if sparkW < 6 {
		sparkW = 0
	}
	if extra := f.width - used - sparkW - 1; extra > 0 && sparkW == 0 {
		nameW += extra
	} else if sparkW > 24 {
		nameW += sparkW - 24
		sparkW = 24
	}
	var b strings.Builder
	lines := 0
	if counts := verdictCounts(rows); counts != "" {
		b.WriteString(fit("  "+counts, f.width) + "\n")
		lines++
	}
	hdr := "  " + pad("TARGET", nameW)
	for _, c := range cols {
		if c.left {
			hdr += " " + pad(c.title, c.width)
		} else {
			hdr += " " + padLeft(c.title, c.width)
		}
	}
	if sparkW > 0 {
		title := "LIMIT " + shortDuration(f.zoom)
		if len(title) > sparkW {
			title = shortDuration(f.zoom)
		}
		hdr += " " + pad(title, sparkW)
	}
	b.WriteString(styles.Header.Render(fit(hdr, f.width)))
	lines++
	switch {
	case len(o.visible) == 0 && len(rows) > 0:
		b.WriteString("\n" + styles.Dim.Render(fit(fmt.Sprintf("  no target matches %q — / then esc clears the filter", safetext.Terminal(o.filter.Value())), f.width)))
		lines++
	case len(o.visible) == 0:
		b.WriteString("\n" + styles.Dim.Render(fit("  no targets yet — waiting for samples", f.width)))
		lines++
	}
	// rows that fit: the lines so far, and one for the selected verdict
	room := max(h-lines-1, 1)
	start := 0
	if o.cursor >= room {
		start = o.cursor - room + 1
	}
	for vi := start; vi < len(o.visible) && lines < h-1; vi++ {
		r := rows[o.visible[vi]]
		line := "  " + pad(safetext.Terminal(r.Target), nameW)
		for _, c := range cols {
			line += " " + c.cell(r, c.width)
		}
		if sparkW > 0 {
			line += " " + fg(styles.Limit, report.Sparkline(limitsSince(f, r.Target), sparkW))
		}
		line = fit(line, f.width)
		if vi == o.cursor {
			line = "▌" + line[len("  ")-1:]
		}
		b.WriteString("\n" + line)
		lines++
	}
	// the selected target's verdict in one line
	if r, ok := o.current(rows); ok && r.Judged {
		b.WriteString("\n" + fit(styles.Dim.Render(safetext.Terminal(r.Target)+": ")+r.Finding.Evidence.Summary, f.width))
		lines++
	}
	for ; lines < h; lines++ {
		b.WriteString("\n")
	}
	return b.String()
}

// shortDuration prints 10m, 1h30m, 45s: a duration without its zero parts.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// limitsSince is a target's limit over the zoomed span.
func limitsSince(f frame, target string) []float64 {
	s := f.opt.Board.Series(nil, target, f.now.Add(-f.zoom))
	out := make([]float64, 0, len(s))
	for _, x := range s {
		if x.Has(trace.FieldLimit) && !x.Time.After(f.now) {
			out = append(out, x.Limit)
		}
	}
	return out
}

// ColumnTitles are the overview's column titles, for documentation checks.
func ColumnTitles() []string {
	out := []string{"TARGET"}
	for _, c := range columns {
		out = append(out, c.title)
	}
	return out
}
