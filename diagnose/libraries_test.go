//go:build !race

// The real-libraries suite: the verdicts judged on traces that third-party
// limiter libraries make when they run for real. Not their limit
// algorithms driven by our simulator (thirdparty_test.go does that), but
// each library's own request path, with its own clock reads, sampling
// windows and in-flight accounting: go-concurrency-limits v1.0.0's
// DefaultLimiter (limiter/default.go: Acquire, then OnSuccess or
// OnDropped) over its Gradient, Gradient2, Vegas and AIMD limits, and
// failsafe-go v0.9.8's adaptive limiter (adaptivelimiter/adaptivelimiter.go:
// TryAcquirePermit, then Record or Drop). Each trace runs inside a
// testing/synctest bubble, where time.Now and time.Sleep are virtual, so
// twenty minutes of load take a second or two of CPU.
//
// The world they run in is written apart from limiter/sim, so the verdicts
// are not judged only on the physics they were calibrated on: a downstream
// of goroutines (FIFO servers of a changing capacity, a service time with a
// floor and a tail or lognormal noise, fast errors, shedding of a deep
// backlog), a client that gives up after a timeout, Poisson, batch and
// worker-pool pipelines, an optional lag on the way back (slow feedback),
// and an exporter that samples at jittered intervals what each library
// itself reports (its limit, its in-flight count, its min-RTT estimate where
// it keeps one) and what the service's own metrics would (the mean RTT of
// the interval's successes, losses, rejections).

package diagnose

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/failsafe-go/failsafe-go/adaptivelimiter"
	"github.com/platinummonkey/go-concurrency-limits/core"
	gcl "github.com/platinummonkey/go-concurrency-limits/limit"
	gcllimiter "github.com/platinummonkey/go-concurrency-limits/limiter"
	"github.com/platinummonkey/go-concurrency-limits/strategy"

	"github.com/limitscope/limitscope/internal/thirdpartytest"
	"github.com/limitscope/limitscope/limiter/sim"
	"github.com/limitscope/limitscope/scrape"
	"github.com/limitscope/limitscope/trace"
)

// realLimiter is one library's limiter as a service uses it.
type realLimiter interface {
	// acquire asks for a slot; done reports how the request ended (ok:
	// answered in time; else dropped: an error or a timeout).
	acquire() (done func(ok bool), admitted bool)
	limit() float64
	inFlight() float64
	// minRTT is the library's own min-RTT estimate, 0 when it keeps none
	// (or exports none).
	minRTT() time.Duration
}

// gclReal is go-concurrency-limits' DefaultLimiter over one limit
// algorithm, with its SimpleStrategy: the library's own windows (one
// OnSample per window of at least 100 samples and 1 s), its own RTTs.
// Requests acquire from acq: the DefaultLimiter itself, which refuses at
// once, or a queueing limiter over it.
type gclReal struct {
	l      *gcllimiter.DefaultLimiter
	acq    core.Limiter
	st     *strategy.SimpleStrategy
	rttMin func() int64
}

func newGCLReal(lim core.Limit, minRTT func() int64) *gclReal {
	st := strategy.NewSimpleStrategy(lim.EstimatedLimit())
	// the library's defaults (limiter/default.go): windows of 1 s holding
	// more than 100 samples, RTTs under 100 µs ignored
	l, err := gcllimiter.NewDefaultLimiter(lim, 1e9, 1e9, 1e5, 100, st, nil, nil)
	if err != nil {
		panic(err) // constant, valid arguments
	}
	return &gclReal{l: l, acq: l, st: st, rttMin: minRTT}
}

// queued makes requests wait in go-concurrency-limits' FifoBlockingLimiter
// at its defaults (limiter/fifo_blocking.go: a backlog of 100 waiting up
// to 1 s): a request the limit turns away waits in line for a released
// slot and is refused only when the backlog is full or its wait ran out.
func (g *gclReal) queued() *gclReal {
	g.acq = gcllimiter.NewFifoBlockingLimiterWithDefaults(g.l)
	return g
}

func (g *gclReal) acquire() (func(bool), bool) {
	ls, ok := g.acq.Acquire(context.Background())
	if !ok {
		return nil, false
	}
	return func(ok bool) {
		if ok {
			ls.OnSuccess()
		} else {
			ls.OnDropped()
		}
	}, true
}

func (g *gclReal) limit() float64        { return float64(g.st.GetLimit()) }
func (g *gclReal) inFlight() float64     { return float64(g.st.GetBusyCount()) }
func (g *gclReal) minRTT() time.Duration { return thirdpartytest.Nanos(g.rttMin) }

// failsafeReal is failsafe-go's adaptive limiter. Without wait (no
// queueing) a rejected request is refused at once (TryAcquirePermit);
// with it, built WithQueueing, a request beyond the limit waits for a
// permit up to wait and is refused at once where the queue holds more than
// the rejection factors allow (AcquirePermitWithMaxWait).
type failsafeReal struct {
	l    adaptivelimiter.AdaptiveLimiter[any]
	wait time.Duration
}

func (f *failsafeReal) acquire() (func(bool), bool) {
	var p adaptivelimiter.Permit
	ok := false
	if f.wait > 0 {
		var err error
		p, err = f.l.AcquirePermitWithMaxWait(context.Background(), f.wait)
		ok = err == nil
	} else {
		p, ok = f.l.TryAcquirePermit()
	}
	if !ok {
		return nil, false
	}
	return func(ok bool) {
		if ok {
			p.Record()
		} else {
			p.Drop()
		}
	}, true
}

func (f *failsafeReal) limit() float64        { return float64(f.l.Limit()) }
func (f *failsafeReal) inFlight() float64     { return float64(f.l.Inflight()) }
func (f *failsafeReal) minRTT() time.Duration { return 0 }

// worldStep changes the world at At; zero fields keep their value (a
// negative ErrorRate sets it to 0).
type worldStep struct {
	At       time.Duration
	Capacity float64
	Base     time.Duration
	Demand   float64
	ErrRate  float64
}

