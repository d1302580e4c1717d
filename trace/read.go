package trace

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/limitscope/limitscope/safetext"
)

// Format is a trace file encoding.
type Format int

// The trace file encodings.
const (
	CSV Format = iota
	JSONL
)

func (f Format) String() string {
	if f == JSONL {
		return "jsonl"
	}
	return "csv"
}

// FormatOf returns the format a path's extension names (a trailing .gz is
// looked through): .jsonl and .ndjson are JSON Lines, anything else is CSV.
func FormatOf(path string) Format {
	p := strings.ToLower(strings.TrimSuffix(strings.ToLower(path), ".gz"))
	if strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".ndjson") {
		return JSONL
	}
	return CSV
}

// ParseError is a rejected line of a trace file.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", safetext.Terminal(e.File), e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", safetext.Terminal(e.File), e.Msg)
}

// column kinds of a CSV header
const (
	colIgnore = -1
	colTime   = -2
	colTarget = -3
)

// Reader streams Samples out of a trace file, strict about meaning and lenient
// about layout, as the trace format requires. Read returns io.EOF at the end.
type Reader struct {
	// Warn receives warnings (unknown columns, a truncated last line); nil
	// collects them for Warnings.
	Warn func(msg string)
	// MaxSamples, when positive, is how many samples Read returns before
	// it fails with ErrTooManySamples: commands that hold a whole trace in
	// memory set their sample budget here.
	MaxSamples int64
	// RunningTotals are the count columns (dropped, rejected) the file
	// holds as running totals (a counter's value exported as is) where
	// the format wants counts since the previous row: each value becomes
	// its increase since the target's previous row with one, a fall being
	// a counter reset whose value is the increase (as Prometheus'
	// increase() reads one), and a target's first value, which has no
	// increase, is not measured.
	RunningTotals Field
	read          int64

	name    string
	format  Format
	br      *bufio.Reader
	line    int  // line number of the last line read
	lastCR  bool // the last line read ended in "\r\n"
	cols    []int
	present Field
	header  bool
	seen    map[string]*targetState
	targets map[string]string
	unknown map[string]bool
	// members: the last JSONL line's object, member by member (reused)
	members  []jsonMember
	warnings []string
	rec      [][]byte
	buf      []byte
	done     bool
}

// NewReader returns a reader of r in format f; name is used in messages.
func NewReader(r io.Reader, name string, f Format) *Reader {
	return &Reader{
		name:    name,
		format:  f,
		br:      bufio.NewReaderSize(r, 64<<10),
		seen:    map[string]*targetState{},
		targets: map[string]string{},
		unknown: map[string]bool{},
	}
}

// Columns returns which series the file carries (for CSV, known after the
// header; for JSON Lines, the union of the keys seen so far).
func (r *Reader) Columns() Field { return r.present }

// Warnings returns the warnings collected when Warn is nil.
func (r *Reader) Warnings() []string { return r.warnings }

// Name returns the file name used in messages.
func (r *Reader) Name() string { return r.name }

func (r *Reader) warn(line int, format string, a ...any) {
	msg := (&ParseError{File: r.name, Line: line, Msg: echof(format, a...)}).Error()
	if r.Warn != nil {
		r.Warn(msg)
		return
	}
	r.warnings = append(r.warnings, msg)
}

func (r *Reader) errorf(line int, format string, a ...any) error {
	return &ParseError{File: r.name, Line: line, Msg: echof(format, a...)}
}

// echof formats a message that repeats file contents: each string or byte
// argument is cut to safetext.MaxEcho runes, and the message is made safe
// for a terminal (a hostile header cannot recolour stderr).
func echof(format string, a ...any) string {
	for i, v := range a {
		switch x := v.(type) {
		case string:
			a[i] = safetext.Cap(x, safetext.MaxEcho)
		case []byte:
			a[i] = safetext.Cap(string(x), safetext.MaxEcho)
		}
	}
	return safetext.Terminal(fmt.Sprintf(format, a...))
}

// MaxLineBytes is the longest line a trace file may have (1 MiB): a longer
// one is an error naming the file and line, not an unbounded read.
const MaxLineBytes = 1 << 20

