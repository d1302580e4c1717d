package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/limitscope/limitscope/diagnose"
)

// IOStreams is the I/O a command may touch, injected so commands run in tests
// without a terminal (as the GitHub CLI does).
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// OutTTY says whether Out is a terminal.
	OutTTY bool
	// NoColor is set by NO_COLOR (any value) or a non-terminal Out.
	NoColor bool
	// Getenv reads the environment (tests inject one).
	Getenv func(string) string
}

func (io *IOStreams) getenv(k string) string {
	if io.Getenv == nil {
		return ""
	}
	return io.Getenv(k)
}

// inputWarnings collects what reading a trace warned of (a truncated last
// line, a count column that reads as a running total) for a report or a
// dashboard, and says each on stderr unless quiet (the report on stdout
// already does).
type inputWarnings struct {
	io    *IOStreams
	quiet bool
	list  []string
}

// add is a trace.Reader's Warn.
func (w *inputWarnings) add(msg string) {
	w.list = append(w.list, msg)
	if !w.quiet {
		fmt.Fprintln(w.io.ErrOut, "warning:", msg)
	}
}

// SystemIO returns the process's standard streams.
func SystemIO() *IOStreams {
	outTTY := term.IsTerminal(int(os.Stdout.Fd()))
	_, noColor := os.LookupEnv("NO_COLOR")
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		OutTTY:  outTTY,
		NoColor: noColor || !outTTY,
		Getenv:  os.Getenv,
	}
}

// Exit codes, documented in the root help and the README: one list, the
// diagnosis's own codes (diagnose.ExitClean, ExitFailed = 1, ExitNoVerdict)
// among them.
const (
	ExitOK          = diagnose.ExitClean     // success; for diagnose: no fail-on verdict
	ExitUsage       = 2                      // usage or input error
	ExitNoData      = diagnose.ExitNoVerdict // diagnose: nothing could be evaluated; record: nothing recorded
	ExitOutput      = 4                      // a report could not be written (disk full, permissions)
	ExitInterrupted = 130                    // simulate stopped by SIGINT or SIGTERM (the rows so far are printed)
)

// ExitError carries an exit code with an optional message.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// usageError marks err as a usage or input error (exit 2).
func usageError(err error) error { return &ExitError{Code: ExitUsage, Err: err} }

// exitCode maps an error to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ExitUsage
}
