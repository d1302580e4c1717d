package tune

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/limitscope/limitscope/diagnose"
)

// CompareSchema is the --compare JSON report's schema name.
const CompareSchema = "limitscope.compare/v1"

// Compared is one candidate of a comparison: its what-if, whether it may be
// recommended, and its change against the baseline.
type Compared struct {
	Row
	Algorithm string `json:"algorithm"`
	// Eligible: judged, no overload episode, not oscillating.
	Eligible bool `json:"eligible"`
	// DeltaUtilisationPt is the utilisation change against the baseline,
	// in percentage points; P99Ratio the p99 over the baseline's.
	DeltaUtilisationPt float64 `json:"delta_utilisation_pt"`
	P99Ratio           float64 `json:"p99_ratio"`
	// P99BaseRatio is the p99 over the fitted base latency.
	P99BaseRatio float64 `json:"p99_base_ratio"`
}

// Model says how far the closed loop's downstream model can be trusted.
type Model struct {
	BaseLatencyMs  float64 `json:"base_latency_ms"`
	FitErrorMedian float64 `json:"fit_error_median"`
	FitErrorP90    float64 `json:"fit_error_p90"`
	TraceS         float64 `json:"trace_s"`
}

// Comparison ranks every algorithm on one recorded trace.
type Comparison struct {
	Schema         string         `json:"schema"`
	Source         string         `json:"source"`
	Target         string         `json:"target"`
	Mode           string         `json:"mode"`
	Model          Model          `json:"model"`
	Baseline       Row            `json:"baseline"`
	Rows           []Compared     `json:"rows"`
	Recommendation Recommendation `json:"recommendation"`
	Caveats        []string       `json:"caveats"`
	// Warnings are what reading the trace warned of (a count column that
	// reads as a running total, a truncated last line).
	Warnings []string `json:"warnings,omitempty"`
}

// CompareCandidates are every algorithm at its defaults and at each value of
// its sensitive knob, with base's cap.
func CompareCandidates(base Params) []Params {
	var out []Params
	for _, a := range Algorithms {
		d := a.Defaults()
		d.Set("cap", base.Cap())
		out = append(out, d)
		k, _ := a.Lookup(a.Sensitive)
		for _, v := range a.SweepValues {
			if v == k.Default {
				continue
			}
			p := d
			p.Set(k.Name, v)
			out = append(out, p)
		}
	}
	return out
}

// shortTrace is the span below which a comparison warns: overload episodes
// are judged per minute and verdicts over windows of up to 5 minutes.
const shortTrace = 10 * time.Minute

// Compare replays every candidate of CompareCandidates on rec and ranks
// them: eligible candidates first, by utilisation (within utilTie the lower
// p99 wins), then the rest. base is the recorded (deployed) settings, the
// baseline every change is measured against.
func Compare(rec *Recorded, base Params, opt Options, progress func(done, total int)) Comparison {
	baseline := Run(rec, base, opt)
	baseline.Samples = nil
	sets := CompareCandidates(base)
	rows := Sweep(rec, sets, opt, progress)
	c := Comparison{Schema: CompareSchema, Target: rec.Target, Mode: opt.Mode.String(), Baseline: baseline,
		Model: Model{BaseLatencyMs: rec.BaseLatencyMs, FitErrorMedian: rec.FitErrorMedian, FitErrorP90: rec.FitErrorP90, TraceS: rec.Duration.Seconds()}}
	for _, r := range rows {
		x := Compared{Row: r, Algorithm: r.Params.Alg().Name,
			Eligible:           r.Verdict != diagnose.Insufficient && r.OverloadEpisodes == 0 && r.Verdict != diagnose.Oscillating,
			DeltaUtilisationPt: math.Round(1000*(r.Utilisation-baseline.Utilisation)) / 10}
		if baseline.P99Ms > 0 {
			x.P99Ratio = math.Round(100*r.P99Ms/baseline.P99Ms) / 100
		}
		if rec.BaseLatencyMs > 0 {
			x.P99BaseRatio = math.Round(100*r.P99Ms/rec.BaseLatencyMs) / 100
		}
		c.Rows = append(c.Rows, x)
	}
	sort.SliceStable(c.Rows, func(i, j int) bool {
		a, b := c.Rows[i], c.Rows[j]
		if a.Eligible != b.Eligible {
			return a.Eligible
		}
		if math.Abs(a.Utilisation-b.Utilisation) > utilTie {
			return a.Utilisation > b.Utilisation
		}
		return a.P99Ms < b.P99Ms
	})
	if len(c.Rows) > 0 && c.Rows[0].Eligible {
		best := c.Rows[0]
		c.Recommendation = Recommendation{Params: best.Params, Found: true, Reason: fmt.Sprintf(
			"%s: p99 %.1f× base latency and %+.1f points of utilisation against the recorded settings (%s; utilisation %.1f%%, p99 %.1f ms, verdict %s)",
			best.Params.Short(), best.P99BaseRatio, best.DeltaUtilisationPt, base.Short(), 100*baseline.Utilisation, baseline.P99Ms, baseline.Verdict)}
	} else {
		c.Recommendation = Recommendation{Reason: "no candidate ran without overload episodes and oscillation on this trace: check the trace covers normal traffic, or widen the candidates with tune --algorithm NAME --sweep"}
	}
	if rec.Duration < shortTrace {
		c.Caveats = append(c.Caveats, fmt.Sprintf("the trace covers %s: overload episodes are judged per minute and verdicts over windows of up to 5 minutes, so record at least %s before trusting the ranking", rec.Duration.Round(time.Second), shortTrace))
	}
	if opt.Mode == ClosedLoop {
		c.Caveats = append(c.Caveats, fmt.Sprintf("closed loop: the downstream model misses the recorded RTTs by %.0f%% (median; 90th percentile %.0f%%) — differences between candidates smaller than that are not evidence", 100*rec.FitErrorMedian, 100*rec.FitErrorP90))
	} else {
		c.Caveats = append(c.Caveats, "open loop: every candidate sees the recorded RTTs, so p99 and overload cannot differ between them; compare with --mode closed")
	}
	for _, r := range c.Rows {
		if r.Eligible && (r.Algorithm == "envoy" || r.Algorithm == "vector") {
			c.Caveats = append(c.Caveats, "Envoy's controller and Vector's ARC sample every request; the replay feeds them one observation per sample window, so their predictions are rougher (Envoy's ran about 3 points of utilisation pessimistic against the simulator)")
			break
		}
	}
	if !rec.HasInFlight {
		c.Caveats = append(c.Caveats, "the trace has no in_flight: demand is assumed to fill the downstream, so utilisation is an upper bound")
	}
	return c
}