// readLine returns the next physical line without its line ending, whether
// it was terminated by a newline, and io.EOF after the last one.
func (r *Reader) readLine() ([]byte, bool, error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		r.buf = append(r.buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(r.buf) > MaxLineBytes {
			return nil, false, r.errorf(r.line+1, "line longer than %d MiB (is this a trace file?)", MaxLineBytes>>20)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			// A compressed stream cut short (a killed writer): what arrived
			// is an unterminated last line.
			if len(r.buf) == 0 {
				r.warn(r.line, "the compressed stream ends early (was the writer killed?); read up to here")
				return nil, false, io.EOF
			}
			err = io.EOF
		}
		if err != nil && err != io.EOF {
			return nil, false, err
		}
		if len(r.buf) == 0 && err == io.EOF {
			return nil, false, io.EOF
		}
		r.line++
		terminated := len(r.buf) > 0 && r.buf[len(r.buf)-1] == '\n'
		b := r.buf
		if terminated {
			b = b[:len(b)-1]
		}
		r.lastCR = len(b) > 0 && b[len(b)-1] == '\r'
		if r.lastCR {
			b = b[:len(b)-1]
		}
		if r.line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		return b, terminated, nil
	}
}

func skippable(b []byte) bool {
	t := bytes.TrimSpace(b)
	return len(t) == 0 || t[0] == '#'
}

// ErrTooManySamples is returned by Read past Reader.MaxSamples.
var ErrTooManySamples = errors.New("more samples than this command holds")

// Read returns the next sample.
func (r *Reader) Read() (Sample, error) {
	s, err := r.read1()
	if err == nil && r.MaxSamples > 0 {
		if r.read >= r.MaxSamples {
			return Sample{}, fmt.Errorf("%s: %w (at most %d; cut the trace or record at a coarser --interval)", safetext.Terminal(r.name), ErrTooManySamples, r.MaxSamples)
		}
		r.read++
	}
	return s, err
}

func (r *Reader) read1() (Sample, error) {
	if r.done {
		return Sample{}, io.EOF
	}
	if r.format == JSONL {
		return r.readJSON()
	}
	return r.readCSV()
}

func (r *Reader) finish(err error) (Sample, error) {
	r.done = true
	if err == io.EOF {
		r.warnRunningTotals()
	}
	return Sample{}, err
}

// ReadAll reads every remaining sample.
func (r *Reader) ReadAll() ([]Sample, error) {
	var out []Sample
	for {
		s, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, s)
	}
}

// splitCSV splits one record into fields, reading further lines while a
// quoted field is open. Fields alias r.buf; quoted fields are unescaped in
// place into a fresh slice.
func (r *Reader) splitCSV(line []byte, terminated bool) ([][]byte, bool, error) {
	rec := r.rec[:0]
	startLine := r.line
	for {
		i := 0
		for {
			// one field starting at i
			if i < len(line) && line[i] == '"' {
				var f []byte
				j := i + 1
				for {
					k := bytes.IndexByte(line[j:], '"')
					if k < 0 {
						f = append(f, line[j:]...)
						// The quoted field continues on the next line, which
						// reuses the line buffer: keep copies of what we have.
						for x := range rec {
							rec[x] = append([]byte(nil), rec[x]...)
						}
						if r.lastCR {
							f = append(f, '\r') // the field holds a CRLF
						}
						if len(f) > MaxLineBytes {
							return nil, false, r.errorf(startLine, "a quoted field longer than %d MiB", MaxLineBytes>>20)
						}
						next, term, err := r.readLine()
						if err == io.EOF {
							return nil, false, r.errorf(startLine, "a quoted field is never closed")
						}
						if err != nil {
							return nil, false, err
						}
						f = append(f, '\n')
						line, j, terminated = append([]byte(nil), next...), 0, term
						continue
					}
					f = append(f, line[j:j+k]...)
					j += k + 1
					if j < len(line) && line[j] == '"' {
						f = append(f, '"')
						j++
						continue
					}
					break
				}
				rec = append(rec, f)
				// skip to the comma
				for j < len(line) && line[j] != ',' {
					if line[j] != ' ' && line[j] != '\t' {
						return nil, false, r.errorf(r.line, "unexpected %q after a quoted field", line[j])
					}
					j++
				}
				if j >= len(line) {
					r.rec = rec
					return rec, terminated, nil
				}
				i = j + 1
				continue
			}
			k := bytes.IndexByte(line[i:], ',')
			if k < 0 {
				rec = append(rec, bytes.TrimSpace(line[i:]))
				r.rec = rec
				return rec, terminated, nil
			}
			rec = append(rec, bytes.TrimSpace(line[i:i+k]))
			i += k + 1
		}
	}
}

