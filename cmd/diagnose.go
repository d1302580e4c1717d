package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/report"
	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/trace"
	"github.com/spf13/cobra"
)

type diagnoseOptions struct {
	io       *IOStreams
	args     []string
	format   string
	outputs  []string
	failOn   string
	window   time.Duration
	target   string
	duration time.Duration
	live     liveOptions
	input    traceInput
}

const diagnoseLong = `Classify each target's limit / in-flight / min-RTT series and write a report.

Verdicts: healthy, pipeline-bound (limit far above in-flight: look upstream),
degraded-downstream (limit at its floor while the min RTT rises: page the
downstream's owner), oscillating (limit swinging widely: lower the smoothing,
the weight of the new target), insufficient-data. Findings also name the
failure signatures stale-rtt-min, idle-growth and error-acceleration. Each
finding carries its time span, the numbers it was decided on and a
recommendation; a flat limit holding a standing queue, or one that overshot
the downstream that came back after an incident, is standing-queue.
Confidence is the share of judged windows that showed the verdict (0 for
insufficient-data); the report counts them: "confidence 0.06 (1 of 17
windows)" is a verdict seen in one window. The README's Verdicts section
lists the evidence per class (rejected share of demand, capacity loss with
errors, swings against the √limit jitter of a limit that size).

Sources: trace files (CSV or JSON Lines, .gz, - for stdin; the format is
docs/trace-format.md in the repository), or live /metrics URLs (http://…)
scraped for --duration.

Exit codes:
  0  no target showed a --fail-on class
  1  a --fail-on class was found
  2  usage or input error (the message names the flag, file or line)
  3  nothing could be evaluated (every target insufficient or unreachable)
  4  a --output report could not be written (the others were)`

const diagnoseExample = `  limitscope diagnose load-test.csv
  limitscope diagnose trace.jsonl.gz --format json
  limitscope diagnose trace.csv --output junit=report.xml --output html=report.html
  limitscope diagnose trace.csv --fail-on degraded-downstream,oscillating,stale-rtt-min
  limitscope diagnose http://127.0.0.1:9090/metrics --duration 10m --window 2m
  # a past incident from the fleet's Prometheus: 13:00-15:00, then exit
  limitscope diagnose --prom http://prometheus:9090 --selector '{job="api"}' \
      --backfill 2h --until 2026-12-02T15:00:00Z

  # GitHub Actions step:
  #   - run: limitscope diagnose trace.csv --format github --output html=diagnosis.html`

func newDiagnoseCmd(io *IOStreams, runF func(*diagnoseOptions) error) *cobra.Command {
	o := &diagnoseOptions{io: io}
	c := &cobra.Command{
		Use:     "diagnose FILE|URL...",
		Short:   "Classify limiter series and write diagnosis reports for CI",
		Long:    diagnoseLong,
		Example: diagnoseExample,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 && o.live.prom == "" {
				return usageError(fmt.Errorf("diagnose needs a trace file (or - for stdin) or a /metrics URL; see --help for examples"))
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			if runF != nil {
				return runF(o)
			}
			return runDiagnose(io, o, args)
		},
	}
	f := c.Flags()
	f.StringVar(&o.format, "format", "text", "report on stdout: "+strings.Join(report.Formats, "|"))
	f.StringArrayVar(&o.outputs, "output", nil, "also write a report, FORMAT=PATH (repeatable)")
	f.StringVar(&o.failOn, "fail-on", "degraded-downstream,oscillating", "classes that make the exit code 1 (comma-separated; empty for none)")
	f.DurationVar(&o.window, "window", 0, windowHelp)
	f.StringVar(&o.target, "target", "", "diagnose only this target")
	f.DurationVar(&o.duration, "duration", time.Minute, "how long to scrape live targets")
	o.live.register(c)
	o.input.register(c)
	_ = c.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(report.Formats, cobra.ShellCompDirectiveNoFileComp))
	_ = c.RegisterFlagCompletionFunc("fail-on", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, cl := range diagnose.Classes {
			out = append(out, string(cl))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	})
	return c
}

