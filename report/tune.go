package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/tune"
)

// TuneJSON writes a sweep as the limitscope.tune/v1 document.
func TuneJSON(w io.Writer, rep tune.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// TuneText writes a sweep as a table (the swept parameters, then each
// what-if's results; → marks the recommendation), the baseline and the
// recommendation.
func TuneText(w io.Writer, rep tune.Report, axes []tune.Axis) error {
	fmt.Fprintf(w, "what-if of %s (%s), %s loop\n", safetext.Terminal(rep.Source), safetext.Terminal(rep.Target), rep.Mode)
	writeWarnings(w, rep.Warnings)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	hdr := "  "
	for _, a := range axes {
		hdr += a.Param + "\t"
	}
	fmt.Fprintln(tw, hdr+"utilisation\tp99\toverload\tdeferred\toscillation\tverdict\t")
	for i, r := range rep.Rows {
		mark := "  "
		if rep.Recommendation.Found && i == rep.Recommendation.Index {
			mark = "→ "
		}
		line := mark
		for _, a := range axes {
			v, _ := r.Params.Get(a.Param)
			line += fmt.Sprintf("%g\t", v)
		}
		fmt.Fprintf(tw, "%s%.1f%%\t%.1f ms\t%d\t%.0f\t%.2f\t%s\t\n", line, 100*r.Utilisation, r.P99Ms, r.OverloadEpisodes, math.Round(r.Deferred), r.OscillationIndex, r.Verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	b := rep.Baseline
	fmt.Fprintf(w, "\nbaseline: utilisation %.1f%%, p99 %.1f ms, %d overload episodes, oscillation %.2f, %s\n", 100*b.Utilisation, b.P99Ms, b.OverloadEpisodes, b.OscillationIndex, b.Verdict)
	if !rep.Recommendation.Found {
		fmt.Fprintf(w, "no recommendation: %s\n", rep.Recommendation.Reason)
		return nil
	}
	js, _ := json.Marshal(rep.Recommendation.Params)
	fmt.Fprintf(w, "recommendation: %s\n  because: %s\n", js, rep.Recommendation.Reason)
	return nil
}
