package trace

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

func readAllString(t *testing.T, body string, f Format) ([]Sample, []string, error) {
	t.Helper()
	r := NewReader(strings.NewReader(body), "t.csv", f)
	s, err := r.ReadAll()
	return s, r.Warnings(), err
}

func TestReadCSVExample(t *testing.T) {
	body := "time,target,limit,in_flight,rtt_min_ms,rtt_ms,dropped\n" +
		"2026-11-29T10:00:00Z,payments,40,37,12.5,13.1,0\n" +
		"2026-11-29T10:00:01Z,payments,41.2,39,12.5,13.4,0\n"
	s, w, err := readAllString(t, body, CSV)
	if err != nil || len(w) != 0 {
		t.Fatalf("err=%v warnings=%v", err, w)
	}
	if len(s) != 2 {
		t.Fatalf("got %d samples", len(s))
	}
	want := Sample{Time: time.Date(2026, 11, 29, 10, 0, 1, 0, time.UTC), Target: "payments", Limit: 41.2, InFlight: 39, RTTMinMs: 12.5, RTTMs: 13.4, Dropped: 0,
		Fields: FieldLimit | FieldInFlight | FieldRTTMin | FieldRTT | FieldDropped}
	if !s[1].Time.Equal(want.Time) || s[1].Target != want.Target || s[1].Limit != want.Limit || s[1].Fields != want.Fields || s[1].RTTMs != 13.4 {
		t.Fatalf("got %+v want %+v", s[1], want)
	}
	if s[1].Has(FieldRejected) {
		t.Fatal("rejected column absent but reported measured")
	}
}

func TestReadCSVLenientLayout(t *testing.T) {
	body := "\xef\xbb\xbf# recorded by hand\r\n" +
		"RTT_MS , Time,Extra, LIMIT\r\n" +
		"\r\n" +
		"13.1,1764410400.25,x,40\r\n" +
		"# comment\n" +
		", 1764410401 ,y,\n"
	s, w, err := readAllString(t, body, CSV)
	if err != nil {
		t.Fatal(err)
	}
	if len(w) != 1 || !strings.Contains(w[0], "extra") || !strings.Contains(w[0], "t.csv:2") {
		t.Fatalf("want one unknown-column warning naming line 2, got %v", w)
	}
	if len(s) != 2 || s[0].Target != DefaultTarget {
		t.Fatalf("got %+v", s)
	}
	if got := s[0].Time.UnixNano(); got != 1764410400250000000 {
		t.Fatalf("unix time parsed as %d", got)
	}
	if s[1].Has(FieldRTT) || s[1].Has(FieldLimit) {
		t.Fatalf("empty cells must be not measured: %+v", s[1])
	}
}

func TestReadErrorsNameFileLineAndProblem(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"nan", "time,limit\n1,NaN\n", "t.csv:2: limit \"NaN\": NaN and Inf are not values; leave the cell empty where nothing was measured"},
		{"inf", "time,rtt_ms\n1,+Inf\n", "t.csv:2: rtt_ms \"+Inf\": NaN and Inf are not values; leave the cell empty where nothing was measured"},
		{"negative limit", "time,limit\n1,-3\n", "t.csv:2: limit \"-3\": negative values are not allowed"},
		{"negative rtt", "time,rtt_min_ms\n1,-0.5\n", "t.csv:2: rtt_min_ms"},
		{"negative count", "time,dropped\n1,-1\n", "t.csv:2: dropped"},
		{"comma decimal", "time,limit\n1,\"4,5\"\n", "use . as the decimal separator"},
		{"bad time", "time,limit\nyesterday,4\n", "t.csv:2: time \"yesterday\""},
		{"no time column", "target,limit\na,4\n", "t.csv:1: the header has no time column"},
		{"duplicate column", "time,limit,LIMIT\n1,2,3\n", "column \"limit\" appears twice"},
		{"field count", "time,limit\n1,2,3\n2,3\n", "t.csv:2: the row has 3 fields but the header has 2 columns"},
		{"order", "time,target,limit\n2,a,1\n3,b,1\n1,a,1\n", "t.csv:4: time 1970-01-01T00:00:01Z is before the previous row of target \"a\""},
		{"empty", "", "t.csv: the file is empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := readAllString(t, c.body, CSV)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestEqualTimestampsAllowedAndTargetsIndependent(t *testing.T) {
	body := "time,target,limit\n5,a,1\n5,a,2\n1,b,3\n"
	s, _, err := readAllString(t, body, CSV)
	if err != nil || len(s) != 3 {
		t.Fatalf("err=%v n=%d", err, len(s))
	}
}