// worldSpec is one run.
type worldSpec struct {
	steps    []worldStep
	dur      time.Duration
	interval time.Duration
	// jitter: each scrape lands up to this share of the interval early or late
	jitter float64
	// tail: the service time is base·(½ + ½·Exp/ln 2) (a floor and a tail,
	// median base) instead of base·lognormal(sigma)
	tail    bool
	sigma   float64
	timeout time.Duration
	// lag: responses take this much longer to reach the client (the limiter
	// hears late, and its RTT includes it)
	lag time.Duration
	// workers: a closed-loop pool instead of Poisson arrivals
	workers int
	// batch: demand comes in bursts of batch[0], then idles for batch[1]
	batch [2]time.Duration
	seed  uint64
	// skip: the trace starts this late (mid-incident)
	skip time.Duration
	// netflix: the exporter reads the limiter as Netflix's registry
	// exports it (see netflixFamilies)
	netflix bool
}

// world is the downstream and the pipeline in one bubble.
type world struct {
	mu      sync.Mutex
	rng     *rand.Rand
	cap     float64
	base    time.Duration
	demand  float64
	errRate float64
	busy    int
	waiting []chan struct{}

	// the interval's service metrics
	rttSum          float64
	rttN            int
	dropped, reject float64
	// each arrival's reading of in-flight, and the requests that left the
	// limit (Netflix's export)
	arrivalsInFlight, arrivals, finished float64

	// truth: what happened in the judged span (from spanStart), known
	// exactly to the world and to no exporter
	spanStart time.Time
	truth     worldTruth
}

// worldTruth is what the world knows of a run's judged span: the demand
// offered, what the limiter turned away, what the downstream lost (shed or
// timed out; injected errors apart), and the limit read every
// truthTick.
type worldTruth struct {
	offered, rejected, lost, failed, answered int
	limits                                    []float64
	// sentAt and lostAt count, per truthTick from the span's start, the
	// requests the limit let through and those shed or timed out
	sentAt, lostAt []int
}

// tick counts one request the limit let through, at now, in its
// truthTick bucket.
func (tr *worldTruth) tick(now, spanStart time.Time, lost bool) {
	k := int(now.Sub(spanStart) / truthTick)
	for len(tr.sentAt) <= k {
		tr.sentAt, tr.lostAt = append(tr.sentAt, 0), append(tr.lostAt, 0)
	}
	tr.sentAt[k]++
	if lost {
		tr.lostAt[k]++
	}
}

const (
	// worldShedAt: a backlog of this many capacities is refused at once
	worldShedAt = 4
	// worldKnee: service time inflates by this much per capacity-worth of
	// backlog (contention in an overloaded server)
	worldKnee = 0.2
	// worldErrLatency: a fast error
	worldErrLatency = 2 * time.Millisecond
)

func (w *world) slots() int { return max(1, int(math.Round(w.cap))) }

// dispatchLocked hands free servers to waiters in arrival order.
func (w *world) dispatchLocked() {
	for len(w.waiting) > 0 && w.busy < w.slots() {
		w.busy++
		close(w.waiting[0])
		w.waiting = w.waiting[1:]
	}
}

func (w *world) apply(s worldStep) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if s.Capacity > 0 {
		w.cap = s.Capacity
	}
	if s.Base > 0 {
		w.base = s.Base
	}
	if s.Demand > 0 {
		w.demand = s.Demand
	}
	if s.ErrRate > 0 {
		w.errRate = s.ErrRate
	} else if s.ErrRate < 0 {
		w.errRate = 0
	}
	w.dispatchLocked()
}

// serve is one request at the downstream; it reports on done how it
// answered.
func (w *world) serve(spec *worldSpec, done chan<- answer) {
	w.mu.Lock()
	if w.rng.Float64() < w.errRate {
		w.mu.Unlock()
		time.Sleep(worldErrLatency)
		done <- failedFast
		return
	}
	n := w.busy + len(w.waiting)
	if float64(n) >= worldShedAt*w.cap {
		w.mu.Unlock()
		time.Sleep(worldErrLatency)
		done <- shed
		return
	}
	var noise float64
	if spec.tail {
		noise = 0.5 + 0.5*w.rng.ExpFloat64()/math.Ln2
	} else {
		noise = math.Exp(spec.sigma * w.rng.NormFloat64())
	}
	service := time.Duration(float64(w.base) * noise * (1 + worldKnee*max(0, float64(n)/w.cap-1)))
	var wait chan struct{}
	if w.busy < w.slots() && len(w.waiting) == 0 {
		w.busy++
	} else {
		wait = make(chan struct{})
		w.waiting = append(w.waiting, wait)
	}
	w.mu.Unlock()
	if wait != nil {
		<-wait
	}
	time.Sleep(service)
	w.mu.Lock()
	w.busy--
	w.dispatchLocked()
	w.mu.Unlock()
	done <- answered
}

// request is one request of the pipeline through the limiter.
func (w *world) request(wg *sync.WaitGroup, spec *worldSpec, lim realLimiter) {
	if spec.netflix {
		// each arrival's reading, only where it is exported, taken before
		// it acquires, as SimpleLimiter.acquire reads getInflight() before
		// it admits the request: a reading after it counted the arrival
		// itself, one too many for every admitted request
		w.mu.Lock()
		w.arrivalsInFlight += lim.inFlight()
		w.arrivals++
		w.mu.Unlock()
	}
	release, ok := lim.acquire()
	inSpan := !time.Now().Before(w.spanStart)
	if !ok {
		w.mu.Lock()
		w.reject++
		if inSpan {
			w.truth.offered++
			w.truth.rejected++
		}
		w.mu.Unlock()
		return
	}
	start := time.Now()
	done := make(chan answer, 1)
	wg.Go(func() { w.serve(spec, done) }) // the downstream works on after a timeout
	timer := time.NewTimer(spec.timeout)
	var a answer
	select {
	case a = <-done:
		timer.Stop()
	case <-timer.C:
	}
	success := a == answered
	if spec.lag > 0 {
		time.Sleep(spec.lag)
	}
	rtt := time.Since(start)
	release(success)
	w.mu.Lock()
	w.finished++
	if success {
		w.rttSum += rtt.Seconds()
		w.rttN++
	} else {
		w.dropped++
	}
	if inSpan {
		w.truth.tick(time.Now(), w.spanStart, a == timedOut || a == shed)
		w.truth.offered++
		switch a {
		case answered:
			w.truth.answered++
		case failedFast:
			w.truth.failed++
		default: // shed, or timed out
			w.truth.lost++
		}
	}
	w.mu.Unlock()
}

