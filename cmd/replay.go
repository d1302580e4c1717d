package cmd

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/spf13/cobra"

	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/tui"
)

type replayOptions struct {
	io      *IOStreams
	args    []string
	dash    dashOptions
	speed   float64
	idle    time.Duration
	zoomSet bool // --zoom given: keep it
	input   traceInput
}

// defaultIdleLimit is replay's default --idle-limit: Prometheus' lookback
// (a series silent for five minutes is stale), so a trace's own sample
// interval, even a slow scrape's, always plays at full length.
const defaultIdleLimit = 5 * time.Minute

func newReplayCmd(ios *IOStreams, runF func(*replayOptions) error) *cobra.Command {
	o := &replayOptions{io: ios}
	c := &cobra.Command{
		Use:   "replay FILE",
		Short: "Replay a recorded trace in the dashboard, with playback controls",
		Long: `Replay a trace file (CSV or JSON Lines, .gz, - for stdin) through the same
dashboard as watch, on a playback clock: space pauses, ←/→ seek, [ and ] halve
and double the speed, home/end jump. Verdicts are computed as the data plays,
in sample time. A stretch without any sample longer than --idle-limit (two
recordings a day apart in one file) plays as that long; the clock then jumps
to the next sample. The file format is docs/trace-format.md in the repository.`,
		Example: `  limitscope replay incident.csv
  limitscope replay incident.csv.gz --speed 60
  limitscope replay week.csv --idle-limit 10s
  limitscope replay trace.jsonl --plain --speed 1000 | grep degraded`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			o.zoomSet = c.Flags().Changed("zoom")
			if runF != nil {
				return runF(o)
			}
			return runReplay(ios, o, args[0])
		},
	}
	o.dash.register(c, 0)
	c.Flags().Float64Var(&o.speed, "speed", 1, "playback speed factor")
	c.Flags().DurationVar(&o.idle, "idle-limit", defaultIdleLimit, "a stretch of sample time without samples longer than this plays as this long (0: play it whole)")
	o.input.register(c)
	return c
}

// fitZoom is the charts' initial span for a trace lasting span: the whole
// trace when it is shorter than the default zoom (a 19-second recording
// fills the chart, not its last 6 %), at least 10 s.
func fitZoom(span, def time.Duration) time.Duration {
	if span < def {
		return max(span, 10*time.Second)
	}
	return def
}

// MaxReplaySamples is replay's sample budget: it holds the whole trace,
// packed (40 bytes a sample), so 10 M samples are about 400 MB.
const MaxReplaySamples = 10_000_000

func runReplay(ios *IOStreams, o *replayOptions, path string) error {
	if !(o.speed > 0) || math.IsInf(o.speed, 0) {
		return usageError(fmt.Errorf("--speed %v: must be a positive number", o.speed))
	}
	if o.idle < 0 {
		return usageError(fmt.Errorf("--idle-limit %v: must be 0 (play gaps whole) or more", o.idle))
	}
	board, err := o.dash.board(ios)
	if err != nil {
		return err
	}
	if err := o.input.parse(); err != nil {
		return err
	}
	warnings := &inputWarnings{io: ios}
	r, closer, err := o.input.open(path, ios, warnings.add)
	if err != nil {
		return usageError(err)
	}
	r.MaxSamples = MaxReplaySamples
	pb, err := scrape.ReadPlayback(path, r)
	closer.Close()
	if err != nil {
		return usageError(err)
	}
	if pb.Len() == 0 {
		return usageError(fmt.Errorf("%s: the trace holds no samples", path))
	}
	if !o.zoomSet {
		o.dash.zoom = fitZoom(pb.End().Sub(pb.Start()), o.dash.zoom)
	}
	pb.SetSpeed(o.speed)
	pb.SetIdleLimit(o.idle)
	pb.OnRewind = board.Reset
	interactive := !(o.dash.plain || !ios.OutTTY)
	pb.KeepOpen = interactive
	ctx, cancel := signalContext(context.Background())
	defer cancel()
	done, stop := scrape.Start(ctx, pb, board.Push)
	defer stop()
	return runDashboard(ctx, ios, &o.dash, tui.Options{Title: "replay " + safetext.Terminal(path), Board: board, Statuses: pb.Statuses, Player: pb, Warnings: warnings.list}, done)
}
