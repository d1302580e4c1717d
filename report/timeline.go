package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/trace"
)

// Timeline places times on a chart's horizontal axis. A silence between
// samples of diagnose.FreshAfter or more (two recordings in one file, a
// collector down over a weekend), and of breakIntervals of the trace's
// sampling interval, is drawn as a narrow break instead of to scale: two
// 20-minute recordings a month apart drew as two slivers at the chart's
// edges with a straight line across the month between them. Elsewhere
// the axis is linear in time.
type Timeline struct {
	from, to time.Time
	breaks   []Break
	// plotted is the axis' length in time: the span with each break
	// drawn breakWidth wide instead of its length
	plotted    time.Duration
	breakWidth time.Duration
}

// Break is a silence a Timeline draws narrow: From is the last sample
// before it, To the first after it.
type Break struct{ From, To time.Time }

// Length is the silence's length in words: "29 days 23 h" from two days on,
// "5h40m" under them.
func (b Break) Length() string {
	d := b.To.Sub(b.From)
	if d >= 48*time.Hour {
		return fmt.Sprintf("%d days %d h", d/(24*time.Hour), d%(24*time.Hour)/time.Hour)
	}
	return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
}

const (
	// breakIntervals: a silence is a break only where it also spans this
	// many of the trace's median sampling intervals, so thinning a long
	// trace's points for a chart (every 2,000th of 8 M samples taken each
	// 15 s lies 8 h apart) breaks nothing.
	breakIntervals = 10
	// breakShare: each break is drawn as wide as this share of the time
	// with samples (a thirtieth: one break takes about 3 % of the chart).
	breakShare = 1.0 / 30
)

// NewTimeline is the axis from from to to for a chart of samples taken at
// times (in order; those outside [from, to] are ignored). Without times,
// or without a silence long enough, it is linear.
func NewTimeline(from, to time.Time, times []time.Time) Timeline {
	tl := Timeline{from: from, to: to, plotted: to.Sub(from)}
	if tl.plotted <= 0 || len(times) < 3 {
		return tl
	}
	gap := max(diagnose.FreshAfter, breakIntervals*trace.MedianInterval(len(times), func(i int) time.Duration { return times[i].Sub(times[i-1]) }))
	var silent time.Duration
	for i := 1; i < len(times); i++ {
		a, b := times[i-1], times[i]
		if b.Sub(a) >= gap && !a.Before(from) && !b.After(to) {
			tl.breaks = append(tl.breaks, Break{a, b})
			silent += b.Sub(a)
		}
	}
	if len(tl.breaks) == 0 {
		return tl
	}
	sampled := tl.plotted - silent
	tl.breakWidth = max(time.Duration(float64(sampled)*breakShare), time.Second)
	tl.plotted = sampled + time.Duration(len(tl.breaks))*tl.breakWidth
	return tl
}

// Pos is t's place on the axis: 0 at its start, 1 at its end; inside a
// break, the break's drawn width is spread over its length.
func (tl Timeline) Pos(t time.Time) float64 {
	if tl.plotted <= 0 {
		return 0
	}
	return float64(tl.offset(t)) / float64(tl.plotted)
}

// offset is t's distance from the axis' start in plotted time.
func (tl Timeline) offset(t time.Time) time.Duration {
	off := t.Sub(tl.from)
	for _, b := range tl.breaks {
		switch {
		case !t.After(b.From):
			return off
		case t.Before(b.To):
			// inside: the break's width spread over its length
			return off - t.Sub(b.From) + time.Duration(float64(tl.breakWidth)*float64(t.Sub(b.From))/float64(b.To.Sub(b.From)))
		}
		off -= b.To.Sub(b.From) - tl.breakWidth
	}
	return off
}

// Breaks are the silences drawn narrow, in order.
func (tl Timeline) Breaks() []Break { return tl.breaks }

// From and To are the axis' ends.
func (tl Timeline) From() time.Time { return tl.from }

// To is the axis' end.
func (tl Timeline) To() time.Time { return tl.to }

// Plotted is the axis' length in time with its breaks drawn narrow: the
// span a tick interval is chosen for.
func (tl Timeline) Plotted() time.Duration { return tl.plotted }

// Apart says whether a break lies between a and b (a before b): a chart's
// line does not join samples across one.
func (tl Timeline) Apart(a, b time.Time) bool {
	for _, br := range tl.breaks {
		if !a.After(br.From) && !b.Before(br.To) {
			return true
		}
	}
	return false
}

// Segments are the stretches with samples between the breaks, in order.
func (tl Timeline) Segments() [][2]time.Time {
	segs := make([][2]time.Time, 0, len(tl.breaks)+1)
	at := tl.from
	for _, b := range tl.breaks {
		segs = append(segs, [2]time.Time{at, b.From})
		at = b.To
	}
	return append(segs, [2]time.Time{at, tl.to})
}
