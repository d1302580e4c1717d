// Package demo is the world behind `limitscope demo`: real HTTP downstreams
// on loopback whose concurrency capacity and base latency change at run time,
// a Poisson load generator per downstream, and one limiter.Gate in front of
// each (RTT measured around the HTTP call only), all exporting /metrics for
// the dashboard to scrape over real HTTP, exactly as watch would.
package demo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/limiterprom"
)

// DownstreamSpec is one simulated service.
type DownstreamSpec struct {
	Name        string
	Capacity    int           // requests served at once
	BaseLatency time.Duration // service time when idle
	Demand      float64       // requests per second the load generator sends
	Cap         int           // the gate's static safety cap
}

// DefaultDownstreams are the demo's two services.
var DefaultDownstreams = []DownstreamSpec{
	{Name: "payments", Capacity: 16, BaseLatency: 25 * time.Millisecond, Demand: 800, Cap: 100},
	{Name: "search", Capacity: 6, BaseLatency: 40 * time.Millisecond, Demand: 180, Cap: 60},
}

// Downstream is a real HTTP server with a run-time capacity and latency: up
// to Capacity requests are served at once, the rest wait; service time is
// the base latency with 5 % lognormal noise, inflated past the knee like a
// server whose backlog costs memory and locks.
type Downstream struct {
	spec DownstreamSpec
	mu   sync.Mutex
	cond *sync.Cond
	cap  int
	base time.Duration
	busy int
	wait int
	srv  *http.Server
	url  string
}

func newDownstream(spec DownstreamSpec) *Downstream {
	d := &Downstream{spec: spec, cap: spec.Capacity, base: spec.BaseLatency}
	d.cond = sync.NewCond(&d.mu)
	return d
}

// ServeHTTP serves one request.
func (d *Downstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	d.wait++
	for d.busy >= d.cap {
		d.cond.Wait()
	}
	d.wait--
	d.busy++
	backlog := float64(d.busy+d.wait) / float64(d.cap)
	base := d.base
	d.mu.Unlock()
	inflate := 1.0
	if backlog > 1 {
		inflate += 0.15 * (backlog - 1)
	}
	noise := math.Exp(0.05 * rand.NormFloat64())
	time.Sleep(time.Duration(float64(base) * noise * inflate))
	d.mu.Lock()
	d.busy--
	d.cond.Signal()
	d.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// Set changes capacity and base latency.
func (d *Downstream) Set(capacity int, base time.Duration) {
	d.mu.Lock()
	d.cap = max(1, capacity)
	d.base = base
	d.cond.Broadcast()
	d.mu.Unlock()
}

// State returns capacity and base latency.
func (d *Downstream) State() (int, time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cap, d.base
}

// World is the whole demo.
type World struct {
	Downstreams []*Downstream
	Gates       []*limiter.Gate
	gradients   []*limiter.Gradient
	windows     []*limiter.Windowed
	demand      []float64
	mu          sync.Mutex
	idle        bool
	oscillate   bool
	metrics     *http.Server
	MetricsURL  string
	client      *http.Client
}

// Gradient settings of the demo: a short min-RTT window and probe so the
// story unfolds in seconds rather than minutes.
const (
	demoRTTWindow     = 20 * time.Second
	demoProbeDuration = time.Second
)

// Start starts the downstreams, the gates, the metrics endpoint on addr
// (host:port; port 0 picks one) and the load.
func Start(ctx context.Context, addr string, specs []DownstreamSpec) (*World, error) {
	w := &World{client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 512, MaxConnsPerHost: 0, IdleConnTimeout: time.Minute}, Timeout: 5 * time.Second}}
	reg := prometheus.NewRegistry()
	m := limiterprom.NewCollector()
	reg.MustRegister(m)
	for _, spec := range specs {
		d := newDownstream(spec)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("starting the %s downstream: %w", spec.Name, err)
		}
		d.url = "http://" + ln.Addr().String() + "/"
		d.srv = &http.Server{Handler: d, ReadHeaderTimeout: 5 * time.Second}
		go d.srv.Serve(ln)
		g := &limiter.Gradient{InitialLimit: float64(spec.Capacity), RTTWindow: demoRTTWindow, ProbeDuration: demoProbeDuration}
		win := &limiter.Windowed{Limiter: g, Window: 100 * time.Millisecond, MinSamples: 20}
		gate := limiter.NewGate(limiter.GateConfig{Downstream: spec.Name, Limiter: win, Cap: spec.Cap, QueueSize: 32, QueueTimeout: 50 * time.Millisecond})
		m.Add(gate)
		w.Downstreams = append(w.Downstreams, d)
		w.Gates = append(w.Gates, gate)
		w.gradients = append(w.gradients, g)
		w.windows = append(w.windows, win)
		w.demand = append(w.demand, spec.Demand)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("--addr %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	// POST /control/KEY does what the key does in the dashboard, so a
	// headless demo (CI) can change its world too
	mux.HandleFunc("POST /control/{key}", func(rw http.ResponseWriter, r *http.Request) {
		msg, ok := w.Do(r.PathValue("key"))
		if !ok {
			http.Error(rw, "unknown key: use one of "+w.keyList(), http.StatusNotFound)
			return
		}
		fmt.Fprintln(rw, msg)
	})
	w.metrics = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go w.metrics.Serve(ln)
	w.MetricsURL = "http://" + ln.Addr().String() + "/metrics"
	for i := range w.Downstreams {
		go w.load(ctx, i)
	}
	return w, nil
}

