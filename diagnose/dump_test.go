//go:build !race

package diagnose

import (
	"fmt"
	"os"
	"strings"
	"time"
	"testing"
)

func TestDumpSuite(t *testing.T) {
	want := os.Getenv("DUMP")
	if want == "" {
		t.Skip()
	}
	for _, l := range generateSuite(calibrationSeed, 20) {
		if !strings.Contains(l.name, want) {
			continue
		}
		st := NewStream("x", Options{})
		for _, smp := range l.samples {
			st.Push(smp)
		}
		r := st.Result()
		if r.Class == l.label {
			continue
		}
		fmt.Printf("== %s → %s (window %v)\n", l.name, r.Class, time.Duration(st.window))
		for _, f := range st.findings {
			w := f.w
			fmt.Printf("%-20s %s–%s med=%.1f p10=%.1f p90=%.1f pinned=%v rise=%.2f rttMed=%.1f atBase=%.1f floor=%.1f drop=%.4f\n", f.Class, f.Start.Format("15:04:05"), f.End.Format("15:04:05"), w.limitMed, w.p10, w.p90, w.pinned, w.rttRise, w.rttMed, st.rttAtBase, w.floor, w.dropShare)
		}
	}
}
