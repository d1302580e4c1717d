package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/trace"
)

// traceInput is how diagnose, replay and tune open a trace file: with the
// count columns it holds as running totals (--running-totals).
type traceInput struct {
	runningTotals []string
	totals        trace.Field
}

// runningTotalsHelp is the flag's help line.
const runningTotalsHelp = "count columns the file holds as running totals (a counter's value): dropped, rejected; each row then reads as its increase since the row before"

func (in *traceInput) register(c *cobra.Command) {
	c.Flags().StringSliceVar(&in.runningTotals, "running-totals", nil, runningTotalsHelp)
	_ = c.RegisterFlagCompletionFunc("running-totals", cobra.FixedCompletions([]string{trace.FieldDropped.Name(), trace.FieldRejected.Name()}, cobra.ShellCompDirectiveNoFileComp))
}

// parse reads --running-totals.
func (in *traceInput) parse() error {
	in.totals = 0
	for _, name := range in.runningTotals {
		f, ok := trace.ParseField(name)
		if !ok || f != trace.FieldDropped && f != trace.FieldRejected {
			return usageError(fmt.Errorf("--running-totals %q: only the count columns can be running totals: dropped, rejected", safetext.Echo(name)))
		}
		in.totals |= f
	}
	return nil
}

// open opens the trace file at path (- for stdin) with its warnings going
// to warn.
func (in *traceInput) open(path string, ios *IOStreams, warn func(string)) (*trace.Reader, io.Closer, error) {
	r, c, err := trace.Open(path, ios.In)
	if err != nil {
		return nil, nil, err
	}
	r.Warn = warn
	r.RunningTotals = in.totals
	return r, c, nil
}

// readEach streams a trace file's samples into push, its warnings into
// warn.
func (in *traceInput) readEach(path string, ios *IOStreams, warn func(string), push func(trace.Sample)) error {
	r, c, err := in.open(path, ios, warn)
	if err != nil {
		return err
	}
	defer c.Close()
	for {
		s, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		push(s)
	}
}