// load sends Poisson arrivals through the gate to downstream i.
func (w *World) load(ctx context.Context, i int) {
	d, gate := w.Downstreams[i], w.Gates[i]
	rng := rand.New(rand.NewPCG(uint64(i)+1, 7))
	next := time.Now()
	for ctx.Err() == nil {
		w.mu.Lock()
		rate := w.demand[i]
		if w.idle {
			rate *= 0.1
		}
		w.mu.Unlock()
		next = next.Add(time.Duration(rng.ExpFloat64() / rate * float64(time.Second)))
		if d := time.Until(next); d > 0 {
			time.Sleep(d)
		} else if d < -time.Second {
			next = time.Now() // fell behind: do not burst to catch up
		}
		go func() {
			p, err := gate.Acquire(ctx)
			if err != nil {
				return // rejected: deferred, as a pipeline would
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, d.url, nil)
			resp, err := w.client.Do(req)
			if err != nil {
				if errors.Is(ctx.Err(), context.Canceled) {
					p.Release(limiter.Ignore)
					return
				}
				p.Release(limiter.Dropped)
				return
			}
			resp.Body.Close()
			if resp.StatusCode >= 500 {
				p.Release(limiter.Dropped)
				return
			}
			p.Release(limiter.Success)
		}()
	}
}

// Deploy doubles every downstream's capacity.
func (w *World) Deploy() string {
	for _, d := range w.Downstreams {
		c, b := d.State()
		d.Set(c*2, b)
	}
	return "deploy: capacity ×2 — the limit should climb"
}

// NoisyNeighbour cuts every downstream's capacity to 60 %.
func (w *World) NoisyNeighbour() string {
	for _, d := range w.Downstreams {
		c, b := d.State()
		d.Set(int(math.Round(float64(c)*0.6)), b)
	}
	return "noisy neighbour: capacity ×0.6 — the limit should fall and settle"
}

// Slow makes the first downstream sick: base latency ×2 and capacity ÷3.
func (w *World) Slow() string {
	d := w.Downstreams[0]
	c, b := d.State()
	d.Set(max(1, c/3), b*2)
	return fmt.Sprintf("%s falls sick: latency ×2, capacity ÷3 — expect degraded-downstream", d.spec.Name)
}

// Idle toggles the load down to 10 %.
func (w *World) Idle() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.idle = !w.idle
	if w.idle {
		return "idle: load ×0.1 — expect pipeline-bound"
	}
	return "load back to normal"
}

// Oscillate toggles a mis-tuned limiter on the first downstream: smoothing
// 1.0 and a sample window shorter than the RTT, so each limit change is judged
// on stale RTTs.
func (w *World) Oscillate() string {
	w.mu.Lock()
	w.oscillate = !w.oscillate
	on := w.oscillate
	w.mu.Unlock()
	w.Gates[0].Update(func(limiter.Limiter) {
		if on {
			w.gradients[0].Smoothing = 1
			w.windows[0].Window, w.windows[0].MinSamples = 5*time.Millisecond, 3
		} else {
			w.gradients[0].Smoothing = limiter.DefaultSmoothing
			w.windows[0].Window, w.windows[0].MinSamples = 100*time.Millisecond, 20
		}
	})
	if on {
		return "smoothing 1.0 with a 5 ms sample window — expect oscillating"
	}
	return fmt.Sprintf("smoothing back to %.1f", limiter.DefaultSmoothing)
}

// Reset restores the starting world.
func (w *World) Reset() string {
	for _, d := range w.Downstreams {
		d.Set(d.spec.Capacity, d.spec.BaseLatency)
	}
	w.mu.Lock()
	w.idle = false
	osc := w.oscillate
	w.mu.Unlock()
	if osc {
		w.Oscillate()
	}
	return "world reset"
}

// Close stops the servers.
func (w *World) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if w.metrics != nil {
		w.metrics.Shutdown(ctx)
	}
	for _, d := range w.Downstreams {
		if d.srv != nil {
			d.srv.Close()
		}
	}
}

// Action is one change of the demo's world, bound to a key.
type Action struct {
	Key, Help string
	Do        func() string
}

// Actions are the demo's keys, in the order the dashboard lists them.
func (w *World) Actions() []Action {
	return []Action{
		{Key: "d", Help: "deploy ×2", Do: w.Deploy},
		{Key: "n", Help: "noisy neighbour ×0.6", Do: w.NoisyNeighbour},
		{Key: "w", Help: "downstream sick", Do: w.Slow},
		{Key: "i", Help: "idle", Do: w.Idle},
		{Key: "o", Help: "oscillate", Do: w.Oscillate},
		{Key: "r", Help: "reset", Do: w.Reset},
	}
}

// Do runs the action of key, returning what it did; ok is false for an
// unknown key.
func (w *World) Do(key string) (string, bool) {
	for _, a := range w.Actions() {
		if a.Key == key {
			return a.Do(), true
		}
	}
	return "", false
}

func (w *World) keyList() string {
	var keys []string
	for _, a := range w.Actions() {
		keys = append(keys, a.Key)
	}
	return strings.Join(keys, ", ")
}
