// Package cmd is limitscope's command line: cobra commands that turn flags into
// options and call the packages that do the work (trace, limiter/sim,
// scrape, diagnose, tune) and render it (report, tui). Nothing here computes
// or renders; each file is one command.
//
// Commands follow the GitHub CLI's shape: an options struct carries the
// injected IOStreams, the flags and the arguments, and newXCmd(ios, runF)
// builds the command; a test passes runF to check flag parsing without
// running anything, and IOStreams.OutTTY drives the terminal and pipe
// branches in process.
package cmd

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/limitscope/limitscope/report"
)

// Version is set at build time with -ldflags "-X ...cmd.Version=v1.2.3".
var Version = ""

func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

const rootLong = `limitscope reads the story an adaptive concurrency limiter tells through its
three series — limit, in-flight and min RTT — and says what it means:

  limit far above in-flight        pipeline-bound       look upstream
  limit at minimum, min RTT rising degraded-downstream  page the downstream's owner
  limit swinging widely            oscillating          lower the smoothing
  in-flight near a settled limit   healthy              nothing to do

Smoothing, everywhere in limitscope, is the weight of the new target:
limit = limit·(1−s) + target·s. A higher smoothing reacts faster and
oscillates more; lowering it calms a swinging limit.

Exit codes:
  0  success (diagnose: no fail-on verdict)
  1  diagnose found a fail-on verdict
  2  usage or input error (the message names the flag, file or line)
  3  diagnose could evaluate nothing (every target lacked data);
     record recorded nothing
  4  a report (--output) could not be written; the others were
  130  simulate was interrupted (the rows finished so far are printed)

Every verdict and every word on the screens: limitscope help verdicts,
limitscope help terms.`

// NewRootCmd builds the command tree over io.
func NewRootCmd(io *IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:           "limitscope",
		Short:         "Watch, diagnose and tune adaptive concurrency limiters",
		Long:          rootLong,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
	}
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError(fmt.Errorf("%w (see '%s --help')", err, c.CommandPath()))
	})
	root.AddCommand(
		helpTopic("verdicts", "Every verdict, its evidence, its severity and what to do", report.VerdictsHelp),
		helpTopic("terms", "Every column, statistic and word the screens and reports use", report.TermsHelp),
		newVersionCmd(io),
		newSimulateCmd(io, nil),
		newDiagnoseCmd(io, nil),
		newRecordCmd(io, nil),
		newWatchCmd(io, nil),
		newReplayCmd(io, nil),
		newDemoCmd(io, nil),
		newTuneCmd(io, nil),
		newRulesCmd(io, nil),
	)
	return root
}

// helpTopic is a "limitscope help NAME" page (cobra lists it under
// Additional help topics).
func helpTopic(name, short, long string) *cobra.Command {
	return &cobra.Command{Use: name, Short: short, Long: long}
}

func newVersionCmd(io *IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintf(io.Out, "limitscope %s\n", version())
			return err
		},
	}
}

// Execute runs the command line over the process's streams and returns the
// exit code.
func Execute() int {
	io := SystemIO()
	err := NewRootCmd(io).Execute()
	if err != nil {
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Err != nil {
			fmt.Fprintf(io.ErrOut, "limitscope: %v\n", err)
		}
	}
	return exitCode(err)
}