// answer is how the downstream answered a request.
type answer int

const (
	timedOut   answer = iota // no answer before the client's timeout
	answered                 // a success
	failedFast               // an injected error
	shed                     // refused for a deep backlog
)

// bubbleEpoch is where a synctest bubble's clock starts (testing/synctest:
// "The initial time is midnight UTC 2000-01-01").
var bubbleEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// truthTick is how often the world reads the limit for the truth, and
// truthWarmup how long a limiter is given to leave its initial limit before
// the judged span starts.
const (
	truthTick   = 250 * time.Millisecond
	truthWarmup = 2 * time.Minute
)

// runWorld runs spec against the limiter build makes, in a synctest
// bubble, and returns the exporter's samples and the world's truth about
// the judged span.
func runWorld(t *testing.T, spec worldSpec, target string, build func() realLimiter) ([]trace.Sample, worldTruth) {
	var out []trace.Sample
	var truth worldTruth
	synctest.Test(t, func(t *testing.T) {
		lim := build()
		w := &world{rng: rand.New(rand.NewPCG(spec.seed, 17))}
		w.apply(spec.steps[0])
		epoch := time.Now()
		end := epoch.Add(spec.dur)
		w.spanStart = epoch.Add(max(spec.skip, truthWarmup))
		var wg sync.WaitGroup
		// the schedule
		wg.Go(func() {
			for _, s := range spec.steps[1:] {
				time.Sleep(time.Until(epoch.Add(s.At)))
				w.apply(s)
			}
		})
		// the truth's reading of the limit
		wg.Go(func() {
			time.Sleep(time.Until(w.spanStart))
			for time.Now().Before(end) {
				l := lim.limit()
				w.mu.Lock()
				w.truth.limits = append(w.truth.limits, l)
				w.mu.Unlock()
				time.Sleep(truthTick)
			}
		})
		// the pipeline
		idle := func(now time.Time) bool {
			if spec.batch[0] == 0 {
				return false
			}
			cycle := spec.batch[0] + spec.batch[1]
			return now.Sub(epoch)%cycle >= spec.batch[0]
		}
		if spec.workers > 0 {
			for i := 0; i < spec.workers; i++ {
				wg.Go(func() {
					for time.Now().Before(end) {
						w.request(&wg, &spec, lim)
						w.mu.Lock()
						think := w.rng.ExpFloat64() * float64(spec.workers) / w.demand
						w.mu.Unlock()
						time.Sleep(time.Duration(think * float64(time.Second)))
					}
				})
			}
		} else {
			wg.Go(func() {
				for {
					w.mu.Lock()
					gap := w.rng.ExpFloat64() / w.demand
					w.mu.Unlock()
					time.Sleep(time.Duration(gap * float64(time.Second)))
					now := time.Now()
					if !now.Before(end) {
						return
					}
					if idle(now) {
						continue
					}
					wg.Go(func() { w.request(&wg, &spec, lim) })
				}
			})
		}
		// the exporter
		jr := rand.New(rand.NewPCG(spec.seed, 23))
		prev := epoch
		wg.Go(func() {
			for k := 1; ; k++ {
				at := epoch.Add(time.Duration(k) * spec.interval)
				if spec.jitter > 0 {
					at = at.Add(time.Duration((2*jr.Float64() - 1) * spec.jitter * float64(spec.interval)))
				}
				if !at.Before(end) {
					return
				}
				time.Sleep(time.Until(at))
				s := trace.Sample{Time: time.Now().UTC(), Target: target, Limit: lim.limit(), InFlight: lim.inFlight(),
					Fields: trace.FieldLimit | trace.FieldInFlight | trace.FieldDropped | trace.FieldRejected}
				if m := lim.minRTT(); m > 0 {
					s.RTTMinMs, s.Fields = float64(m)/1e6, s.Fields|trace.FieldRTTMin
				}
				w.mu.Lock()
				if w.rttN > 0 {
					s.RTTMs, s.Fields = 1e3*w.rttSum/float64(w.rttN), s.Fields|trace.FieldRTT
				}
				s.Dropped, s.Rejected = w.dropped, w.reject
				if spec.netflix {
					netflixExport(&s, w.arrivalsInFlight, w.arrivals, w.finished, s.Time.Sub(prev))
				}
				prev = s.Time
				w.rttSum, w.rttN, w.dropped, w.reject = 0, 0, 0, 0
				w.arrivalsInFlight, w.arrivals, w.finished = 0, 0, 0
				w.mu.Unlock()
				if s.Time.Sub(epoch) >= spec.skip {
					out = append(out, s)
				}
			}
		})
		wg.Wait()
		truth = w.truth
	})
	return out, truth
}

// The truth's thresholds: a trace is labelled by what its world did, on
// DESIGN.md §5's definitions, never by what the classifier says. Where a
// run's story fits no class (a limiter that overloads its downstream, one
// too tight for a light load) or sits between two (a limit neither calm
// nor clearly swinging), it is left out of the recall and listed.
const (
	// truthBlock, truthSwing, truthCalm: the limit's swing is its 5–95 %
	// range over its median within blocks of two minutes, the median block
	// taken (a capacity step moves one block); half the median or more,
	// and two jitters, is a wide swing; under a quarter, calm.
	truthBlock = 2 * time.Minute
	truthSwing = 0.5
	truthCalm  = 0.25
	// truthBinding: the limit turns away a material share of demand at 5 %
	// (DESIGN.md §5: pipeline-bound turns away none).
	truthBinding = 0.05
	// truthOverload: shed or timed out, 5 % or more of what the limit let
	// through: the limiter did not protect the downstream (not a healthy
	// limiter, and the downstream did not degrade).
	truthOverload = 0.05
)

