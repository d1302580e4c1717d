package scrape

import (
	"context"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/limitscope/limitscope/trace"
)

// Playback replays a recorded trace on a virtual clock: a speed factor,
// pause, seek and an end. It is the file source of replay; it is safe for
// concurrent use (the dashboard seeks while Run emits).
type Playback struct {
	mu      sync.Mutex
	samples packedChunks // in time order
	packer  trace.Packer
	start   time.Time
	end     time.Time
	pos     time.Time
	speed   float64
	paused  bool
	name    string
	emitted int
	rewound bool
	tick    time.Duration
	realNow func() time.Time
	idle    time.Duration // gaps longer than this play as this long; 0: no limit
	gaps    []idleGap     // the trace's gaps longer than idle, in time order
	// OnRewind, when set, is called by Run before it re-emits from the
	// start after a backward seek (a dashboard clears its state).
	OnRewind func()
	// KeepOpen keeps Run going at the end of the trace (seeks still work).
	KeepOpen bool
}

// NewPlayback returns a playback of samples positioned at the first sample,
// at speed 1. name labels its status. The samples are held packed (40 bytes
// each): an hour of 100 targets at 1 s takes 14 MiB.
func NewPlayback(name string, samples []trace.Sample) *Playback {
	p := &Playback{speed: 1, name: name, tick: 50 * time.Millisecond, realNow: time.Now}
	for _, s := range samples {
		p.samples.add(p.packer.Pack(s))
	}
	p.sortAndBound()
	return p
}

// ReadPlayback reads a trace straight into a playback, without holding the
// file's samples unpacked.
func ReadPlayback(name string, r *trace.Reader) (*Playback, error) {
	p := &Playback{speed: 1, name: name, tick: 50 * time.Millisecond, realNow: time.Now}
	for {
		s, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		p.samples.add(p.packer.Pack(s))
	}
	p.sortAndBound()
	return p, nil
}

// idleGap is a stretch of sample time with no sample: from the last sample
// before it to the first after it, Unix nanoseconds.
type idleGap struct{ from, to int64 }

func (p *Playback) sortAndBound() {
	s := &p.samples
	if !sort.IsSorted(s) {
		sort.Stable(s)
	}
	if n := s.Len(); n > 0 {
		p.start, p.end = s.at(0).Time(), s.at(n-1).Time()
	}
	p.pos = p.start
}

// Len returns the number of samples.
func (p *Playback) Len() int { return p.samples.Len() }

// packedChunks holds packed samples in fixed chunks, so loading a large
// trace never copies (or doubles) one large array.
type packedChunks struct {
	chunks [][]trace.Packed
	n      int
}

const chunkBits = 16

func (c *packedChunks) add(p trace.Packed) {
	if c.n>>chunkBits == len(c.chunks) {
		c.chunks = append(c.chunks, make([]trace.Packed, 1<<chunkBits))
	}
	c.chunks[c.n>>chunkBits][c.n&(1<<chunkBits-1)] = p
	c.n++
}

func (c *packedChunks) at(i int) *trace.Packed {
	return &c.chunks[i>>chunkBits][i&(1<<chunkBits-1)]
}

func (c *packedChunks) Len() int           { return c.n }
func (c *packedChunks) Less(i, j int) bool { return c.at(i).UnixNano() < c.at(j).UnixNano() }
func (c *packedChunks) Swap(i, j int)      { *c.at(i), *c.at(j) = *c.at(j), *c.at(i) }

// Start and End bound the trace; Position is the virtual now.
func (p *Playback) Start() time.Time { return p.start }

// End is the last sample's time.
func (p *Playback) End() time.Time { return p.end }

// Position is the playback's virtual time.
func (p *Playback) Position() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pos
}

// Speed returns the speed factor.
func (p *Playback) Speed() float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.speed
}

// SetSpeed sets the speed factor (clamped to 1/64 … 4096).
func (p *Playback) SetSpeed(f float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.speed = min(max(f, 1.0/64), 4096)
}

