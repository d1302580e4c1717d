package cmd

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/limiterprom"
)

// downstream serves at most capacity requests at once, each taking
// service; a request beyond capacity waits (queueing: the RTT rises).
type downstream struct {
	mu       sync.Mutex
	slots    chan struct{}
	service  time.Duration
	capacity int
}

func newDownstream(capacity int, service time.Duration) *downstream {
	d := &downstream{}
	d.set(capacity, service)
	return d
}

func (d *downstream) set(capacity int, service time.Duration) {
	d.mu.Lock()
	d.slots, d.service, d.capacity = make(chan struct{}, capacity), service, capacity
	d.mu.Unlock()
}

func (d *downstream) call(ctx context.Context) {
	d.mu.Lock()
	slots, service := d.slots, d.service
	d.mu.Unlock()
	select {
	case slots <- struct{}{}:
	case <-ctx.Done():
		return
	}
	time.Sleep(service)
	<-slots
}

// drive sends requests through gate to d from workers goroutines until
// ctx ends.
func drive(ctx context.Context, gate *limiter.Gate, d *downstream, workers int, wg *sync.WaitGroup) {
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				p, ok := gate.TryAcquire()
				if !ok {
					time.Sleep(2 * time.Millisecond)
					continue
				}
				d.call(ctx)
				p.Release(limiter.Success)
			}
		}()
	}
}

// The rules in a real Prometheus scraping real gates: a downstream that
// loses most of its capacity and slows down raises LimiterDegradedDownstream
// for its limiter, and only for it.
func TestRulesAlertInARealPrometheus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for about two minutes")
	}
	dir := t.TempDir()
	out, errOut, code := run(t, "", "rules", "--preset", "limitscope", "--window", "10s", "--for", "5s", "--baseline", "40s")
	if code != 0 {
		t.Fatalf("rules: %s", errOut)
	}
	ruleFile := filepath.Join(dir, "limitscope.rules.yml")
	if err := os.WriteFile(ruleFile, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}

	mk := func(name string) *limiter.Gate {
		return limiter.NewGate(limiter.GateConfig{Downstream: name, Limiter: &limiter.Windowed{
			Limiter: &limiter.Gradient{InitialLimit: 8, MinLimit: 2, RTTWindow: 4 * time.Second, ProbeDuration: 300 * time.Millisecond},
			Window:  100 * time.Millisecond, MinSamples: 5}})
	}
	sickGate, healthyGate := mk("sick"), mk("healthy")
	reg := prometheus.NewRegistry()
	c := limiterprom.NewCollector()
	c.Add(sickGate)
	c.Add(healthyGate)
	reg.MustRegister(c)
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()

	sick, healthy := newDownstream(16, 10*time.Millisecond), newDownstream(16, 10*time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	drive(ctx, sickGate, sick, 24, &wg)
	drive(ctx, healthyGate, healthy, 24, &wg)

	promURL := startPrometheus(t, strings.TrimPrefix(srv.URL, "http://"), ruleFile)
	alerts := func() map[string]string { // limiter → state of its degraded alert
		resp, err := http.Get(promURL + "/api/v1/query?query=" + url.QueryEscape(`ALERTS{alertname="LimiterDegradedDownstream"}`))
		if err != nil {
			return nil
		}
		defer resp.Body.Close()
		var r struct {
			Data struct {
				Result []struct {
					Metric map[string]string `json:"metric"`
				} `json:"result"`
			} `json:"data"`
		}
		json.NewDecoder(resp.Body).Decode(&r)
		got := map[string]string{}
		for _, x := range r.Data.Result {
			got[x.Metric["limiter"]] = x.Metric["alertstate"]
		}
		return got
	}
	// 50 s of a healthy downstream: the baseline, and no alert
	start := time.Now()
	for time.Since(start) < 50*time.Second {
		if a := alerts(); len(a) > 0 {
			t.Fatalf("degraded alert while both downstreams are healthy: %v", a)
		}
		time.Sleep(2 * time.Second)
	}
	// the sick downstream loses most of its capacity and slows down
	sick.set(2, 25*time.Millisecond)
	var fired atomic.Bool
	deadline := time.Now().Add(70 * time.Second)
	for time.Now().Before(deadline) {
		a := alerts()
		if _, bad := a["healthy"]; bad {
			t.Fatalf("degraded alert on the healthy limiter: %v", a)
		}
		if a["sick"] != "" {
			fired.Store(true)
			t.Logf("LimiterDegradedDownstream %s for sick %s after the degradation", a["sick"], time.Since(deadline.Add(-70*time.Second)).Round(time.Second))
			break
		}
		time.Sleep(2 * time.Second)
	}
	if !fired.Load() {
		t.Fatalf("no LimiterDegradedDownstream for the sick limiter within 70 s; sick gate %+v", sickGate.Stats())
	}
}
