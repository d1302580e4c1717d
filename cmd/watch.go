package cmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/limitscope/limitscope/trace"
	"github.com/limitscope/limitscope/tui"
)

type watchOptions struct {
	io     *IOStreams
	args   []string
	dash   dashOptions
	live   liveOptions
	record string
	file   recordFileOptions
}

func newWatchCmd(ios *IOStreams, runF func(*watchOptions) error) *cobra.Command {
	o := &watchOptions{io: ios}
	c := &cobra.Command{
		Use:   "watch URL... | --prom URL",
		Short: "Live dashboard of limiters: every target, its series and its verdict",
		Long: `Scrape one or many /metrics endpoints (or read a fleet from Prometheus with
--prom) and show every limiter: limit, in-flight, utilisation, min RTT, RTT,
the live verdict and a limit sparkline; enter opens a target's charts with the
verdict's evidence and recommendation. When stdout is not a terminal (or with
--plain) it prints one line per target per interval instead.`,
		Example: `  limitscope watch http://127.0.0.1:9090/metrics
  limitscope watch http://a:9090/metrics http://b:9090/metrics --record trace.csv
  limitscope watch --prom http://prometheus:9090 --selector '{job="api"}' --backfill 30m
  limitscope watch http://envoy:9901/stats/prometheus --preset envoy --chart ascii`,
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			if runF != nil {
				return runF(o)
			}
			return runWatch(ios, o, args)
		},
	}
	o.dash.register(c, 0)
	o.live.register(c)
	c.Flags().StringVar(&o.record, "record", "", "also record the samples to this trace file (refused if it exists: see --force, --append)")
	o.file.register(c)
	return c
}

func runWatch(ios *IOStreams, o *watchOptions, args []string) error {
	if o.live.past() {
		// the dashboard's charts end at the wall clock: hours-old samples
		// would fall outside them
		return usageError(fmt.Errorf("--until reads a past span, which watch (live) cannot show: record it, then replay it (limitscope record --prom … --backfill 2h --until … -o incident.csv; limitscope replay incident.csv)"))
	}
	board, err := o.dash.board(ios)
	if err != nil {
		return err
	}
	src, err := o.live.source(args)
	if err != nil {
		return err
	}
	ctx, cancel := signalContext(context.Background())
	defer cancel()
	emit, closeRec, err := recorder(o.record, &o.file, ios, board.Push)
	if err != nil {
		return err
	}
	err = runLive(ctx, ios, &o.dash, src, emit, tui.Options{Title: "watch", Board: board})
	if cerr := closeRec(); err == nil {
		err = cerr
	}
	return err
}

// recorder wraps emit so samples are also written to path (when set).
func recorder(path string, file *recordFileOptions, ios *IOStreams, emit func(trace.Sample)) (func(trace.Sample), func() error, error) {
	if path == "" {
		return emit, func() error { return nil }, nil
	}
	w, err := file.open("--record", path, ios)
	if err != nil {
		return nil, nil, err
	}
	return func(s trace.Sample) {
			emit(s)
			w.Write(s)
		}, func() error {
			if err := w.Close(); err != nil {
				return fmt.Errorf("--record %s: %w", path, err)
			}
			return nil
		}, nil
}
