// Package trace is limitscope's data model and its one file format: a Sample
// of a limiter's series (limit, in-flight, min RTT, RTT, loss and rejection
// counts) at a time, per-target series held in bounded ring buffers, and
// streaming readers and writers for the CSV and JSON Lines trace files that
// docs/trace-format.md defines.
//
// A field that was not measured (Envoy exports no in-flight) is absent, not
// zero: every Sample carries a Fields mask saying which values are present.
// Of limitscope it imports only safetext (echoes of file contents) and
// internal/decimal (the precision values are written at).
package trace

import (
	"fmt"
	"slices"
	"time"
)

// Field names one measured series of a Sample.
type Field uint8

// The series a Sample can carry.
const (
	FieldLimit Field = 1 << iota
	FieldInFlight
	FieldRTTMin
	FieldRTT
	FieldDropped
	FieldRejected
)

// AllFields is every series.
const AllFields = FieldLimit | FieldInFlight | FieldRTTMin | FieldRTT | FieldDropped | FieldRejected

// fieldNames are the trace-format column names, in file order, and the
// decimal places a writer keeps: RTTs to the microsecond, counts and limits
// to 10⁻⁶ (a fractional limit or a mean over an interval) — the precision
// they are measured at, so a file carries no float noise (40.615, not
// 40.615328999999996).
var fieldNames = []struct {
	f      Field
	name   string
	places int
}{
	{FieldLimit, "limit", 6},
	{FieldInFlight, "in_flight", 6},
	{FieldRTTMin, "rtt_min_ms", 3},
	{FieldRTT, "rtt_ms", 3},
	{FieldDropped, "dropped", 6},
	{FieldRejected, "rejected", 6},
}

// Columns returns every series in file order.
func Columns() []Field {
	out := make([]Field, len(fieldNames))
	for i, fn := range fieldNames {
		out[i] = fn.f
	}
	return out
}

// Name is the column name of a single field ("" for a mask of several).
func (f Field) Name() string {
	for _, fn := range fieldNames {
		if fn.f == f {
			return fn.name
		}
	}
	return ""
}

// ParseField finds a field by its column name.
func ParseField(name string) (Field, bool) {
	for _, fn := range fieldNames {
		if fn.name == name {
			return fn.f, true
		}
	}
	return 0, false
}

// String returns the column names of the fields in f, comma-separated.
func (f Field) String() string {
	s := ""
	for _, fn := range fieldNames {
		if f&fn.f != 0 {
			if s != "" {
				s += ","
			}
			s += fn.name
		}
	}
	if s == "" {
		return "none"
	}
	return s
}

// DefaultTarget is the target of rows that name none.
const DefaultTarget = "default"

// Sample is one observation of one target's limiter. Values whose bit is not
// set in Fields were not measured and read as zero.
type Sample struct {
	Time   time.Time
	Target string
	// Limit is the concurrency limit (may be fractional).
	Limit float64
	// InFlight is the number of requests in flight.
	InFlight float64
	// RTTMinMs is the limiter's minimum-RTT estimate, milliseconds.
	RTTMinMs float64
	// RTTMs is an RTT sample or the mean RTT over the interval, milliseconds.
	RTTMs float64
	// Dropped counts loss events since the target's previous sample.
	Dropped float64
	// Rejected counts requests rejected or deferred since the previous sample.
	Rejected float64
	// Fields says which of the values above were measured.
	Fields Field
}

// Has reports whether every field in f was measured.
func (s *Sample) Has(f Field) bool { return s.Fields&f == f }

// Value returns the value of one field and whether it was measured.
func (s *Sample) Value(f Field) (float64, bool) {
	var v float64
	switch f {
	case FieldLimit:
		v = s.Limit
	case FieldInFlight:
		v = s.InFlight
	case FieldRTTMin:
		v = s.RTTMinMs
	case FieldRTT:
		v = s.RTTMs
	case FieldDropped:
		v = s.Dropped
	case FieldRejected:
		v = s.Rejected
	default:
		return 0, false
	}
	return v, s.Fields&f != 0
}

// Set stores v in field f and marks it measured.
func (s *Sample) Set(f Field, v float64) {
	switch f {
	case FieldLimit:
		s.Limit = v
	case FieldInFlight:
		s.InFlight = v
	case FieldRTTMin:
		s.RTTMinMs = v
	case FieldRTT:
		s.RTTMs = v
	case FieldDropped:
		s.Dropped = v
	case FieldRejected:
		s.Rejected = v
	default:
		panic(fmt.Sprintf("trace: Set of unknown field %d", f))
	}
	s.Fields |= f
}

// Unset marks field f not measured and zeroes its value.
func (s *Sample) Unset(f Field) {
	s.Set(f, 0)
	s.Fields &^= f
}

// MedianInterval is the median of the first thousand intervals between n
// successive samples, interval(i) being the one from sample i-1 to sample
// i (i ≥ 1): a trace's sampling interval, which outages and gaps do not
// move. It is 0 for fewer than two samples.
func MedianInterval(n int, interval func(i int) time.Duration) time.Duration {
	d := make([]time.Duration, 0, min(max(n-1, 0), 1000))
	for i := 1; i < n && len(d) < 1000; i++ {
		d = append(d, interval(i))
	}
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[len(d)/2]
}
