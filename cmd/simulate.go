package cmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/limitscope/limitscope/limiter/sim"
	"github.com/limitscope/limitscope/report"
	"github.com/limitscope/limitscope/trace"
	"github.com/spf13/cobra"
)

type simulateOptions struct {
	io       *IOStreams
	args     []string
	scenario string
	duration time.Duration
	seed     uint64
	format   string
	traceOut string
}

func newSimulateCmd(io *IOStreams, runF func(*simulateOptions) error) *cobra.Command {
	o := &simulateOptions{io: io}
	c := &cobra.Command{
		Use:   "simulate",
		Short: "Limiter shoot-out on a simulated downstream, beside the published benchmark table",
		Long: `Run static-low, static-high, AIMD, gradient and gradient with a static cap
against the same simulated downstream in virtual time, and print utilisation of
true capacity, p50/p99 latency of admitted requests, overload episodes (minutes
whose mean latency exceeded twice the base latency or that lost more than 1 %
to shedding or timeouts) and deferred requests; for the article's scenario,
beside the published benchmark table's figures (from the article "Adaptive
Concurrency Limits for Geofence Consumers", which measured the same five
limiters).

The default scenario, capacity-shift, is the article's: a downstream whose capacity
doubles at 20 min (a deploy) and falls to 60 % of the original at 40 min (a
noisy neighbour). worker-pool puts a pool of 16 workers in front of a
downstream that takes 40 (client.workers: a closed loop, in-flight never past
the pool). A scenario file is YAML; see limiter/sim/scenarios/.

Interrupted (Ctrl-C, SIGTERM), it prints the rows finished so far and exits 130.`,
		Example: `  limitscope simulate
  limitscope simulate --duration 10m --format json
  limitscope simulate --scenario my-scenario.yaml --trace-out traces/
  limitscope diagnose traces/static-high.csv`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			if runF != nil {
				return runF(o)
			}
			return runSimulate(io, o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.scenario, "scenario", "capacity-shift", "built-in scenario name or YAML file ("+strings.Join(sim.Builtin(), ", ")+")")
	f.DurationVar(&o.duration, "duration", 0, "override the scenario's duration (e.g. 10m)")
	f.Uint64Var(&o.seed, "seed", 0, "random seed (0: the scenario's)")
	f.StringVar(&o.format, "format", "text", "output format: text or json")
	f.StringVar(&o.traceOut, "trace-out", "", "write each limiter's per-second series as DIR/<limiter>.csv")
	_ = c.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	_ = c.RegisterFlagCompletionFunc("scenario", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return sim.Builtin(), cobra.ShellCompDirectiveDefault
	})
	return c
}

func runSimulate(io *IOStreams, o *simulateOptions) error {
	if o.format != "text" && o.format != "json" {
		return usageError(fmt.Errorf("--format %q: use text or json", o.format))
	}
	sc, err := sim.Load(o.scenario)
	if err != nil {
		return usageError(err)
	}
	if o.duration < 0 {
		return usageError(fmt.Errorf("--duration %v: must be positive", o.duration))
	}
	if o.duration > 0 {
		sc.Duration = sim.Duration(o.duration)
	}
	if o.seed != 0 {
		sc.Seed = o.seed
	}
	if len(sc.Limiters) == 0 {
		return usageError(fmt.Errorf("scenario %s names no limiters to compare", sc.Name))
	}
	start := time.Now()
	progress := func(done, total int) {
		if time.Since(start) > time.Second {
			fmt.Fprintf(io.ErrOut, "simulated %d/%d limiters (%s)\n", done, total, time.Since(start).Round(100*time.Millisecond))
		}
	}
	ctx, cancel := signalContext(context.Background())
	defer cancel()
	results, complete := sim.ShootoutUntil(ctx.Done(), sc, progress)
	if !complete {
		// interrupted: the rows finished so far, then exit 130
		defer func() {
			fmt.Fprintf(io.ErrOut, "interrupted: %d of %d limiters finished\n", len(results), len(sc.Limiters))
		}()
	}
	if o.traceOut != "" {
		if err := writeTraces(o.traceOut, results); err != nil {
			return err
		}
	}
	rep := report.Shootout{Scenario: sc, Results: results, Took: time.Since(start)}
	render := rep.Text
	if o.format == "json" {
		render = rep.JSON
	}
	if err := render(io.Out); err != nil {
		return err
	}
	return interrupted(complete)
}

func interrupted(complete bool) error {
	if complete {
		return nil
	}
	return &ExitError{Code: ExitInterrupted}
}

func writeTraces(dir string, results []sim.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--trace-out: %w", err)
	}
	for _, r := range results {
		path := filepath.Join(dir, r.Limiter+".csv")
		w, err := trace.Create(path, nil)
		if err != nil {
			return fmt.Errorf("--trace-out: %w", err)
		}
		for _, s := range r.Samples {
			if err := w.Write(s); err != nil {
				w.Close()
				return fmt.Errorf("writing %s: %w", path, err)
			}
		}
		if err := w.Close(); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return nil
}
