package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/x/ansi"
)

// helpNotes explain the screens' words beneath the keys.
var helpNotes = []string{
	"UTIL is in-flight / limit; REJ is the share of demand the limit turned away in the last interval (rejected / (rejected + completed)); the LIMIT sparkline is scaled from 0.",
	"Smoothing is the weight of the new target: limit = limit·(1−s) + target·s. Higher reacts faster and oscillates more.",
	"Every verdict, its evidence and every column: limitscope help verdicts, limitscope help terms.",
}

// helpView is the ? screen: every key, and where the words are explained.
func helpView(h help.Model, k keyMap, w, height int) string {
	var b strings.Builder
	b.WriteString(styles.Header.Render("keys") + "\n\n")
	b.WriteString(h.FullHelpView(k.FullHelp()))
	for _, note := range helpNotes {
		b.WriteString("\n")
		for _, l := range strings.Split(ansi.Wrap(note, w, " "), "\n") {
			b.WriteString("\n" + styles.Dim.Render(l))
		}
	}
	return clampLines(b.String(), height, w)
}
