// Package tune answers "which settings should I deploy?": it replays a
// recorded RTT trace through limiter.Gradient with candidate parameters (the
// open- or closed-loop what-if of whatif.go: Prepare, Recorded.Replay),
// judges each what-if series
// with the diagnose classifier, sweeps parameter ranges on every core and
// recommends the highest utilisation that neither overloads nor oscillates.
// It also reads and writes parameter files (JSON, YAML, a Go literal).
package tune

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/trace"
)

// Params are the gradient limiter's knobs, as a deployment sets them.
type Params struct {
	// Smoothing is the weight of the new target (higher reacts faster and
	// oscillates more).
	Smoothing       float64  `json:"smoothing" yaml:"smoothing"`
	MinLimit        float64  `json:"min_limit" yaml:"min_limit"`
	MaxLimit        float64  `json:"max_limit" yaml:"max_limit"`
	Cap             float64  `json:"cap" yaml:"cap"`
	RTTWindow       Duration `json:"rtt_window" yaml:"rtt_window"`
	GradientFloor   float64  `json:"gradient_floor" yaml:"gradient_floor"`
	GrowthThreshold float64  `json:"growth_threshold" yaml:"growth_threshold"`
	LossBackoff     float64  `json:"loss_backoff" yaml:"loss_backoff"`
}

// Duration is a time.Duration written as "2m0s" in JSON and YAML.
type Duration time.Duration

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads "2m" or a number of seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("%q is not a duration like \"2m\"", s)
		}
		*d = Duration(v)
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("%s is not a duration", b)
	}
	*d = Duration(f * float64(time.Second))
	return nil
}

// MarshalYAML writes the duration as a string.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// UnmarshalYAML reads "2m".
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration like \"2m\"", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// Defaults are the seed's parameters (no cap).
func Defaults() Params {
	return Params{Smoothing: limiter.DefaultSmoothing, MinLimit: limiter.DefaultMinLimit, MaxLimit: limiter.DefaultMaxLimit,
		RTTWindow: Duration(limiter.DefaultRTTWindow), GradientFloor: limiter.DefaultGradientFloor,
		GrowthThreshold: limiter.DefaultGrowthThreshold, LossBackoff: limiter.DefaultLossBackoff}
}

// floatParams are the plain-number parameters by name; rtt_window (a
// duration, in seconds by name) is the one other.
var floatParams = []struct {
	name  string
	field func(*Params) *float64
}{
	{"smoothing", func(p *Params) *float64 { return &p.Smoothing }},
	{"min_limit", func(p *Params) *float64 { return &p.MinLimit }},
	{"max_limit", func(p *Params) *float64 { return &p.MaxLimit }},
	{"cap", func(p *Params) *float64 { return &p.Cap }},
	{"gradient_floor", func(p *Params) *float64 { return &p.GradientFloor }},
	{"growth_threshold", func(p *Params) *float64 { return &p.GrowthThreshold }},
	{"loss_backoff", func(p *Params) *float64 { return &p.LossBackoff }},
}

// Names lists the parameters as --sweep and the tune view name them.
var Names = []string{"smoothing", "min_limit", "max_limit", "cap", "rtt_window", "gradient_floor", "growth_threshold", "loss_backoff"}

func (p *Params) float(name string) *float64 {
	for _, f := range floatParams {
		if f.name == name {
			return f.field(p)
		}
	}
	return nil
}

// Get returns a parameter by name (rtt_window in seconds).
func (p *Params) Get(name string) (float64, bool) {
	if name == "rtt_window" {
		return time.Duration(p.RTTWindow).Seconds(), true
	}
	if f := p.float(name); f != nil {
		return *f, true
	}
	return 0, false
}

// Set sets a parameter by name (rtt_window in seconds).
func (p *Params) Set(name string, v float64) bool {
	if name == "rtt_window" {
		p.RTTWindow = Duration(v * float64(time.Second))
		return true
	}
	f := p.float(name)
	if f == nil {
		return false
	}
	*f = v
	return true
}

// Validate says what is out of range, in words.
func (p Params) Validate() error {
	bad := func(name string, v float64, why string) error {
		return fmt.Errorf("%s = %v: %s", name, v, why)
	}
	switch {
	case !(p.Smoothing > 0 && p.Smoothing <= 1):
		return bad("smoothing", p.Smoothing, "must be in (0, 1]: the weight of the new target")
	case !(p.MinLimit >= 1):
		return bad("min_limit", p.MinLimit, "must be at least 1")
	case !(p.MaxLimit >= p.MinLimit):
		return bad("max_limit", p.MaxLimit, "must be at least min_limit")
	case p.Cap < 0 || math.IsNaN(p.Cap):
		return bad("cap", p.Cap, "must be 0 (none) or positive")
	case p.RTTWindow <= 0:
		return bad("rtt_window", time.Duration(p.RTTWindow).Seconds(), "must be positive")
	case !(p.GradientFloor > 0 && p.GradientFloor <= 1):
		return bad("gradient_floor", p.GradientFloor, "must be in (0, 1]")
	case !(p.GrowthThreshold > 0):
		return bad("growth_threshold", p.GrowthThreshold, "must be positive")
	case !(p.LossBackoff > 0 && p.LossBackoff <= 1):
		return bad("loss_backoff", p.LossBackoff, "must be in (0, 1]")
	}
	return nil
}

