package cmd

import (
	"context"
	"fmt"
	"time"

	"github.com/limitscope/limitscope/report"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/trace"
	"github.com/spf13/cobra"
)

type recordOptions struct {
	io       *IOStreams
	args     []string
	out      string
	duration time.Duration
	live     liveOptions
	file     recordFileOptions
}

func newRecordCmd(io *IOStreams, runF func(*recordOptions) error) *cobra.Command {
	o := &recordOptions{io: io}
	c := &cobra.Command{
		Use:   "record URL... -o FILE",
		Short: "Record live limiter series to a trace file (headless)",
		Long: `Scrape /metrics endpoints (or query a Prometheus server with --prom) every
--interval and write the samples to a trace file (CSV; .jsonl for JSON Lines;
.gz compresses; - is stdout). One status line per interval goes to stderr.
An existing file is never replaced silently: pass --force to overwrite it or
--append to continue it. Exit 3 when nothing could be recorded.
SIGINT or SIGTERM stops cleanly: the file is flushed and closed, exit 0. Rows
reach the file whole and are flushed every second, so even a killed recorder
leaves a file readable to its last complete row. The file format is
docs/trace-format.md in the repository.`,
		Example: `  limitscope record http://127.0.0.1:9090/metrics -o trace.csv
  limitscope record http://a:9090/metrics http://b:9090/metrics -o trace.csv.gz --duration 30m
  limitscope record --prom http://prometheus:9090 --selector '{job="api"}' --backfill 1h -o fleet.csv
  limitscope record --prom http://prometheus:9090 --backfill 2h \
      --until 2026-12-02T15:00:00Z -o incident.csv
  limitscope record http://envoy:9901/stats/prometheus --preset envoy -o envoy.csv`,
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			if runF != nil {
				return runF(o)
			}
			return runRecord(io, o, args)
		},
	}
	c.Flags().StringVarP(&o.out, "output", "o", "", "trace file to write (required)")
	c.Flags().DurationVar(&o.duration, "duration", 0, "stop after this long (0: until interrupted)")
	o.live.register(c)
	o.file.register(c)
	_ = c.MarkFlagRequired("output")
	return c
}

func runRecord(io *IOStreams, o *recordOptions, args []string) error {
	src, err := o.live.source(args)
	if err != nil {
		return err
	}
	if err := trace.CheckExtension(o.out); err != nil {
		return usageError(fmt.Errorf("-o: %w", err))
	}
	w, err := o.file.open("-o", o.out, io)
	if err != nil {
		return err
	}
	ctx, cancel := signalContext(context.Background())
	defer cancel()
	if o.duration > 0 {
		var c2 context.CancelFunc
		ctx, c2 = context.WithTimeout(ctx, o.duration)
		defer c2()
	}
	err = scrape.Pump(ctx, src, w.Write, o.live.interval, func(now time.Time) error {
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(io.ErrOut, "%s  %s · %d rows\n", now.Format("15:04:05"), report.StatusLine(src.Statuses()), w.Rows())
		return nil
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", o.out, err)
	}
	fmt.Fprintf(io.ErrOut, "recorded %d rows to %s\n", w.Rows(), o.out)
	if sum := scrape.Summarize(src.Statuses()); sum.Step > 0 {
		fmt.Fprintf(io.ErrOut, "rows are %s apart (%s)\n", sum.Step, stepOrigin(sum.StepFrom))
	}
	if n := w.Backwards(); n > 0 {
		fmt.Fprintf(io.ErrOut, "warning: skipped %d rows that went back in time for their target (a restarted exporter?)\n", n)
	}
	if w.Rows() == 0 {
		return &ExitError{Code: ExitNoData, Err: fmt.Errorf("nothing was recorded: %s", report.StatusLine(src.Statuses()))}
	}
	return nil
}