func (r *Reader) readHeader() error {
	for {
		line, term, err := r.readLine()
		if err == io.EOF {
			return r.errorf(0, "the file is empty: a trace needs a header line naming its columns (time, target, limit, in_flight, rtt_min_ms, rtt_ms, dropped, rejected)")
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", r.name, err)
		}
		if skippable(line) {
			continue
		}
		rec, _, err := r.splitCSV(line, term)
		if err != nil {
			return err
		}
		r.cols = make([]int, len(rec))
		seen := map[string]bool{}
		var unknown []string
		hasTime := false
		for i, c := range rec {
			name := strings.ToLower(strings.TrimSpace(string(c)))
			if seen[name] {
				return r.errorf(r.line, "column %q appears twice in the header", name)
			}
			seen[name] = true
			r.cols[i] = colIgnore
			switch name {
			case "time":
				r.cols[i] = colTime
				hasTime = true
			case "target":
				r.cols[i] = colTarget
			default:
				known := false
				for _, fn := range fieldNames {
					if fn.name == name {
						r.cols[i] = int(fn.f)
						r.present |= fn.f
						known = true
					}
				}
				if !known {
					unknown = append(unknown, name)
				}
			}
		}
		if !hasTime {
			return r.errorf(r.line, "the header has no time column (columns are: %s)", strings.Join(lower(rec), ", "))
		}
		if len(unknown) > 0 {
			r.warn(r.line, "ignoring unknown columns: %s", strings.Join(unknown, ", "))
		}
		r.header = true
		return nil
	}
}

func lower(rec [][]byte) []string {
	out := make([]string, len(rec))
	for i, c := range rec {
		out[i] = strings.ToLower(string(c))
	}
	return out
}

func (r *Reader) readCSV() (Sample, error) {
	if !r.header {
		if err := r.readHeader(); err != nil {
			return r.finish(err)
		}
	}
	line, term, lineNo, err := r.nextLine()
	if err != nil {
		return r.finish(err)
	}
	rec, term, err := r.splitCSV(line, term)
	if err == nil && len(rec) != len(r.cols) {
		err = r.errorf(lineNo, "the row has %d fields but the header has %d columns", len(rec), len(r.cols))
	}
	var s Sample
	if err == nil {
		s, err = r.csvSample(rec, lineNo)
	}
	if err != nil {
		return r.rowError(err, term, lineNo)
	}
	return s, nil
}

// nextLine returns the next line that is not blank or a comment, whether it
// ended with a newline, and its number; io.EOF at the end.
func (r *Reader) nextLine() ([]byte, bool, int, error) {
	for {
		line, term, err := r.readLine()
		if err == io.EOF {
			return nil, false, 0, io.EOF
		}
		if err != nil {
			return nil, false, 0, fmt.Errorf("reading %s: %w", r.name, err)
		}
		if !skippable(line) {
			return line, term, r.line, nil
		}
	}
}

// rowError ends the read on a bad row, except that an unterminated last line
// (a killed writer) is only a warning.
func (r *Reader) rowError(err error, terminated bool, lineNo int) (Sample, error) {
	if !terminated && r.atEOF() {
		msg := err.Error()
		var pe *ParseError
		if errors.As(err, &pe) {
			msg = pe.Msg
		}
		r.warn(lineNo, "ignoring the truncated last line (was the writer killed?): %s", msg)
		return r.finish(io.EOF)
	}
	return r.finish(err)
}

func (r *Reader) atEOF() bool {
	_, err := r.br.Peek(1)
	return err != nil
}

func (r *Reader) csvSample(rec [][]byte, line int) (Sample, error) {
	var s Sample
	hasTime := false
	for i, c := range rec {
		switch k := r.cols[i]; k {
		case colIgnore:
		case colTime:
			t, err := parseTime(c)
			if err != nil {
				return s, r.errorf(line, "time %q: %v", c, err)
			}
			s.Time, hasTime = t, true
		case colTarget:
			s.Target = r.intern(c)
		default:
			if len(c) == 0 {
				continue
			}
			v, err := parseValue(c)
			if err != nil {
				return s, r.errorf(line, "%s %q: %v", Field(k), c, err)
			}
			s.Set(Field(k), v)
		}
	}
	if !hasTime {
		return s, r.errorf(line, "the time cell is empty")
	}
	return s, r.followTarget(&s, line)
}

