// Package tui is limitscope's terminal interface: bubbletea models and
// lipgloss styles for the live dashboard (watch, demo), replay and the tuning
// view, plus the plain line-per-target output for pipes. It renders what
// other packages compute (diagnose verdicts, scrape statuses) and never
// parses, scrapes or classifies.
//
// The time charts are drawn by our own small renderer (chart.go) rather than
// ntcharts: the dashboard needs the same chart in three styles (braille,
// half blocks, plain ASCII for terminals and fonts without braille), two
// series and dashed reference lines (floor, cap) on one grid, and a frame of
// 50 targets with a 200×50 chart inside a 5 ms budget.
package tui

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/limitscope/limitscope/diagnose"
)

// Styles are every colour and text style of the views, built in one place
// (NewStyles). Colours adapt to the terminal's background (lipgloss picks
// the light or dark variant), and lipgloss drops them all under NO_COLOR or
// when the output is not a terminal.
type Styles struct {
	// series colours
	Limit, InFlight, RTTMin, RTT, Rejected, Ref, Cap lipgloss.TerminalColor
	// verdict colours
	Good, Bad, Warn, Info, Unknown lipgloss.TerminalColor

	Axis, Title, Dim, Header, Selected, Err, Key lipgloss.Style
}

// NewStyles builds the styles.
func NewStyles() Styles {
	c := func(light, dark string) lipgloss.TerminalColor {
		return lipgloss.AdaptiveColor{Light: light, Dark: dark}
	}
	dim := c("242", "244")
	return Styles{
		Limit:    c("26", "39"),   // blue
		InFlight: c("166", "214"), // orange
		RTTMin:   c("28", "76"),   // green
		RTT:      c("240", "245"), // grey
		Rejected: c("125", "205"), // magenta
		Ref:      c("245", "240"),
		Cap:      c("161", "161"),
		Good:     c("28", "76"),
		Bad:      c("160", "196"),
		Warn:     c("166", "214"),
		Info:     c("26", "39"),
		Unknown:  dim,
		Axis:     lipgloss.NewStyle().Foreground(dim),
		Title:    lipgloss.NewStyle().Bold(true),
		Dim:      lipgloss.NewStyle().Foreground(dim),
		Header:   lipgloss.NewStyle().Bold(true).Foreground(c("235", "252")),
		Selected: lipgloss.NewStyle().Reverse(true),
		Err:      lipgloss.NewStyle().Foreground(c("160", "203")),
		Key:      lipgloss.NewStyle().Bold(true),
	}
}

// styles is the one Styles value the views render with.
var styles = NewStyles()

// fg renders s in colour c.
func fg(c lipgloss.TerminalColor, s string) string {
	return lipgloss.NewStyle().Foreground(c).Render(s)
}

// badge renders a verdict as a coloured mark plus its word, readable when
// colour is off (NO_COLOR): the word and the mark carry the meaning.
func badge(c diagnose.Class, judged bool) string {
	if !judged {
		return styles.Dim.Render("… " + "judging")
	}
	mark, color := "●", styles.Good
	switch c {
	case diagnose.Degraded:
		mark, color = "✖", styles.Bad
	case diagnose.Oscillating:
		mark, color = "≈", styles.Warn
	case diagnose.PipelineBound:
		mark, color = "◆", styles.Info
	case diagnose.Insufficient:
		mark, color = "?", styles.Unknown
	}
	return lipgloss.NewStyle().Foreground(color).Bold(true).Render(mark + " " + string(c))
}
