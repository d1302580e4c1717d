package report

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/limitscope/limitscope/internal/decimal"
	"github.com/limitscope/limitscope/limiter/sim"
)

// Shootout is a simulated shoot-out ready to render: the scenario and each
// limiter's result.
type Shootout struct {
	Scenario sim.Scenario
	Results  []sim.Result
	// Took is the wall time of the run (text only).
	Took time.Duration
}

type shootoutJSON struct {
	Scenario  string            `json:"scenario"`
	DurationS float64           `json:"duration_s"`
	Results   []shootoutJSONRow `json:"results"`
}

type shootoutJSONRow struct {
	Limiter          string  `json:"limiter"`
	Utilisation      float64 `json:"utilisation"`
	P50Ms            float64 `json:"p50_ms"`
	P99Ms            float64 `json:"p99_ms"`
	OverloadEpisodes int     `json:"overload_episodes"`
	Deferred         int64   `json:"deferred"`
}

// JSON writes the shoot-out as one JSON document.
func (s Shootout) JSON(w io.Writer) error {
	out := shootoutJSON{Scenario: s.Scenario.Name, DurationS: time.Duration(s.Scenario.Duration).Seconds()}
	for _, r := range s.Results {
		out.Results = append(out.Results, shootoutJSONRow{r.Limiter, decimal.Round(r.Utilisation, 4), decimal.Round(r.P50Ms, 2), decimal.Round(r.P99Ms, 2), r.OverloadEpisodes, r.Deferred})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// Text writes the shoot-out as a table, beside the published benchmark
// table's figures (sim.Published) when the scenario is the one they were
// measured on (sim.PublishedScenario).
func (s Shootout) Text(w io.Writer) error {
	var total int64
	for _, r := range s.Results {
		total += r.Requests
	}
	sc := s.Scenario
	fmt.Fprintf(w, "scenario %s, %s simulated, seed %d (%.1fM simulated requests in %s)\n\n",
		sc.Name, time.Duration(sc.Duration), sc.Seed, float64(total)/1e6, s.Took.Round(10*time.Millisecond))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	published := sc.Name == sim.PublishedScenario
	head := "limiter\tutilisation\tp50\tp99\toverload episodes\tdeferred\t"
	if published {
		head += "\tpublished: util\tp99\tepisodes\tdeferred\t"
	}
	fmt.Fprintln(tw, head)
	for _, r := range s.Results {
		fmt.Fprintf(tw, "%s\t%.1f%%\t%.1f ms\t%.1f ms\t%d\t%s\t", r.Limiter, 100*r.Utilisation, r.P50Ms, r.P99Ms, r.OverloadEpisodes, Count(r.Deferred))
		if published {
			p, ok := sim.Published[r.Limiter]
			if !ok {
				p = sim.PublishedRow{Utilisation: "-", P99: "-", OverloadEpisodes: "-", Deferred: "-"}
			}
			fmt.Fprintf(tw, "\t%s\t%s\t%s\t%s\t", p.Utilisation, p.P99, p.OverloadEpisodes, p.Deferred)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// Count prints a large count short: 2.90M, 210k, 42.
func Count(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.2fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
