// Package tune answers "which limiter, with which settings, should I
// deploy?": it replays a recorded RTT trace through any of the algorithms
// people run (Algorithms: limitscope's gradient, Netflix's Gradient2 and
// Vegas, AIMD, Envoy's gradient controller, Vector's ARC) with candidate
// parameters — the open- or closed-loop what-if of whatif.go — judges each
// what-if series with the diagnose classifier, sweeps parameter ranges on
// every core, compares the algorithms (Compare) and recommends the highest
// utilisation that neither overloads nor oscillates. Each algorithm's knobs
// are one table (Algorithm.Table) from which flags, the tune view's panel,
// validation, parameter files (JSON, YAML, a Go literal) and sweeps follow.
package tune

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/internal/decimal"
	"github.com/limitscope/limitscope/trace"
)

// Row is one what-if run.
type Row struct {
	Params           Params         `json:"params"`
	Utilisation      float64        `json:"utilisation"`
	P99Ms            float64        `json:"p99_ms"`
	OverloadEpisodes int            `json:"overload_episodes"`
	Deferred         float64        `json:"deferred"`
	OscillationIndex float64        `json:"oscillation_index"`
	Verdict          diagnose.Class `json:"verdict"`
	Samples          []trace.Sample `json:"-"`
}

// Options of a run.
type Options struct {
	Mode Mode
	// SampleWindow is the limiter's sample window (default 100 ms).
	SampleWindow time.Duration
	// Window is the diagnose window for the verdict (default 5 min).
	Window time.Duration
}

// Run replays the trace with p and judges the what-if series.
func Run(rec *Recorded, p Params, opt Options) Row {
	if opt.SampleWindow <= 0 {
		opt.SampleWindow = DefaultSampleWindow
	}
	w := rec.ReplayWindow(p.Candidate(), opt.Mode, opt.SampleWindow)
	d := diagnose.Classify(rec.Target, w.Samples, diagnose.Options{Window: opt.Window})
	return Row{Params: p, Utilisation: decimal.Round(w.Utilisation, 4), P99Ms: decimal.Round(w.P99Ms, 2), OverloadEpisodes: w.OverloadEpisodes,
		Deferred: math.Round(w.Deferred), OscillationIndex: decimal.Round(w.OscillationIndex, 2), Verdict: d.Class, Samples: w.Samples}
}

// Axis is one swept parameter.
type Axis struct {
	Param  string
	Values []float64
}

// ParseAxis reads PARAM=FROM:TO:STEP or PARAM=V1,V2,… for one of the
// algorithm's knobs; values read as the knob's flag does
// (rtt_window=30s:2m:30s, cap=none,50).
func (alg *Algorithm) ParseAxis(s string) (Axis, error) {
	name, spec, ok := strings.Cut(s, "=")
	k, known := alg.Lookup(name)
	if !ok || !known {
		return Axis{}, fmt.Errorf("%q: want PARAM=FROM:TO:STEP or PARAM=V1,V2 with PARAM one of %s (the parameters of %s)", s, strings.Join(alg.Names(), ", "), alg.Name)
	}
	a := Axis{Param: k.Name}
	if parts := strings.Split(spec, ":"); len(parts) == 3 {
		var v [3]float64
		for i, p := range parts {
			f, err := k.Parse(p)
			if err != nil {
				return Axis{}, fmt.Errorf("%q: %w", s, err)
			}
			v[i] = f
		}
		if v[2] <= 0 || v[1] < v[0] {
			return Axis{}, fmt.Errorf("%q: want FROM ≤ TO and a positive STEP", s)
		}
		n := int(math.Floor((v[1]-v[0])/v[2]+1e-9)) + 1
		if n > 1000 {
			return Axis{}, fmt.Errorf("%q: %d values; at most 1000", s, n)
		}
		for i := 0; i < n; i++ {
			a.Values = append(a.Values, decimal.Round(v[0]+float64(i)*v[2], 10))
		}
		return a, nil
	}
	for _, p := range strings.Split(spec, ",") {
		f, err := k.Parse(p)
		if err != nil {
			return Axis{}, fmt.Errorf("%q: %w", s, err)
		}
		a.Values = append(a.Values, f)
	}
	return a, nil
}

// MaxGrid is the most parameter combinations a sweep runs.
const MaxGrid = 10_000

