package tune

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/limitscope/limitscope/limiter"
)

// Algorithm is one limit algorithm tune can replay: its parameter table (the
// one description of its knobs), how to build a limiter from Params, and the
// knob --compare sweeps.
type Algorithm struct {
	// Name is what --algorithm takes; Type the limiter type of the Go
	// literal; Title a line for screens; Source where it is documented.
	Name, Type, Title, Source string
	Table                     []Param
	// Sensitive is the knob --compare sweeps, over SweepValues.
	Sensitive   string
	SweepValues []float64
	build       func(p Params) limiter.Limiter
}

// capRow is the gate's static safety cap, a knob of every algorithm.
var capRow = Param{Name: "cap", Flag: "cap", Help: "the static safety cap above the adaptive limit (0: none)", Unit: Requests,
	Step: 10, ZeroIsNone: true, Field: "Cap", GateField: true}

func minMax(def, minLim, maxLim float64) []Param {
	return []Param{
		{Name: "min_limit", Flag: "min-limit", Help: "the lowest limit the algorithm sets", Unit: Requests, Step: 1, Field: "MinLimit", Default: minLim, Min: 1},
		{Name: "max_limit", Flag: "max-limit", Help: "the highest limit the algorithm sets", Unit: Requests, Step: 10, Field: "MaxLimit", Default: maxLim, Min: 1, AtLeast: "min_limit"},
	}
}

