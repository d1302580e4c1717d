package report

import (
	"testing"
	"time"

	"github.com/limitscope/limitscope/scrape"
)

// The status line counts endpoints by state, names the first down one's
// reason (its escape sequences made harmless) and how many more there are,
// and says how far apart a fleet's readings are where the source chose it.
func TestStatusLine(t *testing.T) {
	up := scrape.Status{Endpoint: "http://a/metrics", State: scrape.StateUp, Targets: []string{"orders", "pay"}}
	for _, c := range []struct {
		name string
		sts  []scrape.Status
		want string
	}{
		{"endpoints", []scrape.Status{up, {State: scrape.StateDown, Reason: "refused \x1b[31mred"}, {State: scrape.StateDown, Reason: "timeout"}, {State: scrape.StateStale}},
			`endpoints 1 up, 2 down, 1 stale; 2 targets — refused \x1b[31mred (+1 more)`},
		{"a fleet", []scrape.Status{{State: scrape.StateUp, Targets: []string{"orders"}, Step: 15 * time.Second, StepFrom: scrape.StepMeasured}},
			"endpoints 1 up, 0 down, 0 stale; 1 targets; readings 15s apart"},
		{"a fleet before its step is known", []scrape.Status{{State: scrape.StatePending}},
			"endpoints 0 up, 0 down, 0 stale; 0 targets"},
	} {
		if got := StatusLine(c.sts); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
