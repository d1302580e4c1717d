package cmd

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"

	"github.com/limitscope/limitscope/report"
	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/trace"
	"github.com/limitscope/limitscope/tui"
	"github.com/limitscope/limitscope/tune"
)

type tuneOptions struct {
	io           *IOStreams
	args         []string
	target       string
	mode         string
	sweeps       []string
	format       string
	paramsFile   string
	sampleWindow time.Duration
	window       time.Duration
	out          string
	chart        string
	algorithm    string
	compare      bool
	flags        tune.FlagValues
	input        traceInput
}

func newTuneCmd(ios *IOStreams, runF func(*tuneOptions) error) *cobra.Command {
	o := &tuneOptions{io: ios}
	c := &cobra.Command{
		Use:   "tune FILE",
		Short: "What-if tuning: replay a recorded RTT trace through the gradient limiter with other settings",
		Long: `Load an RTT trace (time and rtt_ms; in_flight and dropped used when present;
the format is docs/trace-format.md in the repository)
and replay it through limitscope's gradient limiter with other parameters.

Interactive (a terminal, no --sweep): ↑/↓ choose a parameter, ←/→ step it,
or type or paste a value (enter edits the current one; rtt_window takes "90s",
cap takes "none") and press enter; every change re-runs at once and the
results table compares it with the baseline (Δ is current − baseline;
utilisation in percentage points). m toggles open/closed loop, w writes the
parameters (JSON, YAML and a limiter.Gradient{…} Go literal; beside existing
files, never over them), q quits and prints them.

Headless (--sweep): runs every combination on all cores, prints the table and
recommends the highest utilisation with no overload episode and no
oscillating verdict.

Open loop feeds the recorded RTTs as they were: exact and fast, but blind to
the fact that a different limit would have changed them. Closed loop fits a
downstream model to the trace (base latency, capacity via Little's law,
demand) and runs the candidate against it, so a changed limit changes the
RTTs it sees, one base latency later.

The baseline is the gradient limiter's defaults, or the settings you pass (--smoothing
…, or --params FILE): set them to what is deployed.

Smoothing is the weight of the new target: limit = limit·(1−s) + target·s.`,
		Example: `  limitscope tune rtt.csv
  limitscope tune rtt.csv --smoothing 0.8 --sweep smoothing=0.05:0.5:0.05
  limitscope tune rtt.csv --sweep smoothing=0.1,0.2 --sweep cap=50,100 --format json
  limitscope tune rtt.csv --mode open --params deployed.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			if runF != nil {
				return runF(o)
			}
			return runTune(ios, o, args[0])
		},
	}
	f := c.Flags()
	f.StringVar(&o.target, "target", "", "which target of the file (default: the first)")
	f.StringVar(&o.mode, "mode", "closed", "closed or open loop")
	f.StringVar(&o.algorithm, "algorithm", "", "the algorithm to replay: "+strings.Join(tune.AlgorithmNames(), ", ")+" (default gradient, or the --params file's)")
	f.BoolVar(&o.compare, "compare", false, "run every algorithm (defaults and a small sweep of its most sensitive knob) and rank them")
	f.StringArrayVar(&o.sweeps, "sweep", nil, "sweep a parameter of the algorithm, PARAM=FROM:TO:STEP or PARAM=V1,V2 (repeatable)")
	f.StringVar(&o.format, "format", "text", "headless output: text or json")
	f.StringVar(&o.paramsFile, "params", "", "baseline parameters from a JSON or YAML file (as w writes)")
	f.DurationVar(&o.sampleWindow, "sample-window", tune.DefaultSampleWindow, "the limiter's sample window (coarser trace intervals are replayed as several observations)")
	f.DurationVar(&o.window, "window", 0, "diagnose window for the verdict of each what-if; 0 (the default) adapts it to the data")
	f.StringVar(&o.out, "out", "limitscope-params", "file stem w writes to (.json, .yaml, .go)")
	f.StringVar(&o.chart, "chart", "braille", "chart style: braille, block or ascii")
	for _, flag := range o.flags.Flags() {
		f.Var(flag, flag.Param.Flag, "baseline: "+flag.Param.Help)
	}
	o.input.register(c)
	_ = c.RegisterFlagCompletionFunc("algorithm", cobra.FixedCompletions(tune.AlgorithmNames(), cobra.ShellCompDirectiveNoFileComp))
	_ = c.RegisterFlagCompletionFunc("mode", cobra.FixedCompletions([]string{"closed", "open"}, cobra.ShellCompDirectiveNoFileComp))
	_ = c.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return c
}

// MaxTuneSamples is tune's sample budget: it holds the whole RTT trace and
// its replay arrays, about 100 bytes a sample, so 8 M samples (over two
// hours at 1 kHz) are under 1 GB.
const MaxTuneSamples = 8_000_000

func runTune(ios *IOStreams, o *tuneOptions, path string) error {
	mode, err := tune.ParseMode(o.mode)
	if err != nil {
		return usageError(fmt.Errorf("--mode %q: %w", o.mode, err))
	}
	if o.format != "text" && o.format != "json" {
		return usageError(fmt.Errorf("--format %q: use text or json", o.format))
	}
	chart, ok := tui.ParseChartStyle(o.chart)
	if !ok {
		return usageError(fmt.Errorf("--chart %q: use braille, block or ascii", o.chart))
	}
	alg, ok := tune.LookupAlgorithm(o.algorithm)
	if !ok {
		return usageError(fmt.Errorf("--algorithm %q: use one of %s", o.algorithm, strings.Join(tune.AlgorithmNames(), ", ")))
	}
	base := alg.Defaults()
	if o.paramsFile != "" {
		if base, err = tune.ReadParams(o.paramsFile); err != nil {
			return usageError(err)
		}
		if o.algorithm != "" && base.Alg() != alg {
			return usageError(fmt.Errorf("--params %s holds %s parameters, --algorithm asks for %s", o.paramsFile, base.Alg().Name, alg.Name))
		}
	}
	if err := o.flags.Apply(&base); err != nil {
		return usageError(err)
	}
	if err := base.Validate(); err != nil {
		return usageError(fmt.Errorf("baseline parameters: %w", err))
	}
	if o.compare && len(o.sweeps) > 0 {
		return usageError(fmt.Errorf("--compare runs its own candidates: give it no --sweep"))
	}
	var axes []tune.Axis
	for _, s := range o.sweeps {
		a, err := base.Alg().ParseAxis(s)
		if err != nil {
			return usageError(fmt.Errorf("--sweep %w", err))
		}
		axes = append(axes, a)
	}
	if err := tune.CheckGrid(axes); err != nil {
		return usageError(fmt.Errorf("--sweep: %w", err))
	}
	// a text report on stdout says the warnings; JSON and the tuning view
	// carry them too, and stderr says them as well
	if err := o.input.parse(); err != nil {
		return err
	}
	warnings := &inputWarnings{io: ios, quiet: o.format == "text" && (o.compare || len(axes) > 0)}
	r, closer, err := o.input.open(path, ios, warnings.add)
	if err != nil {
		return usageError(err)
	}
	r.MaxSamples = MaxTuneSamples
	samples, err := r.ReadAll()
	closer.Close()
	if err != nil {
		return usageError(err)
	}
	target := o.target
	var mine []trace.Sample
	for _, s := range samples {
		if target == "" {
			target = s.Target
		}
		if s.Target == target {
			mine = append(mine, s)
		}
	}
	if len(samples) == 0 {
		return usageError(fmt.Errorf("%s: no samples (the file has a header and nothing else?)", safetext.Echo(path)))
	}
	if len(mine) == 0 {
		var names targetNames
		for _, s := range samples {
			names.add(s.Target)
		}
		return usageError(fmt.Errorf("--target %q: no such target in %s; it has: %s", safetext.Echo(target), safetext.Echo(path), names))
	}
	rec, err := tune.Prepare(target, mine)
	if err != nil {
		return usageError(fmt.Errorf("%s: %w", path, err))
	}
	opt := tune.Options{Mode: mode, SampleWindow: o.sampleWindow, Window: o.window}
	if o.compare {
		c := tune.Compare(rec, base, opt, report.ProgressBar(ios.ErrOut, "runs", time.Second))
		c.Source = path
		c.Warnings = warnings.list
		if o.format == "json" {
			return report.CompareJSON(ios.Out, c)
		}
		return report.CompareText(ios.Out, c)
	}
	if len(axes) > 0 {
		return tuneSweep(ios, o, path, rec, base, axes, opt, warnings.list)
	}
	if !ios.OutTTY {
		return usageError(fmt.Errorf("the interactive tuning view needs a terminal; pass --sweep PARAM=… or --compare for a headless run"))
	}
	rttT, rttV := rec.RecordedRTT()
	limT, limV := rec.RecordedLimit()
	m := tui.NewTune(tui.TuneOptions{
		Title: fmt.Sprintf("%s · %s · %d samples", path, target, rec.Len()), Baseline: base, Mode: mode, Chart: chart,
		Run: func(p tune.Params, mode tune.Mode) tune.Row {
			o2 := opt
			o2.Mode = mode
			return tune.Run(rec, p, o2)
		},
		Write: func(p tune.Params) (string, error) {
			files, err := p.WriteFiles(o.out)
			return strings.Join(files, ", "), err
		},
		RTTTimes: rttT, RTT: rttV, LimitTimes: limT, RecordedLimit: limV,
		Warnings: warnings.list,
	})
	final, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithInput(ios.In), tea.WithOutput(ios.Out)).Run()
	if err != nil {
		return err
	}
	p := final.(tui.TuneModel).Params()
	return report.ChosenParams(ios.Out, p)
}

func tuneSweep(ios *IOStreams, o *tuneOptions, path string, rec *tune.Recorded, base tune.Params, axes []tune.Axis, opt tune.Options, warnings []string) error {
	sets := tune.Grid(base, axes)
	for _, p := range sets {
		if err := p.Validate(); err != nil {
			return usageError(fmt.Errorf("--sweep produces invalid parameters: %w", err))
		}
	}
	progress := report.ProgressBar(ios.ErrOut, "runs", time.Second)
	baseline := tune.Run(rec, base, opt)
	baseline.Samples = nil
	rows := tune.Sweep(rec, sets, opt, progress)
	recm := tune.Recommend(rows, &baseline)
	rep := tune.Report{Schema: tune.Schema, Source: path, Target: rec.Target, Mode: opt.Mode.String(), Baseline: baseline, Rows: rows, Recommendation: recm, Warnings: warnings}
	if o.format == "json" {
		return report.TuneJSON(ios.Out, rep)
	}
	return report.TuneText(ios.Out, rep, axes)
}
