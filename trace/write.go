package trace

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/limitscope/limitscope/internal/decimal"
)

// DefaultFlushInterval is how often a Writer pushes buffered rows to the file.
const DefaultFlushInterval = time.Second

// Writer streams Samples into a trace file. Rows reach the file whole: the
// buffer is flushed before a row that would not fit, every FlushInterval, and
// on Close, so a killed writer leaves a file readable to its last flushed row.
// It is not safe for concurrent use.
type Writer struct {
	// FlushInterval (default 1 s) bounds how long a row stays in memory.
	FlushInterval time.Duration

	format    Format
	bw        *bufio.Writer
	gz        *gzip.Writer
	closer    io.Closer
	row       []byte
	header    bool
	lastFlush time.Time
	rows      int64
	jsonNames map[string][]byte
	// last is each target's newest time written: a row going back in time
	// is one the reader refuses, so it is skipped (and counted) instead
	last      map[string]*int64
	backwards int64
}

// NewWriter returns a writer of format f onto w.
func NewWriter(w io.Writer, f Format) *Writer {
	return &Writer{
		FlushInterval: DefaultFlushInterval,
		format:        f,
		bw:            bufio.NewWriterSize(w, 64<<10),
		lastFlush:     time.Now(),
		jsonNames:     map[string][]byte{},
		last:          map[string]*int64{},
	}
}

// Backwards returns how many rows were skipped because they went back in
// time for their target (the file stays readable).
func (w *Writer) Backwards() int64 { return w.backwards }

// Create opens path for writing, replacing an existing file ("-" is stdout,
// .gz compresses, the format follows the extension). Commands use
// OpenWriter, which refuses to clobber.
func Create(path string, stdout io.Writer) (*Writer, error) {
	return OpenWriter(path, stdout, Overwrite)
}

// OpenMode says what OpenWriter does when the file exists.
type OpenMode int

// Open modes.
const (
	// Refuse fails with ErrExists: a recording never silently replaces one.
	Refuse OpenMode = iota
	// Overwrite truncates the existing file.
	Overwrite
	// Append continues the existing file; a CSV file's header must be the
	// one this writer writes.
	Append
)

// ErrExists is returned by OpenWriter in Refuse mode when the file exists.
var ErrExists = errors.New("the file exists")

// CheckExtension reports whether path names a format the writer knows:
// .csv, .jsonl or .ndjson, optionally followed by .gz, or "-" (stdout, CSV).
func CheckExtension(path string) error {
	if path == "-" {
		return nil
	}
	p := strings.TrimSuffix(strings.ToLower(path), ".gz")
	for _, ext := range []string{".csv", ".jsonl", ".ndjson"} {
		if strings.HasSuffix(p, ext) {
			return nil
		}
	}
	return fmt.Errorf("%s: unknown trace file extension: use .csv, .jsonl or .ndjson (optionally .gz)", path)
}

// OpenWriter opens path for writing with mode deciding what happens to an existing
// file ("-" is stdout, .gz compresses, the format follows the extension,
// which must be one CheckExtension accepts).
func OpenWriter(path string, stdout io.Writer, mode OpenMode) (*Writer, error) {
	if err := CheckExtension(path); err != nil {
		return nil, err
	}
	var dst io.Writer = stdout
	var closer io.Closer
	continuing := false
	if path != "-" {
		flag := os.O_WRONLY | os.O_CREATE
		switch mode {
		case Refuse:
			flag |= os.O_EXCL
		case Overwrite:
			flag |= os.O_TRUNC
		case Append:
			if err := checkAppendable(path); err != nil {
				return nil, err
			}
			flag |= os.O_APPEND
		}
		f, err := os.OpenFile(path, flag, 0o644)
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("%s: %w", path, ErrExists)
		}
		if err != nil {
			return nil, fmt.Errorf("cannot create trace file: %w", err)
		}
		if st, err := f.Stat(); err == nil && st.Size() > 0 {
			continuing = true
		}
		dst, closer = f, f
	}
	var gz *gzip.Writer
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		gz = gzip.NewWriter(dst) // appended: a new gzip member, which readers concatenate
		dst = gz
	}
	w := NewWriter(dst, FormatOf(path))
	w.gz, w.closer = gz, closer
	w.header = continuing && w.format == CSV
	return w, nil
}

// checkAppendable accepts an existing file to append to: missing or empty,
// or a CSV whose first line is this writer's header and whose last byte ends
// a row (a killed recorder's half row would swallow the next one).
func checkAppendable(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot append to trace file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		return nil
	}
	if FormatOf(path) == CSV {
		head := make([]byte, len(csvHeader))
		if _, err := io.ReadFull(f, head); err != nil || string(head) != csvHeader {
			return fmt.Errorf("%s: cannot append: its header is not %q (write to a new file instead)", path, strings.TrimSpace(csvHeader))
		}
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, st.Size()-1); err == nil && last[0] != '\n' {
		return fmt.Errorf("%s: cannot append: its last row is incomplete (was the recorder killed?); write to a new file", path)
	}
	return nil
}

// Rows returns the number of rows written.
func (w *Writer) Rows() int64 { return w.rows }

// csvHeader is the column order the writer uses.
const csvHeader = "time,target,limit,in_flight,rtt_min_ms,rtt_ms,dropped,rejected\n"

