package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/trace"
)

// PlainPrinter writes one line per target per new sample instead of the
// TUI, for pipes and CI logs: logfmt-style key=value pairs, the target name
// quoted with control characters escaped.
type PlainPrinter struct {
	W    io.Writer
	last map[string]time.Time
}

// Print writes a line for every row whose newest sample is new since the
// previous call.
func (p *PlainPrinter) Print(rows []diagnose.Row) error {
	if p.last == nil {
		p.last = map[string]time.Time{}
	}
	var b strings.Builder
	for _, r := range rows {
		if r.Last.Time.IsZero() || !r.Last.Time.After(p.last[r.Target]) {
			continue
		}
		p.last[r.Target] = r.Last.Time
		fmt.Fprintf(&b, "%s target=%q", r.Last.Time.UTC().Format(time.RFC3339), safetext.Terminal(r.Target))
		for _, f := range trace.Columns() {
			if v, ok := r.Last.Value(f); ok {
				fmt.Fprintf(&b, " %s=%s", f.Name(), Trim2(v, ""))
			}
		}
		verdict := "judging"
		if r.Judged {
			verdict = string(r.Class)
		}
		fmt.Fprintf(&b, " verdict=%s\n", verdict)
	}
	_, err := io.WriteString(p.W, b.String())
	return err
}

// PrintEpisodes writes every target's episodes so far, one line each (the
// same findings diagnose reports for the same samples: both judge in sample
// time, so a replay's speed changes nothing).
func (p *PlainPrinter) PrintEpisodes(rows []diagnose.Row) error {
	var b strings.Builder
	for _, r := range rows {
		for _, f := range r.Episodes {
			fmt.Fprintf(&b, "episode target=%q class=%s start=%s end=%s\n", safetext.Terminal(r.Target), f.Class,
				f.Start.UTC().Format(time.RFC3339), f.End.UTC().Format(time.RFC3339))
		}
	}
	_, err := io.WriteString(p.W, b.String())
	return err
}
