package report

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/tune"
)

// CompareJSON writes a comparison as the limitscope.compare/v1 document.
func CompareJSON(w io.Writer, c tune.Comparison) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}

// CompareText writes a comparison as a ranked table (→ marks the
// recommendation; ineligible candidates, which overloaded or oscillated,
// are ranked last and marked ✗), the baseline, the recommendation in one
// sentence and the caveats.
func CompareText(w io.Writer, c tune.Comparison) error {
	fmt.Fprintf(w, "algorithms on %s (%s), %s loop; base latency %.1f ms\n", safetext.Terminal(c.Source), safetext.Terminal(c.Target), c.Mode, c.Model.BaseLatencyMs)
	writeWarnings(w, c.Warnings)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  \tcandidate\tutilisation\tΔ util\tp99\tp99/base\toverload\tdeferred\tverdict\t")
	for i, r := range c.Rows {
		mark := "  "
		switch {
		case i == 0 && c.Recommendation.Found:
			mark = "→ "
		case !r.Eligible:
			mark = "✗ "
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f%%\t%+.1f pt\t%.1f ms\t%.1f×\t%d\t%s\t%s\t\n", mark, r.Params.Short(), 100*r.Utilisation, r.DeltaUtilisationPt,
			r.P99Ms, r.P99BaseRatio, r.OverloadEpisodes, Count(int64(r.Deferred)), r.Verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	b := c.Baseline
	fmt.Fprintf(w, "\nrecorded settings (%s): utilisation %.1f%%, p99 %.1f ms, %d overload episodes, %s\n", b.Params.Short(), 100*b.Utilisation, b.P99Ms, b.OverloadEpisodes, b.Verdict)
	if c.Recommendation.Found {
		fmt.Fprintf(w, "recommendation: %s\n", c.Recommendation.Reason)
	} else {
		fmt.Fprintf(w, "no recommendation: %s\n", c.Recommendation.Reason)
	}
	for _, cv := range c.Caveats {
		fmt.Fprintf(w, "caveat: %s\n", cv)
	}
	_, err := fmt.Fprintln(w, "(✗: overloaded or oscillated; Δ util in percentage points against the recorded settings; limitscope help terms)")
	return err
}