// Write appends one sample. A sample older than the previous one of its
// target is skipped (see Backwards): what the writer writes always reads back.
func (w *Writer) Write(s Sample) error {
	name, t := targetOf(s), s.Time.UnixNano()
	if prev := w.last[name]; prev == nil {
		first := new(int64)
		*first = t
		w.last[name] = first
	} else if t < *prev {
		w.backwards++
		return nil
	} else {
		*prev = t
	}
	if w.format == CSV && !w.header {
		w.header = true
		if _, err := w.bw.WriteString(csvHeader); err != nil {
			return fmt.Errorf("writing trace: %w", err)
		}
	}
	b := w.row[:0]
	if w.format == CSV {
		b = s.Time.UTC().AppendFormat(b, time.RFC3339Nano)
		b = append(b, ',')
		b = appendCSVField(b, targetOf(s))
		for _, fn := range fieldNames {
			b = append(b, ',')
			if v, ok := s.Value(fn.f); ok && writable(v) {
				b = strconv.AppendFloat(b, decimal.Round(v, fn.places), 'f', -1, 64)
			}
		}
	} else {
		b = append(b, `{"time":"`...)
		b = s.Time.UTC().AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","target":`...)
		b = append(b, w.jsonName(targetOf(s))...)
		for _, fn := range fieldNames {
			if v, ok := s.Value(fn.f); ok && writable(v) {
				b = append(b, ',', '"')
				b = append(b, fn.name...)
				b = append(b, '"', ':')
				b = strconv.AppendFloat(b, decimal.Round(v, fn.places), 'f', -1, 64)
			}
		}
		b = append(b, '}')
	}
	b = append(b, '\n')
	w.row = b
	if w.bw.Available() < len(b) && w.bw.Buffered() > 0 {
		if err := w.flushBuffer(); err != nil {
			return err
		}
	}
	if _, err := w.bw.Write(b); err != nil {
		return fmt.Errorf("writing trace: %w", err)
	}
	w.rows++
	if time.Since(w.lastFlush) >= w.FlushInterval {
		return w.Flush()
	}
	return nil
}

// writable reports whether the reader accepts v: a value it would refuse
// (NaN, ±Inf — a finite 1e306 s RTT is +Inf in ms — or negative) is written
// as an empty cell, "not measured", so a recording always reads back.
func writable(v float64) bool { return v >= 0 && v <= math.MaxFloat64 }

func targetOf(s Sample) string {
	if s.Target == "" {
		return DefaultTarget
	}
	return s.Target
}

func (w *Writer) jsonName(t string) []byte {
	if b, ok := w.jsonNames[t]; ok {
		return b
	}
	b, _ := json.Marshal(t)
	if len(w.jsonNames) < 4096 {
		w.jsonNames[t] = b
	}
	return b
}

// appendCSVField quotes a field when it holds a comma, quote, newline or
// leading '#', or when it starts or ends with anything the reader trims from
// an unquoted field (any Unicode space: tab, VT, NBSP, NEL…).
func appendCSVField(b []byte, f string) []byte {
	if f == "" || !needsQuotes(f) {
		return append(b, f...)
	}
	b = append(b, '"')
	for i := 0; i < len(f); i++ {
		if f[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, f[i])
	}
	return append(b, '"')
}

func needsQuotes(f string) bool {
	if strings.ContainsAny(f, ",\"\r\n") || f[0] == '#' {
		return true
	}
	first, _ := utf8.DecodeRuneInString(f)
	last, _ := utf8.DecodeLastRuneInString(f)
	return unicode.IsSpace(first) || unicode.IsSpace(last) || first == utf8.RuneError || last == utf8.RuneError
}

func (w *Writer) flushBuffer() error {
	if err := w.bw.Flush(); err != nil {
		return fmt.Errorf("writing trace: %w", err)
	}
	return nil
}

// Flush pushes every buffered row to the file (and a gzip sync point).
func (w *Writer) Flush() error {
	w.lastFlush = time.Now()
	if err := w.flushBuffer(); err != nil {
		return err
	}
	if w.gz != nil {
		if err := w.gz.Flush(); err != nil {
			return fmt.Errorf("writing trace: %w", err)
		}
	}
	return nil
}

// Close flushes and closes the file (the header is written even when no row
// was, so an empty recording is still a valid trace).
func (w *Writer) Close() error {
	if w.format == CSV && !w.header {
		w.header = true
		_, _ = w.bw.WriteString(csvHeader)
	}
	err := w.Flush()
	if w.gz != nil {
		if cerr := w.gz.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("closing trace: %w", cerr)
		}
	}
	if w.closer != nil {
		if cerr := w.closer.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("closing trace: %w", cerr)
		}
	}
	return err
}

// SyncWriter is a Writer safe for concurrent use whose first error sticks:
// a live source writes through it while a ticker flushes and reports, and
// after a failed write (a full disk) later writes do nothing and Err, Flush
// and Close report that first error.
type SyncWriter struct {
	mu  sync.Mutex
	w   *Writer
	err error
}

// NewSyncWriter wraps w; w must not be used directly any more.
func NewSyncWriter(w *Writer) *SyncWriter { return &SyncWriter{w: w} }

// Write appends one sample unless an earlier write failed.
func (s *SyncWriter) Write(smp Sample) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = s.w.Write(smp)
	}
}

// Flush pushes buffered rows to the file and returns the first error so far.
func (s *SyncWriter) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = s.w.Flush()
	}
	return s.err
}

// Rows returns the rows written so far.
func (s *SyncWriter) Rows() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Rows()
}

// Backwards returns how many samples were skipped for going back in time.
func (s *SyncWriter) Backwards() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Backwards()
}

// Close closes the file and returns the first error of any write, flush or
// the close itself.
func (s *SyncWriter) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.w.Close(); s.err == nil {
		s.err = err
	}
	return s.err
}