func runDiagnose(ios *IOStreams, o *diagnoseOptions, args []string) error {
	failOn, err := diagnose.ParseClasses(o.failOn)
	if err != nil {
		return usageError(fmt.Errorf("--fail-on: %w", err))
	}
	if o.window != 0 && o.window < diagnose.MinWindow || o.window < 0 {
		return usageError(fmt.Errorf("--window %v: must be 0 (auto) or at least %v", o.window, diagnose.MinWindow))
	}
	if o.format, err = report.ParseFormat(o.format); err != nil {
		return usageError(fmt.Errorf("--format: %w", err))
	}
	if err := o.input.parse(); err != nil {
		return err
	}
	type out struct{ format, path string }
	var outs []out
	for _, spec := range o.outputs {
		format, path, ok := strings.Cut(spec, "=")
		format, ferr := report.ParseFormat(format)
		if !ok || path == "" || ferr != nil {
			return usageError(fmt.Errorf("--output %q: want FORMAT=PATH with FORMAT one of %s", spec, strings.Join(report.Formats, ", ")))
		}
		outs = append(outs, out{format, path})
	}

	// classify while reading; keep whole series only for HTML charts
	needSeries := o.format == "html"
	for _, ot := range outs {
		needSeries = needSeries || ot.format == "html"
	}
	col := diagnose.NewCollector(diagnose.Options{Window: o.window}, needSeries)
	found := false
	var names targetNames
	push := func(s trace.Sample) {
		if o.target != "" {
			names.add(s.Target)
		}
		if o.target == "" || s.Target == o.target {
			found = true
			col.Push(s)
		}
	}
	// the input's warnings go into every report; on stderr too unless
	// stdout gets the text report, which opens with them
	warnings := &inputWarnings{io: ios, quiet: o.format == "text"}
	var urls []string
	for i, a := range args {
		if u, ok := schemeless(a); ok {
			fmt.Fprintf(ios.ErrOut, "note: %s is not a file; scraping %s\n", safetext.Echo(a), safetext.Echo(scrape.Redact(u)))
			args[i], a = u, u
		}
		if isURL(a) {
			urls = append(urls, a)
			continue
		}
		if err := o.input.readEach(a, ios, warnings.add, push); err != nil {
			return usageError(err)
		}
	}
	if len(urls) > 0 || o.live.prom != "" {
		s, err := collectLive(ios, &o.live, urls, o.duration)
		if err != nil {
			return err
		}
		for _, x := range s {
			push(x)
		}
	}
	if o.target != "" && !found {
		if len(names.list) == 0 {
			return usageError(fmt.Errorf("--target %q: the input holds no samples", safetext.Echo(o.target)))
		}
		return usageError(fmt.Errorf("--target %q: no such target in the input; it has: %s", safetext.Echo(o.target), names))
	}
	shown := make([]string, len(args))
	for i, a := range args {
		shown[i] = scrape.Redact(a)
	}
	rep := report.NewReport(strings.Join(shown, " "), col.Results(), col.Series(), failOn)
	rep.Limits = col.Limits()
	rep.Warnings = warnings.list
	rep.Color = ios.OutTTY && !ios.NoColor

	summary := func(format string) (io.Writer, func() error, error) {
		path := ios.getenv("GITHUB_STEP_SUMMARY")
		if format != "github" || path == "" {
			return nil, func() error { return nil }, nil
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, nil, fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
		}
		return f, f.Close, nil
	}
	// every --output is written whole or not at all (a temporary file
	// renamed into place); one failing does not stop the others
	var outErrs []error
	for _, ot := range outs {
		sum, closeSum, err := summary(ot.format)
		if err != nil {
			return err
		}
		r := *rep
		r.Color = false
		err = writeAtomic(ot.path, func(w io.Writer) error { return r.Render(w, ot.format, sum) })
		if cerr := closeSum(); err == nil {
			err = cerr
		}
		if err != nil {
			outErrs = append(outErrs, fmt.Errorf("--output %s: %w", ot.path, err))
		}
	}
	if len(outErrs) > 0 {
		defer func() {
			for _, e := range outErrs {
				fmt.Fprintln(ios.ErrOut, "limitscope:", e)
			}
		}()
	}
	sum, closeSum, err := summary(o.format)
	if err != nil {
		return err
	}
	if err := rep.Render(ios.Out, o.format, sum); err != nil {
		return err
	}
	if err := closeSum(); err != nil {
		return err
	}
	if len(outErrs) > 0 {
		return &ExitError{Code: ExitOutput, Err: fmt.Errorf("%d of %d reports could not be written", len(outErrs), len(outs))}
	}
	if rep.ExitCode != 0 {
		return &ExitError{Code: rep.ExitCode}
	}
	return nil
}

// writeAtomic writes path through a temporary file in the same directory,
// renamed into place only when write succeeded: a failure leaves the old
// file (or none), never a truncated one.
func writeAtomic(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// targetNames collects the first 20 distinct target names seen, for an
// error that says which targets exist.
type targetNames struct {
	seen map[string]bool
	list []string
}

func (n *targetNames) add(target string) {
	if n.seen[target] || len(n.list) >= 20 {
		return
	}
	if n.seen == nil {
		n.seen = map[string]bool{}
	}
	n.seen[target] = true
	n.list = append(n.list, safetext.Echo(target))
}

func (n targetNames) String() string { return strings.Join(n.list, ", ") }

// schemeless reads an argument that is no existing file but looks like
// host:port/path (as curl does) as an http:// URL.
func schemeless(a string) (string, bool) {
	if a == "-" || isURL(a) {
		return "", false
	}
	if _, err := os.Stat(a); err == nil {
		return "", false
	}
	host, _, _ := strings.Cut(a, "/")
	if h, port, ok := strings.Cut(host, ":"); ok && h != "" && port != "" && strings.Trim(port, "0123456789") == "" {
		return "http://" + a, true
	}
	return "", false
}

func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}
