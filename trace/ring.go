package trace

import (
	"sort"
	"sync"
	"time"
)

// Ring is a bounded series of one target's samples in time order: when full,
// the oldest sample is overwritten. Samples are held packed (40 bytes each,
// values to float32 precision). It is not safe for concurrent use; Store
// wraps rings with a lock.
type Ring struct {
	buf    []Packed
	start  int
	n      int
	target string
}

// NewRing returns a ring holding at most capacity samples (at least 1).
func NewRing(capacity int) *Ring {
	if capacity < 1 {
		capacity = 1
	}
	return &Ring{buf: make([]Packed, capacity)}
}

// Len returns the number of samples held.
func (r *Ring) Len() int { return r.n }

// Cap returns the most samples the ring holds.
func (r *Ring) Cap() int { return len(r.buf) }

// Push appends s, dropping the oldest sample when full. A ring holds one
// target: the first sample's target names it.
func (r *Ring) Push(s Sample) {
	if r.n == 0 && r.target == "" {
		r.target = s.Target
	}
	p := packValues(s, 0)
	if r.n < len(r.buf) {
		r.buf[(r.start+r.n)%len(r.buf)] = p
		r.n++
		return
	}
	r.buf[r.start] = p
	r.start = (r.start + 1) % len(r.buf)
}

// At returns the i-th sample, oldest first (0 ≤ i < Len).
func (r *Ring) At(i int) Sample { return unpackValues(r.buf[(r.start+i)%len(r.buf)], r.target) }

func (r *Ring) nsAt(i int) int64 { return r.buf[(r.start+i)%len(r.buf)].ns }

// Last returns the newest sample and whether there is one.
func (r *Ring) Last() (Sample, bool) {
	if r.n == 0 {
		return Sample{}, false
	}
	return r.At(r.n - 1), true
}

// AppendTo appends the samples, oldest first, to dst.
func (r *Ring) AppendTo(dst []Sample) []Sample {
	for i := 0; i < r.n; i++ {
		dst = append(dst, r.At(i))
	}
	return dst
}

// Since appends the samples at or after t to dst, oldest first.
func (r *Ring) Since(dst []Sample, t time.Time) []Sample {
	tn := t.UnixNano()
	i := sort.Search(r.n, func(i int) bool { return r.nsAt(i) >= tn })
	for ; i < r.n; i++ {
		dst = append(dst, r.At(i))
	}
	return dst
}

// Store holds one ring per target, created on first sample. It is safe for
// concurrent use: sources push, consumers read snapshots.
type Store struct {
	mu       sync.RWMutex
	capacity int
	rings    map[string]*Ring
	order    []string
	version  uint64
}

// NewStore returns a store whose rings hold perTarget samples each.
func NewStore(perTarget int) *Store {
	return &Store{capacity: perTarget, rings: map[string]*Ring{}}
}

// Push adds s to its target's ring.
func (st *Store) Push(s Sample) {
	if s.Target == "" {
		s.Target = DefaultTarget
	}
	st.mu.Lock()
	r, ok := st.rings[s.Target]
	if !ok {
		r = NewRing(st.capacity)
		st.rings[s.Target] = r
		st.order = append(st.order, s.Target)
	}
	r.Push(s)
	st.version++
	st.mu.Unlock()
}

// Capacity returns the samples kept per target.
func (st *Store) Capacity() int { return st.capacity }

// Version increases with every Push; a consumer redraws when it changed.
func (st *Store) Version() uint64 {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.version
}

// Since appends target's samples at or after t to dst, oldest first.
func (st *Store) Since(dst []Sample, target string, t time.Time) []Sample {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if r, ok := st.rings[target]; ok {
		return r.Since(dst, t)
	}
	return dst
}

// Last returns target's newest sample.
func (st *Store) Last(target string) (Sample, bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if r, ok := st.rings[target]; ok {
		return r.Last()
	}
	return Sample{}, false
}
