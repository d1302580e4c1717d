package limiter

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// Metric names exported by Metrics, all labelled downstream. RTTs are in
// seconds, per Prometheus conventions.
const (
	MetricLimit    = "limiter_limit"
	MetricInFlight = "limiter_in_flight"
	MetricRTTMin   = "limiter_rtt_min_seconds"
	MetricRTT      = "limiter_rtt_seconds"
	MetricRequests = "limiter_requests_total"
)

// Metrics exports limit, in-flight and min RTT together (the seed's sixth
// rule: the three read as a story), plus an RTT histogram and request counts by
// outcome, for every gate added to it. The gauges and counters are read from
// the gates at scrape time, so the request path pays only the histogram.
type Metrics struct {
	mu    sync.Mutex
	gates []*Gate
	rtt   *prometheus.HistogramVec

	limit, inFlight, rttMin, requests *prometheus.Desc
}

// NewMetrics returns an empty collector; register it with a
// prometheus.Registerer and Add gates to it.
func NewMetrics() *Metrics {
	l := []string{"downstream"}
	return &Metrics{
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

// Add exports g's series under its Downstream name.
func (m *Metrics) Add(g *Gate) {
	h := m.rtt.WithLabelValues(g.cfg.Downstream)
	g.mu.Lock()
	g.hist = h
	g.mu.Unlock()
	m.mu.Lock()
	m.gates = append(m.gates, g)
	m.mu.Unlock()
}

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- m.limit
	ch <- m.inFlight
	ch <- m.rttMin
	ch <- m.requests
	m.rtt.Describe(ch)
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	m.mu.Lock()
	gates := append([]*Gate(nil), m.gates...)
	m.mu.Unlock()
	for _, g := range gates {
		s := g.Stats()
		d := s.Downstream
		ch <- prometheus.MustNewConstMetric(m.limit, prometheus.GaugeValue, float64(s.Limit), d)
		ch <- prometheus.MustNewConstMetric(m.inFlight, prometheus.GaugeValue, float64(s.InFlight), d)
		ch <- prometheus.MustNewConstMetric(m.rttMin, prometheus.GaugeValue, s.MinRTT.Seconds(), d)
		ch <- prometheus.MustNewConstMetric(m.requests, prometheus.CounterValue, float64(s.Success), d, "success")
		ch <- prometheus.MustNewConstMetric(m.requests, prometheus.CounterValue, float64(s.Dropped), d, "dropped")
		ch <- prometheus.MustNewConstMetric(m.requests, prometheus.CounterValue, float64(s.Rejected), d, "rejected")
	}
	m.rtt.Collect(ch)
}
