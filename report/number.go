package report

import (
	"math"
	"strconv"
	"strings"
)

// Number prints a measured value short, for tables and chart axes: 3
// significant digits at most, k and M for thousands and millions.
func Number(v float64) string {
	switch {
	case v >= 1e6:
		return Trim2(v/1e6, "M")
	case v >= 1e4:
		return Trim2(v/1e3, "k")
	case v >= 100:
		return Trim2(math.Round(v), "")
	case v >= 10:
		return Trim2(math.Round(v*10)/10, "")
	}
	return Trim2(math.Round(v*100)/100, "")
}

// Trim2 prints v with at most two decimals, trailing zeros dropped, then
// suffix.
func Trim2(v float64, suffix string) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + suffix
}