func rows(groups ...[]Param) []Param {
	var out []Param
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

func sec(v float64) time.Duration { return time.Duration(v * float64(time.Second)) }

// Algorithms are the algorithms tune replays; the first, limitscope's
// gradient, is the default.
var Algorithms = []*Algorithm{
	{
		Name: "gradient", Type: "Gradient", Title: "limitscope's gradient (TCP-Vegas-like)", Source: "limiter.Gradient; the published gradient algorithm",
		Table: rows(
			[]Param{{Name: "smoothing", Flag: "smoothing", Help: "the weight of the new target; higher reacts faster and oscillates more",
				Step: 0.05, Field: "Smoothing", Default: limiter.DefaultSmoothing, Min: 0, MinOpen: true, Max: 1}},
			minMax(0, limiter.DefaultMinLimit, limiter.DefaultMaxLimit),
			[]Param{capRow,
				{Name: "rtt_window", Flag: "rtt-window", Help: "how long a minimum RTT is trusted before the limiter re-probes", Unit: Seconds,
					Step: 10, Field: "RTTWindow", Default: limiter.DefaultRTTWindow.Seconds(), Min: 0, MinOpen: true},
				{Name: "gradient_floor", Flag: "gradient-floor", Help: "the lowest gradient one sample applies (0.5: at most halving)",
					Step: 0.05, Field: "GradientFloor", Default: limiter.DefaultGradientFloor, Min: 0, MinOpen: true, Max: 1},
				{Name: "growth_threshold", Flag: "growth-threshold", Help: "the share of the limit in flight before the limit may grow",
					Step: 0.05, Field: "GrowthThreshold", Default: limiter.DefaultGrowthThreshold, Min: 0, MinOpen: true},
				{Name: "loss_backoff", Flag: "loss-backoff", Help: "what a loss event multiplies the limit by",
					Step: 0.05, Field: "LossBackoff", Default: limiter.DefaultLossBackoff, Min: 0, MinOpen: true, Max: 1},
			}),
		Sensitive: "smoothing", SweepValues: []float64{0.05, 0.1, 0.2, 0.4},
		build: func(p Params) limiter.Limiter {
			v := p.values
			return &limiter.Gradient{Smoothing: v["smoothing"], MinLimit: v["min_limit"], MaxLimit: v["max_limit"], RTTWindow: sec(v["rtt_window"]),
				GradientFloor: v["gradient_floor"], GrowthThreshold: v["growth_threshold"], LossBackoff: v["loss_backoff"]}
		},
	},
	{
		Name: "gradient2", Type: "Gradient2", Title: "Netflix Gradient2", Source: "Netflix concurrency-limits, Gradient2Limit",
		Table: rows(
			[]Param{{Name: "smoothing", Flag: "smoothing", Help: "the weight of the new estimate",
				Step: 0.05, Field: "Smoothing", Default: limiter.DefaultGradient2Smoothing, Min: 0, MinOpen: true, Max: 1}},
			minMax(0, limiter.DefaultGradient2MinLimit, limiter.DefaultGradient2MaxLimit),
			[]Param{capRow,
				{Name: "tolerance", Flag: "tolerance", Help: "how far the RTT may exceed its long-term average before the limit shrinks",
					Step: 0.1, Field: "Tolerance", Default: limiter.DefaultGradient2Tolerance, Min: 1},
				{Name: "queue_size", Flag: "queue-size", Help: "the growth allowed per update while latency is flat", Unit: Requests,
					Step: 1, Field: "QueueSize", Default: limiter.DefaultGradient2QueueSize, Min: 0, MinOpen: true},
				{Name: "long_window", Flag: "long-window", Help: "the long-term RTT average's window, in samples",
					Step: 50, Field: "LongWindow", Default: limiter.DefaultGradient2LongWindow, Min: 1},
			}),
		Sensitive: "tolerance", SweepValues: []float64{1, 1.2, 1.5, 2},
		build: func(p Params) limiter.Limiter {
			v := p.values
			return &limiter.Gradient2{Smoothing: v["smoothing"], MinLimit: v["min_limit"], MaxLimit: v["max_limit"], Tolerance: v["tolerance"],
				QueueSize: v["queue_size"], LongWindow: int(v["long_window"]), InitialLimit: v["min_limit"]}
		},
	},
	{
		Name: "vegas", Type: "Vegas", Title: "Netflix Vegas", Source: "Netflix concurrency-limits, VegasLimit",
		Table: []Param{
			{Name: "smoothing", Flag: "smoothing", Help: "the weight of the new limit (1: none)",
				Step: 0.05, Field: "Smoothing", Default: limiter.DefaultVegasSmoothing, Min: 0, MinOpen: true, Max: 1},
			{Name: "max_limit", Flag: "max-limit", Help: "the highest limit the algorithm sets", Unit: Requests, Step: 10, Field: "MaxLimit", Default: limiter.DefaultVegasMaxLimit, Min: 1},
			capRow,
			{Name: "probe_multiplier", Flag: "probe-multiplier", Help: "how often the no-load RTT is re-probed, in multiples of the limit",
				Step: 5, Field: "ProbeMultiplier", Default: limiter.DefaultVegasProbeMultiplier, Min: 1},
		},
		Sensitive: "smoothing", SweepValues: []float64{0.2, 0.5, 1},
		build: func(p Params) limiter.Limiter {
			v := p.values
			return &limiter.Vegas{Smoothing: v["smoothing"], MaxLimit: v["max_limit"], ProbeMultiplier: v["probe_multiplier"], Rand: seededRand()}
		},
	},
	{
		Name: "aimd", Type: "AIMD", Title: "AIMD (Netflix-style)", Source: "limiter.AIMD; Netflix concurrency-limits, AIMDLimit",
		Table: rows(
			minMax(0, 20, 200),
			[]Param{capRow,
				{Name: "backoff", Flag: "backoff", Help: "what a loss event multiplies the limit by",
					Step: 0.05, Field: "Backoff", Default: 0.9, Min: 0, MinOpen: true, Max: 1},
				{Name: "timeout", Flag: "timeout", Help: "an RTT above this is a loss (0: none)", Unit: Seconds, ZeroIsNone: true,
					Step: 0.5, Field: "Timeout", Default: 5},
			}),
		Sensitive: "backoff", SweepValues: []float64{0.5, 0.7, 0.9},
		build: func(p Params) limiter.Limiter {
			v := p.values
			return &limiter.AIMD{InitialLimit: v["min_limit"], MinLimit: v["min_limit"], MaxLimit: v["max_limit"], Backoff: v["backoff"],
				Timeout: sec(v["timeout"]), Cooldown: time.Nanosecond}
		},
	},
	{
		Name: "envoy", Type: "Envoy", Title: "Envoy adaptive concurrency (gradient controller)", Source: "Envoy, adaptive_concurrency filter",
		Table: []Param{
			{Name: "min_concurrency", Flag: "min-concurrency", Help: "min_rtt_calc_params.min_concurrency: the limit pinned while minRTT is measured, and the lowest limit", Unit: Requests, Step: 1, Field: "MinConcurrency", Default: limiter.DefaultEnvoyMinConcurrency, Min: 1},
			{Name: "max_limit", Flag: "max-limit", Help: "max_concurrency_limit", Unit: Requests, Step: 10, Field: "MaxLimit", Default: limiter.DefaultEnvoyMaxLimit, Min: 1, AtLeast: "min_concurrency"},
			capRow,
			{Name: "buffer", Flag: "buffer", Help: "min_rtt_calc_params.buffer: % of minRTT the sampled RTT may exceed it by",
				Step: 5, Field: "Buffer", Default: limiter.DefaultEnvoyBuffer, Min: 0, MinOpen: true},
			{Name: "percentile", Flag: "percentile", Help: "sample_aggregate_percentile: the RTT percentile of a window",
				Step: 5, Field: "Percentile", Default: limiter.DefaultEnvoyPercentile, Min: 0, MinOpen: true, Max: 100},
			{Name: "update_interval", Flag: "update-interval", Help: "concurrency_update_interval", Unit: Seconds,
				Step: 0.05, Field: "UpdateInterval", Default: limiter.DefaultEnvoyUpdateInterval.Seconds(), Min: 0, MinOpen: true},
			{Name: "min_rtt_interval", Flag: "min-rtt-interval", Help: "min_rtt_calc_params.interval: how often minRTT is re-measured", Unit: Seconds,
				Step: 10, Field: "MinRTTInterval", Default: limiter.DefaultEnvoyMinRTTInterval.Seconds(), Min: 0, MinOpen: true},
		},
		Sensitive: "buffer", SweepValues: []float64{10, 25, 50},
		build: func(p Params) limiter.Limiter {
			v := p.values
			return &limiter.Envoy{MinConcurrency: v["min_concurrency"], MaxLimit: v["max_limit"], Buffer: v["buffer"], Percentile: v["percentile"],
				UpdateInterval: sec(v["update_interval"]), MinRTTInterval: sec(v["min_rtt_interval"]), Rand: seededRand()}
		},
	},
	{
		Name: "vector", Type: "Vector", Title: "Vector adaptive request concurrency", Source: "Vector, request.adaptive_concurrency",
		Table: []Param{
			{Name: "max_limit", Flag: "max-limit", Help: "max_concurrency_limit", Unit: Requests, Step: 10, Field: "MaxLimit", Default: limiter.DefaultVectorMaxLimit, Min: 1},
			capRow,
			{Name: "decrease_ratio", Flag: "decrease-ratio", Help: "what a decrease multiplies the limit by",
				Step: 0.05, Field: "DecreaseRatio", Default: limiter.DefaultVectorDecreaseRatio, Min: 0, MinOpen: true, Max: 1},
			{Name: "ewma_alpha", Flag: "ewma-alpha", Help: "the weight of a new RTT in the past-RTT average",
				Step: 0.05, Field: "EWMAAlpha", Default: limiter.DefaultVectorEWMAAlpha, Min: 0, MinOpen: true, Max: 1},
			{Name: "rtt_deviation_scale", Flag: "rtt-deviation-scale", Help: "how many deviations above the average an RTT may be before the limit shrinks",
				Step: 0.25, Field: "RTTDeviationScale", Default: limiter.DefaultVectorRTTDeviationScale, Min: 0},
		},
		Sensitive: "rtt_deviation_scale", SweepValues: []float64{1, 2.5, 4},
		build: func(p Params) limiter.Limiter {
			v := p.values
			return &limiter.Vector{MaxLimit: v["max_limit"], DecreaseRatio: v["decrease_ratio"], EWMAAlpha: v["ewma_alpha"], RTTDeviationScale: v["rtt_deviation_scale"]}
		},
	},
}

// LookupAlgorithm finds an algorithm by name ("" is gradient).
func LookupAlgorithm(name string) (*Algorithm, bool) {
	if name == "" {
		return Algorithms[0], true
	}
	for _, a := range Algorithms {
		if a.Name == strings.ToLower(strings.TrimSpace(name)) {
			return a, true
		}
	}
	return Algorithms[0], false
}

// AlgorithmNames lists what --algorithm takes.
func AlgorithmNames() []string {
	out := make([]string, len(Algorithms))
	for i, a := range Algorithms {
		out[i] = a.Name
	}
	return out
}

// Defaults are the algorithm's parameters as the system it comes from
// ships them (no cap).
func (a *Algorithm) Defaults() Params {
	p := Params{Algorithm: a.Name, values: make(map[string]float64, len(a.Table))}
	for _, k := range a.Table {
		p.values[k.Name] = k.Default
	}
	return p
}

// Names lists the algorithm's parameters.
func (a *Algorithm) Names() []string {
	out := make([]string, len(a.Table))
	for i, k := range a.Table {
		out[i] = k.Name
	}
	return out
}

// Flags lists the algorithm's parameter flags.
func (a *Algorithm) Flags() []string {
	out := make([]string, len(a.Table))
	for i, k := range a.Table {
		out[i] = "--" + k.Flag
	}
	return out
}

// Lookup finds one of the algorithm's parameters by name or flag.
func (a *Algorithm) Lookup(name string) (*Param, bool) {
	name = strings.ReplaceAll(strings.TrimSpace(name), "-", "_")
	for i := range a.Table {
		if a.Table[i].Name == name {
			return &a.Table[i], true
		}
	}
	return nil, false
}

// Candidate is what a replay runs: a fresh limiter built from p, the gate's
// static cap and the highest limit it can set.
func (p Params) Candidate() Candidate {
	c := Candidate{Limiter: p.Alg().build(p), Cap: p.Cap()}
	if m, ok := p.Get("max_limit"); ok {
		c.Top = m
	}
	if c.Cap > 0 && (c.Top == 0 || c.Cap < c.Top) {
		c.Top = c.Cap
	}
	return c
}

// seededRand is the random source of a replayed limiter's jitter: fixed, so
// a what-if is repeatable.
func seededRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// Short names the algorithm and its sensitive knob: "gradient, smoothing
// 0.2" — how tables and recommendations refer to a candidate.
func (p Params) Short() string {
	a := p.Alg()
	k, _ := a.Lookup(a.Sensitive)
	v := p.values[k.Name]
	return fmt.Sprintf("%s, %s %s", a.Name, strings.ReplaceAll(k.Name, "_", " "), k.Format(v))
}