// CheckGrid refuses a sweep of more than MaxGrid combinations, saying how
// many the axes make.
func CheckGrid(axes []Axis) error {
	n := 1.0
	for _, a := range axes {
		n *= float64(len(a.Values))
	}
	if n > MaxGrid {
		return fmt.Errorf("the sweep has %.0f combinations; at most %d: use a coarser STEP or fewer values", n, MaxGrid)
	}
	return nil
}

// Grid returns every combination of the axes applied to base.
func Grid(base Params, axes []Axis) []Params {
	grid := []Params{base}
	for _, ax := range axes {
		var next []Params
		for _, p := range grid {
			for _, v := range ax.Values {
				q := p
				q.Set(ax.Param, v)
				next = append(next, q)
			}
		}
		grid = next
	}
	return grid
}

// Sweep runs every parameter set on all cores; progress (optional) is called
// after each run. Rows come back in the order of sets.
func Sweep(rec *Recorded, sets []Params, opt Options, progress func(done, total int)) []Row {
	rows := make([]Row, len(sets))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rows[i] = Run(rec, sets[i], opt)
				rows[i].Samples = nil
				if progress != nil {
					mu.Lock()
					done++
					progress(done, len(sets))
					mu.Unlock()
				}
			}
		}()
	}
	for i := range sets {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return rows
}

// Recommendation is the chosen row and why.
type Recommendation struct {
	Params Params `json:"params"`
	Reason string `json:"reason"`
	Index  int    `json:"-"`
	Found  bool   `json:"-"`
}

// utilTie: utilisations closer than this are a tie (the model is not that
// precise), and the calmer limit wins it.
const utilTie = 0.005

// Recommend picks the highest utilisation with no overload episode and no
// oscillating verdict; ties go to the calmer limit (lower oscillation index).
func Recommend(rows []Row, baseline *Row) Recommendation {
	idx := make([]int, 0, len(rows))
	judged := 0
	for i, r := range rows {
		if r.Verdict == diagnose.Insufficient {
			continue // no verdict is no evidence for a candidate
		}
		judged++
		if r.OverloadEpisodes == 0 && r.Verdict != diagnose.Oscillating {
			idx = append(idx, i)
		}
	}
	if judged == 0 {
		return Recommendation{Reason: "no candidate could be judged (every what-if is insufficient-data): record a longer trace, or at least 12 samples of limit and RTT, before tuning from it"}
	}
	if len(idx) == 0 {
		return Recommendation{Reason: "every candidate overloads the downstream or oscillates: widen the sweep (lower smoothing, a cap) or check the trace"}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ra, rb := rows[idx[a]], rows[idx[b]]
		if math.Abs(ra.Utilisation-rb.Utilisation) > utilTie {
			return ra.Utilisation > rb.Utilisation
		}
		return ra.OscillationIndex < rb.OscillationIndex
	})
	best := rows[idx[0]]
	rejected := len(rows) - len(idx)
	reason := fmt.Sprintf("highest utilisation (%.1f%%; within %.1f points the calmer limit wins) with no overload episode and verdict %s; oscillation index %.2f, p99 %.1f ms",
		100*best.Utilisation, 100*utilTie, best.Verdict, best.OscillationIndex, best.P99Ms)
	if rejected > 0 {
		reason += fmt.Sprintf("; %d candidate(s) excluded for overload or oscillation", rejected)
	}
	if baseline != nil {
		reason += fmt.Sprintf("; baseline (%s): utilisation %.1f%%, verdict %s, oscillation index %.2f",
			baseline.Params.Short(), 100*baseline.Utilisation, baseline.Verdict, baseline.OscillationIndex)
	}
	return Recommendation{Params: best.Params, Reason: reason, Index: idx[0], Found: true}
}

// Schema is the JSON report's schema name.
const Schema = "limitscope.tune/v1"

// Report is the headless sweep's result.
type Report struct {
	Schema         string         `json:"schema"`
	Source         string         `json:"source"`
	Target         string         `json:"target"`
	Mode           string         `json:"mode"`
	Baseline       Row            `json:"baseline"`
	Rows           []Row          `json:"rows"`
	Recommendation Recommendation `json:"recommendation"`
	// Warnings are what reading the trace warned of (a count column that
	// reads as a running total, a truncated last line).
	Warnings []string `json:"warnings,omitempty"`
}