func (r *Reader) intern(b []byte) string {
	if len(b) == 0 {
		return DefaultTarget
	}
	if t, ok := r.targets[string(b)]; ok {
		return t
	}
	t := string(b)
	r.targets[t] = t
	return t
}

// followTarget keeps what the reader follows per target for s: it fails
// where s goes back in time, follows the shape of its count columns (for
// warnRunningTotals), and reads the columns named in RunningTotals as the
// increase since the target's previous row.
func (r *Reader) followTarget(s *Sample, line int) error {
	if s.Target == "" {
		s.Target = DefaultTarget
	}
	st := r.seen[s.Target]
	if st == nil {
		st = &targetState{}
		r.seen[s.Target] = st
	} else if s.Time.Before(st.last) {
		return r.errorf(line, "time %s is before the previous row of target %q (%s): rows must be in non-decreasing time order per target",
			s.Time.Format(time.RFC3339Nano), s.Target, st.last.Format(time.RFC3339Nano))
	}
	st.last = s.Time
	for i, f := range countFields {
		v, ok := s.Value(f)
		if !ok {
			continue
		}
		c := &st.counts[i]
		if r.RunningTotals&f != 0 {
			switch {
			case c.n == 0:
				s.Unset(f)
			case v >= c.prev:
				s.Set(f, v-c.prev)
			}
		}
		c.observe(v)
	}
	return nil
}

// targetState is what the reader keeps per target: the last row's time
// (rows must not go back) and the shape of its count columns.
type targetState struct {
	last   time.Time
	counts [len(countFields)]countShape
}

// countFields are the columns the format wants as counts since the
// previous row.
var countFields = [...]Field{FieldDropped, FieldRejected}

// The shape of a running total (runningTotal): at least runningTotalRows
// rows; rising three times or more and falling at most once in
// runningTotalFalls rises (a counter resets when its process restarts);
// in half the rises or more, the value runningTotalRatio times its increase
// or more. A count since the previous row moves with its noise, falling as
// often as it rises; a running total grows by its rate from a value that
// dwarfs it (a Prometheus counter's value, a spreadsheet's sum so far).
const (
	runningTotalRows  = 20
	runningTotalFalls = 20
	runningTotalRatio = 8
)

// countShape follows one count column of one target for runningTotal.
type countShape struct {
	n, rises, falls, large int
	prev                   float64
}

func (c *countShape) observe(v float64) {
	if c.n > 0 {
		switch {
		case v < c.prev:
			c.falls++
		case v > c.prev:
			c.rises++
			if v >= runningTotalRatio*(v-c.prev) {
				c.large++
			}
		}
	}
	c.n++
	c.prev = v
}

// counts reports a column given as a running total that falls too often
// for one (at least runningTotalRows rows, three falls or more, and more
// than one in runningTotalFalls rises): counts since the previous row.
func (c *countShape) counts() bool {
	return c.n >= runningTotalRows && c.falls >= 3 && c.falls*runningTotalFalls > c.rises
}

// runningTotal reports a column that reads as a running total where the
// format wants the count since the previous row.
func (c *countShape) runningTotal() bool {
	return c.n >= runningTotalRows && c.rises >= 3 && c.falls*runningTotalFalls <= c.rises && 2*c.large >= c.rises
}

// warnRunningTotals warns, at the end of the file, of each target's count
// column that reads as a running total: read as counts since the previous
// row, it makes every row a burst of losses or rejections, and a healthy
// limiter reads as a downstream failing its requests.
func (r *Reader) warnRunningTotals() {
	targets := make([]string, 0, len(r.seen))
	for t := range r.seen {
		targets = append(targets, t)
	}
	sort.Strings(targets)
	for _, t := range targets {
		for i, f := range countFields {
			c := &r.seen[t].counts[i]
			switch {
			case r.RunningTotals&f != 0 && c.counts():
				r.warn(0, "target %q: %s was read as a running total (--running-totals), yet it falls in %d of its %d rows: a running total falls only where its counter resets. It reads as counts since the previous row, which differencing misreads; leave %s out of --running-totals",
					t, f, c.falls, c.n, f)
			case r.RunningTotals&f == 0 && c.runningTotal():
				r.warn(0, "target %q: %s rises in %d of its %d rows and falls in %d, to %g: it reads as a running total (a counter's value), where the format wants the count since the previous row; the verdicts read each value as that count. Pass --running-totals %s to read each row's increase, or write that increase (PromQL increase() over the row interval, or the difference from the row before)",
					t, f, c.rises, c.n, c.falls, c.prev, f)
			}
		}
	}
}

