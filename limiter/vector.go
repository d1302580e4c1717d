package limiter

import (
	"math"
	"time"
)

// Default parameters of Vector's adaptive request concurrency
// (AdaptiveConcurrencySettings).
const (
	DefaultVectorInitial           = 1
	DefaultVectorMaxLimit          = 200
	DefaultVectorDecreaseRatio     = 0.9
	DefaultVectorEWMAAlpha         = 0.4
	DefaultVectorRTTDeviationScale = 2.5
)

// Vector is Vector's adaptive request concurrency (ARC), from its
// documentation (docs/architecture/arc, the sink's request.adaptive_concurrency
// settings) and RFC 1858: an AIMD loop driven by the RTT. Responses are
// grouped into observation intervals one past-RTT long; at the end of each
//
//	current = mean RTT of the interval's responses
//	decrease  if a response was a loss (back pressure, error, timeout) or
//	          current > past + RTTDeviationScale·deviation:
//	          limit = ⌊limit·DecreaseRatio⌋ (at least 1)
//	increase  else, if current ≤ past and the limit was reached in the
//	          interval: limit + 1 (at most MaxLimit)
//	past      = EWMA of current with weight EWMAAlpha; deviation the
//	          square root of the matching exponentially weighted variance
//
// The first interval only seeds past. A zero field takes its default at the
// first sample, so Vector{} is Vector's defaults (initial concurrency 1).
// Not safe for concurrent use; a Gate serialises it.
type Vector struct {
	// InitialLimit (default 1) and MaxLimit (max_concurrency_limit,
	// default 200).
	InitialLimit, MaxLimit float64
	// DecreaseRatio (default 0.9), EWMAAlpha (default 0.4) and
	// RTTDeviationScale (default 2.5) are Vector's settings of those names.
	DecreaseRatio, EWMAAlpha, RTTDeviationScale float64

	limit        float64
	past, varRTT float64 // ns, ns²
	havePast     bool
	end          time.Time // the current interval closes at the first sample at or after end
	sum          float64
	n            int
	reached      bool
	lost         bool
	started      bool
}

func (v *Vector) init() {
	orDefault(&v.InitialLimit, DefaultVectorInitial)
	orDefault(&v.MaxLimit, DefaultVectorMaxLimit)
	orDefault(&v.DecreaseRatio, DefaultVectorDecreaseRatio)
	v.DecreaseRatio = math.Min(v.DecreaseRatio, 1)
	orDefault(&v.EWMAAlpha, DefaultVectorEWMAAlpha)
	v.EWMAAlpha = math.Min(v.EWMAAlpha, 1)
	if v.RTTDeviationScale < 0 || math.IsNaN(v.RTTDeviationScale) {
		v.RTTDeviationScale = 0
	} else if v.RTTDeviationScale == 0 {
		v.RTTDeviationScale = DefaultVectorRTTDeviationScale
	}
	v.limit = math.Min(v.InitialLimit, v.MaxLimit)
}

// Limit returns the current limit.
func (v *Vector) Limit() float64 {
	if v.limit == 0 {
		v.init()
	}
	return v.limit
}

// MinRTT returns the past-RTT average (what Vector compares with; 0 before
// the first interval).
func (v *Vector) MinRTT() time.Duration { return time.Duration(v.past) }

// Observe feeds one response and returns the limit.
func (v *Vector) Observe(now time.Time, rtt time.Duration, inFlight int, dropped bool) float64 {
	if v.limit == 0 {
		v.init()
	}
	if !v.started {
		v.started = true
		v.end = now
	}
	if float64(inFlight) >= v.limit {
		v.reached = true
	}
	v.lost = v.lost || dropped
	if rtt > 0 && !dropped {
		v.sum += float64(rtt)
		v.n++
	}
	if now.Before(v.end) {
		return v.limit
	}
	// the interval ends: judge it, then start the next one past-RTT long
	if v.n > 0 || v.lost {
		current := 0.0
		if v.n > 0 {
			current = v.sum / float64(v.n)
		}
		switch {
		case !v.havePast:
			if v.n > 0 {
				v.past, v.havePast = current, true
			}
		default:
			switch {
			case v.lost || v.n > 0 && current > v.past+v.RTTDeviationScale*math.Sqrt(v.varRTT):
				v.limit = math.Max(1, math.Floor(v.limit*v.DecreaseRatio))
			case v.n > 0 && current <= v.past && v.reached:
				v.limit = math.Min(v.MaxLimit, v.limit+1)
			}
			if v.n > 0 {
				d := current - v.past
				v.past += v.EWMAAlpha * d
				v.varRTT = (1 - v.EWMAAlpha) * (v.varRTT + v.EWMAAlpha*d*d)
			}
		}
	}
	v.end = now.Add(time.Duration(v.past))
	v.sum, v.n, v.reached, v.lost = 0, 0, false, false
	return v.limit
}
