package diagnose

import (
	"testing"
	"time"
)

// Envoy's gradient controller pins concurrency to its minimum every
// min_rtt_calc interval (60 s, plus jitter) while it re-measures the min
// RTT; a scrape that lands in it reads the pinned limit. Those dips are the
// controller working, not a verdict: a healthy and a pipeline-bound series
// with them keep their verdicts, and a degraded one stays degraded, at 1,
// 5 and 15 s sampling.
func TestPeriodicPinsToTheMinimumAreNotAVerdict(t *testing.T) {
	for _, iv := range []time.Duration{time.Second, 5 * time.Second, 15 * time.Second} {
		n := int(40 * time.Minute / iv)
		pinned := func(i int) bool {
			// one sample in each minute (plus 7 s of jitter a minute)
			at := time.Duration(i) * iv
			period := 67 * time.Second
			return at%period < iv
		}
		cases := []struct {
			name string
			row  func(i int) (float64, float64, float64, float64, float64, float64)
			want Class
		}{
			{"healthy", func(i int) (float64, float64, float64, float64, float64, float64) {
				if pinned(i) {
					return 3, 3, 20, 21, 0, 400
				}
				return 100 + wobble3(i), 100, 20, 24, 0, 300
			}, Healthy},
			{"pipeline-bound", func(i int) (float64, float64, float64, float64, float64, float64) {
				if pinned(i) {
					return 3, 3, 20, 21, 0, 0
				}
				return 100 + wobble3(i), 30 + wobble3(i), 20, 20, 0, 0
			}, PipelineBound},
			{"degraded", func(i int) (float64, float64, float64, float64, float64, float64) {
				at := time.Duration(i) * iv
				if pinned(i) {
					return 3, 3, 20, 21, 0, 400
				}
				if at > 20*time.Minute {
					return 10 + wobble3(i), 10, 60, 70, 0, 900
				}
				return 100 + wobble3(i), 100, 20, 24, 0, 300
			}, Degraded},
		}
		for _, c := range cases {
			r := Classify("x", synth(n, iv, c.row), Options{})
			if r.Class != c.want {
				t.Errorf("%v sampling, %s: %s; findings %+v", iv, c.name, r.Class, r.Findings)
			}
		}
	}
}
