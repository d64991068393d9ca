package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
	"unsafe"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// simEpoch is virtual time zero: a fixed instant on a 0.5 s boundary, so the
// adaptive limiter's time buckets fall on multiples of 0.5 s of the run.
var simEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// drainLimit bounds how long calls still in flight when the last phase ends
// are followed (no new calls start then).
const drainLimit = 10 * time.Minute

// virtualClock is the one clock of a run: the event loop sets it to each
// event's time before the runtime reads it. The runtime never sleeps on it:
// the simulator schedules every wait as an event instead.
type virtualClock struct{ now time.Time }

// Now returns the virtual time.
func (c *virtualClock) Now() time.Time { return c.now }

// errSleep is what the runtime would get if it tried to sleep: the
// simulator drives calls with the step API, which never sleeps.
var errSleep = errors.New("retrygen-sim: the runtime tried to sleep on the virtual clock")

// Sleep never waits; see errSleep.
func (c *virtualClock) Sleep(context.Context, time.Duration) error { return errSleep }

// simOperation is the one operation every simulated call makes.
var simOperation = runtime.Operation{Name: "GetItem", RetrySafe: true}

// simService is the service of clients whose group names no spec: AWS JSON
// conventions (error code in X-Amzn-ErrorType, x-amz-retry-after and
// Retry-After honoured) and, when the server throttles Alibaba-style,
// throttle control with the default rate-limit headers.
func simService(sc *Scenario) *runtime.Service {
	svc := &runtime.Service{
		Name:               "retrygen-sim",
		ErrorCodeHeaders:   []string{"X-Amzn-ErrorType"},
		ServerDelayHeaders: []string{engine.HeaderAmzRetryAfter, engine.HeaderRetryAfter},
	}
	if sc.Server.UserLimit != nil {
		svc.ThrottleControl = &runtime.ThrottleControl{MaxDelay: 20 * time.Second}
	}
	return svc
}

// noEnv is an environment without variables, config file or home directory:
// a simulated client's settings come only from the scenario.
var noEnv = runtime.Env{
	Lookup:  func(string) (string, bool) { return "", false },
	HomeDir: func() (string, error) { return "", errors.New("no home directory in a simulation") },
}

type evKind uint8

const (
	evArrival  evKind = iota // a client starts a call
	evWaited                 // a call's wait (backoff, throttle window, long polling) is over
	evToken                  // a client's next send token is due
	evResponse               // an attempt's response arrives
	evTimeout                // a call's deadline
	evSample                 // a time bucket ends: sample quotas and limiters
	evDrop                   // the server drops every open stream (streams.go)
)

// event is one planned event: 32 bytes without pointers, so the heap
// holds two per cache line and the garbage collector never scans it. ref is
// the call's slot (run.calls) for evWaited, evResponse and evTimeout, the
// client's index (run.clientMem) for evArrival and evToken; gen the call's
// gen (its life for evTimeout) or the client's tokenGen.
type event struct {
	at   time.Duration // since simEpoch
	seq  uint64
	gen  uint32
	ref  uint32
	kind evKind
}

// callEvent is an event of call c at at.
func callEvent(at time.Duration, kind evKind, c *call) event {
	return event{at: at, kind: kind, gen: c.gen, ref: c.id}
}

// clientEvent is an event of client cl at at.
func clientEvent(at time.Duration, kind evKind, cl *simClient, gen uint32) event {
	return event{at: at, kind: kind, gen: gen, ref: uint32(cl.idx)}
}

// eventQueue is a calendar queue of events, popped in (at, seq) order:
// events at the same time run in the order they were scheduled, so a run is
// deterministic (any correct priority queue pops this same order). Time is
// cut into buckets of 2^bucketShift ns (262 µs: a few dozen events at
// 20,000 clients), and buckets into spans of fineBuckets buckets (67 ms).
// The events of the current bucket are in a small heap (now); those of the
// rest of the current span in the fine wheel, one bucket per slot; those of
// the next coarseSpans-1 spans (34 s) in the coarse wheel, one span per
// slot; later ones in a heap of their own (far). Events are appended to
// their slot in chunks. Entering a span moves its coarse slot's events into
// the fine wheel; taking a bucket heapifies its few events, which stay in
// cache. The two wheels keep the lines that scheduling writes few (one per
// slot: ≈ 50 KB): with one wheel of 4.2 ms buckets over 34 s, the writes
// of scheduling and the bucket's reads ahead (run.prefetch) pushed each
// other out of cache. A binary heap of every event walked a level of cold
// cache lines per pop instead: at 20,000 clients it was the run's largest
// cost.
type eventQueue struct {
	now eventHeap
	// cur is the current bucket's number (at >> bucketShift); span the
	// current span's (cur >> fineShift).
	cur, span int64
	fine      []bucket
	coarse    []bucket
	// inFine and inCoarse count the wheels' events.
	inFine, inCoarse int
	far              eventHeap
	// spare are emptied chunks to reuse.
	spare *chunk
	// taken: peek took a new bucket into now (run.prefetch).
	taken bool
}

