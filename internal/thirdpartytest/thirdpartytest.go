// Package thirdpartytest runs limiters nobody here wrote, for real, in tests:
// go-concurrency-limits v1.0.0 limit algorithms behind the library's own
// DefaultLimiter and Prometheus registry, and failsafe-go v0.9.8's adaptive
// limiter registered as Grafana Mimir registers it, under load against a
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

	"github.com/failsafe-go/failsafe-go/adaptivelimiter"
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
	var lims []gclcore.Limiter
	for _, l := range limits {
		lim, err := gcllimiter.NewDefaultLimiter(l, int64(100*time.Millisecond), int64(time.Second), int64(time.Microsecond), 10,
			gclstrategy.NewSimpleStrategy(l.EstimatedLimit()), nil, gclcore.EmptyMetricRegistryInstance)
		if err != nil {
			t.Fatal(err)
		}
		lims = append(lims, lim)
	}
	slots := make(chan struct{}, capacity)
	return serve(t, reg, func(ctx context.Context, wg *sync.WaitGroup) {
		for _, lim := range lims {
			load(ctx, wg, 24, slots, latency, func() (func(), bool) {
				ln, ok := lim.Acquire(ctx)
				if !ok {
					return nil, false
				}
				return ln.OnSuccess, true
			})
		}
	})
}

// FailsafeGoBehindMimir starts failsafe-go v0.9.8's adaptive limiter twice,
// registered the way Grafana Mimir's distributor and ingester register
// theirs (pkg/distributor and pkg/ingester registerReactiveLimiterMetrics
// in grafana/mimir: GaugeFuncs of Limit(), Inflight() and Queued(), the
// ingester's with a request_type="push" const label), 30 workers each
// sending through its limiter to a downstream serving 10 requests at a
// time for 4 ms each. Everything stops when the test ends.
func FailsafeGoBehindMimir(t testing.TB) *Service {
	t.Helper()
	reg := prometheus.NewRegistry()
	limiters := []adaptivelimiter.AdaptiveLimiter[any]{
		adaptivelimiter.NewBuilder[any]().WithLimits(2, 200, 20).WithRecentWindow(100*time.Millisecond, time.Second, 10).Build(),
		adaptivelimiter.NewBuilder[any]().WithLimits(2, 200, 20).WithRecentWindow(100*time.Millisecond, time.Second, 10).Build(),
	}
	register := func(prefix string, labels prometheus.Labels, m adaptivelimiter.Metrics) {
		for name, f := range map[string]func() int{"inflight_limit": m.Limit, "inflight_requests": m.Inflight, "queued_requests": m.Queued} {
			reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: prefix + name, ConstLabels: labels}, func() float64 { return float64(f()) }))
		}
	}
	register("cortex_distributor_reactive_limiter_", nil, limiters[0])
	register("cortex_ingester_reactive_limiter_", prometheus.Labels{"request_type": "push"}, limiters[1])
	capacity := make(chan struct{}, 10)
	return serve(t, reg, func(ctx context.Context, wg *sync.WaitGroup) {
		for _, lim := range limiters {
			load(ctx, wg, 30, capacity, 4*time.Millisecond, func() (func(), bool) {
				p, ok := lim.TryAcquirePermit()
				if !ok {
					return nil, false
				}
				return p.Record, true
			})
		}
	})
}

// load starts workers sending through a limiter until ctx ends: each
// takes a permit (acquire; a refusal is retried a millisecond later), then
// a slot of the downstream for latency, then releases the permit as a
// success.
func load(ctx context.Context, wg *sync.WaitGroup, workers int, slots chan struct{}, latency time.Duration, acquire func() (release func(), ok bool)) {
	for w := 0; w < workers; w++ {
		wg.Go(func() {
			for ctx.Err() == nil {
				release, ok := acquire()
				if !ok {
					time.Sleep(time.Millisecond)
					continue
				}
				slots <- struct{}{}
				time.Sleep(latency)
				<-slots
				release()
			}
		})
	}
}

// serve starts the service's load (start, whose workers join wg and stop
// when ctx ends) and serves reg's expositions on loopback, remembering
// each, until the test ends; then the load stops and is waited for.
func serve(t testing.TB, reg *prometheus.Registry, start func(ctx context.Context, wg *sync.WaitGroup)) *Service {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	start(ctx, &wg)
	stop := func() {
		cancel()
		wg.Wait()
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
		stop()
		srv.Close()
	})
	return s
}
