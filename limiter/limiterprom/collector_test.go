package limiterprom_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/limiterprom"
)

// A gate's limit, in-flight, min RTT and outcome counts are exported under
// its downstream label, read at scrape time.
func ExampleCollector() {
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now } // a real service leaves Clock nil
	gate := limiter.NewGate(limiter.GateConfig{Downstream: "payments", Limiter: &limiter.Fixed{N: 8}, Clock: clock})
	c := limiterprom.NewCollector()
	c.Add(gate)
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)

	held, _ := gate.TryAcquire() // one request in flight
	done, _ := gate.TryAcquire()
	now = now.Add(20 * time.Millisecond)
	done.Release(limiter.Success) // a 20 ms call

	families, err := reg.Gather()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			switch {
			case m.GetGauge() != nil:
				fmt.Printf("%s %g\n", f.GetName(), m.GetGauge().GetValue())
			case m.GetCounter() != nil:
				fmt.Printf("%s{outcome=%q} %g\n", f.GetName(), m.GetLabel()[1].GetValue(), m.GetCounter().GetValue())
			case m.GetHistogram() != nil:
				fmt.Printf("%s count %d\n", f.GetName(), m.GetHistogram().GetSampleCount())
			}
		}
	}
	held.Release(limiter.Ignore)
	// Output:
	// limiter_in_flight 1
	// limiter_limit 8
	// limiter_requests_total{outcome="dropped"} 0
	// limiter_requests_total{outcome="rejected"} 0
	// limiter_requests_total{outcome="success"} 1
	// limiter_rtt_min_seconds 0.02
	// limiter_rtt_seconds count 1
}

// Every successful release reaches the histogram through the gate's
// RTTObserver; dropped and ignored requests do not.
func TestHistogramCountsSuccessesOnly(t *testing.T) {
	now := time.Unix(0, 0)
	gate := limiter.NewGate(limiter.GateConfig{Downstream: "search", Limiter: &limiter.Fixed{N: 4}, Clock: func() time.Time { return now }})
	c := limiterprom.NewCollector()
	c.Add(gate)
	for _, o := range []limiter.Outcome{limiter.Success, limiter.Dropped, limiter.Ignore, limiter.Success} {
		p, _ := gate.TryAcquire()
		now = now.Add(3 * time.Millisecond)
		p.Release(o)
	}
	want := `
# HELP limiter_rtt_seconds Round-trip time of successful downstream calls, measured around the call only.
# TYPE limiter_rtt_seconds histogram
limiter_rtt_seconds_bucket{downstream="search",le="0.001"} 0
limiter_rtt_seconds_bucket{downstream="search",le="0.002"} 0
limiter_rtt_seconds_bucket{downstream="search",le="0.004"} 2
limiter_rtt_seconds_bucket{downstream="search",le="0.008"} 2
limiter_rtt_seconds_bucket{downstream="search",le="0.016"} 2
limiter_rtt_seconds_bucket{downstream="search",le="0.032"} 2
limiter_rtt_seconds_bucket{downstream="search",le="0.064"} 2
limiter_rtt_seconds_bucket{downstream="search",le="0.128"} 2
limiter_rtt_seconds_bucket{downstream="search",le="0.256"} 2
limiter_rtt_seconds_bucket{downstream="search",le="0.512"} 2
limiter_rtt_seconds_bucket{downstream="search",le="1.024"} 2
limiter_rtt_seconds_bucket{downstream="search",le="2.048"} 2
limiter_rtt_seconds_bucket{downstream="search",le="4.096"} 2
limiter_rtt_seconds_bucket{downstream="search",le="8.192"} 2
limiter_rtt_seconds_bucket{downstream="search",le="16.384"} 2
limiter_rtt_seconds_bucket{downstream="search",le="+Inf"} 2
limiter_rtt_seconds_sum{downstream="search"} 0.006
limiter_rtt_seconds_count{downstream="search"} 2
`
	if err := testutil.CollectAndCompare(c, strings.NewReader(want), limiterprom.MetricRTT); err != nil {
		t.Fatal(err)
	}
}
