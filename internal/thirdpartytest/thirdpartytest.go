// Package thirdpartytest runs limiters nobody here wrote, for real, in tests:
// go-concurrency-limits v1.0.0 limit algorithms behind the library's own
// DefaultLimiter and Prometheus registry, under load against a
// capacity-limited downstream, served on loopback (the endpoint remembers
// every exposition it served, so a test can compare what was scraped with
// what the library exposed in that same scrape); and the same algorithms
// inside limiter/sim's virtual time, fed as that DefaultLimiter feeds them
// (SimLimit), their global randomness seeded so runs repeat. Only tests
// import it.
package thirdpartytest

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	gclcore "github.com/platinummonkey/go-concurrency-limits/core"
	gcllimiter "github.com/platinummonkey/go-concurrency-limits/limiter"
	gclprom "github.com/platinummonkey/go-concurrency-limits/metric_registry/prometheus"
	gclstrategy "github.com/platinummonkey/go-concurrency-limits/strategy"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
)

// Service is a running go-concurrency-limits service.
type Service struct {
	// URL is its /metrics endpoint.
	URL string

	mu     sync.Mutex
	served [][]*dto.MetricFamily
}

// Served returns every exposition served so far, in order.
func (s *Service) Served() [][]*dto.MetricFamily {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]*dto.MetricFamily(nil), s.served...)
}

// GoConcurrencyLimits starts one DefaultLimiter per algorithm (named by the
// map keys; build them with the given registry so the library exports their
// series), 24 workers each sending through its limiter to a downstream
// serving capacity requests at a time for latency each. Everything stops
// when the test ends.
func GoConcurrencyLimits(t testing.TB, capacity int, latency time.Duration, algorithms func(gclcore.MetricRegistry) map[string]gclcore.Limit) *Service {
	t.Helper()
	reg := prometheus.NewRegistry()
	limits := algorithms(gclprom.NewMetricRegistryWithRegisterer("limiter", reg))
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	slots := make(chan struct{}, capacity)
	for _, l := range limits {
		lim, err := gcllimiter.NewDefaultLimiter(l, int64(100*time.Millisecond), int64(time.Second), int64(time.Microsecond), 10,
			gclstrategy.NewSimpleStrategy(l.EstimatedLimit()), nil, gclcore.EmptyMetricRegistryInstance)
		if err != nil {
			t.Fatal(err)
		}
		for w := 0; w < 24; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					ln, ok := lim.Acquire(ctx)
					if !ok {
						time.Sleep(time.Millisecond)
						continue
					}
					slots <- struct{}{}
					time.Sleep(latency)
					<-slots
					ln.OnSuccess()
				}
			}()
		}
	}
	s := &Service{}
	srv := httptest.NewServer(promhttp.HandlerFor(prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
		fams, err := reg.Gather()
		s.mu.Lock()
		s.served = append(s.served, fams)
		s.mu.Unlock()
		return fams, err
	}), promhttp.HandlerOpts{}))
	s.URL = srv.URL + "/metrics"
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		srv.Close()
	})
	return s
}
