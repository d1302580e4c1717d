package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/report"
	"github.com/limitscope/limitscope/safetext"
	"github.com/limitscope/limitscope/trace"
)

// detailView is one target's story over the zoomed span: limit and
// in-flight (with the floor and the cap), RTT and min RTT, the rejected
// share of demand when the target exports rejections, a time axis marking
// where each episode began, and the verdict's evidence and recommendation.
func detailView(f frame, r diagnose.Row, h int) string {
	from := f.now.Add(-f.zoom)
	series := f.opt.Board.Series(nil, r.Target, from)
	lim := Series{Color: styles.Limit, Mark: '#'}
	inf := Series{Color: styles.InFlight, Mark: '+'}
	rmin := Series{Color: styles.RTTMin, Mark: 'o'}
	rtt := Series{Color: styles.RTT, Mark: '.'}
	rej := Series{Color: styles.Rejected, Mark: 'x'}
	add := func(s *Series, t time.Time, v float64) { s.Times, s.Values = append(s.Times, t), append(s.Values, v) }
	for i, s := range series {
		if s.Time.After(f.now) {
			continue
		}
		if v, ok := s.Value(trace.FieldLimit); ok {
			add(&lim, s.Time, v)
		}
		if v, ok := s.Value(trace.FieldInFlight); ok {
			add(&inf, s.Time, v)
		}
		if v, ok := s.Value(trace.FieldRTTMin); ok {
			add(&rmin, s.Time, v)
		}
		if v, ok := s.Value(trace.FieldRTT); ok {
			add(&rtt, s.Time, v)
		}
		if i > 0 {
			if v, ok := diagnose.RejectedShare(s, s.Time.Sub(series[i-1].Time)); ok {
				add(&rej, s.Time, 100*v)
			}
		}
	}
	var refs []RefLine
	if ref, ok := f.opt.Refs[r.Target]; ok {
		if ref.MinLimit > 0 {
			refs = append(refs, RefLine{ref.MinLimit, styles.Ref, "floor"})
		}
		if ref.Cap > 0 {
			refs = append(refs, RefLine{ref.Cap, styles.Cap, "cap"})
		}
	} else if r.Floor > 0 {
		refs = append(refs, RefLine{r.Floor, styles.Ref, "lowest limit"})
	}

	// an hour or more without samples (a replay across two recordings)
	// draws as a break
	tl := report.NewTimeline(from, f.now, lim.Times)
	var b strings.Builder
	l := r.Last
	v1, ok1 := l.Value(trace.FieldLimit)
	v2, ok2 := l.Value(trace.FieldInFlight)
	v3, ok3 := l.Value(trace.FieldRTTMin)
	v4, ok4 := l.Value(trace.FieldRTT)
	head := styles.Title.Render(safetext.Terminal(r.Target)) + "  " + badge(r.Class, r.Judged) +
		fmt.Sprintf("  limit %s  in-flight %s  min RTT %s  RTT %s", fmtVal(v1, ok1), fmtVal(v2, ok2), fmtMs(v3, ok3), fmtMs(v4, ok4))
	if r.HasRejectedShare {
		head += "  rejected " + report.Percent(r.RejectedShare)
	}
	b.WriteString(fit(head, f.width))

	const textLines = 5
	rejH := 0
	if len(rej.Values) > 0 {
		rejH = 3
	}
	labels := 2 + min(rejH, 1) // one legend line per chart
	chartH := max(h-1-textLines-2-labels-rejH, 4)
	topH := chartH * 2 / 3
	botH := chartH - topH
	style := f.opt.Chart
	legend := Legend(style, []Series{lim, inf}, []string{"limit", "in-flight"})
	if len(refs) > 0 {
		var names []string
		for _, ref := range refs {
			names = append(names, ref.Label)
		}
		legend += "  " + styles.Dim.Render("╌ "+strings.Join(names, ", "))
	}
	b.WriteString("\n" + fit(legend+styles.Dim.Render(fmt.Sprintf("   last %s", f.zoom)), f.width))
	b.WriteString("\n" + Chart([]Series{inf, lim}, refs, tl, f.width, topH, 0, style, ""))
	b.WriteString("\n" + fit(Legend(style, []Series{rmin, rtt}, []string{"min RTT", "RTT (ms)"}), f.width))
	b.WriteString("\n" + Chart([]Series{rtt, rmin}, nil, tl, f.width, botH, 0, style, ""))
	lines := 1 + 2 + topH + botH
	if rejH > 0 {
		b.WriteString("\n" + fit(Legend(style, []Series{rej}, []string{"rejected share of demand (%)"}), f.width))
		b.WriteString("\n" + Chart([]Series{rej}, nil, tl, f.width, rejH, 0, style, ""))
		lines += 1 + rejH
	}
	var marks []time.Time
	for _, e := range r.Episodes {
		marks = append(marks, e.Start)
	}
	if axis := TimeAxis(tl, f.width, 7, marks); axis != "" {
		b.WriteString("\n" + axis)
		lines += 2
	}

	var text []string
	if r.Judged {
		text = append(text, "evidence: "+r.Finding.Evidence.Summary)
		if r.Class != diagnose.Healthy {
			text = append(text, "→ "+r.Finding.Recommendation)
		}
	} else {
		text = append(text, "not enough samples in the window yet to judge")
	}
	var eps []string
	var clock string
	if n := len(r.Episodes); n > 0 {
		clock = report.ClockLayout(r.Episodes[0].Start, r.Episodes[n-1].End)
	}
	for _, e := range r.Episodes {
		if e.Class == diagnose.Insufficient {
			continue
		}
		eps = append(eps, fmt.Sprintf("%s %s", e.Start.UTC().Format(clock), e.Class))
	}
	if len(eps) > 0 {
		if len(eps) > 6 {
			eps = eps[len(eps)-6:]
		}
		text = append(text, "episodes (◆ on the axis): "+strings.Join(eps, " → "))
	}
	if r.Repeats != "" {
		text = append(text, r.Repeats)
	}
	if len(r.Unreachable) > 0 {
		var classes []string
		for _, u := range r.Unreachable {
			if c := string(u.Class); !slices.Contains(classes, c) {
				classes = append(classes, c)
			}
		}
		text = append(text, "cannot reach from this data: "+strings.Join(classes, ", ")+" (limitscope diagnose says why)")
	}
	for _, t := range text {
		for _, wl := range wrap(t, f.width) {
			if lines >= h {
				break
			}
			b.WriteString("\n" + wl)
			lines++
		}
	}
	for ; lines < h; lines++ {
		b.WriteString("\n")
	}
	return b.String()
}

// wrap breaks s into lines of at most w cells at word boundaries (long
// words are cut), after neutralising control characters.
func wrap(s string, w int) []string {
	s = safetext.Terminal(s)
	if w < 10 {
		return []string{fit(s, w)}
	}
	return strings.Split(ansi.Wrap(s, w, " "), "\n")
}
