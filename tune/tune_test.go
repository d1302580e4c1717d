package tune

import (
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/sim"
	"github.com/limitscope/limitscope/trace"
)

// oscillatingTrace records a gradient limiter with smoothing 1.0 and a sample
// window a quarter of the RTT: it swings.
func oscillatingTrace(t testing.TB) []trace.Sample {
	t.Helper()
	sc, err := sim.Parse([]byte(`duration: 20m
seed: 4
downstream: {latency_sigma: 0.1, shed_at: 3}
schedule:
  - {at: 0s, capacity: 120, base_latency: 300ms, demand: 600}
`), "osc")
	if err != nil {
		t.Fatal(err)
	}
	g := &limiter.Gradient{Smoothing: 1, InitialLimit: 120}
	return sim.Run(sc, &limiter.Windowed{Limiter: g, Window: 75 * time.Millisecond}, sim.Options{Name: "orders"}).Samples
}

func TestSweepOverAnOscillatingTraceRecommendsLowerSmoothing(t *testing.T) {
	samples := oscillatingTrace(t)
	if d := diagnose.Classify("orders", samples, diagnose.Options{}); d.Class != diagnose.Oscillating {
		t.Fatalf("the recorded trace should oscillate, got %s", d.Class)
	}
	rec, err := Prepare("orders", samples)
	if err != nil {
		t.Fatal(err)
	}
	base := Defaults()
	base.Set("smoothing", 1)
	opt := Options{Mode: ClosedLoop, SampleWindow: 75 * time.Millisecond}
	baseline := Run(rec, base, opt)
	ax, err := Algorithms[0].ParseAxis("smoothing=0.05:1:0.05")
	if err != nil {
		t.Fatal(err)
	}
	rows := Sweep(rec, Grid(base, []Axis{ax}), opt, nil)
	for _, r := range rows {
		t.Logf("smoothing %.2f: util %.3f osc %.2f episodes %d verdict %s", r.Params.values["smoothing"], r.Utilisation, r.OscillationIndex, r.OverloadEpisodes, r.Verdict)
	}
	rec2 := Recommend(rows, &baseline)
	t.Log(rec2.Reason)
	if sm, _ := rec2.Params.Get("smoothing"); !rec2.Found || sm >= 1 {
		t.Fatalf("recommended %s, want a smoothing lower than the recorded 1.0", rec2.Params.Short())
	}
	if baseline.Verdict != diagnose.Oscillating {
		t.Errorf("the what-if of the recorded settings should oscillate too, got %s", baseline.Verdict)
	}
}

func TestParamsFilesRoundTrip(t *testing.T) {
	p := Defaults()
	p.Set("smoothing", 0.15)
	p.Set("cap", 120)
	p.Set("rtt_window", 90)
	files, err := p.WriteFiles(filepath.Join(t.TempDir(), "params"))
	if err != nil || len(files) != 3 {
		t.Fatal(err)
	}
	for _, f := range files[:2] {
		q, err := ReadParams(f)
		if err != nil || !reflect.DeepEqual(p, q) {
			t.Fatalf("%s: %+v %v", f, q, err)
		}
	}
	if lit := p.GoLiteral(); !strings.Contains(lit, "Smoothing:       0.15") || !strings.Contains(lit, "90 * time.Second") || !strings.Contains(lit, "Cap: 120") {
		t.Fatalf("Go literal:\n%s", lit)
	}
}

func TestParseAxisAndValidate(t *testing.T) {
	a, err := Algorithms[0].ParseAxis("smoothing=0.05:0.5:0.05")
	if err != nil || len(a.Values) != 10 || a.Values[9] != 0.5 {
		t.Fatalf("%v %v", a, err)
	}
	if a, err := Algorithms[0].ParseAxis("cap=50,100,200"); err != nil || len(a.Values) != 3 {
		t.Fatal(a, err)
	}
	for _, bad := range []string{"bogus=1:2:1", "smoothing", "smoothing=1:0:0.1", "smoothing=a,b"} {
		if _, err := Algorithms[0].ParseAxis(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	p := Defaults()
	p.Set("smoothing", 0)
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "smoothing") {
		t.Fatal(err)
	}
	if g := Grid(Defaults(), []Axis{{"smoothing", []float64{0.1, 0.2}}, {"cap", []float64{10, 20, 30}}}); len(g) != 6 {
		t.Fatalf("grid %d", len(g))
	}
}

var (
	bigOnce sync.Once
	big     *Recorded
)

// hourAt1kHz is an hour of RTT samples at 1 kHz (3.6 M).
func hourAt1kHz(b *testing.B) *Recorded {
	bigOnce.Do(func() {
		t0 := time.Unix(1764410400, 0)
		s := make([]trace.Sample, 3_600_000)
		for i := range s {
			x := trace.Sample{Time: t0.Add(time.Duration(i) * time.Millisecond)}
			x.Set(trace.FieldRTT, 10+5*math.Sin(float64(i)/5000)+float64(i%7)/7)
			x.Set(trace.FieldInFlight, float64(30+i%11))
			s[i] = x
		}
		r, err := Prepare("x", s)
		if err != nil {
			b.Fatal(err)
		}
		big = r
	})
	return big
}

func BenchmarkSweep20ValuesOverAnHourAt1kHz(b *testing.B) {
	rec := hourAt1kHz(b)
	ax, _ := Algorithms[0].ParseAxis("smoothing=0.05:1:0.05")
	sets := Grid(Defaults(), []Axis{ax})
	if len(sets) != 20 {
		b.Fatalf("%d sets", len(sets))
	}
	for _, m := range []Mode{OpenLoop, ClosedLoop} {
		b.Run(m.String(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				Sweep(rec, sets, Options{Mode: m}, nil)
			}
		})
	}
}