// Gradient returns a fresh limiter with these parameters.
func (p Params) Gradient() *limiter.Gradient {
	return &limiter.Gradient{Smoothing: p.Smoothing, MinLimit: p.MinLimit, MaxLimit: p.MaxLimit, RTTWindow: time.Duration(p.RTTWindow),
		GradientFloor: p.GradientFloor, GrowthThreshold: p.GrowthThreshold, LossBackoff: p.LossBackoff}
}

func g(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// GoLiteral is the parameters as Go code for a service importing limiter.
func (p Params) GoLiteral() string {
	var b strings.Builder
	fmt.Fprintf(&b, "limiter.Gradient{\n\tSmoothing:       %s,\n\tMinLimit:        %s,\n\tMaxLimit:        %s,\n\tRTTWindow:       %s,\n\tGradientFloor:   %s,\n\tGrowthThreshold: %s,\n\tLossBackoff:     %s,\n}",
		g(p.Smoothing), g(p.MinLimit), g(p.MaxLimit), goDuration(time.Duration(p.RTTWindow)), g(p.GradientFloor), g(p.GrowthThreshold), g(p.LossBackoff))
	if p.Cap > 0 {
		fmt.Fprintf(&b, "\n// with limiter.GateConfig{Cap: %s}", g(p.Cap))
	}
	return b.String()
}

func goDuration(d time.Duration) string {
	switch {
	case d%time.Minute == 0:
		return fmt.Sprintf("%d * time.Minute", d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%d * time.Second", d/time.Second)
	}
	return fmt.Sprintf("time.Duration(%d)", int64(d))
}

// WriteFiles writes the parameters next to stem as stem.json, stem.yaml and
// stem.go (a Go literal) and returns the paths.
func (p Params) WriteFiles(stem string) ([]string, error) {
	js, _ := json.MarshalIndent(p, "", "  ")
	ym, _ := yaml.Marshal(p)
	files := map[string][]byte{
		stem + ".json": append(js, '\n'),
		stem + ".yaml": ym,
		stem + ".go":   []byte("// Limiter parameters chosen with limitscope tune.\npackage main\n\nimport (\n\t\"time\"\n\n\t\"github.com/limitscope/limitscope/limiter\"\n)\n\nvar tunedLimiter = &" + p.GoLiteral() + "\n\nvar _ = time.Second\n"),
	}
	var out []string
	for _, name := range []string{stem + ".json", stem + ".yaml", stem + ".go"} {
		if err := os.WriteFile(name, files[name], 0o644); err != nil {
			return out, fmt.Errorf("writing parameters: %w", err)
		}
		out = append(out, name)
	}
	return out, nil
}

// ReadParams reads a JSON or YAML parameter file (fields left out keep the
// defaults) and validates it.
func ReadParams(path string) (Params, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Params{}, fmt.Errorf("reading parameters: %w", err)
	}
	p := Defaults()
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return Params{}, fmt.Errorf("%s: %w", path, err)
		}
	default:
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		dec.KnownFields(true)
		if err := dec.Decode(&p); err != nil {
			return Params{}, fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := p.Validate(); err != nil {
		return Params{}, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

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
	w := rec.ReplayWindow(p.Gradient(), p.Cap, opt.Mode, opt.SampleWindow)
	d := diagnose.Classify(rec.Target, w.Samples, diagnose.Options{Window: opt.Window})
	return Row{Params: p, Utilisation: round(w.Utilisation, 4), P99Ms: round(w.P99Ms, 2), OverloadEpisodes: w.OverloadEpisodes,
		Deferred: math.Round(w.Deferred), OscillationIndex: round(w.OscillationIndex, 2), Verdict: d.Class, Samples: w.Samples}
}

func round(v float64, n int) float64 {
	p := math.Pow(10, float64(n))
	return math.Round(v*p) / p
}

// Axis is one swept parameter.
type Axis struct {
	Param  string
	Values []float64
}

// ParseAxis reads PARAM=FROM:TO:STEP or PARAM=V1,V2,….
func ParseAxis(s string) (Axis, error) {
	name, spec, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(strings.ReplaceAll(name, "-", "_"))
	var probe Params
	if _, known := probe.Get(name); !ok || !known {
		return Axis{}, fmt.Errorf("%q: want PARAM=FROM:TO:STEP or PARAM=V1,V2 with PARAM one of %s", s, strings.Join(Names, ", "))
	}
	a := Axis{Param: name}
	if parts := strings.Split(spec, ":"); len(parts) == 3 {
		var v [3]float64
		for i, p := range parts {
			f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return Axis{}, fmt.Errorf("%q: %q is not a finite number", s, p)
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
			a.Values = append(a.Values, round(v[0]+float64(i)*v[2], 10))
		}
		return a, nil
	}
	for _, p := range strings.Split(spec, ",") {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return Axis{}, fmt.Errorf("%q: %q is not a finite number", s, p)
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
		reason += fmt.Sprintf("; baseline (smoothing %s): utilisation %.1f%%, verdict %s, oscillation index %.2f",
			g(baseline.Params.Smoothing), 100*baseline.Utilisation, baseline.Verdict, baseline.OscillationIndex)
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
}
