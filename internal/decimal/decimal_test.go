package decimal

import (
	"math"
	"testing"
)

func TestRoundAndSnap(t *testing.T) {
	cases := []struct {
		v      float64
		digits int
		want   float64
	}{
		{1.2345, 2, 1.23},
		{1.235, 2, 1.24},
		{-1.235, 2, -1.24},
		{40.615328999999996, 3, 40.615},
		{0.1 + 0.2, 10, 0.3},
		{1e300, 2, 1e300},
		{123456789012345678, 2, 123456789012345678},
	}
	for _, c := range cases {
		if got := Round(c.v, c.digits); got != c.want {
			t.Errorf("Round(%v, %d) = %v, want %v", c.v, c.digits, got, c.want)
		}
	}
	if !math.IsNaN(Round(math.NaN(), 2)) || !math.IsInf(Round(math.Inf(1), 2), 1) {
		t.Error("NaN and Inf must come back unchanged")
	}
	for _, c := range []struct{ v, step, want float64 }{{0.9 + 0.05, 0.05, 0.95}, {0.15 + 0.05, 0.05, 0.2}, {37, 10, 40}, {7, 0, 7}} {
		if got := Snap(c.v, c.step); got != c.want {
			t.Errorf("Snap(%v, %v) = %v, want %v", c.v, c.step, got, c.want)
		}
	}
}
