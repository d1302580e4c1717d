package tui

import (
	"math"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/limitscope/limitscope/report"
)

// ChartStyle is how a chart draws: braille (2×4 dots per cell), block (half
// blocks, 1×2 per cell) or ascii (one mark per cell) for terminals and fonts
// without braille.
type ChartStyle int

// Chart styles.
const (
	Braille ChartStyle = iota
	Block
	ASCII
)

// ParseChartStyle reads braille, block or ascii.
func ParseChartStyle(s string) (ChartStyle, bool) {
	switch s {
	case "braille":
		return Braille, true
	case "block":
		return Block, true
	case "ascii":
		return ASCII, true
	}
	return Braille, false
}

// Series is one line of a chart.
type Series struct {
	Times  []time.Time
	Values []float64
	Color  lipgloss.TerminalColor
	Mark   rune // ascii style mark
}

// RefLine is a dashed horizontal line (floor, cap). A line above the data's
// range is not drawn (it would squeeze the data into the bottom of the
// chart): the top row shows "↑ Label" instead.
type RefLine struct {
	Value float64
	Color lipgloss.TerminalColor
	Label string
}

// canvas is a pixel grid; each pixel remembers the series that drew it.
type canvas struct {
	w, h   int // cells
	px, py int // pixels per cell
	pix    []int8
}

func newCanvas(w, h int, style ChartStyle) *canvas {
	c := &canvas{w: w, h: h, px: 1, py: 1}
	switch style {
	case Braille:
		c.px, c.py = 2, 4
	case Block:
		c.py = 2
	}
	c.pix = make([]int8, w*c.px*h*c.py)
	return c
}

func (c *canvas) set(x, y int, s int8) {
	W, H := c.w*c.px, c.h*c.py
	if x < 0 || y < 0 || x >= W || y >= H {
		return
	}
	c.pix[y*W+x] = s
}

