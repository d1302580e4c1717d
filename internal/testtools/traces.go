package testtools

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/limitscope/limitscope/trace"
)

// ReadTrace reads a trace-format CSV file, failing t where it cannot.
func ReadTrace(t testing.TB, path string) []trace.Sample {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	samples, err := trace.NewReader(f, path, trace.CSV).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return samples
}

// RepeatReadings is samples read k times as often as they changed, as a
// Prometheus series exported at a finer step than its scrape interval: each
// reading repeated in k rows spread over its interval, its loss and
// rejection counts spread evenly over them (rate() × step) or, with once,
// all in its first row (increase() over the step). The last reading, whose
// interval is unknown, is left out.
func RepeatReadings(samples []trace.Sample, k int, once bool) []trace.Sample {
	var rows []trace.Sample
	for i := 1; i < len(samples); i++ {
		step := samples[i].Time.Sub(samples[i-1].Time) / time.Duration(k)
		for j := range k {
			x := samples[i-1]
			x.Time = x.Time.Add(time.Duration(j) * step)
			x.Dropped, x.Rejected = samples[i].Dropped/float64(k), samples[i].Rejected/float64(k)
			if once {
				x.Dropped, x.Rejected = 0, 0
				if j == 0 {
					x.Dropped, x.Rejected = samples[i].Dropped, samples[i].Rejected
				}
			}
			rows = append(rows, x)
		}
	}
	return rows
}

// WriteTrace writes samples, in order, as a trace file named name in a
// directory of t's, failing t where it cannot, and returns its path.
func WriteTrace(t testing.TB, name string, samples []trace.Sample) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	w, err := trace.Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range samples {
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
