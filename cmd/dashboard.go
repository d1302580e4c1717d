package cmd

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/report"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/trace"
	"github.com/limitscope/limitscope/tui"
)

// dashOptions are the flags of every dashboard (watch, replay, demo).
type dashOptions struct {
	chart   string
	plain   bool
	window  time.Duration
	zoom    time.Duration
	history int
}

// windowHelp explains --window wherever a verdict is judged.
const windowHelp = "judging window; 0 (the default) adapts it to the data: 15 sample intervals, 1 to 5 minutes (at least 12 intervals)"

// maxHistory bounds --history: a million samples per target is 40 MB each.
const maxHistory = 1_000_000

func (o *dashOptions) register(c *cobra.Command, window time.Duration) {
	f := c.Flags()
	f.StringVar(&o.chart, "chart", "braille", "chart style: braille, block or ascii (for terminals without braille)")
	f.BoolVar(&o.plain, "plain", false, "one line per target per interval instead of the TUI (automatic when stdout is not a terminal)")
	help := windowHelp
	if window != 0 {
		// this command's default is not 0: say so without contradicting it
		help = "judging window; 0 adapts it to the data: 15 sample intervals, 1 to 5 minutes (at least 12 intervals)"
	}
	f.DurationVar(&o.window, "window", window, help)
	f.DurationVar(&o.zoom, "zoom", 5*time.Minute, "initial time span of the charts (+/- change it)")
	f.IntVar(&o.history, "history", 3600, "samples kept per target")
	_ = c.RegisterFlagCompletionFunc("chart", cobra.FixedCompletions([]string{"braille", "block", "ascii"}, cobra.ShellCompDirectiveNoFileComp))
}

// board checks the flags and returns the dashboard's board. A dashboard
// holds hours of many targets and runs for hours, so from here on the GC
// collects at 50 % heap growth instead of 100 % (unless GOGC is set),
// trading a little CPU for a smaller footprint.
func (o *dashOptions) board(ios *IOStreams) (*diagnose.Board, error) {
	if ios.getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
	if _, ok := tui.ParseChartStyle(o.chart); !ok {
		return nil, usageError(fmt.Errorf("--chart %q: use braille, block or ascii", o.chart))
	}
	if o.window != 0 && o.window < diagnose.MinWindow || o.window < 0 || o.history < 10 || o.history > maxHistory {
		return nil, usageError(fmt.Errorf("--window must be 0 (auto) or at least %v, and --history between 10 and %d samples per target", diagnose.MinWindow, maxHistory))
	}
	return diagnose.NewBoard(o.history, diagnose.Options{Window: o.window}), nil
}

// runDashboard shows the TUI, or plain lines when stdout is not a terminal
// or --plain is given, until the user quits, ctx ends or (plain replay) the
// done channel closes.
func runDashboard(ctx context.Context, ios *IOStreams, o *dashOptions, opt tui.Options, done <-chan struct{}) error {
	if o.plain || !ios.OutTTY {
		p := &report.PlainPrinter{W: ios.Out}
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		lastStatus := ""
		for {
			select {
			case <-ctx.Done():
				return p.Print(opt.Board.Rows())
			case <-done:
				rows := opt.Board.Rows()
				if err := p.Print(rows); err != nil {
					return err
				}
				return p.PrintEpisodes(rows) // the whole replay judged: its episodes
			case <-tick.C:
				if err := p.Print(opt.Board.Rows()); err != nil {
					return err
				}
				// the sources' state on stderr when it changes: a refused
				// endpoint or an unmatched page says why, as the TUI does
				if opt.Statuses != nil {
					if line := report.StatusLine(opt.Statuses()); line != lastStatus {
						fmt.Fprintf(ios.ErrOut, "%s  %s\n", time.Now().Format("15:04:05"), line)
						lastStatus = line
					}
				}
			}
		}
	}
	if ios.NoColor {
		lipgloss.SetColorProfile(termenv.Ascii)
	}
	opt.Chart, _ = tui.ParseChartStyle(o.chart)
	opt.Zoom = o.zoom
	opt.Refresh = 250 * time.Millisecond
	prog := tea.NewProgram(tui.New(opt), tea.WithAltScreen(), tea.WithInput(ios.In), tea.WithOutput(ios.Out), tea.WithContext(ctx))
	_, err := prog.Run()
	if err != nil && ctx.Err() != nil {
		return nil // interrupted: a clean stop
	}
	return err
}

// runLive feeds src into emit while the dashboard shows, then stops the
// source and waits for it.
func runLive(ctx context.Context, ios *IOStreams, o *dashOptions, src scrape.Source, emit func(trace.Sample), opt tui.Options) error {
	_, stop := scrape.Start(ctx, src, emit)
	defer stop()
	opt.Statuses = src.Statuses
	return runDashboard(ctx, ios, o, opt, nil)
}