func TestTruncatedLastLineIsAWarning(t *testing.T) {
	for _, body := range []string{
		"time,limit,in_flight\n1,4,3\n2,5",
		"time,limit,in_flight\n1,4,3\n2026-11-29T10:0",
		"time,limit,in_flight\n1,4,3\n2,5,\"",
		"time,target,limit\n1,a,3\n2,\"never\nclosed,4\n",
	} {
		s, w, err := readAllString(t, body, CSV)
		if err != nil {
			t.Fatalf("%q: truncated last line must not fail: %v", body, err)
		}
		if len(s) != 1 || len(w) != 1 || !strings.Contains(w[0], "truncated last line") || !strings.Contains(w[0], "t.csv:3") {
			t.Fatalf("%q: samples=%d warnings=%v", body, len(s), w)
		}
	}
	// The same broken row in the middle of the file is an error.
	if _, _, err := readAllString(t, "time,limit,in_flight\n2,5\n3,4,4\n", CSV); err == nil {
		t.Fatal("a short row that is not the last line must be an error")
	}
	// A complete last line without newline is fine.
	s, w, err := readAllString(t, "time,limit\n1,4", CSV)
	if err != nil || len(w) != 0 || len(s) != 1 {
		t.Fatalf("s=%v w=%v err=%v", s, w, err)
	}
}

func hostileSamples() []Sample {
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	names := []string{"payments", "a,b", "quote\"d", "new\nline", "\x1b[31mred\x1b[0m", "<script>alert(1)</script>", "#hash", " padded ", "ünïcødé-服务"}
	var out []Sample
	for i := 0; i < 30; i++ {
		s := Sample{Time: t0.Add(time.Duration(i) * 250 * time.Millisecond), Target: names[i%len(names)]}
		s.Set(FieldLimit, 40+float64(i)*0.1)
		if i%3 != 0 {
			s.Set(FieldInFlight, float64(i))
		}
		s.Set(FieldRTTMin, 12.5)
		s.Set(FieldRTT, 13.25+float64(i))
		if i%5 == 0 {
			s.Set(FieldDropped, 2)
			s.Set(FieldRejected, 0)
		}
		out = append(out, s)
	}
	return out
}

