package cmd

import (
	"errors"
	"fmt"

	"github.com/limitscope/limitscope/trace"
	"github.com/spf13/cobra"
)

// recordFileOptions says what a recording does with an existing file: it is
// refused unless --force (overwrite) or --append (continue it) is given.
type recordFileOptions struct {
	force, append bool
}

func (o *recordFileOptions) register(c *cobra.Command) {
	c.Flags().BoolVar(&o.force, "force", false, "overwrite an existing trace file")
	c.Flags().BoolVar(&o.append, "append", false, "continue an existing trace file (its CSV header must match)")
	c.MarkFlagsMutuallyExclusive("force", "append")
}

// open opens path for a recording; flag names the flag that gave the path.
func (o *recordFileOptions) open(flag, path string, ios *IOStreams) (*trace.SyncWriter, error) {
	mode := trace.Refuse
	switch {
	case o.force:
		mode = trace.Overwrite
	case o.append:
		mode = trace.Append
	}
	w, err := trace.OpenWriter(path, ios.Out, mode)
	if errors.Is(err, trace.ErrExists) {
		return nil, usageError(fmt.Errorf("%s %s: the file exists; pass --force to overwrite it or --append to continue it", flag, path))
	}
	if err != nil {
		return nil, usageError(fmt.Errorf("%s: %w", flag, err))
	}
	return trace.NewSyncWriter(w), nil
}
