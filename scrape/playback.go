package scrape

import (
	"context"
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
	samples []trace.Sample // in time order
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
	// OnRewind, when set, is called by Run before it re-emits from the
	// start after a backward seek (a dashboard clears its state).
	OnRewind func()
	// KeepOpen keeps Run going at the end of the trace (seeks still work).
	KeepOpen bool
}

// NewPlayback returns a playback of samples positioned at the first sample,
// at speed 1. name labels its status.
func NewPlayback(name string, samples []trace.Sample) *Playback {
	s := append([]trace.Sample(nil), samples...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].Time.Before(s[j].Time) })
	p := &Playback{samples: s, speed: 1, name: name, tick: 50 * time.Millisecond, realNow: time.Now}
	if len(s) > 0 {
		p.start, p.end = s[0].Time, s[len(s)-1].Time
	}
	p.pos = p.start
	return p
}

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
// paused), stopping at the end.
func (p *Playback) Advance(real time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused {
		return
	}
	p.pos = p.pos.Add(time.Duration(float64(real) * p.speed))
	if p.pos.After(p.end) {
		p.pos = p.end
	}
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

// Visible returns the samples at or before the position (a shared prefix:
// do not modify).
func (p *Playback) Visible() []trace.Sample {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.samples[:p.visibleLocked()]
}

func (p *Playback) visibleLocked() int {
	return sort.Search(len(p.samples), func(i int) bool { return p.samples[i].Time.After(p.pos) })
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
		batch := p.samples[min(p.emitted, n):n]
		if n > p.emitted {
			p.emitted = n
		}
		done := !p.pos.Before(p.end) && p.emitted >= len(p.samples) && !p.KeepOpen
		p.mu.Unlock()
		for _, s := range batch {
			emit(s)
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
