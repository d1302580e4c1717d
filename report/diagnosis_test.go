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
