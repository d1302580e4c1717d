// Package limiterprom exports limiter.Gate series to Prometheus: limit,
// in-flight and min RTT together (the three read as a story), an RTT
// histogram and request counts by outcome, all labelled downstream. It is a
// separate package so that a service importing limiter alone needs only the
// standard library.
package limiterprom

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/limitscope/limitscope/limiter"
)

// Metric names exported by Collector, all labelled downstream. RTTs are in
// seconds, per Prometheus conventions.
const (
	MetricLimit    = "limiter_limit"
	MetricInFlight = "limiter_in_flight"
	MetricRTTMin   = "limiter_rtt_min_seconds"
	MetricRTT      = "limiter_rtt_seconds"
	MetricRequests = "limiter_requests_total"
)

// Collector is a prometheus.Collector for every gate added to it. The gauges
// and counters are read from the gates at scrape time, so the request path
// pays only the histogram. The zero Collector is not usable: create one with
// NewCollector.
type Collector struct {
	mu    sync.Mutex
	gates []*limiter.Gate
	rtt   *prometheus.HistogramVec

	limit, inFlight, rttMin, requests *prometheus.Desc
}

// NewCollector returns an empty collector; register it with a
// prometheus.Registerer and Add gates to it.
func NewCollector() *Collector {
	l := []string{"downstream"}
	return &Collector{
		rtt: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    MetricRTT,
			Help:    "Round-trip time of successful downstream calls, measured around the call only.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 15),
		}, l),
		limit:    prometheus.NewDesc(MetricLimit, "Enforced concurrency limit (adaptive limit under the static cap).", l, nil),
		inFlight: prometheus.NewDesc(MetricInFlight, "Requests currently holding a permit.", l, nil),
		rttMin:   prometheus.NewDesc(MetricRTTMin, "The limiter's current minimum-RTT estimate.", l, nil),
		requests: prometheus.NewDesc(MetricRequests, "Requests by outcome: success, dropped (loss event) or rejected by the limit.", []string{"downstream", "outcome"}, nil),
	}
}

// seconds feeds a gate's RTTs to its histogram, in seconds.
type seconds struct{ prometheus.Observer }

func (s seconds) ObserveRTT(rtt time.Duration) { s.Observe(rtt.Seconds()) }

// Add exports g's series under its Downstream name. Adding one gate twice
// exports it twice, which the registry refuses at scrape time.
func (c *Collector) Add(g *limiter.Gate) {
	g.SetRTTObserver(seconds{c.rtt.WithLabelValues(g.Downstream())})
	c.mu.Lock()
	c.gates = append(c.gates, g)
	c.mu.Unlock()
}

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.limit
	ch <- c.inFlight
	ch <- c.rttMin
	ch <- c.requests
	c.rtt.Describe(ch)
}

// Collect implements prometheus.Collector.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	gates := append([]*limiter.Gate(nil), c.gates...)
	c.mu.Unlock()
	for _, g := range gates {
		s := g.Stats()
		d := s.Downstream
		ch <- prometheus.MustNewConstMetric(c.limit, prometheus.GaugeValue, float64(s.Limit), d)
		ch <- prometheus.MustNewConstMetric(c.inFlight, prometheus.GaugeValue, float64(s.InFlight), d)
		ch <- prometheus.MustNewConstMetric(c.rttMin, prometheus.GaugeValue, s.MinRTT.Seconds(), d)
		ch <- prometheus.MustNewConstMetric(c.requests, prometheus.CounterValue, float64(s.Success), d, "success")
		ch <- prometheus.MustNewConstMetric(c.requests, prometheus.CounterValue, float64(s.Dropped), d, "dropped")
		ch <- prometheus.MustNewConstMetric(c.requests, prometheus.CounterValue, float64(s.Rejected), d, "rejected")
	}
	c.rtt.Collect(ch)
}