// bstr views b as a string without copying; strconv copies what it keeps.
func bstr(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// errNotFinite says what to write instead: a Prometheus ratio over an
// interval with no requests (rate(sum)/rate(count) where nothing
// succeeded) is NaN, and an export of it is the likeliest source.
var errNotFinite = errors.New("NaN and Inf are not values; leave the cell empty where nothing was measured (a Prometheus ratio over no requests is NaN)")

// parseValue parses a non-negative finite decimal number.
func parseValue(b []byte) (float64, error) {
	v, err := strconv.ParseFloat(bstr(b), 64)
	if err != nil {
		return 0, errors.New("not a number (use . as the decimal separator)")
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errNotFinite
	}
	if v < 0 {
		return 0, errors.New("negative values are not allowed")
	}
	return v, nil
}

// Times a trace can hold: what an int64 count of nanoseconds since 1970
// reaches (every consumer works in Unix nanoseconds).
var (
	MinTime = time.Unix(0, math.MinInt64).UTC()
	MaxTime = time.Unix(0, math.MaxInt64).UTC()
)

// parseTime parses RFC 3339 or decimal Unix seconds within [MinTime, MaxTime].
func parseTime(b []byte) (time.Time, error) {
	t, err := parseAnyTime(b)
	if err == nil && (t.Before(MinTime) || t.After(MaxTime)) {
		return time.Time{}, fmt.Errorf("outside the times a trace can hold (%s to %s)", MinTime.Format(time.RFC3339), MaxTime.Format(time.RFC3339))
	}
	return t, err
}

func parseAnyTime(b []byte) (time.Time, error) {
	if len(b) == 0 {
		return time.Time{}, errors.New("empty")
	}
	if bytes.IndexByte(b, '-') > 0 || bytes.IndexByte(b, 'T') >= 0 {
		t, err := time.Parse(time.RFC3339Nano, bstr(b))
		if err != nil {
			return time.Time{}, errors.New("not an RFC 3339 timestamp (like 2026-11-29T10:00:00.250Z) nor Unix seconds")
		}
		return t, nil
	}
	return parseUnix(b)
}

func parseUnix(b []byte) (time.Time, error) {
	bad := errors.New("not Unix seconds (like 1764410400.25) nor an RFC 3339 timestamp")
	intPart, frac := b, []byte(nil)
	if i := bytes.IndexByte(b, '.'); i >= 0 {
		intPart, frac = b[:i], b[i+1:]
	}
	if len(intPart) == 0 && len(frac) == 0 {
		return time.Time{}, bad
	}
	var sec int64
	for _, c := range intPart {
		if c < '0' || c > '9' || sec > math.MaxInt64/10-10 {
			// exponent forms and the like
			v, err := strconv.ParseFloat(bstr(b), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > 1e12 {
				return time.Time{}, bad
			}
			s, f := math.Modf(v)
			return time.Unix(int64(s), int64(f*1e9)).UTC(), nil
		}
		sec = sec*10 + int64(c-'0')
	}
	var ns int64
	digits := 0
	for _, c := range frac {
		if c < '0' || c > '9' {
			return time.Time{}, bad
		}
		if digits < 9 {
			ns = ns*10 + int64(c-'0')
			digits++
		}
	}
	for ; digits < 9; digits++ {
		ns *= 10
	}
	if sec > 1e12 {
		return time.Time{}, bad
	}
	return time.Unix(sec, ns).UTC(), nil
}

func (r *Reader) readJSON() (Sample, error) {
	line, term, lineNo, err := r.nextLine()
	if err != nil {
		return r.finish(err)
	}
	s, err := r.jsonSample(line, lineNo)
	if err != nil {
		return r.rowError(err, term, lineNo)
	}
	return s, nil
}

func (r *Reader) jsonSample(line []byte, lineNo int) (Sample, error) {
	var s Sample
	members, err := jsonMembers(line, r.members[:0])
	r.members = members
	if err != nil {
		return s, r.errorf(lineNo, "not a JSON object: %v", err)
	}
	hasTime := false
	var unknown []string
	for _, m := range members {
		key, raw := m.key, m.raw
		name := strings.ToLower(key)
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			continue
		}
		switch name {
		case "time":
			var str string
			if err := json.Unmarshal(raw, &str); err == nil {
				t, err := parseTime([]byte(str))
				if err != nil {
					return s, r.errorf(lineNo, "time %q: %v", str, err)
				}
				s.Time = t
			} else {
				t, err := parseTime(bytes.TrimSpace(raw))
				if err != nil {
					return s, r.errorf(lineNo, "time %s: %v", raw, err)
				}
				s.Time = t
			}
			hasTime = true
		case "target":
			var str string
			if err := json.Unmarshal(raw, &str); err != nil {
				return s, r.errorf(lineNo, "target must be a string, got %s", raw)
			}
			s.Target = r.intern([]byte(str))
		default:
			f := Field(0)
			for _, fn := range fieldNames {
				if fn.name == name {
					f = fn.f
				}
			}
			if f == 0 {
				if !r.unknown[name] {
					r.unknown[name] = true
					unknown = append(unknown, name)
				}
				continue
			}
			t := bytes.TrimSpace(raw)
			if len(t) > 0 && t[0] == '"' {
				return s, r.errorf(lineNo, "%s must be a number, got the string %s", name, raw)
			}
			v, err := parseValue(t)
			if err != nil {
				return s, r.errorf(lineNo, "%s %s: %v", name, raw, err)
			}
			s.Set(f, v)
			r.present |= f
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		r.warn(lineNo, "ignoring unknown fields: %s", strings.Join(unknown, ", "))
	}
	if !hasTime {
		return s, r.errorf(lineNo, "the object has no time field")
	}
	return s, r.followTarget(&s, lineNo)
}

// jsonMember is one member of a JSONL line's object.
type jsonMember struct {
	key string
	raw json.RawMessage
}

// jsonMembers splits line, one JSON object, into its members in the order
// they appear, appended to into. Decoded into a Go map they were visited in
// random order, so of two bad values in a line the one reported changed
// from run to run (and of one field spelt twice, the one kept).
func jsonMembers(line []byte, into []jsonMember) ([]jsonMember, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	tok, err := dec.Token()
	if err != nil {
		return into, err
	}
	if tok != json.Delim('{') {
		return into, fmt.Errorf("it opens with %v", tok)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return into, err
		}
		key, _ := tok.(string) // a member's name is always a string
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return into, err
		}
		into = append(into, jsonMember{key, raw})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return into, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return into, errors.New("more follows its closing brace")
	}
	return into, nil
}

