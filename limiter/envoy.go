package limiter

import (
	"math"
	"math/rand/v2"
	"sort"
	"time"
)

// Default parameters of Envoy's gradient controller
// (envoy.extensions.filters.http.adaptive_concurrency.v3, GradientControllerConfig).
const (
	DefaultEnvoyUpdateInterval     = 100 * time.Millisecond // concurrency_update_interval (required; the docs' example)
	DefaultEnvoyPercentile         = 50                     // sample_aggregate_percentile
	DefaultEnvoyMaxLimit           = 1000                   // max_concurrency_limit
	DefaultEnvoyMinRTTInterval     = 60 * time.Second       // min_rtt_calc_params.interval (the docs' example)
	DefaultEnvoyMinRTTRequests     = 50                     // min_rtt_calc_params.request_count
	DefaultEnvoyJitter             = 15                     // min_rtt_calc_params.jitter, % of the interval
	DefaultEnvoyMinConcurrency     = 3                      // min_rtt_calc_params.min_concurrency
	DefaultEnvoyBuffer             = 25                     // min_rtt_calc_params.buffer, % of minRTT
	envoyPinnedWindowsForRecalc    = 5                      // windows at the minimum that trigger a recalculation
	envoyGradientMin, envoyGradMax = 0.5, 2.0               // the gradient gauge's documented range
)

// Envoy is Envoy's adaptive concurrency gradient controller, from its
// documentation (configuration/http/http_filters/adaptive_concurrency_filter
// and the v3 API): RTTs of completed requests are collected for
// UpdateInterval; at the end of each window
//
//	sampleRTT = Percentile of the window's RTTs
//	gradient  = clamp((minRTT + minRTT·Buffer%) / sampleRTT, 0.5, 2)
//	limit     = gradient·limit;  limit = clamp(⌊limit + √limit⌋, MinLimit, MaxLimit)
//
// minRTT is measured in a calculation window: the limit is pinned to
// MinConcurrency until MinRTTRequests RTTs arrive, their Percentile becomes
// minRTT, and the limit returns to its value before the window. A
// calculation starts at the first sample, every MinRTTInterval plus a random
// jitter of up to Jitter% of it, and whenever the limit sat at MinLimit for 5
// consecutive windows. With MinLimit set separately from MinConcurrency
// (min_concurrency_limit), the limit is not pinned during the calculation.
//
// As Envoy's controller does (GradientController::recordLatencySample in
// source/extensions/filters/http/adaptive_concurrency/controller/gradient_controller.cc),
// a response to a request sent before the latest calculation window began
// (now − RTT before it) is not sampled: the minRTT is measured on requests
// sent at the pinned concurrency, not on the drain of an earlier queue.
//
// Loss events are not part of the rule (Envoy samples the latency of
// completed requests). A zero field takes its default at the first sample.
// Not safe for concurrent use; a Gate serialises it.
type Envoy struct {
	// UpdateInterval is concurrency_update_interval (default 100 ms).
	UpdateInterval time.Duration
	// Percentile is sample_aggregate_percentile, 0–100 (default 50).
	Percentile float64
	// MaxLimit is max_concurrency_limit (default 1000); MinLimit is
	// min_concurrency_limit (default: MinConcurrency).
	MaxLimit, MinLimit float64
	// MinRTTInterval, MinRTTRequests, Jitter (%), MinConcurrency and Buffer
	// (%) are min_rtt_calc_params (defaults 60 s, 50, 15, 3, 25).
	MinRTTInterval time.Duration
	MinRTTRequests int
	Jitter         float64
	MinConcurrency float64
	Buffer         float64
	// InitialLimit is the limit before the first calculation (default
	// MinConcurrency, as Envoy starts).
	InitialLimit float64
	// Rand draws the jitter (default: seeded from the runtime).
	Rand *rand.Rand

	limit, deferred float64
	minRTT          float64 // ns
	calculating     bool
	pinnedLimit     bool // the limit is held at MinConcurrency while calculating
	samples         []float64
	windowEnd       time.Time
	nextCalc        time.Time
	atMin           int
	started         bool
	epoch           time.Time // the latest calculation window's start
}