// swing is the limit's median block swing (see truthBlock).
func (tr worldTruth) swing() float64 { return tr.swingOf(tr.limits) }

// healthyTime says why the time outside incidents is not healthy, or "":
// in the blocks that start at least settle after every incident's end and
// end before the next one starts (offsets from the run's start; the truth
// is read from truthWarmup on), the limit swings (by the median block, or
// widely in a quarter of the blocks), or the downstream sheds or times out
// 5 % of what the limit sends.
func (tr worldTruth) healthyTime(incidents [][2]time.Duration, settle time.Duration) string {
	per := int(truthBlock / truthTick)
	var kept []float64
	sent, lost := 0, 0
	for i := 0; i+per <= len(tr.limits); i += per {
		from := truthWarmup + time.Duration(i)*truthTick
		to := from + truthBlock
		clear := true
		for _, in := range incidents {
			clear = clear && (to <= in[0] || from >= in[1]+settle)
		}
		if !clear {
			continue
		}
		kept = append(kept, tr.limits[i:i+per]...)
		for k := i; k < i+per && k < len(tr.sentAt); k++ {
			sent, lost = sent+tr.sentAt[k], lost+tr.lostAt[k]
		}
	}
	blocks := tr.blockSwings(kept)
	switch {
	case len(blocks) == 0:
		return "no healthy time to judge"
	case blocks[len(blocks)/2] >= truthCalm || blocks[len(blocks)*3/4] >= truthSwing:
		return fmt.Sprintf("the limit swings in the healthy time (median block %.0f%%, widest quarter %.0f%%)", 100*blocks[len(blocks)/2], 100*blocks[len(blocks)*3/4])
	case share(lost, sent) >= truthOverload:
		return fmt.Sprintf("the downstream sheds or times out %.0f%% of what the limit sends in the healthy time", 100*share(lost, sent))
	}
	return ""
}

func (tr worldTruth) swingOf(limits []float64) float64 {
	blocks := tr.blockSwings(limits)
	if len(blocks) == 0 {
		return 0
	}
	return blocks[len(blocks)/2]
}

// blockSwings returns the swing of each truthBlock of limits, sorted.
func (tr worldTruth) blockSwings(limits []float64) []float64 {
	per := int(truthBlock / truthTick)
	var blocks []float64
	for i := 0; i+per <= len(limits); i += per {
		b := append([]float64(nil), limits[i:i+per]...)
		sort.Float64s(b)
		lo, med, hi := b[len(b)/20], b[len(b)/2], b[len(b)*19/20]
		if med <= 0 {
			continue
		}
		r := (hi - lo) / med
		if hi-lo < 2*jitter(med) {
			r = 0 // within a limit's own jitter: calm
		}
		blocks = append(blocks, r)
	}
	sort.Float64s(blocks)
	return blocks
}

func share(n, of int) float64 { return float64(n) / float64(max(of, 1)) }

// label is the class the world's truth gives a run meant as intent, or ""
// and why it is left out. Without the limit read finely (tr.limits empty:
// the simulator's counts) no swing is judged, and a swinging run keeps its
// intent.
func (tr worldTruth) label(intent Class) (Class, string) {
	// losses are a share of what the limit let through
	rej, lost, sw := share(tr.rejected, tr.offered), share(tr.lost, tr.offered-tr.rejected), tr.swing()
	switch {
	case intent == Degraded:
		return Degraded, "" // the world degraded: that is the story, whatever the limiter did
	case intent == Oscillating && len(tr.limits) == 0:
		return Oscillating, "" // no swing is judged: a mis-tuned limiter keeps its intent (AIMD's deep saw-tooth loses by design)
	case intent == PipelineBound:
		if rej >= truthBinding {
			return "", fmt.Sprintf("the limit turned away %.0f%% of a light load", 100*rej)
		}
		if lost >= truthOverload {
			return "", fmt.Sprintf("the downstream lost %.0f%% of what a light load sent", 100*lost)
		}
		return PipelineBound, ""
	}
	if lost >= truthOverload {
		return "", fmt.Sprintf("the limiter let the downstream shed or time out %.0f%% of what it sent", 100*lost)
	}
	if len(tr.limits) == 0 { // the limit was not read finely: no swing is judged
		if intent == Healthy && rej < truthBinding {
			return "", fmt.Sprintf("the limit turned away only %.0f%% of binding demand", 100*rej)
		}
		return intent, ""
	}
	switch {
	case sw >= truthSwing:
		return Oscillating, ""
	case intent == Oscillating:
		return "", fmt.Sprintf("the mis-tuned limiter swung only %.0f%%", 100*sw)
	case sw >= truthCalm:
		return "", fmt.Sprintf("the limit swung %.0f%%: neither calm nor swinging", 100*sw)
	case rej < truthBinding:
		return "", fmt.Sprintf("the limit turned away only %.0f%% of binding demand", 100*rej)
	}
	return Healthy, ""
}

// realFamily builds one library's limiter for a downstream of capacity c.
type realFamily struct {
	name  string
	tuned func(c float64) realLimiter
	// episodeScale is the smallest capacity the library's multi-episode
	// traces are drawn at (0: any), where at smaller ones its healthy time
	// is not healthy
	episodeScale float64
	// swinging is the library mis-tuned so that it oscillates (nil: no
	// setting of it swings here)
	swinging func(c float64) realLimiter
	// netflix: exported as Netflix's registry exports the algorithm
	// (netflixFamilies)
	netflix bool
}

// gclVegas is go-concurrency-limits' Vegas for a downstream of capacity c,
// its probe jitter seeded (thirdpartytest.Seeded).
func gclVegas(c float64) *gclReal {
	l, seeded := thirdpartytest.Seeded(thirdpartytest.Seed(c), func() *gcl.VegasLimit {
		return gcl.NewVegasLimitWithRegistry("v", int(c), nil, int(10*c)+20, 1, nil, nil, nil, nil, nil, -1, nil, nil)
	})
	return newGCLReal(seeded, l.RTTNoLoad)
}

