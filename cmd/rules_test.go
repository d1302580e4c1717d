package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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

// watch --prom over a fleet of 2,000 limiters held by a real Prometheus: a
// loopback exporter serves 2,000 targets' limit, in-flight and min RTT, and
// the dashboard's plain output names every one of them, backfilled in
// chunks and then followed, from a handful of queries per interval.
func TestWatchPromOverTwoThousandTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("scrapes 6,000 series")
	}
	reg := prometheus.NewRegistry()
	lim := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "limiter_limit"}, []string{"downstream"})
	inf := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "limiter_in_flight"}, []string{"downstream"})
	rtt := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "limiter_rtt_min_seconds"}, []string{"downstream"})
	reg.MustRegister(lim, inf, rtt)
	for k := 0; k < 2000; k++ {
		name := fmt.Sprintf("svc-%04d", k)
		lim.WithLabelValues(name).Set(float64(20 + k%30))
		inf.WithLabelValues(name).Set(float64(18 + k%30))
		rtt.WithLabelValues(name).Set(0.010 + float64(k%7)/1000)
	}
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()
	promURL := startPrometheus(t, strings.TrimPrefix(srv.URL, "http://"))
	// wait for Prometheus to hold a few scrapes of the fleet
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(promURL + "/api/v1/query?query=" + url.QueryEscape(`count(count_over_time(limiter_limit[1m]) >= 3)`))
		if err == nil {
			var r struct {
				Data struct {
					Result []struct {
						Value [2]any `json:"value"`
					} `json:"result"`
				} `json:"data"`
			}
			json.NewDecoder(resp.Body).Decode(&r)
			resp.Body.Close()
			if len(r.Data.Result) == 1 && r.Data.Result[0].Value[1] == "2000" {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("Prometheus did not scrape the 2,000 targets three times in 30 s")
		}
		time.Sleep(time.Second)
	}
	start := time.Now()
	cmd := exec.Command(binary(t), "watch", "--prom", promURL, "--selector", `{job="limiter"}`, "--backfill", "20s", "--interval", "2s", "--plain")
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(8 * time.Second)
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	seen := map[string]bool{}
	for _, line := range strings.Split(out.String(), "\n") {
		if i := strings.Index(line, `target="`); i >= 0 {
			name := line[i+len(`target="`):]
			seen[name[:strings.IndexByte(name, '"')]] = true
		}
	}
	t.Logf("watch --prom: %d distinct targets in %s, %d lines", len(seen), time.Since(start).Round(100*time.Millisecond), strings.Count(out.String(), "\n"))
	if len(seen) != 2000 {
		t.Fatalf("watch --prom showed %d of 2,000 targets; stderr:\n%.2000s", len(seen), errOut.String())
	}
}
