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

var (
	colLimit    = lipgloss.Color("39")  // blue
	colInFlight = lipgloss.Color("214") // orange
	colRTTMin   = lipgloss.Color("76")  // green
	colRTT      = lipgloss.Color("245") // grey
	colRef      = lipgloss.Color("240")
	colCap      = lipgloss.Color("161")

	axisStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("244"))
	titleStyle  = lipgloss.NewStyle().Bold(true)
	dimStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("244"))
	headerStyle = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("252"))
	selStyle    = lipgloss.NewStyle().Reverse(true)
	errStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("203"))
	keyStyle    = lipgloss.NewStyle().Bold(true)
)

// badge renders a verdict as a coloured mark plus its word, readable when
// colour is off (NO_COLOR): the word and the mark carry the meaning.
func badge(c diagnose.Class, judged bool) string {
	if !judged {
		return dimStyle.Render("… " + "judging")
	}
	mark, color := "●", lipgloss.Color("76")
	switch c {
	case diagnose.Degraded:
		mark, color = "✖", lipgloss.Color("196")
	case diagnose.Oscillating:
		mark, color = "≈", lipgloss.Color("214")
	case diagnose.PipelineBound:
		mark, color = "◆", lipgloss.Color("39")
	case diagnose.Insufficient:
		mark, color = "?", lipgloss.Color("244")
	}
	return lipgloss.NewStyle().Foreground(color).Bold(true).Render(mark + " " + string(c))
}
