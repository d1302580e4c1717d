//go:build !race

package diagnose

import (
	"testing"
	"time"

	"github.com/limitscope/limitscope/trace"
)

// Exported for this directory's external tests (rules_agreement_test.go,
// which imports rules, and rules imports diagnose): the real-libraries
// suite's world.

// RealStep changes the real-libraries world at At; zero fields keep their
// value (a negative ErrRate sets it to 0).
type RealStep = worldStep

// RunRealLibrary runs the real-libraries suite's family named family (its
// well-tuned limiter, or with swinging its mis-tuned one) at capacity c — a downstream completing 100 requests
// a second, Poisson demand at 1.5 times that, a client timeout of 10 base
// latencies — for dur, sampled every iv (±10 %), changed at each step
// after the first. It returns what the exporter read.
func RunRealLibrary(t *testing.T, family string, swinging bool, c float64, iv, dur time.Duration, seed uint64, steps ...RealStep) []trace.Sample {
	t.Helper()
	for _, f := range realFamilies {
		if f.name != family {
			continue
		}
		base := time.Duration(c / 100 * float64(time.Second))
		thr := c / base.Seconds()
		first := RealStep{Capacity: c, Base: base, Demand: 1.5 * thr, ErrRate: -1}
		spec := worldSpec{steps: append([]worldStep{first}, steps...), dur: dur, interval: iv, jitter: 0.1, sigma: 0.2,
			timeout: max(time.Second, 10*base), seed: seed}
		build := f.tuned
		if swinging {
			build = f.swinging
		}
		if build == nil {
			break
		}
		out, _ := runWorld(t, spec, family, func() realLimiter { return build(c) })
		return out
	}
	t.Fatalf("no real-libraries family %q (swinging: %v)", family, swinging)
	return nil
}

// RealFamilies names the real-libraries suite's families.
func RealFamilies() []string { return realFamilyNames() }

// RealSwings reports whether the family has a mis-tuned, swinging limiter.
func RealSwings(family string) bool {
	for _, f := range realFamilies {
		if f.name == family {
			return f.swinging != nil
		}
	}
	return false
}
