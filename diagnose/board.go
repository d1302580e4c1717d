package diagnose

import (
	"sync"
	"time"

	"github.com/limitscope/limitscope/trace"
)

// Board keeps live verdicts for many targets: each pushed sample goes into
// its target's ring buffer and streaming classifier. It is what a live
// dashboard reads; it is safe for concurrent use.
type Board struct {
	mu sync.Mutex
	streamSet
	store   *trace.Store
	version uint64
}

// NewBoard keeps perTarget samples of history per target.
func NewBoard(perTarget int, opt Options) *Board {
	return &Board{streamSet: newStreamSet(opt), store: trace.NewStore(perTarget)}
}

// Push adds one sample.
func (b *Board) Push(s trace.Sample) {
	if s.Target == "" {
		s.Target = trace.DefaultTarget
	}
	b.mu.Lock()
	b.stream(s.Target).Push(s)
	b.version++
	store := b.store
	b.mu.Unlock()
	store.Push(s)
}

// Reset forgets everything (a replay seeking backwards).
func (b *Board) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.store = trace.NewStore(b.store.Capacity())
	b.streamSet = newStreamSet(b.opt)
	b.version++
}

// Version changes with every push.
func (b *Board) Version() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.version
}

// Row is one target as the dashboard shows it.
type Row struct {
	Target  string
	Last    trace.Sample
	Class   Class
	Finding Finding // the live verdict's evidence and recommendation
	Judged  bool
	// Episodes are the findings so far (verdict changes over time).
	Episodes []Finding
	// Floor and Ceiling are the lowest and highest limits seen.
	Floor, Ceiling float64
	Samples        int
	// RejectedShare is the share of demand turned away in the newest
	// interval (HasRejectedShare false when the series cannot tell).
	RejectedShare    float64
	HasRejectedShare bool
	// Unreachable names the verdicts the target's series cannot fully
	// support (Result.Unreachable).
	Unreachable []Unreachable
	// Repeats says how many rows were judged as the reading before them
	// (Stats.Repeats; "": none).
	Repeats string
}

// Rows returns every target's row, in order of first appearance.
func (b *Board) Rows() []Row {
	b.mu.Lock()
	store := b.store
	order := append([]string(nil), b.order...)
	streams := make([]*Stream, len(order))
	for i, t := range order {
		streams[i] = b.streams[t]
	}
	b.mu.Unlock()
	rows := make([]Row, 0, len(order))
	for i, t := range order {
		b.mu.Lock()
		st := streams[i]
		c, f, ok := st.Current()
		res := st.Result()
		share, hasShare := st.LastRejectedShare()
		b.mu.Unlock()
		last, _ := store.Last(t)
		r := Row{Target: t, Last: last, Class: c, Finding: f, Judged: ok, Episodes: res.Findings, Samples: res.Samples,
			Floor: res.Stats.LimitMin, Ceiling: res.Stats.LimitMax, RejectedShare: share, HasRejectedShare: hasShare, Unreachable: res.Unreachable, Repeats: res.Stats.Repeats()}
		rows = append(rows, r)
	}
	return rows
}

// Series appends target's history since t (zero t: all) to dst.
func (b *Board) Series(dst []trace.Sample, target string, since time.Time) []trace.Sample {
	b.mu.Lock()
	store := b.store
	b.mu.Unlock()
	return store.Since(dst, target, since)
}
