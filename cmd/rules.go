package cmd

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/limitscope/limitscope/rules"
)

type rulesOptions struct {
	io       *IOStreams
	args     []string
	mapping  liveOptions
	selector string
	window   time.Duration
	forDur   time.Duration
	baseline time.Duration
	runbook  string
}

func newRulesCmd(ios *IOStreams, runF func(*rulesOptions) error) *cobra.Command {
	o := &rulesOptions{io: ios}
	c := &cobra.Command{
		Use:   "rules",
		Short: "Write the verdicts as Prometheus recording and alerting rules for a fleet",
		Long: `Write Prometheus rule groups (standard rule-file YAML, for Prometheus, Thanos
or Mimir rulers) that judge every limiter the way diagnose does:

  limitscope-<preset>-series    each mapped family normalised to one series per
                                limiter (labels job, instance, limiter; RTTs in s)
  limitscope-<preset>-evidence  utilisation, rejected and lost shares of demand,
                                the limit's 10–90% band and middle half, swings,
                                pinned-at-floor, fall from its best, the losses'
                                calm level, the min-RTT and RTT rises against an
                                hour earlier, completions against their best and
                                the share of time the RTT stood at twice the min
                                RTT, over --window; and limitscope:degraded,
                                where any degraded rule holds
  limitscope-<preset>-alerts    LimiterDegradedDownstream (critical; its rules
                                labelled evidence=slower, slower-held,
                                slower-fallen, slower-ran-away,
                                capacity-lost, floor, swamped,
                                failing or stalled),
                                LimiterOscillating (warning),
                                LimiterPipelineBound (info), each held for --for,
                                with the numbers and the recommendation in its
                                annotations

A series the preset lacks leaves out the rules that need it (a comment says
which). Check the output with: promtool check rules FILE.`,
		Example: `  limitscope rules --preset limitscope > limitscope.rules.yml
  limitscope rules --preset envoy --selector 'job="edge"' --window 10m --for 15m
  limitscope rules --limit-metric my_limit --in-flight-metric my_inflight --target-label pool`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			if runF != nil {
				return runF(o)
			}
			return runRules(o)
		},
	}
	o.mapping.registerMapping(c, "limitscope")
	f := c.Flags()
	f.StringVar(&o.selector, "selector", "", `label matchers every rule's series must match, e.g. 'job="api"'`)
	f.DurationVar(&o.window, "window", 5*time.Minute, "the span each piece of evidence is judged over")
	f.DurationVar(&o.forDur, "for", 10*time.Minute, "how long an alert's condition must hold before it fires")
	f.DurationVar(&o.baseline, "baseline", time.Hour, "how far back the min RTT's and the limit's earlier levels are taken")
	f.StringVar(&o.runbook, "runbook", rules.DefaultRunbook, "the alerts' runbook link")
	return c
}

func runRules(o *rulesOptions) error {
	m, err := o.mapping.mapping()
	if err != nil {
		return usageError(err)
	}
	if m == nil {
		return usageError(fmt.Errorf("--preset auto detects from a scrape; rules need a preset or a custom mapping"))
	}
	if o.window < 5*time.Second || o.forDur < 0 || o.baseline < o.window {
		return usageError(fmt.Errorf("--window must be at least 5s, --for not negative and --baseline at least the window"))
	}
	return rules.Write(o.io.Out, rules.Options{Mapping: m, Selector: o.selector, Window: o.window, For: o.forDur, Baseline: o.baseline, Runbook: o.runbook})
}