// SetIdleLimit makes every stretch of sample time without a sample that is
// longer than d play as if it lasted d (0: play gaps at full length), as
// asciinema's idle-time limit does. A trace joining two recordings a day
// apart then replays the day in d, not in a day. Samples keep their times:
// only the playback clock skips.
func (p *Playback) SetIdleLimit(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle, p.gaps = max(d, 0), nil
	if p.idle == 0 {
		return
	}
	for i := 1; i < p.samples.Len(); i++ {
		from, to := p.samples.at(i-1).UnixNano(), p.samples.at(i).UnixNano()
		if to-from > int64(p.idle) {
			p.gaps = append(p.gaps, idleGap{from, to})
		}
	}
}

// Paused reports whether the clock is stopped.
func (p *Playback) Paused() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.paused
}

// SetPaused stops or restarts the clock.
func (p *Playback) SetPaused(v bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = v
}

// Done reports whether the position reached the end.
func (p *Playback) Done() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.pos.Before(p.end)
}

// Advance moves the clock by a real duration times the speed (not when
// paused), stopping at the end. Within a gap longer than the idle limit the
// clock jumps to the gap's end once the limit has played.
func (p *Playback) Advance(real time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused {
		return
	}
	pos, left := p.pos.UnixNano(), int64(float64(real)*p.speed)
	left = min(left, p.end.UnixNano()-pos) // never more than the rest: no overflow
	for left > 0 {
		g := sort.Search(len(p.gaps), func(i int) bool { return p.gaps[i].to > pos })
		if g == len(p.gaps) {
			pos += left
			break
		}
		cut := p.gaps[g].from + int64(p.idle)
		if pos < cut {
			step := min(left, cut-pos)
			pos, left = pos+step, left-step
		}
		if pos >= cut {
			pos = p.gaps[g].to
		}
	}
	p.pos = time.Unix(0, min(pos, p.end.UnixNano())).UTC()
}

// Seek moves the position by d (negative: back), within the trace.
func (p *Playback) Seek(d time.Duration) { p.SeekTo(p.Position().Add(d)) }

// SeekTo moves the position to t, within the trace.
func (p *Playback) SeekTo(t time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t.Before(p.start) {
		t = p.start
	}
	if t.After(p.end) {
		t = p.end
	}
	if t.Before(p.pos) {
		p.rewound = true
	}
	p.pos = t
}

// Visible returns how many samples are at or before the position.
func (p *Playback) Visible() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.visibleLocked()
}

func (p *Playback) visibleLocked() int {
	pos := p.pos.UnixNano()
	return sort.Search(p.samples.Len(), func(i int) bool { return p.samples.at(i).UnixNano() > pos })
}

// Statuses reports the file as one endpoint.
func (p *Playback) Statuses() []Status {
	return []Status{{Endpoint: p.name, State: StateUp, LastSuccess: p.Position()}}
}

// Run advances the clock in real time and emits each sample once it becomes
// visible. After a backward seek it calls OnRewind and emits again from the
// start. It returns when ctx ends, or at the end of the trace unless
// KeepOpen is set (a dashboard stays open at the end).
func (p *Playback) Run(ctx context.Context, emit func(trace.Sample)) error {
	t := time.NewTicker(p.tick)
	defer t.Stop()
	last := p.realNow()
	for {
		p.mu.Lock()
		if p.rewound {
			p.rewound, p.emitted = false, 0
			if p.OnRewind != nil {
				p.mu.Unlock()
				p.OnRewind()
				p.mu.Lock()
			}
		}
		n := p.visibleLocked()
		from := min(p.emitted, n)
		if n > p.emitted {
			p.emitted = n
		}
		done := !p.pos.Before(p.end) && p.emitted >= p.samples.Len() && !p.KeepOpen
		p.mu.Unlock()
		for i := from; i < n; i++ {
			emit(p.packer.Unpack(*p.samples.at(i)))
		}
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		now := p.realNow()
		p.Advance(now.Sub(last))
		last = now
	}
}
