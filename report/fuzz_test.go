package report

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/limitscope/limitscope/diagnose"
	"github.com/limitscope/limitscope/trace"
)

// samplesFrom decodes arbitrary bytes into a time-ordered sample sequence:
// each sample takes a time step (any int64, so gaps up to the whole int64
// range and equal times) and six raw float64 values (NaN, ±Inf, 1e308, …),
// each present or not by a mask byte.
func samplesFrom(b []byte) []trace.Sample {
	var out []trace.Sample
	t := int64(math.MinInt64 / 2)
	for len(b) >= 57 && len(out) < 4000 {
		step := int64(binary.LittleEndian.Uint64(b))
		if step < 0 {
			step = -step
		}
		step %= int64(1 << 62)
		if t > math.MaxInt64-step {
			break
		}
		t += step
		s := trace.Sample{Time: time.Unix(0, t), Target: "x"}
		mask := b[8]
		for k, f := range []trace.Field{trace.FieldLimit, trace.FieldInFlight, trace.FieldRTTMin, trace.FieldRTT, trace.FieldDropped, trace.FieldRejected} {
			if mask&(1<<k) != 0 {
				s.Set(f, math.Float64frombits(binary.LittleEndian.Uint64(b[9+8*k:])))
			}
		}
		out = append(out, s)
		b = b[57:]
	}
	return out
}

func seedSamples() []byte { return seedSamplesN(40) }

func seedSamplesN(n int) []byte { return seedRepeated(n, 1) }

// seedRepeated is n readings a second apart, each in k rows (a series read
// more often than its source changed) with an RTT that moves between them.
func seedRepeated(n, k int) []byte {
	var b []byte
	for i := 0; i < n; i++ {
		for range k {
			b = binary.LittleEndian.AppendUint64(b, uint64(time.Second/time.Duration(k)))
			b = append(b, 0x3f)
			for _, v := range []float64{20 + float64(i%5), 18, 10, 11 + float64((i%3)*(k-1)), 0, 3} {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
			}
		}
	}
	return b
}

