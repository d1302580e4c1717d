package cmd

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	gclcore "github.com/platinummonkey/go-concurrency-limits/core"
	gcllimit "github.com/platinummonkey/go-concurrency-limits/limit"
	gcllimiter "github.com/platinummonkey/go-concurrency-limits/limiter"
	gclprom "github.com/platinummonkey/go-concurrency-limits/metric_registry/prometheus"
	gclstrategy "github.com/platinummonkey/go-concurrency-limits/strategy"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

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
	reg := prometheus.NewRegistry()
	l := gcllimit.NewDefaultGradient2Limit("orders", nil, gclprom.NewMetricRegistryWithRegisterer("limiter", reg))
	lim, err := gcllimiter.NewDefaultLimiter(l, int64(100*time.Millisecond), int64(time.Second), int64(time.Microsecond), 10,
		gclstrategy.NewSimpleStrategy(l.EstimatedLimit()), nil, gclcore.EmptyMetricRegistryInstance)
	if err != nil {
		t.Fatal(err)
	}
	capacity := make(chan struct{}, 8)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				ln, ok := lim.Acquire(ctx)
				if !ok {
					time.Sleep(time.Millisecond)
					continue
				}
				capacity <- struct{}{}
				time.Sleep(3 * time.Millisecond)
				<-capacity
				ln.OnSuccess()
			}
		}()
	}
	defer func() { cancel(); wg.Wait() }()
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()

	path := filepath.Join(t.TempDir(), "orders.csv")
	if _, errOut, code := run(t, "", "record", srv.URL, "-o", path, "--duration", "2500ms", "--interval", "250ms"); code != 0 {
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
