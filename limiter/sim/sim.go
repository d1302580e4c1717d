// Package sim runs limiters against a simulated downstream in virtual time:
// no sleeping, deterministic for a seed, an hour in well under a second per
// limiter. It is a discrete-event simulation of a pipeline (Poisson demand, a
// bounded wait queue with a deadline, the limit) in front of a downstream
// with time-varying concurrency capacity C(t) and base latency B(t).
//
// The downstream is a FIFO multi-server queue: up to C requests are served at
// once, the rest wait inside it. Service time is B·lognormal(σ) (drawn from a
// 4096-bin quantile table) inflated by
// the backlog past the knee (Downstream.Knee), so latency grows linearly with
// queueing and then faster than linearly; a backlog beyond ShedAt·C is refused
// with a fast error, and the client gives up after Client.Timeout (a loss)
// while the downstream still does the work. RTT is measured from dispatch to
// response, never including the wait for a slot in the limiter.
//
// The package also defines the metrics of a run (see Result), which the
// what-if replay in package tune reports too.
package sim

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/limitscope/limitscope/internal/loghist"
	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/trace"
)

// Epoch is the wall-clock time virtual time 0 maps to in emitted samples.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Result is what one run yields.
//
// Utilisation is the useful work done divided by the work the downstream
// could have done: Σ B·noise of the requests answered successfully within the
// client's timeout, over ∫ C(t) dt. Work spent on requests the client already
// gave up on, and inflation past the knee, are not useful work.
//
// P50Ms and P99Ms are the response latency of admitted (dispatched) requests:
// successes and errors at their RTT, timeouts at the timeout. The wait for a
// slot in the limiter is not included.
//
// OverloadEpisodes counts the one-minute windows of the run (aligned to its
// start) that were overloaded: the mean latency of the window's responses
// exceeded twice the downstream's base latency — on average a backlog as deep
// as the capacity — or more than 1 % of the window's responses were lost to
// shedding or timeouts.
//
// Deferred counts requests the pipeline could not send: rejected because the
// wait queue was full, or expired in it after Client.Deadline.
type Result struct {
	Limiter          string
	Utilisation      float64
	P50Ms            float64
	P99Ms            float64
	OverloadEpisodes int
	Deferred         int64
	Requests         int64
	Dispatched       int64
	Lost             int64
	// MaxLimit is the highest enforced limit seen.
	MaxLimit float64
	// Samples is the per-interval series: limit and in-flight at the end of
	// the interval, the limiter's min RTT, the mean RTT of the interval's
	// successful responses, loss events and deferrals during the interval.
	Samples []trace.Sample
	// Counts is, for each of Samples, what happened in its interval that
	// no exporter sees whole: the ground truth a labelled test set is
	// judged by.
	Counts []IntervalCounts
}

// IntervalCounts is what one sample interval of a run did with demand.
type IntervalCounts struct {
	// Offered is the requests the pipeline had to send; Deferred those it
	// could not (Result.Deferred); Dispatched those sent.
	Offered, Deferred, Dispatched int64
	// Congested is responses lost to congestion (shed for a backlog, or
	// timed out); Failed the downstream's injected errors.
	Congested, Failed int64
}

// Options of one run.
type Options struct {
	// Name labels the samples (their Target) and the result.
	Name string
	// Cap is the static safety cap; 0 means none.
	Cap int
	// Seed overrides the scenario's seed when non-zero.
	Seed uint64
	// NoSamples skips building the per-interval series.
	NoSamples bool
}

type request struct {
	dispatch   int64
	demand     int64 // base service time drawn for it, ns
	inFlight   int32 // client in-flight when dispatched
	clientDone bool
	dsDone     bool
	isError    bool
	shed       bool // refused for backlog (a congestion loss)
	unlisted   bool // no longer in the sent FIFO
}

type event struct {
	t  int64
	id int32
}