// seedHuge is n samples a second apart whose limit is 1e308, a valid CSV
// value: sums over them overflow (the text report's sparkline panicked).
func seedHuge(n int) []byte {
	var b []byte
	for range n {
		b = binary.LittleEndian.AppendUint64(b, uint64(time.Second))
		b = append(b, 0x0f)
		for _, v := range []float64{1e308, 1, 10, 12, 0, 0} {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

// seedSpaced is one reading per step, each step the time since the reading
// before (a gap where it is an hour or more): readings 75 s apart hold the
// first window until the adaptive window is sized, and a recording after
// a gap sizes its window afresh.
func seedSpaced(steps ...time.Duration) []byte {
	var b []byte
	for i, step := range steps {
		b = binary.LittleEndian.AppendUint64(b, uint64(step))
		b = append(b, 0x3f)
		for _, v := range []float64{20, 18, 100, 120 + float64(i%3), 0, 1} {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

// repeat is n copies of d.
// seedSlowMinute is 45 readings 15 s apart whose RTT stands at rtt (and the
// min RTT at most of it) in readings 20 to 23: an incident shorter than a
// window (diagnose's shortSlowdowns).
func seedSlowMinute(rtt float64) []byte {
	var b []byte
	for i := range 45 {
		b = binary.LittleEndian.AppendUint64(b, uint64(15*time.Second))
		b = append(b, 0x3f)
		lat, min := 120.0, 100.0
		if i >= 20 && i < 24 {
			lat, min = rtt, 0.9*rtt
		}
		for _, v := range []float64{20, 20, min, lat, 0, 30} {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

func repeat(n int, d time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = d
	}
	return out
}

// FuzzDiagnose: no input sample sequence panics the classifier, hangs it,
// makes a report that is not well-formed (JSON parses, numbers finite), or
// a finding whose sentence prints NaN or Inf. The
// first 8 bytes choose the window (0: adaptive, else at least
// diagnose.MinWindow).
func FuzzDiagnose(f *testing.F) {
	f.Add(append(binary.LittleEndian.AppendUint64(nil, uint64(time.Minute)), seedSamplesN(8)...))
	f.Add(append(binary.LittleEndian.AppendUint64(nil, uint64(time.Second)), seedSamplesN(14)...))
	f.Add(append(binary.LittleEndian.AppendUint64(nil, 0), seedRepeated(40, 5)...))
	f.Add(append(binary.LittleEndian.AppendUint64(nil, 0), seedHuge(60)...))
	f.Add(append(binary.LittleEndian.AppendUint64(nil, 0), seedSpaced(repeat(8, 75*time.Second)...)...))
	f.Add(append(binary.LittleEndian.AppendUint64(nil, 0), seedSpaced(append(append(repeat(30, time.Second), 2*time.Hour), repeat(30, 15*time.Second)...)...)...))
	// 5 readings held too few to judge, then, 2 hours on, rows repeating
	// their readings: the recording after the gap decides its own fold
	f.Add(append(append(binary.LittleEndian.AppendUint64(nil, 0), seedSpaced(append(repeat(5, time.Second), 2*time.Hour)...)...), seedRepeated(40, 5)...))
	// a minute of tripled latency read every 15 s, and one at the top of
	// the float64 range
	f.Add(append(binary.LittleEndian.AppendUint64(nil, 0), seedSlowMinute(400)...))
	f.Add(append(binary.LittleEndian.AppendUint64(nil, 0), seedSlowMinute(1e308)...))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) < 8 {
			return
		}
		var opt diagnose.Options
		if w := int64(binary.LittleEndian.Uint64(raw)); w != 0 {
			opt.Window = time.Duration(max(w, int64(diagnose.MinWindow)))
		}
		samples := samplesFrom(raw[8:])
		res := diagnose.Classify("x", samples, opt)
		for _, f := range res.Findings {
			// a value that overflowed is left out of the numbers
			// (NonFinite), never printed in the sentence
			if strings.Contains(f.Evidence.Summary, "NaN") || strings.Contains(f.Evidence.Summary, "Inf") {
				t.Fatalf("%s finding says a non-finite number: %q", f.Class, f.Evidence.Summary)
			}
		}
		rep := NewReport("fuzz", []diagnose.Result{res}, map[string][]trace.Sample{"x": samples}, []diagnose.Class{diagnose.Degraded})
		var buf bytes.Buffer
		if err := rep.JSON(&buf); err != nil {
			t.Fatalf("JSON report: %v", err)
		}
		if !json.Valid(buf.Bytes()) {
			t.Fatalf("JSON report does not parse")
		}
		for _, format := range Formats {
			buf.Reset()
			if err := rep.Render(&buf, format, nil); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
		}
	})
}

// FuzzReportWriters: any target name and source (and input warning), in
// every format, gives a well-formed document with no raw control or
// bidirectional rune.
func FuzzReportWriters(f *testing.F) {
	f.Add("pay\x1b[31m<script>\u202e\x7f\u009b\x00", "src\x07&<>")
	f.Add("payments", "trace.csv")
	f.Fuzz(func(t *testing.T, name, source string) {
		samples := samplesFrom(seedSamples())
		for i := range samples {
			samples[i].Target = name
		}
		res := diagnose.Classify(name, samples, diagnose.Options{})
		rep := NewReport(source, []diagnose.Result{res}, map[string][]trace.Sample{name: samples}, []diagnose.Class{diagnose.Degraded})
		rep.Warnings = []string{name, source} // the input's warnings echo its contents
		for _, format := range Formats {
			var buf, sum bytes.Buffer
			if err := rep.Render(&buf, format, &sum); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			out := buf.String() + sum.String()
			for _, r := range out {
				if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069) {
					t.Fatalf("%s: raw %U in the output", format, r)
				}
			}
			if strings.Contains(out, "\xff") && format != "text" {
				t.Fatalf("%s: invalid UTF-8 in the output", format)
			}
			switch format {
			case "json":
				if !json.Valid(buf.Bytes()) {
					t.Fatalf("json does not parse")
				}
			case "junit":
				d := xml.NewDecoder(&buf)
				for {
					if _, err := d.Token(); err != nil {
						if err.Error() != "EOF" {
							t.Fatalf("junit does not parse: %v", err)
						}
						break
					}
				}
			}
		}
	})
}