// failsafeLimits is failsafe-go's adaptive limiter for a downstream of
// capacity c: limits 1 to 10c+20, starting at c.
func failsafeLimits(c float64) adaptivelimiter.Builder[any] {
	return adaptivelimiter.NewBuilder[any]().WithLimits(1, uint(10*c)+20, uint(max(1, c)))
}

var realFamilies = []realFamily{
	{
		name: "gcl-gradient",
		tuned: func(c float64) realLimiter {
			l, seeded := thirdpartytest.Seeded(thirdpartytest.Seed(c), func() *gcl.GradientLimit {
				return gcl.NewGradientLimitWithRegistry("g", int(c), 1, int(10*c)+20, 0.2, nil, -1, 0, nil, nil)
			})
			return newGCLReal(seeded, l.RTTNoLoad)
		},
	},
	{
		name: "gcl-gradient2",
		tuned: func(c float64) realLimiter {
			reg := &thirdpartytest.LastValueRegistry{}
			l, _ := gcl.NewGradient2Limit("g2", int(c), int(10*c)+20, 4, func(int) int { return 4 }, 0.2, 600, nil, reg)
			return newGCLReal(l, reg.MinRTT("g2"))
		},
	},
	{
		name:  "gcl-vegas",
		tuned: func(c float64) realLimiter { return gclVegas(c) },
	},
	{
		name:  "gcl-aimd",
		tuned: func(c float64) realLimiter { return newGCLReal(gcl.NewAIMDLimit("a", int(c), 0.9, 1, nil), nil) },
		swinging: func(c float64) realLimiter {
			return newGCLReal(gcl.NewAIMDLimit("a", int(c), 0.5, int(max(2, c/8)), nil), nil)
		},
	},
	{
		name: "failsafe-adaptive",
		tuned: func(c float64) realLimiter {
			return &failsafeReal{l: failsafeLimits(c).Build()}
		},
		// at its defaults (and with a 60-window baseline, a 5 s recent
		// window, the p50, or a stabilisation window) it limit-cycles at
		// capacities up to 100 here — its limit steps by log10(limit) every
		// window and overshoots the lagging baseline — so a multi-episode
		// trace's healthy time would swing (the suite's truth leaves such
		// traces out: all six held-out ones were)
		episodeScale: 250,
	},
}

// netflixFamilies are go-concurrency-limits' Vegas and AIMD — ports of
// Netflix's VegasLimit and AIMDLimit — exported as Netflix's registry
// exports those: no RTT of their own (neither records min_window_rtt), the
// in-flight of each arrival, the call counter by outcome, Vegas' min RTT
// (its rtt_noload) and none for AIMD (netflixExport). The netflix preset
// reads them so, its RTT had by Little's law.
var netflixFamilies = func() []realFamily {
	var out []realFamily
	for _, f := range realFamilies {
		if f.name == "gcl-vegas" || f.name == "gcl-aimd" {
			f.name, f.netflix = "netflix-layout-"+strings.TrimPrefix(f.name, "gcl-"), true
			out = append(out, f)
		}
	}
	return out
}()

// netflixExport turns the exporter's sample of an interval span long into
// what the netflix preset reads from Netflix's registry for it: in-flight
// the mean of each arrival's reading (SimpleLimiter.acquire records
// getInflight() on every acquire, rejected ones too; nothing without
// arrivals), and no RTT of the limiter's own but Little's law's over the
// requests that finished (scrape.LittleRTT, from the call counter's
// success, dropped and ignored outcomes).
func netflixExport(s *trace.Sample, inFlightSum, arrivals, finished float64, span time.Duration) {
	s.Unset(trace.FieldRTT)
	s.Unset(trace.FieldInFlight)
	if arrivals == 0 {
		return
	}
	s.Set(trace.FieldInFlight, inFlightSum/arrivals)
	if rtt, ok := scrape.LittleRTT(s.InFlight, finished, span); ok {
		s.Set(trace.FieldRTT, rtt)
	}
}

// generateReal builds perClass traces per class and library of families
// from seed.
func generateReal(t *testing.T, seed uint64, perClass int, families []realFamily) []suiteTrace {
	return generateRealWith(t, seed, perClass, families, nil)
}