// Candidates that are all insufficient-data give no recommendation, and say so.
func TestNoRecommendationFromInsufficientData(t *testing.T) {
	rows := []Row{{Params: Defaults(), Verdict: diagnose.Insufficient, Utilisation: 0.9}, {Params: Defaults(), Verdict: diagnose.Insufficient}}
	r := Recommend(rows, nil)
	if r.Found || !strings.Contains(r.Reason, "insufficient-data") {
		t.Fatalf("%+v", r)
	}
}

// Every knob reads its values one way, from the one table: --sweep takes
// durations as --rtt-window does, and "none" for the cap.
func TestTableReadsValuesOneWay(t *testing.T) {
	cases := []struct {
		axis string
		want []float64
	}{
		{"rtt_window=10s,30s", []float64{10, 30}},
		{"rtt-window=30s:2m:30s", []float64{30, 60, 90, 120}},
		{"rtt_window=45,1m", []float64{45, 60}},
		{"cap=none,50", []float64{0, 50}},
		{"smoothing=0.1:0.3:0.1", []float64{0.1, 0.2, 0.3}},
	}
	for _, c := range cases {
		a, err := Algorithms[0].ParseAxis(c.axis)
		if err != nil || !reflect.DeepEqual(a.Values, c.want) {
			t.Errorf("%s: %v %v, want %v", c.axis, a.Values, err, c.want)
		}
	}
	for _, bad := range []string{"rtt_window=soon", "smoothing=none", "cap=1:x:1"} {
		if _, err := Algorithms[0].ParseAxis(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// flags hold what is typed until the algorithm is known
	var fvs FlagValues
	flags := map[string]Flag{}
	for _, f := range fvs.Flags() {
		if _, dup := flags[f.Param.Flag]; dup {
			t.Fatalf("--%s registered twice", f.Param.Flag)
		}
		flags[f.Param.Flag] = f
	}
	rw := flags["rtt-window"]
	if err := rw.Set("2m"); err != nil || rw.String() != "2m0s" || rw.Type() != "duration" {
		t.Fatalf("--rtt-window 2m: %v %q", err, rw.String())
	}
	if err := rw.Set("soon"); err == nil || !strings.Contains(err.Error(), "not a duration") {
		t.Fatalf("--rtt-window soon: %v", err)
	}
	p := Defaults()
	if err := fvs.Apply(&p); err != nil || p.values["rtt_window"] != 120 {
		t.Fatalf("apply --rtt-window 2m to gradient: %v %v", err, p.values["rtt_window"])
	}
	vegas, _ := LookupAlgorithm("vegas")
	q := vegas.Defaults()
	if err := fvs.Apply(&q); err == nil || !strings.Contains(err.Error(), "--rtt-window is not a parameter of vegas") {
		t.Fatalf("--rtt-window applied to vegas: %v", err)
	}
	// every algorithm: complete rows, defaults that validate, a limiter its
	// table builds, a Go literal naming its type, a sensitive knob
	for _, a := range Algorithms {
		d := a.Defaults()
		if err := d.Validate(); err != nil {
			t.Errorf("%s defaults: %v", a.Name, err)
		}
		if d.Candidate().Limiter == nil || !strings.HasPrefix(d.GoLiteral(), "limiter."+a.Type+"{") {
			t.Errorf("%s: no limiter or Go literal %q", a.Name, d.GoLiteral())
		}
		if _, ok := a.Lookup(a.Sensitive); !ok || len(a.SweepValues) == 0 {
			t.Errorf("%s: sensitive knob %q unknown", a.Name, a.Sensitive)
		}
		for _, k := range a.Table {
			if k.Name == "" || k.Flag == "" || k.Help == "" || k.Step <= 0 || k.Field == "" {
				t.Errorf("%s: row %q is incomplete: %+v", a.Name, k.Name, k)
			}
		}
	}
	// the gradient's table builds the limiter with the limiter's defaults
	g := Defaults().Candidate().Limiter.(*limiter.Gradient)
	dg := limiter.NewGradient()
	if g.Smoothing != dg.Smoothing || g.RTTWindow != dg.RTTWindow || g.GrowthThreshold != dg.GrowthThreshold || g.MaxLimit != dg.MaxLimit {
		t.Fatalf("defaults differ from the limiter's: %+v vs %+v", g, dg)
	}
}

// w in the tune view never overwrites parameter files: a second write goes
// beside the first.
func TestWriteFilesNeverOverwrites(t *testing.T) {
	stem := filepath.Join(t.TempDir(), "params")
	p := Defaults()
	first, err := p.WriteFiles(stem)
	if err != nil || first[0] != stem+".json" {
		t.Fatal(first, err)
	}
	p.Set("smoothing", 0.1)
	second, err := p.WriteFiles(stem)
	if err != nil || second[0] != stem+"-2.json" || second[2] != stem+"-2.go" {
		t.Fatal(second, err)
	}
	if q, err := ReadParams(stem + ".json"); err != nil || q.values["smoothing"] != Defaults().values["smoothing"] {
		t.Fatalf("the first file was changed: %+v %v", q, err)
	}
	if q, err := ReadParams(stem + "-2.yaml"); err != nil || q.values["smoothing"] != 0.1 {
		t.Fatalf("the second write: %+v %v", q, err)
	}
}