func (e *Envoy) init() {
	if e.UpdateInterval <= 0 {
		e.UpdateInterval = DefaultEnvoyUpdateInterval
	}
	orDefault(&e.Percentile, DefaultEnvoyPercentile)
	e.Percentile = math.Min(e.Percentile, 100)
	orDefault(&e.MaxLimit, DefaultEnvoyMaxLimit)
	if e.MinRTTInterval <= 0 {
		e.MinRTTInterval = DefaultEnvoyMinRTTInterval
	}
	if e.MinRTTRequests <= 0 {
		e.MinRTTRequests = DefaultEnvoyMinRTTRequests
	}
	if e.Jitter < 0 || math.IsNaN(e.Jitter) {
		e.Jitter = 0
	} else if e.Jitter == 0 {
		e.Jitter = DefaultEnvoyJitter
	}
	e.Jitter = math.Min(e.Jitter, 100)
	orDefault(&e.MinConcurrency, DefaultEnvoyMinConcurrency)
	e.pinnedLimit = e.MinLimit <= 0
	orDefault(&e.MinLimit, e.MinConcurrency)
	e.MaxLimit = math.Max(e.MaxLimit, e.MinLimit)
	orDefault(&e.Buffer, DefaultEnvoyBuffer)
	orDefault(&e.InitialLimit, e.MinConcurrency)
	if e.Rand == nil {
		e.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	e.limit = e.InitialLimit
}

// Limit returns the current limit.
func (e *Envoy) Limit() float64 {
	if e.limit == 0 {
		e.init()
	}
	return e.limit
}

// MinRTT returns the last measured minRTT (0 before the first calculation
// ends).
func (e *Envoy) MinRTT() time.Duration { return time.Duration(e.minRTT) }

// Calculating reports whether a minRTT calculation window is open (Envoy's
// min_rtt_calculation_active gauge).
func (e *Envoy) Calculating() bool { return e.calculating }

func (e *Envoy) startCalc(now time.Time) {
	e.calculating = true
	e.epoch = now
	e.samples = e.samples[:0]
	e.deferred = e.limit
	if e.pinnedLimit {
		e.limit = e.MinConcurrency
	}
}

// percentile is the nearest-rank p-th percentile of v (sorted in place).
func percentile(v []float64, p float64) float64 {
	sort.Float64s(v)
	i := int(math.Ceil(p/100*float64(len(v)))) - 1
	return v[min(max(i, 0), len(v)-1)]
}

// Observe feeds one completed request and returns the limit.
func (e *Envoy) Observe(now time.Time, rtt time.Duration, _ int, _ bool) float64 {
	if e.limit == 0 {
		e.init()
	}
	if rtt <= 0 {
		return e.limit
	}
	if !e.started {
		e.started = true
		e.startCalc(now.Add(-rtt))
	}
	if now.Add(-rtt).Before(e.epoch) {
		return e.limit // sent before the latest calculation window
	}
	e.samples = append(e.samples, float64(rtt))
	if e.calculating {
		if len(e.samples) >= e.MinRTTRequests {
			e.minRTT = percentile(e.samples, e.Percentile)
			e.calculating = false
			e.limit = e.deferred
			e.samples = e.samples[:0]
			e.windowEnd = now.Add(e.UpdateInterval)
			jitter := time.Duration(e.Rand.Float64() * e.Jitter / 100 * float64(e.MinRTTInterval))
			e.nextCalc = now.Add(e.MinRTTInterval + jitter)
		}
		return e.limit
	}
	if now.Before(e.windowEnd) {
		return e.limit
	}
	sample := percentile(e.samples, e.Percentile)
	e.samples = e.samples[:0]
	e.windowEnd = now.Add(e.UpdateInterval)
	gradient := math.Max(envoyGradientMin, math.Min(envoyGradMax, e.minRTT*(1+e.Buffer/100)/sample))
	l := gradient * e.limit
	e.limit = math.Max(e.MinLimit, math.Min(e.MaxLimit, math.Floor(l+math.Sqrt(l))))
	if e.limit <= e.MinLimit {
		e.atMin++
	} else {
		e.atMin = 0
	}
	if e.atMin >= envoyPinnedWindowsForRecalc || !now.Before(e.nextCalc) {
		e.atMin = 0
		e.startCalc(now)
	}
	return e.limit
}