// generateRealWith is generateReal with each trace's base latency drawn by
// latency (freeLatency) instead of tied to its capacity (nil).
func generateRealWith(t *testing.T, seed uint64, perClass int, families []realFamily, latency func(c float64) time.Duration) []suiteTrace {
	rng := rand.New(rand.NewPCG(seed, 29))
	scales := []float64{1, 4, 10, 30, 100, 250, 500}
	intervals := []time.Duration{time.Second, 5 * time.Second, 15 * time.Second}
	var specs []func() suiteTrace
	for _, fam := range families {
		for i := 0; i < perClass; i++ {
			c := scales[rng.IntN(len(scales))]
			iv := intervals[rng.IntN(len(intervals))]
			variant := rng.IntN(6)
			load := 0.05 + 0.6*rng.Float64()
			tail := rng.IntN(2) == 0
			sigma := 0.1 + 0.1*float64(rng.IntN(3))
			lag := time.Duration(0)
			if rng.IntN(4) == 0 {
				lag = time.Duration(float64(c/100*float64(time.Second)) * (0.2 + 0.5*rng.Float64()))
			}
			s := rng.Uint64()
			// the downstream completes 100 requests a second at capacity
			base := time.Duration(c / 100 * float64(time.Second))
			if latency != nil {
				base = latency(c)
			}
			thr := c / base.Seconds()
			m := func(x float64) time.Duration { return time.Duration(x * float64(time.Minute)) }
			start := worldStep{Capacity: c, Base: base, Demand: 1.5 * thr, ErrRate: -1}
			spec := worldSpec{dur: 20 * time.Minute, interval: iv, jitter: 0.1, tail: tail, sigma: sigma,
				timeout: max(time.Second, 10*base), lag: lag, seed: s, netflix: fam.netflix}
			name := func(what string) string {
				return fmt.Sprintf("%s/%s C=%v base=%v iv=%v tail=%v σ=%.1f lag=%v v=%d load=%.2f", fam.name, what, c, base, iv, tail, sigma, lag.Round(time.Millisecond), variant, load)
			}
			mk := func(intent Class, what string, sp worldSpec, build func(float64) realLimiter) {
				specs = append(specs, func() suiteTrace {
					smp, truth := runWorld(t, sp, fam.name, func() realLimiter { return build(c) })
					label, why := truth.label(intent)
					if intent == Degraded && c == 1 && variant%3 == 0 {
						// a capacity of 1 cannot fall to 30 %: only the
						// errors changed
						label, why = "", "a capacity of 1 cannot fall (only errors appeared)"
					}
					return suiteTrace{labelled{name: name(what), label: intent, samples: smp}, fam.name, label, why}
				})
			}
			// healthy: binding demand, perhaps a capacity step with no errors
			h := spec
			h.steps = []worldStep{start}
			switch variant % 3 {
			case 1:
				h.steps = append(h.steps, worldStep{At: m(8), Capacity: 2 * c, Demand: 3 * thr})
			case 2:
				h.steps = append(h.steps, worldStep{At: m(8), Capacity: max(1, 0.6*c)})
			}
			mk(Healthy, "healthy", h, fam.tuned)
			// pipeline-bound: low Poisson load, batches with idle gaps, or a
			// worker pool smaller than the downstream
			p := spec
			switch variant % 3 {
			case 0:
				p.steps = []worldStep{{Capacity: c, Base: base, Demand: load * thr, ErrRate: -1}}
				mk(PipelineBound, "low-load", p, fam.tuned)
			case 1:
				// bursts below capacity: the load, not the limit, is bursty
				p.steps = []worldStep{{Capacity: c, Base: base, Demand: min(2*load, 0.8) * thr, ErrRate: -1}}
				p.batch = [2]time.Duration{m(1.5), m(1.5)}
				mk(PipelineBound, "batch", p, fam.tuned)
			case 2:
				p.steps = []worldStep{start}
				p.workers = max(1, int(load*c))
				mk(PipelineBound, fmt.Sprintf("pool-%d", p.workers), p, fam.tuned)
			}
			// degraded: capacity lost with errors at a flat latency, latency
			// creep, both; some traces start mid-incident
			d := spec
			switch variant % 3 {
			case 0:
				d.steps = []worldStep{start, {At: m(10), Capacity: max(1, 0.3*c), ErrRate: 0.05}}
			case 1:
				d.steps = []worldStep{start, {At: m(10), Base: 2 * base}, {At: m(11.5), Base: 3 * base}, {At: m(13), Base: 4 * base}}
			case 2:
				d.steps = []worldStep{start, {At: m(10), Capacity: max(1, 0.3*c), Base: 3 * base, ErrRate: 0.02}}
			}
			if variant == 3 || variant == 5 {
				d.skip = m(12)
			}
			mk(Degraded, "degraded", d, fam.tuned)
			if fam.swinging != nil && c >= 30 {
				o := spec
				o.steps = []worldStep{start}
				mk(Oscillating, "oscillating", o, fam.swinging)
			}
		}
	}
	return runAll(specs)
}

// dumpSuite writes each trace of a labelled set as a trace-format CSV file
// into the directory $LIMITSCOPE_SUITE_DUMP (when set), named after its
// label and index, so a miss can be read with the shipped binary
// (limitscope diagnose FILE, limitscope replay FILE).
func dumpSuite(t *testing.T, set []labelled) {
	dir := os.Getenv("LIMITSCOPE_SUITE_DUMP")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, l := range set {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%03d-%s.csv", i, l.label)))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, "# %s\n", l.name)
		w := trace.NewWriter(f, trace.CSV)
		for _, s := range l.samples {
			if err := w.Write(s); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote %d traces to %s", len(set), dir)
}

// TestRealLibrariesCalibration is where thresholds are tuned against the
// real libraries: it reports the calibration half only, and runs when
// asked (make calibrate: LIMITSCOPE_CALIBRATE=1), since it asserts nothing.
func TestRealLibrariesCalibration(t *testing.T) {
	if os.Getenv("LIMITSCOPE_CALIBRATE") == "" {
		t.Skip("reports the calibration half of the real-libraries suite; run with LIMITSCOPE_CALIBRATE=1 (make calibrate)")
	}
	set := generateReal(t, calibrationSeed, 20, realFamilies)
	dumpSuite(t, labelledOf(set))
	judgeSuite(t, set, true, realFamilyNames())
}

// realHeldOutFloor is the per-class recall each library keeps on the
// held-out half of the real-libraries suite (a ratchet: today's level
// less a trace; gcl's Gradient and Vegas draw probe jitter from the global
// random source, which thirdpartytest.SeededLimit makes repeatable). The target is
// 95 %; raise it as the classifier improves, never lower it.
// First measured (worst class): gcl-gradient 86 % (healthy), gcl-gradient2
// 78 % (healthy), gcl-vegas 90 % (degraded), gcl-aimd 86 % (oscillating),
// failsafe-adaptive 80 % (degraded), 7–10 traces per class.
// Vegas' first at 70 %: its classes of 7–10 traces moved by one from run
// to run before SeededLimit. Raised: gcl-gradient2 to 75 % (worst 89 %),
// gcl-vegas to 85 % (every class 100 %), failsafe-adaptive to 85 % (every
// class 100 % once a limit turning away most of the demand with losses is
// degraded: swampedShare). gcl-aimd raised to 85 % when its last miss (a
// crash from the saw-tooth's top read as a smaller downstream:
// queueTimedOut) was fixed and every class reached 100 % — not to the
// 95 % target, since its mis-tuned runs at a capacity of 500 follow the
// goroutine schedule and one trace of seven may differ from run to run.
// gcl-gradient raised to 85 % (a trace of seven below 100 %) when every
// class reached 100 % once swings over a standing queue had to recur
// (oscQueuedShare).
var realHeldOutFloor = map[string]float64{"gcl-gradient": 0.85, "gcl-gradient2": 0.75, "gcl-vegas": 0.85, "gcl-aimd": 0.85, "failsafe-adaptive": 0.85}

// TestRealLibrariesHeldOut judges the held-out half of the real-libraries
// suite per library and class.
func TestRealLibrariesHeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real limiter libraries through the held-out half")
	}
	recall := judgeSuite(t, generateReal(t, heldOutSeed, 10, realFamilies), true, realFamilyNames())
	for _, fam := range realFamilies {
		for c, r := range recall[fam.name] {
			floor, ok := realHeldOutFloor[fam.name]
			if !ok {
				floor = 0.95
			}
			t.Logf("%-18s %-20s held-out recall %.1f%% (target 95%%, ratchet %.0f%%)", fam.name, c, 100*r, 100*floor)
			if r < floor {
				t.Errorf("%s: %s recall on the held-out half is %.1f%%, below %.0f%%", fam.name, c, 100*r, 100*floor)
			}
		}
	}
}