// eventHeap is a binary min-heap on t, written out for speed.
type eventHeap []event

func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p].t <= s[i].t {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *eventHeap) pop() event {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && s[r].t < s[l].t {
			m = r
		}
		if s[i].t <= s[m].t {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// fifo is a ring of int32 (request ids or arrival times).
type fifo[T any] struct {
	buf        []T
	head, size int
}

func (q *fifo[T]) push(v T) {
	if q.size == len(q.buf) {
		nb := make([]T, max(16, 2*len(q.buf)))
		for i := 0; i < q.size; i++ {
			nb[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = nb, 0
	}
	q.buf[(q.head+q.size)%len(q.buf)] = v
	q.size++
}

func (q *fifo[T]) front() T { return q.buf[q.head] }

func (q *fifo[T]) pop() T {
	v := q.buf[q.head]
	q.head = (q.head + 1) % len(q.buf)
	q.size--
	return v
}

// noiseTable holds exp(σ·z) for 4096 equally likely standard-normal z (the
// midpoints of 4096 quantile bins), so drawing lognormal noise is one random
// index instead of an exp and a normal draw. The tails beyond the 1/8192
// quantiles are cut off.
type noiseTable [4096]float64

func newNoiseTable(sigma float64) *noiseTable {
	var t noiseTable
	for i := range t {
		p := (float64(i) + 0.5) / float64(len(t))
		t[i] = math.Exp(sigma * math.Sqrt2 * math.Erfinv(2*p-1))
	}
	return &t
}

// Run simulates sc with lim in front of the downstream.
func Run(sc Scenario, lim limiter.Limiter, opt Options) Result {
	s := newRunner(sc, lim, opt)
	s.run()
	return s.res
}

type runner struct {
	sc  Scenario
	lim limiter.Limiter
	opt Options
	rng *rand.Rand
	res Result

	now      int64
	end      int64
	w        world
	nextStep int64

	reqs     []request
	free     []int32
	heap     eventHeap // completions and error responses
	dsQueue  fifo[int32]
	sent     fifo[int32] // dispatched, in dispatch order, for timeouts
	waiting  fifo[int64] // arrival times of requests waiting for a slot
	busy     int
	inSystem int // requests the downstream holds (busy + queued)
	inFlight int // requests the client waits on

	nextArrival int64
	wake        eventHeap // a worker pool's next sends (Client.Workers)
	timeout     int64
	deadline    int64

	// accounting
	hist        *loghist.Counts
	noise       *noiseTable
	usefulNs    float64
	capacityNs  float64
	lastCapT    int64
	minuteStart int64
	minLatSum   float64
	minLatN     int64
	minLost     int64
	minBaseSum  float64

	// interval accounting
	nextSample  int64
	ivRTTSum    float64
	ivRTTN      int64
	ivDropped   int64
	ivDeferred  int64
	ivCounts    IntervalCounts
	ownMin      float64
	ownMinSince int64
}

func newRunner(sc Scenario, lim limiter.Limiter, opt Options) *runner {
	seed := sc.Seed
	if opt.Seed != 0 {
		seed = opt.Seed
	}
	r := &runner{sc: sc, lim: lim, opt: opt, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		hist: &loghist.Counts{}, noise: newNoiseTable(sc.Downstream.LatencySigma)}
	r.res.Limiter = opt.Name
	r.end = int64(sc.Duration)
	r.timeout = int64(sc.Client.Timeout)
	r.deadline = int64(sc.Client.Deadline)
	r.nextSample = int64(sc.Interval)
	r.applyWorld()
	for range sc.Client.Workers {
		r.workerDone()
	}
	r.scheduleArrival()
	return r
}

func (r *runner) applyWorld() {
	r.accrueCapacity()
	w, next := r.sc.at(time.Duration(r.now))
	r.w = w
	r.nextStep = int64(next)
	if next < 0 {
		r.nextStep = math.MaxInt64
	}
}

func (r *runner) accrueCapacity() {
	r.capacityNs += r.w.capacity * float64(r.now-r.lastCapT)
	r.lastCapT = r.now
}

func (r *runner) scheduleArrival() {
	if r.sc.Client.Workers > 0 {
		r.nextArrival = math.MaxInt64
		if len(r.wake) > 0 {
			r.nextArrival = r.wake[0].t
		}
		return
	}
	if r.w.demand <= 0 {
		r.nextArrival = math.MaxInt64
		return
	}
	r.nextArrival = r.after(r.rng.ExpFloat64() / r.w.demand)
}

// after is the time sec seconds from now, saturating at the end of
// representable time (a demand of 1e-12 per second waits 1e12 seconds).
func (r *runner) after(sec float64) int64 {
	d := sec * 1e9
	if !(d < float64(math.MaxInt64-r.now)) {
		return math.MaxInt64
	}
	return r.now + int64(d) + 1
}

func (r *runner) limit() int {
	l := r.lim.Limit()
	if math.IsNaN(l) || l < 1 {
		l = 1
	}
	n := int(l)
	if r.opt.Cap > 0 && n > r.opt.Cap {
		n = r.opt.Cap
	}
	if float64(n) > r.res.MaxLimit {
		r.res.MaxLimit = float64(n)
	}
	return n
}

// exportedLimit is the limit as a limiter exports it: the limiter's value
// under the cap, not rounded.
// remeasurer is a limiter that pins its limit while it re-measures its
// minimum RTT, and says so (limiter.Envoy).
type remeasurer interface{ Calculating() bool }

func (r *runner) exportedLimit() float64 {
	l := r.lim.Limit()
	if r.opt.Cap > 0 && l > float64(r.opt.Cap) {
		l = float64(r.opt.Cap)
	}
	return l
}

func (r *runner) at(t int64) time.Time { return Epoch.Add(time.Duration(t)) }

func (r *runner) newRequest() int32 {
	var id int32
	if n := len(r.free); n > 0 {
		id = r.free[n-1]
		r.free = r.free[:n-1]
	} else {
		r.reqs = append(r.reqs, request{})
		id = int32(len(r.reqs) - 1)
	}
	r.reqs[id] = request{}
	return id
}

// release frees a request's slot once the client, the downstream and the
// timeout FIFO are all done with it.
func (r *runner) release(id int32) {
	if q := &r.reqs[id]; q.clientDone && q.dsDone && q.unlisted {
		r.free = append(r.free, id)
	}
}

func (r *runner) run() {
	for {
		// the earliest of the pending events
		t := r.nextArrival
		kind := 0
		if len(r.heap) > 0 && r.heap[0].t < t {
			t, kind = r.heap[0].t, 1
		}
		if to := r.nextTimeout(); to < t {
			t, kind = to, 2
		}
		if r.nextSample <= t {
			t, kind = r.nextSample, 3
		}
		if r.nextStep <= t {
			t, kind = r.nextStep, 4
		}
		if t > r.end {
			t, kind = r.end, 5
		}
		r.now = t
		switch kind {
		case 0:
			r.arrive()
		case 1:
			r.complete(r.heap.pop().id)
		case 2:
			r.timeoutHead()
		case 3:
			r.sample()
		case 4:
			r.applyWorld()
			r.startService()
			r.scheduleArrival()
		case 5:
			r.finish()
			return
		}
	}
}

func (r *runner) nextTimeout() int64 {
	for r.sent.size > 0 {
		id := r.sent.front()
		if r.reqs[id].clientDone {
			r.sent.pop()
			r.reqs[id].unlisted = true
			r.release(id)
			continue
		}
		return r.reqs[id].dispatch + r.timeout
	}
	return math.MaxInt64
}

// workerDone schedules a worker's next send: after an exponential think
// time of mean workers/demand, or at the next change of the world while
// there is no demand.
func (r *runner) workerDone() {
	if r.sc.Client.Workers == 0 {
		return
	}
	at := r.nextStep
	if r.w.demand > 0 {
		at = r.after(r.rng.ExpFloat64() * float64(r.sc.Client.Workers) / r.w.demand)
	}
	r.wake.push(event{t: at})
	r.nextArrival = r.wake[0].t
}

func (r *runner) arrive() {
	if r.sc.Client.Workers > 0 {
		r.wake.pop()
		if r.w.demand <= 0 {
			r.workerDone() // no work: wait for the world to change
			r.scheduleArrival()
			return
		}
	}
	r.res.Requests++
	r.ivCounts.Offered++
	r.scheduleArrival()
	if r.waiting.size == 0 && r.inFlight < r.limit() {
		r.dispatch()
		return
	}
	// purge expired waiters before judging the queue full
	for r.waiting.size > 0 && r.now-r.waiting.front() > r.deadline {
		r.waiting.pop()
		r.defer1()
	}
	if r.waiting.size >= r.sc.Client.Queue {
		r.defer1()
		return
	}
	r.waiting.push(r.now)
}

func (r *runner) defer1() {
	r.res.Deferred++
	r.ivDeferred++
	r.ivCounts.Deferred++
	r.workerDone()
}

// drain dispatches waiters while the limit allows.
func (r *runner) drain() {
	for r.waiting.size > 0 {
		if r.now-r.waiting.front() > r.deadline {
			r.waiting.pop()
			r.defer1()
			continue
		}
		if r.inFlight >= r.limit() {
			return
		}
		r.waiting.pop()
		r.dispatch()
	}
}

func (r *runner) dispatch() {
	r.res.Dispatched++
	r.ivCounts.Dispatched++
	r.inFlight++
	id := r.newRequest()
	q := &r.reqs[id]
	q.dispatch = r.now
	q.inFlight = int32(r.inFlight)
	r.sent.push(id)
	w := &r.w
	if float64(r.inSystem) >= r.sc.Downstream.ShedAt*w.capacity || (w.errorRate > 0 && r.rng.Float64() < w.errorRate) {
		q.isError, q.dsDone = true, true
		q.shed = float64(r.inSystem) >= r.sc.Downstream.ShedAt*w.capacity
		r.heap.push(event{t: r.now + int64(r.sc.Downstream.ErrorLatency), id: id})
		return
	}
	q.demand = int64(float64(w.base) * r.noise[r.rng.Uint64()>>52])
	r.inSystem++
	r.dsQueue.push(id)
	r.startService()
}

// startService starts queued requests while a slot of capacity is free.
func (r *runner) startService() {
	c := int(r.w.capacity)
	for r.busy < c && r.dsQueue.size > 0 {
		id := r.dsQueue.pop()
		r.busy++
		over := float64(r.inSystem)/r.w.capacity - 1
		inflate := 1.0
		if over > 0 {
			inflate += r.sc.Downstream.Knee * over
		}
		r.heap.push(event{t: r.now + int64(float64(r.reqs[id].demand)*inflate) + 1, id: id})
	}
}

func (r *runner) complete(id int32) {
	q := &r.reqs[id]
	if !q.isError {
		r.busy--
		r.inSystem--
		q.dsDone = true
		defer r.startService()
	}
	if !q.clientDone {
		q.clientDone = true
		r.inFlight--
		rtt := r.now - q.dispatch
		r.respond(rtt, q.isError, q.shed, q.inFlight)
		if !q.isError {
			r.usefulNs += float64(q.demand)
			r.ivRTTSum += float64(rtt)
			r.ivRTTN++
		}
	}
	r.release(id)
	r.drain()
}

func (r *runner) timeoutHead() {
	id := r.sent.pop()
	q := &r.reqs[id]
	q.clientDone, q.unlisted = true, true
	r.inFlight--
	r.respond(r.timeout, true, true, q.inFlight)
	r.release(id)
	r.drain()
}

// respond accounts one response the client saw and feeds the limiter;
// congestion marks a shed or timed-out request.
func (r *runner) respond(rtt int64, lost, congestion bool, inFlight int32) {
	r.lim.Observe(r.at(r.now), time.Duration(rtt), int(inFlight), lost)
	r.hist.Add(rtt)
	r.minLatSum += float64(rtt)
	r.minLatN++
	if lost {
		r.res.Lost++
		r.ivDropped++
	}
	if congestion {
		r.minLost++
		r.ivCounts.Congested++
	} else if lost {
		r.ivCounts.Failed++
	}
	r.workerDone()
}

func (r *runner) sample() {
	r.nextSample += int64(r.sc.Interval)
	r.minBaseSum += float64(r.w.base)
	if (r.now-r.minuteStart) >= int64(time.Minute) || r.now >= r.end {
		r.closeMinute()
	}
	var meanRTT float64
	hasRTT := r.ivRTTN > 0
	if hasRTT {
		meanRTT = r.ivRTTSum / float64(r.ivRTTN) / 1e6
	}
	// the min RTT the limiter reports, or a 2-minute windowed minimum of
	// interval means for limiters that keep none
	var minMs float64
	if mr, ok := r.lim.(limiter.MinRTTReporter); ok && mr.MinRTT() > 0 {
		minMs = float64(mr.MinRTT()) / 1e6
	} else {
		if r.now-r.ownMinSince > int64(2*time.Minute) {
			r.ownMin, r.ownMinSince = 0, r.now
		}
		if hasRTT && (r.ownMin == 0 || meanRTT < r.ownMin) {
			r.ownMin = meanRTT
		}
		minMs = r.ownMin
	}
	if !r.opt.NoSamples {
		s := trace.Sample{Time: r.at(r.now), Target: r.opt.Name}
		// a limiter re-measuring its min RTT pins its limit (Envoy): it
		// exports that it does (min_rtt_calculation_active), and a scrape
		// leaves such a limit not measured (scrape.Mapping.Remeasuring)
		if re, ok := r.lim.(remeasurer); !ok || !re.Calculating() {
			s.Set(trace.FieldLimit, r.exportedLimit())
		}
		s.Set(trace.FieldInFlight, float64(r.inFlight))
		if minMs > 0 {
			s.Set(trace.FieldRTTMin, minMs)
		}
		if hasRTT {
			s.Set(trace.FieldRTT, meanRTT)
		}
		s.Set(trace.FieldDropped, float64(r.ivDropped))
		s.Set(trace.FieldRejected, float64(r.ivDeferred))
		r.res.Samples = append(r.res.Samples, s)
		r.res.Counts = append(r.res.Counts, r.ivCounts)
	}
	r.ivRTTSum, r.ivRTTN, r.ivDropped, r.ivDeferred = 0, 0, 0, 0
	r.ivCounts = IntervalCounts{}
}

func (r *runner) closeMinute() {
	n := float64(r.now-r.minuteStart) / float64(r.sc.Interval)
	if r.minLatN > 0 && n > 0 {
		meanLat := r.minLatSum / float64(r.minLatN)
		meanBase := r.minBaseSum / n
		if meanLat > 2*meanBase || float64(r.minLost) > 0.01*float64(r.minLatN) {
			r.res.OverloadEpisodes++
		}
	}
	r.minuteStart = r.now
	r.minLatSum, r.minLatN, r.minLost, r.minBaseSum = 0, 0, 0, 0
}

func (r *runner) finish() {
	r.accrueCapacity()
	if r.capacityNs > 0 {
		r.res.Utilisation = r.usefulNs / r.capacityNs
	}
	r.res.P50Ms = r.hist.QuantileMs(0.50)
	r.res.P99Ms = r.hist.QuantileMs(0.99)
}
