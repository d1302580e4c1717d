package cmd

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/limitscope/limitscope/trace"
)

// BenchmarkDiagnoseMillionRowCSV is `limitscope diagnose FILE --format json`
// end to end on a 1,000,000-row CSV (four targets, 250,000 one-second
// samples each, a gradient-like limit with noise): open, parse, classify,
// render. The bar is 1.5 s per run.
func BenchmarkDiagnoseMillionRowCSV(b *testing.B) {
	path := filepath.Join(b.TempDir(), "million.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := trace.NewWriter(f, trace.CSV)
	rng := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	const targets, perTarget = 4, 250_000
	for i := 0; i < perTarget; i++ {
		for k := 0; k < targets; k++ {
			s := trace.Sample{Time: t0.Add(time.Duration(i) * time.Second), Target: fmt.Sprintf("svc-%d", k)}
			limit := 40 + 4*rng.NormFloat64()
			s.Set(trace.FieldLimit, limit)
			s.Set(trace.FieldInFlight, limit*0.9)
			s.Set(trace.FieldRTTMin, 20)
			s.Set(trace.FieldRTT, 22+2*rng.Float64())
			s.Set(trace.FieldDropped, 0)
			s.Set(trace.FieldRejected, float64(rng.IntN(50)))
			if err := w.Write(s); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, errOut, code := run(b, "", "diagnose", path, "--format", "json"); code > 1 { // 1: a fail-on class was found
			b.Fatalf("exit %d: %s", code, errOut)
		}
	}
	b.ReportMetric(float64(targets*perTarget*b.N)/b.Elapsed().Seconds(), "rows/s")
}