// TestNetflixLayoutHeldOut judges the held-out half of the real-libraries
// suite for Vegas and AIMD exported as Netflix's registry exports them
// (netflixFamilies): no RTT but Little's law's from the in-flight and the
// call counter, as the netflix preset reads them. Every class 100 % when
// added (calibration half: Vegas 94–100 %, AIMD 79–100 %, its misses
// AIMD at capacities of 1 and 4 held above a downstream that slowed).
// Without the Little's-law RTT: AIMD healthy 20 % and oscillating 0 %
// (8 % and 0 % on the calibration half, where Vegas read 84–88 %): a
// saw-tooth's falls with losses and nothing to say completions held read
// degraded. The ratchet is the real-libraries one for go-concurrency-
// limits' AIMD and Vegas.
func TestNetflixLayoutHeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go-concurrency-limits' Vegas and AIMD through the held-out half")
	}
	var names []string
	for _, f := range netflixFamilies {
		names = append(names, f.name)
	}
	recall := judgeSuite(t, generateReal(t, heldOutSeed, 10, netflixFamilies), true, names)
	for _, name := range names {
		if len(recall[name]) == 0 {
			t.Errorf("%s: no class judged", name)
		}
		for c, r := range recall[name] {
			t.Logf("%-22s %-20s held-out recall %.1f%% (ratchet 85%%)", name, c, 100*r)
			if r < 0.85 {
				t.Errorf("%s: %s recall on the held-out half is %.1f%%, below 85%%", name, c, 100*r)
			}
		}
	}
}

// generateRealEpisodes builds n multi-episode traces per library from
// seed: 45 minutes at capacities 10…500 and 1, 5 or 15 s sampling, one to
// three incidents of 1–10 minutes (capacity lost to 30 % with 5 % errors
// at a flat latency, or latency tripled) at least 6 healthy minutes apart.
// Sample times are moved to sim.Epoch, which timeLabelledCorrectly
// measures incidents from.
func generateRealEpisodes(t *testing.T, seed uint64, n int) []episodeTrace {
	rng := rand.New(rand.NewPCG(seed, 31))
	scales := []float64{10, 30, 100, 250, 500}
	intervals := []time.Duration{time.Second, 5 * time.Second, 15 * time.Second}
	var specs []func() episodeTrace
	for _, fam := range realFamilies {
		for i := 0; i < n; i++ {
			c := max(fam.episodeScale, scales[rng.IntN(len(scales))])
			iv := intervals[rng.IntN(len(intervals))]
			tail := rng.IntN(2) == 0
			sigma := 0.1 + 0.1*float64(rng.IntN(3))
			s := rng.Uint64()
			base := time.Duration(c / 100 * float64(time.Second))
			thr := c / base.Seconds()
			steps := []worldStep{{Capacity: c, Base: base, Demand: 1.5 * thr, ErrRate: -1}}
			incidents, capacityLost := drawIncidents(rng)
			for k, in := range incidents {
				if capacityLost[k] {
					steps = append(steps, worldStep{At: in[0], Capacity: max(1, 0.3*c), ErrRate: 0.05})
				} else {
					steps = append(steps, worldStep{At: in[0], Base: 3 * base})
				}
				steps = append(steps, worldStep{At: in[1], Capacity: c, Base: base, ErrRate: -1})
			}
			spec := worldSpec{steps: steps, dur: 45 * time.Minute, interval: iv, jitter: 0.1, tail: tail, sigma: sigma, timeout: max(time.Second, 10*base), seed: s}
			name := fmt.Sprintf("%s/episodes C=%v iv=%v tail=%v σ=%.1f %v", fam.name, c, iv, tail, sigma, incidents)
			specs = append(specs, func() episodeTrace {
				smp, truth := runWorld(t, spec, fam.name, func() realLimiter { return fam.tuned(c) })
				// the healthy time must be healthy: a limit swinging there
				// (or a downstream shedding) is left out, with why
				why := truth.healthyTime(incidents, 5*time.Minute)
				for k := range smp {
					smp[k].Time = smp[k].Time.Add(sim.Epoch.Sub(bubbleEpoch))
				}
				return episodeTrace{name: name, family: fam.name, samples: smp, incidents: incidents, interval: iv, why: why}
			})
		}
	}
	return runAll(specs)
}

// blockingFamilies are the libraries' limiters that queue what their limit
// turns away rather than refuse it at once: the rejected counter counts
// only what waited too long or found the queue full, and in-flight presses
// against the limit whenever anything waits.
var blockingFamilies = []realFamily{
	{
		name:  "gcl-vegas-queued",
		tuned: func(c float64) realLimiter { return gclVegas(c).queued() },
	},
	{
		name: "failsafe-queued",
		tuned: func(c float64) realLimiter {
			// the client's own patience (worldSpec.timeout)
			wait := max(time.Second, time.Duration(c/10*float64(time.Second)))
			return &failsafeReal{failsafeLimits(c).WithQueueing(2, 3).Build(), wait}
		},
	},
}