func TestRoundTripBothFormatsKeepsHostileNamesAndMissingFields(t *testing.T) {
	for _, f := range []Format{CSV, JSONL} {
		var buf bytes.Buffer
		w := NewWriter(&buf, f)
		in := hostileSamples()
		for _, s := range in {
			if err := w.Write(s); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r := NewReader(&buf, "rt", f)
		out, err := r.ReadAll()
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if len(out) != len(in) {
			t.Fatalf("%v: %d rows back, want %d", f, len(out), len(in))
		}
		for i := range in {
			a, b := in[i], out[i]
			if !a.Time.Equal(b.Time) || a.Target != b.Target || a.Fields != b.Fields || a.Limit != b.Limit || a.InFlight != b.InFlight || a.RTTMs != b.RTTMs || a.Dropped != b.Dropped {
				t.Fatalf("%v row %d: wrote %+v read %+v", f, i, a, b)
			}
		}
	}
}

func TestOpenCreateGzipAndFormatByExtension(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.csv", "a.csv.gz", "a.jsonl", "a.ndjson.gz"} {
		p := filepath.Join(dir, name)
		w, err := Create(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range hostileSamples() {
			if err := w.Write(s); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(p)
		if strings.HasSuffix(name, ".gz") != (len(raw) > 2 && raw[0] == 0x1f && raw[1] == 0x8b) {
			t.Fatalf("%s: gzip by extension not honoured", name)
		}
		s, _, err := ReadFile(p, nil, nil)
		if err != nil || len(s) != 30 {
			t.Fatalf("%s: n=%d err=%v", name, len(s), err)
		}
	}
	// "-" reads stdin.
	s, _, err := ReadFile("-", strings.NewReader("time,limit\n1,2\n"), nil)
	if err != nil || len(s) != 1 {
		t.Fatalf("stdin: %v %v", s, err)
	}
	if _, _, err := ReadFile(filepath.Join(dir, "missing.csv"), nil, nil); err == nil || !strings.Contains(err.Error(), "cannot open trace file") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestKilledGzipWriterLeavesReadablePrefix(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	w := NewWriter(zw, CSV)
	w.gz = zw
	for _, s := range hostileSamples()[:10] {
		_ = w.Write(s)
	}
	_ = w.Flush() // a periodic flush, then the process dies
	_ = w.Write(hostileSamples()[10])
	zr, err := gzip.NewReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	r := NewReader(zr, "k.csv.gz", CSV)
	s, err := r.ReadAll()
	if err != nil || len(s) != 10 {
		t.Fatalf("n=%d err=%v warnings=%v", len(s), err, r.Warnings())
	}
}

func TestWriterFlushesOnInterval(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, CSV)
	w.FlushInterval = 0
	_ = w.Write(hostileSamples()[0])
	if !strings.Contains(buf.String(), "payments") {
		t.Fatal("row not flushed after the interval elapsed")
	}
	w2 := NewWriter(io.Discard, CSV)
	w2.FlushInterval = time.Hour
	var b2 bytes.Buffer
	w2.bw.Reset(&b2)
	_ = w2.Write(hostileSamples()[0])
	if b2.Len() != 0 {
		t.Fatal("row flushed before the interval")
	}
}

func TestReadJSONL(t *testing.T) {
	body := `{"time":"2026-11-29T10:00:00Z","target":"payments","limit":40,"in_flight":37,"rtt_min_ms":12.5}` + "\n" +
		`{"TIME":1764410401.5,"limit":41,"extra":1,"rtt_ms":null}` + "\n"
	s, w, err := readAllString(t, body, JSONL)
	if err != nil || len(s) != 2 {
		t.Fatalf("%v %v", s, err)
	}
	if s[1].Target != DefaultTarget || s[1].Has(FieldRTT) || len(w) != 1 {
		t.Fatalf("got %+v warnings %v", s[1], w)
	}
	// a field given twice, in any case, keeps the later value
	if s, _, err := readAllString(t, `{"time":1,"limit":4,"LIMIT":5}`+"\n", JSONL); err != nil || len(s) != 1 || s[0].Limit != 5 {
		t.Fatalf("a field given twice: %+v %v", s, err)
	}
	for _, bad := range []struct{ body, want string }{
		{`{"time":"x"}`, "t.csv:1: time \"x\""},
		{`{"limit":1}`, "no time field"},
		{`{"time":1,"limit":"4"}`, "limit must be a number"},
		{`{"time":1,"limit":-4}`, "negative"},
		{`[1,2]` + "\n", "not a JSON object"},
		{`{"time":1} {"time":2}`, "not a JSON object: more follows its closing brace"},
		// of two bad values, the first in the line, every time (the
		// members were visited in a Go map's random order)
		{`{"time":"x","target":40}`, `time "x"`},
		{`{"target":40,"time":"x"}`, "target must be a string"},
	} {
		_, _, err := readAllString(t, bad.body+"\n", JSONL)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Fatalf("%s: got %v want %q", bad.body, err, bad.want)
		}
	}
}

// Values beyond float32's range (1e308 is a valid trace value) are held at
// its largest magnitude, not as ±Inf: the dashboard's in-flight / limit of
// two such values was Inf/Inf = NaN, and its bar width from that panicked.
// Values within it keep float32's precision.
func TestPackedSaturatesAtFloat32Range(t *testing.T) {
	r := NewRing(4)
	r.Push(Sample{Limit: 1e308, InFlight: 1e308, RTTMinMs: -1e308, RTTMs: 12.5, Dropped: 3e38, Rejected: math.MaxFloat64})
	got := r.At(0)
	for name, c := range map[string]struct{ got, want float64 }{
		"limit":     {got.Limit, math.MaxFloat32},
		"in_flight": {got.InFlight, math.MaxFloat32},
		"rtt_min":   {got.RTTMinMs, -math.MaxFloat32},
		"rtt":       {got.RTTMs, 12.5},
		"dropped":   {got.Dropped, float64(float32(3e38))},
		"rejected":  {got.Rejected, math.MaxFloat32},
	} {
		if c.got != c.want {
			t.Errorf("%s: %g, want %g", name, c.got, c.want)
		}
	}
	if u := got.InFlight / got.Limit; u != 1 {
		t.Errorf("in-flight / limit of two 1e308 values: %g, want 1", u)
	}
}

func TestRingAndStore(t *testing.T) {
	r := NewRing(3)
	for i := 0; i < 5; i++ {
		r.Push(Sample{Limit: float64(i)})
	}
	if r.Len() != 3 || r.At(0).Limit != 2 || r.At(2).Limit != 4 {
		t.Fatalf("ring wrong: len %d first %v", r.Len(), r.At(0).Limit)
	}
	st := NewStore(2)
	st.Push(Sample{Target: "b"})
	st.Push(Sample{Target: "a"})
	st.Push(Sample{})
	if last, ok := st.Last(DefaultTarget); !ok || last.Target != DefaultTarget {
		t.Fatalf("a sample naming no target is the default target's: %+v %v", last, ok)
	}
	if st.Version() != 3 {
		t.Fatal("version must count pushes")
	}
}

// readBothWays reads body as written and with the count columns read as
// running totals, and fails unless both give the same rows and the same
// error with every value valid; it returns the error as written (nil at
// the end of the input).
func readBothWays(t *testing.T, body, name string, format Format) error {
	var n [2]int
	var errs [2]error
	for k, totals := range []Field{0, FieldDropped | FieldRejected} {
		r := NewReader(strings.NewReader(body), name, format)
		r.RunningTotals = totals
		for ; n[k] < 10000; n[k]++ {
			s, err := r.Read()
			if err != nil {
				if err != io.EOF {
					errs[k] = err
				}
				break
			}
			for _, fn := range fieldNames {
				if v, ok := s.Value(fn.f); ok && (v < 0 || v != v || math.IsInf(v, 0)) {
					t.Fatalf("invalid %s accepted (running totals %v): %v", fn.name, totals, v)
				}
			}
		}
	}
	if n[0] != n[1] || fmt.Sprint(errs[0]) != fmt.Sprint(errs[1]) {
		t.Fatalf("read as running totals: %d rows and %v, as written %d and %v", n[1], errs[1], n[0], errs[0])
	}
	return errs[0]
}

func FuzzReadCSV(f *testing.F) {
	f.Add("time,target,limit,in_flight,rtt_min_ms,rtt_ms,dropped\n2026-11-29T10:00:00Z,payments,40,37,12.5,13.1,0\n")
	f.Add("time,target\n1,\"a\nb\"\n2,\"c\"\"d\"\n")
	f.Add("Time,LIMIT\n1764410400.25,4\n# x\n\n")
	f.Add("time,target,dropped,rejected\n1,a,5,9\n2,a,3,12\n2,b,1e308,0\n3,a,,14\n")
	f.Fuzz(func(t *testing.T, body string) {
		if err := readBothWays(t, body, "fuzz.csv", CSV); err != nil && !strings.HasPrefix(err.Error(), "fuzz.csv") {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}

func FuzzReadJSONL(f *testing.F) {
	f.Add(`{"time":"2026-11-29T10:00:00Z","target":"p","limit":40}` + "\n")
	f.Add(`{"time":1,"limit":1e308}`)
	f.Add(`{"time":1,"target":"a","dropped":5}` + "\n" + `{"time":2,"target":"a","dropped":3}` + "\n" + `{"time":2,"target":"b","rejected":1e308}` + "\n")
	f.Fuzz(func(t *testing.T, body string) {
		readBothWays(t, body, "fuzz.jsonl", JSONL)
	})
}

func benchRows(n int) []Sample {
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	out := make([]Sample, n)
	for i := range out {
		s := Sample{Time: t0.Add(time.Duration(i) * time.Millisecond * 250), Target: []string{"payments", "search", "ledger"}[i%3]}
		s.Set(FieldLimit, 40.5+float64(i%17))
		s.Set(FieldInFlight, float64(i%40))
		s.Set(FieldRTTMin, 12.5)
		s.Set(FieldRTT, 13.125+float64(i%7))
		s.Set(FieldDropped, 0)
		out[i] = s
	}
	return out
}

func BenchmarkCSVWrite(b *testing.B) {
	rows := benchRows(1 << 12)
	w := NewWriter(io.Discard, CSV)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := rows[i&(len(rows)-1)]
		r.Time = r.Time.Add(time.Duration(i>>12) * time.Hour) // each pass later than the last
		_ = w.Write(r)
	}
	if w.Backwards() != 0 {
		b.Fatalf("%d rows skipped as going back in time", w.Backwards())
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkCSVRead(b *testing.B) {
	var buf bytes.Buffer
	w := NewWriter(&buf, CSV)
	rows := benchRows(100000)
	for _, s := range rows {
		_ = w.Write(s)
	}
	_ = w.Close()
	data := buf.Bytes()
	b.SetBytes(int64(len(data)) / int64(len(rows)))
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for n < b.N {
		r := NewReader(bytes.NewReader(data), "bench.csv", CSV)
		for n < b.N {
			if _, err := r.Read(); err != nil {
				break
			}
			n++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// TestStoreHoldsAnHourOf100TargetsIn64MiB measures the heap a store takes for
// 100 targets × 1 h at 1 s.
func TestStoreHoldsAnHourOf100TargetsIn64MiB(t *testing.T) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	st := NewStore(3600)
	for i := 0; i < 3600; i++ {
		for k := 0; k < 100; k++ {
			st.Push(Sample{Time: time.Unix(int64(i), 0), Target: fmt.Sprintf("svc-%03d", k), Limit: 1, Fields: AllFields})
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	mib := float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
	t.Logf("store of 100 targets × 3600 samples: %.1f MiB", mib)
	if mib > 64 {
		t.Fatalf("%.1f MiB > 64 MiB", mib)
	}
	runtime.KeepAlive(st)
}

// Times outside int64 nanoseconds were wrapped (2300 read as 1715) and
// crossed-range traces panicked diagnose: they are input errors with file:line.
func TestTimesOutsideTheNanosecondRangeAreRejected(t *testing.T) {
	for _, tm := range []string{"2300-01-01T00:00:00Z", "1600-01-01T00:00:00Z", "10000000000"} {
		in := "time,limit\n2026-01-01T00:00:00Z,5\n" + tm + ",5\n"
		_, err := NewReader(strings.NewReader(in), "f.csv", CSV).ReadAll()
		if err == nil || !strings.Contains(err.Error(), "f.csv:3:") || !strings.Contains(err.Error(), "2262") {
			t.Errorf("time %s: err %v, want f.csv:3 naming the range", tm, err)
		}
	}
}

// A value our reader refuses (a 1e306 s RTT is +Inf in ms) is never written:
// the file always reads back, the cell "not measured".
func TestWriterNeverWritesWhatTheReaderRefuses(t *testing.T) {
	for _, f := range []Format{CSV, JSONL} {
		var buf bytes.Buffer
		w := NewWriter(&buf, f)
		s := Sample{Time: time.Unix(1764410400, 0), Target: "x"}
		s.Set(FieldLimit, 5)
		s.Set(FieldRTTMin, math.Inf(1))
		s.Set(FieldRTT, math.NaN())
		s.Set(FieldDropped, -1)
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
		w.Close()
		got, err := NewReader(&buf, "rt", f).ReadAll()
		if err != nil || len(got) != 1 || got[0].Has(FieldRTTMin) || got[0].Has(FieldRTT) || got[0].Has(FieldDropped) || got[0].Limit != 5 {
			t.Fatalf("%v: %v %+v", f, err, got)
		}
	}
}

// Any target name written is read back identical: edge whitespace of every
// kind (tab, VT, FF, NBSP, NEL), quotes, commas, newlines, '#', invalid UTF-8.
func TestAnyTargetNameRoundTrips(t *testing.T) {
	names := []string{"x\t", "\tx", "x\u00a0", "\u0085x", "x\v", "\fx", " x ", "a,b", `q"q`, "l1\nl2", "#x", "\xff\xfe", "x\xff", "ok"}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune{'a', ' ', '\t', '\v', '\f', '\r', '\n', ',', '"', '#', '\u00a0', '\u0085', '\u2028', '\u3000', 'é', '\x00', '\x1b'}
	for i := 0; i < 2000; i++ {
		n := 1 + rng.IntN(6)
		var b strings.Builder
		for j := 0; j < n; j++ {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		names = append(names, b.String())
	}
	for _, f := range []Format{CSV, JSONL} {
		var buf bytes.Buffer
		w := NewWriter(&buf, f)
		for i, name := range names {
			s := Sample{Time: time.Unix(1764410400+int64(i), 0), Target: name}
			s.Set(FieldLimit, 5)
			if err := w.Write(s); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		got, err := NewReader(&buf, "rt", f).ReadAll()
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if len(got) != len(names) {
			t.Fatalf("%v: %d rows back, want %d", f, len(got), len(names))
		}
		for i := range names {
			if got[i].Target != names[i] && !(f == JSONL && !utf8.ValidString(names[i])) {
				t.Errorf("%v: name %q read back as %q", f, names[i], got[i].Target)
			}
		}
	}
}

// A 200 MB line without a newline used to become a 209 MB error message and
// 1.7 GB of memory: lines are capped at MaxLineBytes, the error names file:line.
func TestOverlongLinesAreRefusedWithTheirLine(t *testing.T) {
	long := strings.Repeat("9", 3*MaxLineBytes)
	for _, f := range []Format{CSV, JSONL} {
		in := "time,limit\n1,2\n" + long
		if f == JSONL {
			in = `{"time":1,"limit":2}` + "\n" + long
		}
		_, err := NewReader(strings.NewReader(in), "big", f).ReadAll()
		if err == nil || !strings.Contains(err.Error(), "big:") || !strings.Contains(err.Error(), "longer than 1 MiB") || len(err.Error()) > 200 {
			t.Errorf("%v: %.300v", f, err)
		}
	}
	quoted := "time,target,limit\n1,\"" + strings.Repeat("x\n", MaxLineBytes) + "\",2\n"
	if _, err := NewReader(strings.NewReader(quoted), "q", CSV).ReadAll(); err == nil || !strings.Contains(err.Error(), "q:2:") {
		t.Errorf("multi-line quoted field: %.300v", err)
	}
}

// Messages that repeat file contents reach stderr with no raw control
// sequence and capped: unknown columns, the "no time column" list, JSONL keys.
func TestMessagesEchoFileContentsSafely(t *testing.T) {
	evil := "\x1b[2J\x07" + strings.Repeat("x", 500)
	cases := map[string]Format{
		"time,limit," + evil + "\n1,2,3\n":      CSV,
		"limit," + evil + "\n2,3\n":             CSV,
		`{"time":1,"limit":2,"` + evil + `":1}`: JSONL,
	}
	for in, f := range cases {
		r := NewReader(strings.NewReader(in), "f\x1b[31m", f)
		_, err := r.ReadAll()
		var msgs []string
		if err != nil {
			msgs = append(msgs, err.Error())
		}
		msgs = append(msgs, r.Warnings()...)
		if len(msgs) == 0 {
			t.Fatalf("%q: no message", in)
		}
		for _, m := range msgs {
			if strings.ContainsAny(m, "\x1b\x07") || len(m) > 400 {
				t.Errorf("%q: unsafe or unbounded message %q", in, m)
			}
		}
	}
}

// Commands that hold a whole trace refuse one beyond their budget with a
// message, instead of exhausting memory.
func TestReaderSampleBudget(t *testing.T) {
	in := "time,limit\n1,2\n2,2\n3,2\n4,2\n"
	r := NewReader(strings.NewReader(in), "big.csv", CSV)
	r.MaxSamples = 3
	_, err := r.ReadAll()
	if !errors.Is(err, ErrTooManySamples) || !strings.Contains(err.Error(), "big.csv") || !strings.Contains(err.Error(), "at most 3") {
		t.Fatalf("err %v", err)
	}
	r = NewReader(strings.NewReader(in), "ok.csv", CSV)
	r.MaxSamples = 4
	if s, err := r.ReadAll(); err != nil || len(s) != 4 {
		t.Fatalf("within budget: %v %d", err, len(s))
	}
}

// failingFile fails every write after the first n bytes.
type failingFile struct{ n int }

func (f *failingFile) Write(p []byte) (int, error) {
	if f.n < len(p) {
		return 0, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

// The first error of a SyncWriter sticks: later writes do nothing and
// Flush and Close report it, from any goroutine.
func TestSyncWriterKeepsTheFirstError(t *testing.T) {
	w := NewSyncWriter(NewWriter(&failingFile{n: 100}, CSV))
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				s := Sample{Time: time.Unix(int64(i), 0), Target: fmt.Sprint("t", g)}
				s.Set(FieldLimit, 10)
				w.Write(s)
				if i%50 == 0 {
					_ = w.Flush()
				}
			}
		}()
	}
	wg.Wait()
	if err := w.Flush(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("flush after a failed write: %v", err)
	}
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("close after a failed write: %v", err)
	}
}

// Values are written at the precision they are measured at: no float noise
// from unit conversions (RTTs to the microsecond, others to 10⁻⁶).
func TestWriterDropsFloatNoise(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b, CSV)
	s := Sample{Time: time.Unix(1764410400, 0), Target: "x"}
	s.Set(FieldRTT, 40.615328999999996)
	s.Set(FieldRTTMin, 0.1+0.2)
	s.Set(FieldLimit, 12.3456789)
	s.Set(FieldInFlight, 7)
	if err := w.Write(s); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Split(b.String(), "\n")[1], "2025-11-29T10:00:00Z,x,12.345679,7,0.3,40.615,,"; got != want {
		t.Fatalf("row %q, want %q", got, want)
	}
}

// TestRunningTotalsAreWarnedOf: a count column that reads as a running total
// (a counter's value exported as is) is warned of at the end of the file,
// naming the target and the column; counts since the previous row, however
// they move, are not.
func TestRunningTotalsAreWarnedOf(t *testing.T) {
	rows := func(n int, dropped func(i int) float64) string {
		var b strings.Builder
		b.WriteString("time,target,limit,dropped\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%d,api,10,%g\n", 1764410400+15*i, dropped(i))
		}
		return b.String()
	}
	noise := []float64{3, 5, 2, 4, 6, 1, 4, 3, 5, 2}
	for _, c := range []struct {
		name string
		body string
		// want: a running-total warning as read; counts: a warning that
		// the column is counts when it is read as a running total
		// (--running-totals dropped)
		want, counts bool
	}{
		{"a running total of 3 a row", rows(80, func(i int) float64 { return float64(3 * (i + 1)) }), true, false},
		{"a Prometheus counter, reset once", rows(80, func(i int) float64 {
			if i < 50 {
				return float64(120000 + 7*i)
			}
			return float64(7 * (i - 50))
		}), true, false},
		{"a sparse counter: one loss a minute", rows(80, func(i int) float64 { return float64(40 + i/4) }), true, false},
		{"counts since the previous row", rows(80, func(i int) float64 { return noise[i%len(noise)] }), false, true},
		{"counts rising with their noise", rows(80, func(i int) float64 { return float64(i) + 3*noise[i%len(noise)] }), false, true},
		{"a constant count", rows(80, func(int) float64 { return 4 }), false, false},
		{"a count that steps up once and stays", rows(80, func(i int) float64 { return float64(5 * (i / 40)) }), false, false},
		{"no losses", rows(80, func(int) float64 { return 0 }), false, false},
		{"too short to tell: 19 rows", rows(19, func(i int) float64 { return float64(3 * (i + 1)) }), false, false},
	} {
		// read as running totals: no running-total warning, and one that
		// the column is counts where it falls as counts do
		rt := NewReader(strings.NewReader(c.body), "f.csv", CSV)
		rt.RunningTotals = FieldDropped
		if _, err := rt.ReadAll(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if w := rt.Warnings(); (len(w) == 1 && strings.HasPrefix(w[0], `f.csv: target "api": dropped was read as a running total (--running-totals), yet it falls in`)) != c.counts || len(w) > 1 {
			t.Errorf("%s, read as a running total: warnings %q, want one saying it is counts %v", c.name, w, c.counts)
		}
		r := NewReader(strings.NewReader(c.body), "f.csv", CSV)
		if _, err := r.ReadAll(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, w := range r.Warnings() {
			if strings.Contains(w, "running total") {
				got = append(got, w)
			}
		}
		if (len(got) > 0) != c.want {
			t.Errorf("%s: warnings %q, want a running-total warning %v", c.name, got, c.want)
		}
		if c.want && (len(got) != 1 || !strings.HasPrefix(got[0], `f.csv: target "api": dropped rises in`)) {
			t.Errorf("%s: %q, want one warning naming the file, the target and the column", c.name, got)
		}
	}
}

// TestRunningTotalsAreReadAsIncreases: with RunningTotals, a count column
// reads as each row's increase since its target's previous row with a
// value: a fall is a counter reset (the value is the increase, as
// Prometheus' increase() reads it), a target's first value is no increase
// (not measured), targets interleave, and a column not named is as written.
func TestRunningTotalsAreReadAsIncreases(t *testing.T) {
	body := "time,target,limit,dropped,rejected\n" +
		"1,a,10,100,7\n" +
		"1,b,10,5000,7\n" +
		"2,a,10,103,7\n" +
		"2,b,10,5010,7\n" +
		"3,a,10,,7\n" + // not measured: the next row's increase spans it
		"4,a,10,110,7\n" +
		"4,b,10,4,7\n" + // b's process restarted: 4 since the reset
		"5,a,10,110,7\n"
	type row struct {
		target   string
		dropped  float64
		measured bool
	}
	want := []row{{"a", 0, false}, {"b", 0, false}, {"a", 3, true}, {"b", 10, true}, {"a", 0, false}, {"a", 7, true}, {"b", 4, true}, {"a", 0, true}}
	// the same rows as JSON Lines read the same
	csvRows := NewReader(strings.NewReader(body), "f.csv", CSV)
	rows, err := csvRows.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var jsonl bytes.Buffer
	jw := NewWriter(&jsonl, JSONL)
	for _, s := range rows {
		if err := jw.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := jw.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, in := range []struct {
		name, body string
		format     Format
	}{{"f.csv", body, CSV}, {"f.jsonl", jsonl.String(), JSONL}} {
		r := NewReader(strings.NewReader(in.body), in.name, in.format)
		r.RunningTotals = FieldDropped
		got, err := r.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d samples, want %d", in.name, len(got), len(want))
		}
		for i, w := range want {
			v, ok := got[i].Value(FieldDropped)
			if got[i].Target != w.target || v != w.dropped || ok != w.measured {
				t.Errorf("%s, row %d: %s dropped %v (measured %v), want %s %v (%v)", in.name, i+1, got[i].Target, v, ok, w.target, w.dropped, w.measured)
			}
			if rej, _ := got[i].Value(FieldRejected); rej != 7 {
				t.Errorf("%s, row %d: rejected %v, want 7 as written (not named)", in.name, i+1, rej)
			}
		}
	}
}

func TestMedianInterval(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		name string
		iv   []time.Duration
		want time.Duration
	}{
		{"no sample", nil, 0},
		{"one interval", []time.Duration{5 * s}, 5 * s},
		{"an outage does not move it", []time.Duration{15 * s, 15 * s, time.Hour, 15 * s, 14 * s}, 15 * s},
		{"only the first thousand count", append(slices.Repeat([]time.Duration{s}, 1000), slices.Repeat([]time.Duration{time.Minute}, 5000)...), s},
	} {
		n := len(c.iv) + 1
		if c.iv == nil {
			n = 0
		}
		if got := MedianInterval(n, func(i int) time.Duration { return c.iv[i-1] }); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