func (c *canvas) line(x0, y0, x1, y1 int, s int8) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := 1, 1
	if x0 > x1 {
		sx = -1
	}
	if y0 > y1 {
		sy = -1
	}
	e := dx + dy
	for {
		c.set(x0, y0, s)
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

var brailleBits = [4][2]rune{{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}}

// Chart renders series over the timeline tl into w×h cells with a y axis
// of yw cells on the left; yMax 0 scales to the data. A series' line does
// not join samples across a break in tl (a month between two recordings).
// The result has h lines.
func Chart(series []Series, refs []RefLine, tl report.Timeline, w, h int, yMax float64, style ChartStyle, unit string) string {
	const yw = 7
	if w <= yw+2 || h < 2 {
		return ""
	}
	pw := w - yw
	if yMax <= 0 {
		for _, s := range series {
			for _, v := range s.Values {
				if v > yMax {
					yMax = v
				}
			}
		}
		if yMax <= 0 { // no data: the reference lines set the scale
			for _, r := range refs {
				yMax = math.Max(yMax, r.Value)
			}
		}
		yMax *= 1.1
		if yMax <= 0 {
			yMax = 1
		}
	}
	// reference lines above the scale become a marker on the top row
	var drawn []RefLine
	var marker []rune
	var markerColor lipgloss.TerminalColor
	for _, r := range refs {
		if r.Value > yMax {
			if marker == nil {
				marker, markerColor = []rune("↑ "+r.Label+" "+report.Number(r.Value)), r.Color
			}
			continue
		}
		drawn = append(drawn, r)
	}
	refs = drawn
	if len(marker) > pw/2 {
		marker = nil
	}
	c := newCanvas(pw, h, style)
	W, H := pw*c.px, h*c.py
	from, to := tl.From(), tl.To()
	xOf := func(t time.Time) int { return int(float64(W-1) * tl.Pos(t)) }
	yOf := func(v float64) int { return H - 1 - int(math.Round(float64(H-1)*math.Min(v, yMax)/yMax)) }
	nref := int8(len(series))
	for i, r := range refs {
		y := yOf(r.Value)
		for x := 0; x < W; x += 4 * c.px {
			for k := 0; k < 2*c.px && x+k < W; k++ {
				c.set(x+k, y, nref+int8(i)+1)
			}
		}
	}
	for si, s := range series {
		id := int8(si + 1)
		px, py, have := 0, 0, false
		var pt time.Time
		for i, t := range s.Times {
			if t.Before(from) || t.After(to) {
				have = false
				continue
			}
			x, y := xOf(t), yOf(s.Values[i])
			if have && style != ASCII && !tl.Apart(pt, t) {
				c.line(px, py, x, y, id)
			} else {
				c.set(x, y, id)
			}
			px, py, pt, have = x, y, t, true
		}
	}
	colorOf := func(id int8) lipgloss.TerminalColor {
		if int(id) <= len(series) {
			return series[id-1].Color
		}
		return refs[int(id)-len(series)-1].Color
	}
	markOf := func(id int8) rune {
		if int(id) <= len(series) {
			if m := series[id-1].Mark; m != 0 {
				return m
			}
			return '*'
		}
		return '-'
	}
	var b strings.Builder
	label := func(row int) string {
		var v float64
		switch row {
		case 0:
			v = yMax
		case h - 1:
			v = 0
		case h / 2:
			v = yMax * float64(h-1-row) / float64(h-1)
		default:
			return strings.Repeat(" ", yw-1) + "┤"
		}
		return padLeft(report.Number(v)+unit, yw-1) + "┤"
	}
	for row := 0; row < h; row++ {
		b.WriteString(styles.Axis.Render(label(row)))
		var run strings.Builder
		var runColor lipgloss.TerminalColor
		flush := func() {
			if run.Len() == 0 {
				return
			}
			if runColor == nil {
				b.WriteString(run.String())
			} else {
				b.WriteString(lipgloss.NewStyle().Foreground(runColor).Render(run.String()))
			}
			run.Reset()
		}
		for col := 0; col < pw; col++ {
			if row == 0 && col >= pw-len(marker) {
				if markerColor != runColor {
					flush()
					runColor = markerColor
				}
				run.WriteRune(marker[col-(pw-len(marker))])
				continue
			}
			var r rune
			var top int8
			switch style {
			case Braille:
				bits := rune(0)
				for dy := 0; dy < 4; dy++ {
					for dx := 0; dx < 2; dx++ {
						if id := c.pix[(row*4+dy)*W+col*2+dx]; id != 0 {
							bits |= brailleBits[dy][dx]
							if top == 0 || id <= int8(len(series)) {
								top = id
							}
						}
					}
				}
				r = ' '
				if bits != 0 {
					r = 0x2800 + bits
				}
			case Block:
				u, l := c.pix[(row*2)*W+col], c.pix[(row*2+1)*W+col]
				switch {
				case u != 0 && l != 0:
					r, top = '█', u
				case u != 0:
					r, top = '▀', u
				case l != 0:
					r, top = '▄', l
				default:
					r = ' '
				}
			case ASCII:
				if id := c.pix[row*W+col]; id != 0 {
					r, top = markOf(id), id
				} else {
					r = ' '
				}
			}
			var col lipgloss.TerminalColor
			if top != 0 {
				col = colorOf(top)
			}
			if col != runColor {
				flush()
				runColor = col
			}
			run.WriteRune(r)
		}
		flush()
		if row < h-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Legend is a chart's key: each series' mark in its colour (the mark the
// chart draws in ASCII style, a line otherwise) and its name.
func Legend(style ChartStyle, series []Series, names []string) string {
	var parts []string
	for i, s := range series {
		mark := "━"
		if style == ASCII {
			mark = string(s.Mark)
			if s.Mark == 0 {
				mark = "*"
			}
		}
		parts = append(parts, fg(s.Color, mark+" "+names[i]))
	}
	return strings.Join(parts, "  ")
}

// tickSteps are the time-axis label intervals, shortest first.
var tickSteps = []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
	time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour}

// TimeAxis is the two lines under a chart of w cells (a y axis of yw on the
// left) over the timeline tl: a rule with a tick at every round interval
// (UTC wall clock) and their labels, as many as fit without touching, ◆
// where each mark (an episode start) falls and ≈ where tl breaks. Where
// the axis spans more than one UTC day, the first label of each stretch
// between breaks carries the date ("Jan 02 15:04"), so do ticks at
// midnight ("Jan 02"), and ticks a day or more apart are dates: a week
// read "00:00" at every tick.
func TimeAxis(tl report.Timeline, w, yw int, marks []time.Time) string {
	pw := w - yw
	from, to := tl.From(), tl.To()
	span := tl.Plotted()
	if pw < 10 || span <= 0 {
		return ""
	}
	step := tickSteps[len(tickSteps)-1]
	for _, s := range tickSteps {
		label := 8 // 15:04:05
		if s >= time.Minute {
			label = 5 // 15:04
		}
		if float64(span/s)*float64(label+3) <= float64(pw) {
			step = s
			break
		}
	}
	layout := "15:04:05"
	if step >= time.Minute {
		layout = "15:04"
	}
	const date = "Jan 02"
	days := report.SpansDays(from, to)
	if step >= 24*time.Hour {
		layout = date
	}
	xOf := func(t time.Time) int { return int(float64(pw-1) * tl.Pos(t)) }
	rule := []rune(strings.Repeat("─", pw))
	labels := []rune(strings.Repeat(" ", pw))
	free := 0 // first label column not yet used
	for _, seg := range tl.Segments() {
		dated := days // the segment's first label is still to say its day
		for t := seg[0].UTC().Truncate(step); !t.After(seg[1]); t = t.Add(step) {
			if t.Before(seg[0]) {
				continue
			}
			x := xOf(t)
			rule[x] = '┬'
			text := t.UTC().Format(layout)
			switch {
			case layout == date:
			case dated:
				text = t.UTC().Format(date + " " + layout)
			case days && t.UTC().Hour() == 0 && t.UTC().Minute() == 0 && t.UTC().Second() == 0:
				text = t.UTC().Format(date)
			}
			l := []rune(text)
			at := min(max(x-len(l)/2, 0), pw-len(l))
			if at >= 0 && at >= free {
				copy(labels[at:], l)
				free = at + len(l) + 2
				dated = false
			}
		}
	}
	for _, b := range tl.Breaks() {
		rule[(xOf(b.From)+xOf(b.To))/2] = '≈'
	}
	for _, m := range marks {
		if !m.Before(from) && !m.After(to) {
			rule[xOf(m)] = '◆'
		}
	}
	pad := strings.Repeat(" ", yw)
	return styles.Axis.Render(pad+string(rule)) + "\n" + styles.Axis.Render(pad+string(labels))
}

func padLeft(s string, n int) string {
	if w := lipgloss.Width(s); w < n {
		return strings.Repeat(" ", n-w) + s
	}
	return s
}
