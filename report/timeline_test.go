package report

import (
	"math"
	"testing"
	"time"
)

// every returns n times from t, step apart.
func every(t time.Time, step time.Duration, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = t.Add(time.Duration(i) * step)
	}
	return out
}

func TestTimelineDrawsLongSilencesNarrow(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	joined := func(gap time.Duration, step time.Duration, n int) []time.Time {
		a := every(t0, step, n)
		return append(a, every(a[n-1].Add(gap), step, n)...)
	}
	for _, c := range []struct {
		name   string
		times  []time.Time
		breaks int
	}{
		{"a steady recording", every(t0, 15*time.Second, 200), 0},
		{"two recordings a month apart", joined(30*24*time.Hour, time.Second, 1200), 1},
		{"two recordings an hour apart", joined(time.Hour, time.Second, 1200), 1},
		{"a 30-minute outage", joined(30*time.Minute, time.Second, 1200), 0},
		// 8 M samples every 15 s thinned to 4,000 points lie 8 h apart: no
		// silence, only thinning
		{"a thinned year", every(t0, 8*time.Hour, 4000), 0},
		{"a thinned year with a month out", joined(30*24*time.Hour, 8*time.Hour, 2000), 1},
		{"three recordings", append(joined(24*time.Hour, time.Second, 600), every(t0.Add(72*time.Hour), time.Second, 600)...), 2},
		{"two samples", every(t0, 48*time.Hour, 2), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			first, last := c.times[0], c.times[len(c.times)-1]
			tl := NewTimeline(first, last, c.times)
			if got := len(tl.Breaks()); got != c.breaks {
				t.Fatalf("%d breaks, want %d: %v", got, c.breaks, tl.Breaks())
			}
			if tl.Pos(first) != 0 || math.Abs(tl.Pos(last)-1) > 1e-9 {
				t.Fatalf("the ends at %v and %v, want 0 and 1", tl.Pos(first), tl.Pos(last))
			}
			prev := -1.0
			for _, ts := range c.times {
				p := tl.Pos(ts)
				if p < prev {
					t.Fatalf("Pos(%v) = %v falls behind %v", ts, p, prev)
				}
				prev = p
			}
			segs := tl.Segments()
			if len(segs) != c.breaks+1 {
				t.Fatalf("%d segments for %d breaks", len(segs), c.breaks)
			}
			for _, b := range tl.Breaks() {
				// a break is drawn as breakShare of the time with samples,
				// and nothing is joined across it
				w := tl.Pos(b.To) - tl.Pos(b.From)
				if w <= 0 || w > 1.5*breakShare {
					t.Fatalf("the break %v–%v is %.3f of the axis wide, want about %.3f", b.From, b.To, w, breakShare)
				}
				if !tl.Apart(b.From, b.To) || !tl.Apart(first, last) || tl.Apart(b.To, last) && len(segs) == 2 {
					t.Fatalf("Apart is wrong about the break %v–%v", b.From, b.To)
				}
			}
			if c.breaks == 0 {
				// linear: the middle of the span is the middle of the axis
				mid := first.Add(last.Sub(first) / 2)
				if math.Abs(tl.Pos(mid)-0.5) > 1e-9 {
					t.Fatalf("a linear axis puts the middle at %v", tl.Pos(mid))
				}
			}
		})
	}
}

func TestBreakLength(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{90 * time.Minute, "1h30m"},
		{30*24*time.Hour - 20*time.Minute, "29 days 23 h"},
		{47 * time.Hour, "47h0m"},
	} {
		if got := (Break{t0, t0.Add(c.d)}).Length(); got != c.want {
			t.Errorf("%v: %q, want %q", c.d, got, c.want)
		}
	}
}