// blockingHeldOutFloor is the per-class recall each queueing limiter keeps
// on the held-out draw (a ratchet, as realHeldOutFloor: today's level less
// a trace). First measured, three runs alike: gcl-vegas-queued healthy 8/8,
// pipeline-bound 9/10 (at a capacity of 1, a limit halving from 8 to 4
// while losses went from 0.9 % to 1.0 % read degraded; 10/10 since a fall
// with in-flight under half the limit is no capacity lost — the simulator's
// Vector ARC on the calibration side), degraded 8/8;
// failsafe-queued every class 100 % (healthy 2/2: its queue lets a small
// downstream shed half of what it sends, and the truth leaves those runs
// out; oscillating 3/3, its limit cycle). On the calibration draw (make
// calibrate) the misses are at a capacity of 1 too, and one failsafe run
// on the truth's oscillating/healthy edge. One of them, failsafe-go's
// steady 2–6 % losses read "failing" against their luckiest window, set
// calmLevelDepth (testdata/failsafe-queued-steady-losses-far-from-binding-5s.csv);
// the held-out cells did not move.
var blockingHeldOutFloor = map[string]float64{"gcl-vegas-queued": 0.85, "failsafe-queued": 0.85}

// minFloorTraces: a class of the queueing limiters' held-out draw holds
// its floor from this many traces on.
const minFloorTraces = 5

// TestQueueingLimitersHeldOut judges limiters that queue instead of
// rejecting on the held-out draw: their rejected counter is near zero
// while they bind, which the binding-constraint evidence must not read as
// a limit that turns nothing away (unboundShare needs in-flight below the
// limit in most samples).
// TestQueueingLimitersCalibration reports the calibration half of the
// queueing limiters (make calibrate).
func TestQueueingLimitersCalibration(t *testing.T) {
	if os.Getenv("LIMITSCOPE_CALIBRATE") == "" {
		t.Skip("reports the calibration half of the queueing limiters; run with LIMITSCOPE_CALIBRATE=1 (make calibrate)")
	}
	set := generateReal(t, calibrationSeed, 20, blockingFamilies)
	dumpSuite(t, labelledOf(set))
	judgeSuite(t, set, true, namesOf(blockingFamilies, func(f realFamily) string { return f.name }))
}

func TestQueueingLimitersHeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the queueing limiters of the real libraries through a held-out draw")
	}
	names := namesOf(blockingFamilies, func(f realFamily) string { return f.name })
	set := generateReal(t, heldOutSeed, 10, blockingFamilies)
	traces := map[string]map[Class]int{}
	for _, l := range set {
		if traces[l.family] == nil {
			traces[l.family] = map[Class]int{}
		}
		traces[l.family][l.truth]++
	}
	recall := judgeSuite(t, set, true, names)
	for _, fam := range blockingFamilies {
		for c, r := range recall[fam.name] {
			floor, ok := blockingHeldOutFloor[fam.name]
			if !ok {
				floor = 0.95
			}
			t.Logf("%-18s %-20s held-out recall %.1f%% of %d (target 95%%, ratchet %.0f%%)", fam.name, c, 100*r, traces[fam.name][c], 100*floor)
			// a class of fewer than minFloorTraces holds no floor: one run
			// that follows the goroutine schedule (failsafe-go at small
			// capacities) would move it by a third or more
			if r < floor && traces[fam.name][c] >= minFloorTraces {
				t.Errorf("%s: %s recall on the held-out draw is %.1f%%, below %.0f%%", fam.name, c, 100*r, 100*floor)
			}
		}
	}
}

func realFamilyNames() []string {
	return namesOf(realFamilies, func(f realFamily) string { return f.name })
}

// TestRealLibrariesEpisodesCalibration reports the calibration half's
// multi-episode traces of the real libraries (make calibrate).
func TestRealLibrariesEpisodesCalibration(t *testing.T) {
	if os.Getenv("LIMITSCOPE_CALIBRATE") == "" {
		t.Skip("reports the real libraries' multi-episode calibration traces; run with LIMITSCOPE_CALIBRATE=1 (make calibrate)")
	}
	set := generateRealEpisodes(t, calibrationSeed, 6)
	ls := make([]labelled, len(set))
	for i, e := range set {
		ls[i] = labelled{name: e.name, label: "episodes", samples: e.samples}
	}
	dumpSuite(t, ls)
	wantEpisodes(t, judgeEpisodes(t, set, realFamilyNames()), nil, "calibration")
}

// realEpisodeFloor is the share of time a library must label correctly on
// the held-out multi-episode traces where it is below the 90 % target today
// (a ratchet).
//
// failsafe-go (at capacities of 250 and 500, see episodeScale) 84.5 % when
// first measured: its limit wanders ±13 % in the healthy time, so a limit
// at the top of its wander when an incident starts reads as grown into its
// own queue, and the incident is found minutes late (judging growth
// against the limit's recent level instead finds it at once, but calls
// AIMD above a downstream that stepped down to 60 % degraded as well).
// 88.7 % since a slower downstream is judged where the limit grew too
// (slowerGrownShare); the ratchet raised to 85 %. On 20 calibration-side
// traces it labels 96 % correctly: six held-out traces are a small sample.
// 99.5 % since the RTT places episode boundaries where there is no min-RTT
// series and a limit at the highest level it held with a calm RTT counts as
// held (calmHigh: its wander no longer reads as growth, while AIMD above a
// downstream at 60 % still does, its RTT queued at that level). Empty
// since: every library reaches the target, and one that falls below fails.
var realEpisodeFloor = map[string]float64{}

// TestRealLibrariesEpisodesHeldOut judges the real libraries' held-out
// multi-episode traces: 90 % of the time labelled correctly per library.
func TestRealLibrariesEpisodesHeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real limiter libraries through multi-episode traces")
	}
	wantEpisodes(t, judgeEpisodes(t, generateRealEpisodes(t, heldOutSeed, 6), realFamilyNames()), realEpisodeFloor, "held-out")
}
