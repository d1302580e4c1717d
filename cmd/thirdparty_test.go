package cmd

import (
	"path/filepath"
	"testing"
	"time"

	gclcore "github.com/platinummonkey/go-concurrency-limits/core"
	gcllimit "github.com/platinummonkey/go-concurrency-limits/limit"

	"github.com/limitscope/limitscope/internal/thirdpartytest"
	"github.com/limitscope/limitscope/trace"
)

// `record` against a service running go-concurrency-limits v1.0.0 for real
// (a Gradient2 limiter in front of a capacity-limited downstream, the
// library's own Prometheus registry) writes limit, in-flight and min RTT for
// the limiter and nothing else: the preset is detected, the summaries are
// read, the helper families make no target. (scrape's
// TestGoConcurrencyLimitsRealLibrary compares the values scrape by scrape.)
func TestRecordARealGoConcurrencyLimitsService(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real library under load")
	}
	svc := thirdpartytest.GoConcurrencyLimits(t, 8, 3*time.Millisecond, func(r gclcore.MetricRegistry) map[string]gclcore.Limit {
		return map[string]gclcore.Limit{"orders": gcllimit.NewDefaultGradient2Limit("orders", nil, r)}
	})
	path := filepath.Join(t.TempDir(), "orders.csv")
	if _, errOut, code := run(t, "", "record", svc.URL, "-o", path, "--duration", "2500ms", "--interval", "250ms"); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	samples, _, err := trace.ReadFile(path, nil, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	measured := trace.Field(0)
	for _, s := range samples {
		if s.Target != "orders" {
			t.Fatalf("bogus target %q in the recording", s.Target)
		}
		measured |= s.Fields
		if s.Has(trace.FieldRTTMin) && (s.RTTMinMs < 1 || s.RTTMinMs > 1000) {
			t.Errorf("min RTT %v ms: not the 3 ms downstream (nanoseconds misread?)", s.RTTMinMs)
		}
	}
	if want := trace.FieldLimit | trace.FieldInFlight | trace.FieldRTTMin; measured&want != want {
		t.Fatalf("recorded fields %v, want limit, in_flight and rtt_min_ms", measured)
	}
}