// Open opens a trace file for reading: "-" is stdin, a .gz suffix is read
// through gzip, and the format follows the extension (FormatOf). Close the
// returned closer when done.
func Open(path string, stdin io.Reader) (*Reader, io.Closer, error) {
	var src io.Reader
	var closers multiCloser
	name := path
	if path == "-" {
		src, name = stdin, "<stdin>"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, fmt.Errorf("cannot open trace file: %w", err)
		}
		src = f
		closers = append(closers, f)
	}
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		zr, err := gzip.NewReader(src)
		if err != nil {
			closers.Close()
			return nil, nil, fmt.Errorf("%s: not a gzip file: %w", name, err)
		}
		src = zr
		closers = append([]io.Closer{zr}, closers...)
	}
	return NewReader(src, name, FormatOf(path)), closers, nil
}

type multiCloser []io.Closer

func (m multiCloser) Close() error {
	var first error
	for _, c := range m {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// ReadFile reads a whole trace file (see Open).
func ReadFile(path string, stdin io.Reader, warn func(string)) ([]Sample, Field, error) {
	r, c, err := Open(path, stdin)
	if err != nil {
		return nil, 0, err
	}
	defer c.Close()
	r.Warn = warn
	out, err := r.ReadAll()
	return out, r.Columns(), err
}
