// Package decimal rounds measured values to a number of decimal places for
// reports, JSON and the tune panel's steps: one rounding rule for the whole
// tool, so a value prints the same wherever it appears. It is a few lines,
// and what a library would add (arbitrary precision) is not needed here.
package decimal

import "math"

// Round rounds v to digits decimal places, half away from zero. Values too
// large to carry those places (|v|·10^digits beyond 2⁵³), NaN and infinities
// come back unchanged.
func Round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	if digits >= 0 && digits < len(pow10) {
		p = pow10[digits] // the hot path: no Pow per value written
	}
	x := v * p
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1<<53 {
		return v
	}
	return math.Round(x) / p
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// Snap rounds v to a multiple of step without binary-fraction residue
// (0.95, not 0.9500000000000001).
func Snap(v, step float64) float64 {
	step = math.Abs(step)
	if step == 0 {
		return v
	}
	return Round(math.Round(v/step)*step, 10)
}
