package trace

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
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
}

// NewWriter returns a writer of format f onto w.
func NewWriter(w io.Writer, f Format) *Writer {
	return &Writer{
		FlushInterval: DefaultFlushInterval,
		format:        f,
		bw:            bufio.NewWriterSize(w, 64<<10),
		lastFlush:     time.Now(),
		jsonNames:     map[string][]byte{},
	}
}

// Create opens path for writing ("-" is stdout, .gz compresses, the format
// follows the extension).
func Create(path string, stdout io.Writer) (*Writer, error) {
	var dst io.Writer = stdout
	var closer io.Closer
	if path != "-" {
		f, err := os.Create(path)
		if err != nil {
			return nil, fmt.Errorf("cannot create trace file: %w", err)
		}
		dst, closer = f, f
	}
	var gz *gzip.Writer
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		gz = gzip.NewWriter(dst)
		dst = gz
	}
	w := NewWriter(dst, FormatOf(path))
	w.gz, w.closer = gz, closer
	return w, nil
}

// Rows returns the number of rows written.
func (w *Writer) Rows() int64 { return w.rows }

// csvHeader is the column order the writer uses.
const csvHeader = "time,target,limit,in_flight,rtt_min_ms,rtt_ms,dropped,rejected\n"

// Write appends one sample.
func (w *Writer) Write(s Sample) error {
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
			if v, ok := s.Value(fn.f); ok {
				b = strconv.AppendFloat(b, v, 'f', -1, 64)
			}
		}
	} else {
		b = append(b, `{"time":"`...)
		b = s.Time.UTC().AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","target":`...)
		b = append(b, w.jsonName(targetOf(s))...)
		for _, fn := range fieldNames {
			if v, ok := s.Value(fn.f); ok {
				b = append(b, ',', '"')
				b = append(b, fn.name...)
				b = append(b, '"', ':')
				b = strconv.AppendFloat(b, v, 'f', -1, 64)
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

// appendCSVField quotes a field when it holds a comma, quote, newline,
// leading '#' or surrounding space.
func appendCSVField(b []byte, f string) []byte {
	if f == "" || !strings.ContainsAny(f, ",\"\r\n") && f[0] != '#' && f[0] != ' ' && f[len(f)-1] != ' ' {
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
