package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/tune"
)

// StatusLine summarises sources in one line for progress reports and
// errors: counts by state, targets, and the first down endpoint's reason.
func StatusLine(sts []scrape.Status) string {
	m := scrape.Summarize(sts)
	line := fmt.Sprintf("endpoints %d up, %d down, %d stale; %d targets", m.Up, m.Down, m.Stale, m.Targets)
	if m.Step > 0 {
		line += fmt.Sprintf("; readings %s apart", m.Step)
	}
	if len(m.Reasons) > 0 {
		line += " — " + safetext.Terminal(m.Reasons[0])
		if len(m.Reasons) > 1 {
			line += fmt.Sprintf(" (+%d more)", len(m.Reasons)-1)
		}
	}
	return line
}

// ProgressBar returns a progress callback drawing "[####....] 3/20 runs"
// on w (a terminal's stderr), rewritten in place, once the work has run for
// after (short work draws nothing). It is safe for concurrent use.
func ProgressBar(w io.Writer, unit string, after time.Duration) func(done, total int) {
	start := time.Now()
	var mu sync.Mutex
	return func(done, total int) {
		if time.Since(start) < after || total <= 0 {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		const width = 30
		n := done * width / total
		fmt.Fprintf(w, "\r[%s%s] %d/%d %s", strings.Repeat("#", n), strings.Repeat(".", width-n), done, total, unit)
		if done == total {
			fmt.Fprintln(w)
		}
	}
}

// ChosenParams prints the parameters the tune view ended with, as JSON and
// as a Go literal for a service importing limiter.
func ChosenParams(w io.Writer, p tune.Params) error {
	js, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "chosen parameters:\n%s\n\n%s\n", js, p.GoLiteral())
	return err
}
