package report

import (
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/trace"
)

func TestPlainPrinter(t *testing.T) {
	b := diagnose.NewBoard(600, diagnose.Options{Window: time.Minute})
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	for i := 0; i < 400; i++ {
		for k, name := range []string{"payments", "evil\x1b[2J\n"} {
			s := trace.Sample{Time: t0.Add(time.Duration(i) * time.Second), Target: name}
			lim, rtt := 25.0, 10.0
			if k == 0 && i > 120 {
				lim, rtt = 4, 10+float64(i-120)/10 // pinned at the floor, RTT rising
			}
			s.Set(trace.FieldLimit, lim)
			s.Set(trace.FieldInFlight, lim)
			s.Set(trace.FieldRTTMin, rtt)
			s.Set(trace.FieldRTT, rtt*1.3)
			b.Push(s)
		}
	}
	var out strings.Builder
	p := &PlainPrinter{W: &out}
	rows := b.Rows()
	if err := p.Print(rows); err != nil {
		t.Fatal(err)
	}
	if err := p.Print(rows); err != nil { // nothing new: nothing printed
		t.Fatal(err)
	}
	got := out.String()
	if strings.Count(got, "\n") != 2 || strings.Contains(got, "\x1b") || !strings.Contains(got, `target="payments" limit=4 in_flight=4 rtt_min_ms=37.9`) ||
		!strings.Contains(got, "verdict=degraded-downstream") {
		t.Fatalf("plain output:\n%s", got)
	}
}

// A sparkline is scaled from zero: a limit moving between 8 and 9 is a
// small change, not a full swing.
func TestSparklineScalesFromZero(t *testing.T) {
	got := Sparkline([]float64{8, 9, 8, 9, 8, 9}, 6)
	if strings.ContainsAny(got, "▁▂▃▄▅▆") {
		t.Fatalf("8↔9 drawn as a full swing: %q", got)
	}
	if got := Sparkline([]float64{0, 10}, 2); got != "▁█" {
		t.Fatalf("0→10: %q", got)
	}
}

// A sparkline of values near the float64 range (1e308 is a valid limit in a
// CSV) or of non-finite ones draws every bucket and never panics: a plain
// sum of two 1e308 limits overflowed to +Inf, its scaled index was NaN, and
// the rune index from it was out of range.
func TestSparklineAtTheFloat64Range(t *testing.T) {
	for _, c := range []struct {
		name   string
		values []float64
		want   string
	}{
		{"1e308 held", []float64{1e308, 1e308, 1e308, 1e308, 1e308, 1e308}, "██"},
		{"1e308 from 0", []float64{0, 0, 1e308, 1e308}, "▁█"},
		{"-1e308 to 1e308", []float64{-1e308, -1e308, 1e308, 1e308}, "▁█"},
		{"NaN and Inf", []float64{math.NaN(), 1, math.Inf(1), 1}, ""},
	} {
		got := Sparkline(c.values, 2)
		if utf8.RuneCountInString(got) != 2 || c.want != "" && got != c.want {
			t.Errorf("%s: %q, want %q (two runes)", c.name, got, c.want)
		}
	}
}