const (
	bucketShift = 18             // 2^18 ns ≈ 262 µs per bucket
	fineShift   = 8              // buckets per span: 2^8, ≈ 67 ms
	fineBuckets = 1 << fineShift // slots of the fine wheel
	coarseSpans = 512            // slots of the coarse wheel: ≈ 34 s ahead
	chunkLen    = 32             // events per chunk
	spanShift   = bucketShift + fineShift
)

// bucket holds the events of one slot in chunks, in the order they were
// scheduled; n counts the events in last (pushing reads the slot and the
// line it writes, not the chunk's count after its events).
type bucket struct {
	first, last *chunk
	n           int
}

// chunk holds chunkLen events, n of them once it is full or its slot is
// emptied.
type chunk struct {
	ev   [chunkLen]event
	n    int
	next *chunk
}

func (q *eventQueue) push(e event) {
	b := int64(e.at >> bucketShift)
	switch s := b >> fineShift; {
	case b <= q.cur:
		q.now.push(e)
	case s == q.span:
		if q.fine == nil {
			q.fine = make([]bucket, fineBuckets)
		}
		q.append(&q.fine[b&(fineBuckets-1)], e)
		q.inFine++
	case s < q.span+coarseSpans:
		if q.coarse == nil {
			q.coarse = make([]bucket, coarseSpans)
		}
		q.append(&q.coarse[s%coarseSpans], e)
		q.inCoarse++
	default:
		q.far.push(e)
	}
}

// append adds e to slot k.
func (q *eventQueue) append(k *bucket, e event) {
	if k.last == nil || k.n == chunkLen {
		c := q.spare
		if c != nil {
			q.spare, c.next = c.next, nil
		} else {
			c = new(chunk)
		}
		if k.last == nil {
			k.first = c
		} else {
			k.last.n, k.last.next = chunkLen, c
		}
		k.last, k.n = c, 0
	}
	k.last.ev[k.n] = e
	k.n++
}

// drain calls f with each event of slot k in the order they were appended,
// and empties k (its chunks go to spare).
func (q *eventQueue) drain(k *bucket, f func(evs []event)) {
	if k.last != nil {
		k.last.n = k.n
	}
	for c := k.first; c != nil; {
		f(c.ev[:c.n])
		next := c.next
		c.next, q.spare = q.spare, c
		c = next
	}
	*k = bucket{}
}

// enter makes span s (after the current one) current: the bucket before
// its first is taken, the far events within the coarse wheel's reach move
// into it, and the events of s move from their coarse slot into the fine
// wheel.
func (q *eventQueue) enter(s int64) {
	q.span, q.cur = s, s<<fineShift-1
	for len(q.far) > 0 && int64(q.far[0].at>>spanShift) < s+coarseSpans {
		q.push(q.far.pop())
	}
	if q.coarse == nil {
		return
	}
	q.drain(&q.coarse[s%coarseSpans], func(evs []event) {
		q.inCoarse -= len(evs)
		for _, e := range evs {
			q.push(e) // into the fine wheel
		}
	})
}

// peek returns the next event without taking it; ok is false when none is
// left.
func (q *eventQueue) peek() (e *event, ok bool) {
	for len(q.now) == 0 {
		if q.inFine == 0 {
			// The rest of the span is empty: enter the next span, or
			// the far heap's first when the coarse wheel is empty too.
			if q.inCoarse == 0 && len(q.far) == 0 {
				return nil, false
			}
			s := q.span + 1
			if q.inCoarse == 0 {
				s = max(s, int64(q.far[0].at>>spanShift))
			}
			q.enter(s)
			continue
		}
		q.cur++
		q.drain(&q.fine[q.cur&(fineBuckets-1)], func(evs []event) {
			q.now = append(q.now, evs...)
			q.inFine -= len(evs)
		})
		q.now.heapify()
		q.taken = true
	}
	return &q.now[0], true
}

// pop takes the next event, which peek returned.
func (q *eventQueue) pop() event { return q.now.pop() }

// eventHeap is a 4-ary min-heap on (at, seq).
type eventHeap []event

