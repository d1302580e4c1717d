package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/trace"
)

// TestFindingTimesCarryTheDateAcrossDays: a trace within one UTC day shows
// its findings' times of day; one spanning more (two recordings a month
// apart) shows the dates too, in the text and the HTML report, where the
// times alone would print the same times twice.
func TestFindingTimesCarryTheDateAcrossDays(t *testing.T) {
	t0 := time.Date(2000, 1, 1, 0, 11, 13, 0, time.UTC)
	for _, c := range []struct {
		name       string
		span       time.Duration
		want, miss string
	}{
		{"one day", 2 * time.Hour, "00:11:13 – 00:18:13", "2000-01-01 00:11:13"},
		{"past midnight", 24 * time.Hour, "2000-01-01 00:11:13 – 2000-01-01 00:18:13", ""},
		{"a month", 30 * 24 * time.Hour, "2000-01-01 00:11:13 – 2000-01-01 00:18:13", ""},
	} {
		f := diagnose.Finding{Class: diagnose.Degraded, Severity: diagnose.SevCritical, Start: t0, End: t0.Add(7 * time.Minute),
			Evidence: diagnose.Evidence{Summary: "slower"}, Recommendation: "page"}
		r := diagnose.Result{Target: "a", Class: diagnose.Degraded, Samples: 2, Start: t0, End: t0.Add(c.span), Findings: []diagnose.Finding{f}}
		series := []trace.Sample{{Time: t0, Target: "a", Limit: 1, Fields: trace.FieldLimit}, {Time: t0.Add(c.span), Target: "a", Limit: 1, Fields: trace.FieldLimit}}
		rep := NewReport("f.csv", []diagnose.Result{r}, map[string][]trace.Sample{"a": series}, nil)
		for _, format := range []string{"text", "html"} {
			var b bytes.Buffer
			if err := rep.Render(&b, format, nil); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), c.want) || c.miss != "" && strings.Contains(b.String(), c.miss) {
				t.Errorf("%s, %s: want %q (and not %q) in\n%s", c.name, format, c.want, c.miss, b.String())
			}
		}
	}
}

// TestHTMLChartsDrawTheMonthBetweenRecordingsNarrow: two 20-minute
// recordings a month apart drew as two slivers at the chart's edges with a
// line across the month; now each takes half the chart, the month is a
// dashed break that says how long it was, and no line crosses it.
func TestHTMLChartsDrawTheMonthBetweenRecordingsNarrow(t *testing.T) {
	t0 := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	var series []trace.Sample
	for _, start := range []time.Time{t0, t0.Add(30 * 24 * time.Hour)} {
		for i := 0; i < 80; i++ {
			series = append(series, trace.Sample{Time: start.Add(time.Duration(i) * 15 * time.Second), Target: "a", Limit: 20, InFlight: 18, Fields: trace.FieldLimit | trace.FieldInFlight})
		}
	}
	r := diagnose.Result{Target: "a", Class: diagnose.Healthy, Samples: len(series), Start: series[0].Time, End: series[len(series)-1].Time}
	for _, c := range []struct {
		name              string
		samples           []trace.Sample
		breaks, polylines int
	}{
		{"joined", series, 2, 4},             // a break on each chart; limit and in-flight in two pieces each
		{"one recording", series[:80], 0, 2}, // as before
	} {
		rep := NewReport("f.csv", []diagnose.Result{r}, map[string][]trace.Sample{"a": c.samples}, nil)
		var b bytes.Buffer
		if err := rep.Render(&b, "html", nil); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		breaks := strings.Count(page, `stroke-dasharray="2,3"><title>no samples for 29 days 23 h, from 2000-01-01T00:19:45Z to 2000-01-31T00:00:00Z`)
		if breaks != c.breaks || strings.Count(page, "<polyline") != c.polylines {
			t.Errorf("%s: %d breaks and %d polylines, want %d and %d", c.name, breaks, strings.Count(page, "<polyline"), c.breaks, c.polylines)
		}
	}
}
