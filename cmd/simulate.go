package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/limitscope/limitscope/internal/decimal"
	"github.com/limitscope/limitscope/limiter/sim"
	"github.com/limitscope/limitscope/trace"
	"github.com/spf13/cobra"
)

type simulateOptions struct {
	scenario string
	duration time.Duration
	seed     uint64
	format   string
	traceOut string
}

func newSimulateCmd(io *IOStreams) *cobra.Command {
	o := &simulateOptions{}
	c := &cobra.Command{
		Use:   "simulate",
		Short: "Limiter shoot-out on a simulated downstream, beside the published benchmark table",
		Long: `Run static-low, static-high, AIMD, gradient and gradient with a static cap
against the same simulated downstream in virtual time, and print utilisation of
true capacity, p50/p99 latency of admitted requests, overload episodes (minutes
whose mean latency exceeded twice the base latency or that lost more than 1 %
to shedding or timeouts) and deferred requests, beside the published benchmark
table's figures (from the article "Adaptive Concurrency Limits for Geofence
Consumers", which measured the same five limiters).

The default scenario, capacity-shift, is the article's: a downstream whose capacity
doubles at 20 min (a deploy) and falls to 60 % of the original at 40 min (a
noisy neighbour). A scenario file is YAML; see limiter/sim/scenarios/.

Interrupted (Ctrl-C, SIGTERM), it prints the rows finished so far and exits 130.`,
		Example: `  limitscope simulate
  limitscope simulate --duration 10m --format json
  limitscope simulate --scenario my-scenario.yaml --trace-out traces/
  limitscope diagnose traces/static-high.csv`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runSimulate(io, o) },
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

type simulateJSON struct {
	Scenario  string          `json:"scenario"`
	DurationS float64         `json:"duration_s"`
	Results   []simulateJSONR `json:"results"`
}

type simulateJSONR struct {
	Limiter          string  `json:"limiter"`
	Utilisation      float64 `json:"utilisation"`
	P50Ms            float64 `json:"p50_ms"`
	P99Ms            float64 `json:"p99_ms"`
	OverloadEpisodes int     `json:"overload_episodes"`
	Deferred         int64   `json:"deferred"`
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
	if o.format == "json" {
		out := simulateJSON{Scenario: sc.Name, DurationS: time.Duration(sc.Duration).Seconds()}
		for _, r := range results {
			out.Results = append(out.Results, simulateJSONR{r.Limiter, decimal.Round(r.Utilisation, 4), decimal.Round(r.P50Ms, 2), decimal.Round(r.P99Ms, 2), r.OverloadEpisodes, r.Deferred})
		}
		enc := json.NewEncoder(io.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
		return interrupted(complete)
	}
	var total int64
	for _, r := range results {
		total += r.Requests
	}
	fmt.Fprintf(io.Out, "scenario %s, %s simulated, seed %d (%.1fM simulated requests in %s)\n\n",
		sc.Name, time.Duration(sc.Duration), sc.Seed, float64(total)/1e6, time.Since(start).Round(10*time.Millisecond))
	tw := tabwriter.NewWriter(io.Out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "limiter\tutilisation\tp50\tp99\toverload episodes\tdeferred\t\tpublished: util\tp99\tepisodes\tdeferred\t")
	for _, r := range results {
		s, ok := sim.Published[r.Limiter]
		if !ok {
			s = sim.PublishedRow{Utilisation: "-", P99: "-", OverloadEpisodes: "-", Deferred: "-"}
		}
		fmt.Fprintf(tw, "%s\t%.1f%%\t%.1f ms\t%.1f ms\t%d\t%s\t\t%s\t%s\t%s\t%s\t\n", r.Limiter, 100*r.Utilisation, r.P50Ms, r.P99Ms, r.OverloadEpisodes, human(r.Deferred), s.Utilisation, s.P99, s.OverloadEpisodes, s.Deferred)
	}
	if err := tw.Flush(); err != nil {
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

func human(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.2fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