func (h eventHeap) less(i, j int) bool {
	return h[i].at < h[j].at || (h[i].at == h[j].at && h[i].seq < h[j].seq)
}

func (q *eventHeap) push(e event) {
	*q = append(*q, e)
	h := *q
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 4
		if !h.less(i, p) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *eventHeap) pop() event {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	h.down(0)
	*q = h
	return top
}

func (h eventHeap) heapify() {
	for i := (len(h) - 2) / 4; i >= 0; i-- {
		h.down(i)
	}
}

// down moves h[i] down to its place.
func (h eventHeap) down(i int) {
	for {
		m, c := i, 4*i+1
		for j := c; j < c+4 && j < len(h); j++ {
			if h.less(j, m) {
				m = j
			}
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// timeoutQueue holds the evTimeout events of the calls whose deadline is d
// after their start, in the order they were scheduled. Calls start at
// non-decreasing times, so the queue is sorted by (at, seq) as the heap
// would sort it: a FIFO keeps the deadlines of every call in flight (a
// deadline's worth of calls: 30 s × 20,000 calls/s) out of the heap.
type timeoutQueue struct {
	d    time.Duration
	ev   []timeoutEvent
	head int
}

// timeoutEvent is an evTimeout event of the call in slot id, planned in its
// life.
type timeoutEvent struct {
	at       time.Duration
	seq      uint64
	id, life uint32
}

// simClient is one simulated client process: one runtime.Client. The
// clients of a run sit side by side in one slice (run.clientMem), each in
// two cache lines with its random sources inline: an event touches one
// client's two lines, not a chain of separate allocations. What events
// seldom read is in info.
type simClient struct {
	group *ClientGroup
	rc    *runtime.Client
	// jitterFn is the client's Options.Rand (jitter.Float64): the runtime
	// reads the jitter through this one function value, which prefetch
	// reads ahead.
	jitterFn func() float64
	// rng draws the client's arrivals and think times from rngSrc; jitter
	// (from jitterSrc) is the runtime's source of backoff jitter.
	rng, jitter       rand.Rand
	rngSrc, jitterSrc rand.PCG
	// waiters are the calls waiting for a send token (some may have
	// ended since: they are dropped when drawn); tokenGen numbers the
	// latest planned evToken.
	waiters  []*call
	tokenGen uint32
	idx      uint32
	info     *clientInfo
}

// clientInfo is what a client's events seldom read.
type clientInfo struct {
	// user is the client's Alibaba user and throttle identity.
	user string
	svc  *runtime.Service
	// params are the client's resolved retry parameters.
	params runtime.ModeParams
}

// The calls of a run are recycled (run.free) once they end: a call's gen
// keeps counting across its lives, so an event planned in an earlier life
// never matches (evTimeout events carry the life instead).

// call is one simulated call. With a deadline it is its own context
// (Deadline).
type call struct {
	// The fields every event of the call reads come first (64 bytes),
	// then the call's state machine (whose own first lines are what a step
	// reads), so that an event reads three adjacent cache lines
	// (prefetch).
	gen uint32
	// life numbers the call's lives (recycling, run.free).
	life uint32
	// id is the call's slot in run.calls and run.alive.
	id       uint32
	inFlight bool // an attempt was sent and its response is pending
	done     bool
	// waiting: the call is in its client's waiters (and is not recycled
	// until drawn from them).
	waiting  bool
	drained  bool // started after its phase's retry quota drained
	cl       *simClient
	attempts int
	// res is the response of the attempt in flight (shared: the runtime
	// only reads it).
	res      *engine.AttemptResult
	start    time.Duration
	deadline time.Duration // 0: none
	phase    int           // the phase the call started in
	// rc is the call's state machine, started anew in each life
	// (runtime.Client.StartCall).
	rc runtime.CallState
	// stream is the state of a streaming group's call (streams.go).
	stream streamState
}

// ctx is the context of c's steps: c itself when it has a deadline.
func (c *call) ctx() context.Context {
	if c.deadline > 0 {
		return c
	}
	return context.Background()
}

// Deadline returns the call's deadline on the virtual clock (a real
// context.WithDeadline would compare it with real time). Deadline, Done,
// Err and Value make a call with a deadline a context that is never
// cancelled.
func (c *call) Deadline() (time.Time, bool) { return simEpoch.Add(c.deadline), true }

// Done returns nil: the call's context is never cancelled.
func (c *call) Done() <-chan struct{} { return nil }

// Err returns nil: the call's context is never cancelled.
func (c *call) Err() error { return nil }

// Value returns nil: the call's context holds no values.
func (c *call) Value(any) any { return nil }

// hotCallBytes is how much of a call an event reads: the call's own
// fields and the first two lines of its state machine (the runtime keeps
// the fields of a step in its first 128 bytes: TestCallMachineStepFieldsFirst).
const hotCallBytes = unsafe.Offsetof(call{}.rc) + 128

// hotClientBytes is how much of a runtime.Client prefetch reads for a
// call's start, stepClientBytes for an event of a call (the retry costs
// and the identity every step reads are in the second cache line, the
// invocation ID header a call's start reads in the third;
// TestClientStepFieldsFirst in runtime keeps the fields there).
const (
	hotClientBytes  = 192
	stepClientBytes = 128
)

// The reads of prefetch stay inside their objects: these fail to compile
// (a negative array length) when call or runtime.Client shrinks below what
// is read (review: readLines would read past the object).
var (
	_ [unsafe.Sizeof(call{}) - hotCallBytes]byte
	_ [unsafe.Sizeof(runtime.Client{}) - hotClientBytes]byte
	// A client stays within two cache lines.
	_ [128 - unsafe.Sizeof(simClient{})]byte
)

// run is one mode's simulation of a scenario.
type run struct {
	sc      *Scenario
	mode    string
	sharing string
	clock   *virtualClock
	q       eventQueue
	// timeouts are the evTimeout events, one queue per deadline length.
	timeouts []*timeoutQueue
	// free are ended calls to reuse.
	free []*call
	// slabs hold every call slot of the run, slabLen a slab: slot id is
	// slabs[id/slabLen][id%slabLen] (slot), found without reading memory
	// that is not in cache; nCalls counts them. alive[id] is the life of
	// the slot's call while it has not ended, else 0 (a dense array, so
	// that a timeout whose call has ended, as most have, is dropped
	// without touching the call).
	slabs  [][]call
	nCalls uint32
	alive  []uint32
	// paying: a client of the run has a retry quota or fleet retry budget
	// (prefetch reads the quotas).
	paying bool
	// clientMem holds the clients; clients point into it.
	clientMem []simClient
	// limiters are the distinct rate limiters of the clients whose mode
	// uses one, in client order (sample).
	limiters []*engine.RateLimiter
	seq      uint64
	now      time.Duration
	end      time.Duration
	bucket   time.Duration
	clients  []*simClient
	srv      *server
	stats    *runStats
	// budgets are the groups' shared fleet retry budgets (shared runs).
	budgets []*engine.RetryQuota
	// phaseEnds are the phases' end times since the start.
	phaseEnds []time.Duration
	progress  func(done, total time.Duration)
	err       error
	// open are the streams open now (streaming groups, streams.go).
	open []*call
	// sink keeps what prefetch read; preCalls and preClients are its
	// scratch lists.
	sink       uintptr
	preCalls   []*call
	preClients []*simClient
}

// services resolves each client group's service: the simulator's own, or
// the x-retry settings of the group's spec.
type serviceSource func(sc *Scenario, g *ClientGroup) (*runtime.Service, error)

// simulate runs sc once for mode and sharing (per-process or shared throttle
// windows) with the given seed.
func simulate(sc *Scenario, mode, sharing string, seed uint64, services serviceSource, progress func(done, total time.Duration)) (*runStats, error) {
	r := &run{
		sc: sc, mode: mode, sharing: sharing, clock: &virtualClock{now: simEpoch},
		bucket: time.Duration(sc.BucketMs) * time.Millisecond, progress: progress,
	}
	for _, p := range sc.Phases {
		r.end += seconds(p.DurationS)
		r.phaseEnds = append(r.phaseEnds, r.end)
	}
	r.stats = newRunStats(runLabel(sc, mode, sharing), mode, sharing, sc, r.end, r.bucket)
	r.srv = newServer(&sc.Server, rand.New(rand.NewPCG(seed, 1)))
	total := 0
	for _, g := range sc.Clients {
		total += g.Count
	}
	r.clientMem = make([]simClient, total)
	idx := 0
	for gi := range sc.Clients {
		g := &sc.Clients[gi]
		svc, err := services(sc, g)
		if err != nil {
			return nil, err
		}
		// Shared: one window store, one adaptive send rate (a CUBIC limiter
		// per scope, engine.RateLimiterPool) and, when the group sets one,
		// one fleet retry budget for the whole group, as a fleet-wide store
		// (Redis, runtime/redisstore) gives every process.
		var windows engine.ThrottleWindowStore
		var budget engine.RetryBudget
		var limiters engine.SharedRateLimiters
		if sharing == sharingShared {
			windows, limiters = engine.NewWindowStore(), engine.NewRateLimiterPool()
			if g.FleetRetryBudget > 0 {
				q := engine.NewRetryQuota(g.FleetRetryBudget)
				budget, r.budgets = q, append(r.budgets, q)
			}
		}
		for range g.Count {
			cl := &r.clientMem[idx]
			err := r.newClient(cl, svc, g, idx, seed, windows, budget, limiters)
			if err != nil {
				return nil, err
			}
			r.clients = append(r.clients, cl)
			idx++
		}
	}
	r.scheduleDrops()
	for _, cl := range r.clients {
		if cl.group.Streaming {
			r.schedule(clientEvent(r.think(cl, time.Second), evArrival, cl, 0)) // its one stream
			continue
		}
		if cl.group.ClosedLoop != nil {
			for range cl.group.ClosedLoop.Concurrency {
				r.schedule(clientEvent(r.think(cl, time.Second), evArrival, cl, 0))
			}
		} else {
			r.schedule(clientEvent(r.interArrival(cl, 0), evArrival, cl, 0))
		}
	}
	r.stats.maxAttempts = r.clients[0].info.params.MaxAttempts
	r.paying = len(r.budgets) > 0
	for _, cl := range r.clients {
		r.paying = r.paying || cl.info.params.UsesQuota
	}
	seen := map[*engine.RateLimiter]bool{}
	for _, cl := range r.clients {
		if l := cl.rc.RateLimiter(); cl.info.params.UsesLimiter && !seen[l] {
			seen[l] = true
			r.limiters = append(r.limiters, l)
		}
	}
	r.schedule(event{at: r.bucket, kind: evSample})
	for {
		e, ok := r.next()
		if !ok || e.at > r.end+drainLimit {
			break
		}
		r.now = e.at
		r.clock.now = simEpoch.Add(e.at)
		r.handle(e)
	}
	if r.err != nil {
		return nil, r.err
	}
	r.closeStreams()
	r.stats.atBoundary, r.stats.userRequests = r.srv.atBoundary, r.srv.userRequests
	r.stats.events = r.seq
	return r.stats, nil
}

// runLabel names a run in tables and plots: the mode, with "(shared)" or
// "(per-process)" when the scenario compares sharing.
func runLabel(sc *Scenario, mode, sharing string) string {
	name := modeName(mode)
	if len(sc.Sharing) > 1 || sharing == sharingShared {
		name += " (" + sharing + ")"
	}
	return name
}

func seconds(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }

// newClient builds client idx of group g in cl for the run's mode: settings
// only from the scenario (mode, max attempts) and the service's x-retry.
// windows is the group's shared throttle-window store, or nil for one of its
// own; budget the group's fleet retry budget, or nil for none.
func (r *run) newClient(cl *simClient, svc *runtime.Service, g *ClientGroup, idx int, seed uint64, windows engine.ThrottleWindowStore, budget engine.RetryBudget, limiters engine.SharedRateLimiters) error {
	mode := runtime.Mode(r.mode)
	if r.mode == modeNone {
		mode = runtime.ModeStandard
	}
	maxAttempts, err := groupMaxAttempts(svc, g, r.mode) // scenario.go: what boundAttempts counted
	if err != nil {
		return err
	}
	*cl = simClient{idx: uint32(idx), group: g, info: &clientInfo{svc: svc}}
	cl.rngSrc.Seed(seed, uint64(1_000_000+idx))
	cl.jitterSrc.Seed(seed, uint64(2_000_000+idx))
	cl.rng, cl.jitter = *rand.New(&cl.rngSrc), *rand.New(&cl.jitterSrc)
	cl.jitterFn = cl.jitter.Float64
	user := g.User
	if user == "" {
		user = fmt.Sprintf("client-%d", idx)
	}
	opts := runtime.Options{
		RetryMode:        mode,
		MaxAttempts:      maxAttempts,
		Clock:            r.clock,
		Rand:             cl.jitterFn,
		ThrottleIdentity: user,
		Windows:          windows,
		FleetRetryBudget: budget,
		RateLimiters:     limiters,
	}
	rc, err := runtime.NewClient(svc, "http://sim.invalid", opts)
	if err != nil {
		return err
	}
	cl.info.user, cl.rc = user, rc
	// The policy each call of the client resolves (the client's path is
	// ResolvePolicy's: TestClientCallResolvesThePolicy).
	pol, err := runtime.ResolvePolicy(svc, &simOperation, &opts, nil, noEnv)
	if err != nil {
		return err
	}
	cl.info.params = pol.Params
	return nil
}

func (r *run) schedule(e event) {
	r.seq++
	e.seq = r.seq
	r.q.push(e)
}

// scheduleTimeout plans the evTimeout of call c, whose deadline is d after
// its start (now).
func (r *run) scheduleTimeout(c *call, d time.Duration) {
	r.seq++
	e := timeoutEvent{at: c.deadline, seq: r.seq, id: c.id, life: c.life}
	var t *timeoutQueue
	for _, q := range r.timeouts {
		if q.d == d {
			t = q
		}
	}
	if t == nil {
		t = &timeoutQueue{d: d}
		r.timeouts = append(r.timeouts, t)
	}
	t.ev = append(t.ev, e)
}

// next removes and returns the next event: the earliest by (at, seq) of the
// heap's and the timeout queues' first. ok is false when none is left. The
// timeouts of calls that have ended (a stale event handle would ignore) are
// dropped on the way, reading only run.alive.
func (r *run) next() (e event, ok bool) {
	var from *timeoutQueue // nil: the heap's first
	var at time.Duration
	var seq uint64
	if h, any := r.q.peek(); any {
		at, seq, ok = h.at, h.seq, true
	}
	if r.q.taken {
		r.q.taken = false
		r.prefetch()
	}
	for _, t := range r.timeouts {
		for t.head < len(t.ev) && r.alive[t.ev[t.head].id] != t.ev[t.head].life {
			t.head++
		}
		t.compact()
		if t.head == len(t.ev) {
			continue
		}
		if h := &t.ev[t.head]; !ok || h.at < at || (h.at == at && h.seq < seq) {
			at, seq, ok, from = h.at, h.seq, true, t
		}
	}
	switch {
	case !ok:
		return event{}, false
	case from == nil:
		return r.q.pop(), true
	}
	h := from.ev[from.head]
	from.head++
	from.compact()
	return event{at: h.at, seq: h.seq, kind: evTimeout, gen: h.life, ref: h.id}, true
}

// prefetch reads, before they run, the memory that the events of the
// bucket just taken (eventQueue.taken) will read: their calls (the first
// lines, hotCallBytes), clients, runtime clients with their jitter source
// (the closure of Options.Rand) and retry quotas, level by
// level. The reads of one level are independent, so the processor waits
// for many at once; the events then find their memory in cache instead of
// waiting for each line in turn (at 20,000 clients the calls in flight are
// hundreds of megabytes, and an event was mostly waiting for memory). It
// changes nothing that is simulated.
func (r *run) prefetch() {
	calls, clients := r.preCalls[:0], r.preClients[:0]
	for i := range r.q.now {
		e := &r.q.now[i]
		switch e.kind {
		case evWaited, evResponse:
			calls = append(calls, r.slot(e.ref))
		case evArrival, evToken:
			clients = append(clients, &r.clientMem[e.ref])
		}
	}
	var sum uintptr
	for _, c := range calls {
		sum += readLines(unsafe.Pointer(c), hotCallBytes)
	}
	starts := len(clients) // the clients of arrivals and tokens come first
	for _, c := range calls {
		clients = append(clients, c.cl)
	}
	for _, cl := range clients {
		sum += readLines(unsafe.Pointer(cl), unsafe.Sizeof(*cl))
	}
	for i, cl := range clients {
		n := uintptr(stepClientBytes)
		if i < starts {
			n = hotClientBytes
		}
		sum += readLines(unsafe.Pointer(cl.rc), n)
		// The closure object of cl.jitterFn (a func value points to it).
		sum += readLines(*(*unsafe.Pointer)(unsafe.Pointer(&cl.jitterFn)), 8)
	}
	if r.paying {
		for _, cl := range clients {
			sum += uintptr(cl.rc.RetryQuota().Balance())
		}
	}
	r.preCalls, r.preClients = calls, clients
	r.sink += sum
}

// readLines reads a byte of each 64-byte cache line of the n bytes at p,
// and returns their sum (kept in run.sink, so that the reads are made).
func readLines(p unsafe.Pointer, n uintptr) uintptr {
	var sum uintptr
	for off := uintptr(0); off < n; off += 64 {
		sum += uintptr(*(*byte)(unsafe.Add(p, off)))
	}
	return sum + uintptr(*(*byte)(unsafe.Add(p, n-1)))
}

// compact empties the queue when all its events are taken, and moves the
// rest to the front when more than half are.
func (t *timeoutQueue) compact() {
	if t.head == len(t.ev) {
		t.ev, t.head = t.ev[:0], 0
	} else if t.head >= 1024 && 2*t.head >= len(t.ev) {
		n := copy(t.ev, t.ev[t.head:])
		t.ev, t.head = t.ev[:n], 0
	}
}

// phaseAt returns the index of the phase holding t, or -1 after the last.
func (r *run) phaseAt(t time.Duration) int {
	for i, end := range r.phaseEnds {
		if t < end {
			return i
		}
	}
	return -1
}

// interArrival is the time of an open-loop client's next call after now:
// exponential with the client's rate times the phase's load.
func (r *run) interArrival(cl *simClient, now time.Duration) time.Duration {
	rate := cl.group.Rate
	if p := r.phaseAt(now); p >= 0 {
		rate *= r.sc.Phases[p].Load
	}
	return now + time.Duration(cl.rng.ExpFloat64()/rate*float64(time.Second))
}

// think is when a closed-loop caller starts its next call: an exponential
// think time of the group's mean (or uniform in [0, first) for the first).
func (r *run) think(cl *simClient, first time.Duration) time.Duration {
	if first > 0 {
		return time.Duration(cl.rng.Float64() * float64(first))
	}
	return r.now + time.Duration(cl.rng.ExpFloat64()*cl.group.ClosedLoop.ThinkMs*float64(time.Millisecond))
}

func (r *run) handle(e event) {
	var c *call
	var cl *simClient
	switch e.kind {
	case evArrival, evToken:
		cl = &r.clientMem[e.ref]
	case evWaited, evResponse, evTimeout:
		c = r.slot(e.ref)
		cur := c.gen
		if e.kind == evTimeout {
			cur = c.life
		}
		if c.done || e.gen != cur {
			return // a stale event: the call moved on, or ended
		}
	}
	switch e.kind {
	case evArrival:
		if r.now >= r.end {
			return
		}
		r.startCall(cl)
		if cl.group.ClosedLoop == nil && !cl.group.Streaming {
			r.schedule(clientEvent(r.interArrival(cl, r.now), evArrival, cl, 0))
		}
	case evWaited:
		r.drive(c, c.rc.Next(c.ctx(), engine.Event{Kind: engine.EventWaited}))
	case evToken:
		if e.gen == cl.tokenGen {
			r.serveWaiters(cl)
		}
	case evResponse:
		r.response(c)
	case evTimeout:
		if !c.inFlight {
			// The attempt it waited to send is never sent: the state
			// machine refunds its retry cost.
			c.rc.Next(c.ctx(), engine.Event{Kind: engine.EventFailed, Err: context.DeadlineExceeded})
		}
		r.finish(c, false)
	case evDrop:
		r.dropStreams()
	case evSample:
		r.sample()
		if next := r.now + r.bucket; next <= r.end {
			r.schedule(event{at: next, kind: evSample})
		}
	}
}

// slabLen is the number of call slots in a slab (run.slabs).
const slabLen = 256

// slot returns the call in slot id.
func (r *run) slot(id uint32) *call { return &r.slabs[id/slabLen][id%slabLen] }

func (r *run) startCall(cl *simClient) {
	var c *call
	if n := len(r.free); n > 0 {
		c = r.free[n-1]
		r.free[n-1] = nil
		r.free = r.free[:n-1]
	} else {
		if r.nCalls%slabLen == 0 {
			r.slabs = append(r.slabs, make([]call, slabLen))
		}
		c = r.slot(r.nCalls)
		c.id = r.nCalls
		r.nCalls++
		r.alive = append(r.alive, 0)
	}
	// The state machine's memory is reused from the slot's earlier life
	// (runtime.Client.StartCall writes all of it).
	c.gen, c.life = c.gen+1, c.life+1
	c.inFlight, c.done, c.waiting, c.drained = false, false, false, false
	c.cl, c.attempts, c.res = cl, 0, nil
	c.start, c.deadline, c.phase, c.stream = r.now, 0, r.phaseAt(r.now), streamState{}
	r.alive[c.id] = c.life
	if err := cl.rc.StartCall(&c.rc, &simOperation, nil); err != nil {
		// Cannot happen: a call without options of its own uses the
		// settings the client resolved. Stop the run with the error.
		r.err, r.q, r.timeouts = err, eventQueue{}, nil
		return
	}
	if ms := cl.group.TimeoutMs; ms > 0 {
		d := time.Duration(ms) * time.Millisecond
		c.deadline = r.now + d
		r.scheduleTimeout(c, d)
	}
	r.stats.callStarted(r, c)
	r.drive(c, c.rc.Next(c.ctx(), engine.Event{Kind: engine.EventStart}))
}

// drive carries out what the call's state machine (engine.Call.Next) asks
// for on the virtual clock: a wait becomes an event, a send token is taken
// from the client's limiter (or the call joins its waiters), a send goes to
// the simulated server, and a return ends the call. The order of the attempt
// loop is the runtime's; none of it is restated here.
func (r *run) drive(c *call, act engine.Action) {
	switch act.Kind {
	case engine.ActionWait:
		c.gen++
		r.schedule(callEvent(r.now+act.Delay, evWaited, c))
	case engine.ActionAcquire:
		wait, ok := c.cl.rc.RateLimiter().TryAcquireAt(r.clock.now)
		if ok {
			r.drive(c, c.rc.Next(c.ctx(), engine.Event{Kind: engine.EventAcquired}))
			return
		}
		c.cl.waiters = append(c.cl.waiters, c)
		c.waiting = true
		r.scheduleToken(c.cl, wait)
	case engine.ActionSend:
		r.send(c)
	case engine.ActionReturn:
		if act.Err != nil && c.cl.group.Streaming {
			r.streamLost(c, act.Err)
		}
		r.finish(c, act.Err == nil)
	}
}

// scheduleToken makes cl's waiters try again after wait (replacing an
// earlier plan: the wait is computed afresh each time).
func (r *run) scheduleToken(cl *simClient, wait time.Duration) {
	cl.tokenGen++
	r.schedule(clientEvent(r.now+wait, evToken, cl, cl.tokenGen))
}

// serveWaiters hands the send tokens the bucket holds now to cl's waiting
// calls, then plans the next try. It runs when a token is due and after every
// limiter update, as an update wakes Acquire's waiters. Which waiting call
// gets a token is drawn at random, as goroutines racing for the limiter's
// lock would get it in no particular order.
func (r *run) serveWaiters(cl *simClient) {
	for len(cl.waiters) > 0 {
		i := cl.rng.IntN(len(cl.waiters))
		c := cl.waiters[i]
		if c.done {
			cl.removeWaiter(i)
			r.recycle(c)
			continue
		}
		wait, ok := cl.rc.RateLimiter().TryAcquireAt(r.clock.now)
		if !ok {
			r.scheduleToken(cl, wait)
			return
		}
		cl.removeWaiter(i)
		r.drive(c, c.rc.Next(c.ctx(), engine.Event{Kind: engine.EventAcquired}))
	}
}

func (cl *simClient) removeWaiter(i int) {
	cl.waiters[i].waiting = false
	last := len(cl.waiters) - 1
	cl.waiters[i] = cl.waiters[last]
	cl.waiters[last] = nil
	cl.waiters = cl.waiters[:last]
}

func (r *run) send(c *call) {
	c.inFlight = true
	c.attempts++
	at, res := r.srv.handle(r, c)
	c.res = res
	r.stats.sent(r)
	c.gen++
	r.schedule(callEvent(at, evResponse, c))
}

func (r *run) response(c *call) {
	c.inFlight = false
	act := c.rc.Next(c.ctx(), engine.Event{Kind: engine.EventResponse, Result: c.res})
	r.stats.responded(r, act.Decision.Class)
	if len(c.cl.waiters) > 0 && c.cl.info.params.UsesLimiter {
		r.serveWaiters(c.cl)
	}
	r.drive(c, act)
}

func (r *run) finish(c *call, ok bool) {
	if ok && c.cl.group.Streaming {
		r.streamOpen(c) // a stream's 2xx: it stays open (streams.go)
		return
	}
	r.markDone(c)
	r.stats.callEnded(r, c, ok)
	if c.cl.group.ClosedLoop != nil && r.now < r.end {
		r.schedule(clientEvent(r.think(c.cl, 0), evArrival, c.cl, 0))
	}
	r.recycle(c)
}

// markDone ends call c: its later events, its timeout included, are stale.
func (r *run) markDone(c *call) {
	c.done = true
	r.alive[c.id] = 0
}

// recycleCalls switches recycling off for the test that compares the
// reports of runs with and without it.
var recycleCalls = true

// recycle keeps the ended call c for reuse, unless it still waits in its
// client's waiters (serveWaiters recycles it when it draws it) or is a
// stream (kept in run.open until the end).
func (r *run) recycle(c *call) {
	if c.waiting || c.cl.group.Streaming || !recycleCalls {
		return
	}
	c.res = nil
	r.free = append(r.free, c)
}

func (r *run) sample() {
	r.stats.sample(r)
	if r.progress != nil {
		r.progress(r.now, r.end)
	}
}
