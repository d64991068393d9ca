package main

import (
	"math"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// runStats is what one mode's run measured: per time bucket (the plots, the
// recovery time) and per phase (the report's tables).
type runStats struct {
	// label names the run ("standard", "standard (shared)").
	label, mode, sharing string
	// atBoundary and userRequests are the server's counts of requests
	// under a user limit arriving in the first 50 ms of a window, and of
	// all of them.
	atBoundary, userRequests int64
	// maxAttempts is the first client's resolved max attempts.
	maxAttempts int
	bucket      time.Duration
	// Per bucket, by the time it happened: calls started, requests
	// arriving at the server, responses, throttling responses, calls that
	// ended in success and in failure.
	offered, serverReq, responses, throttled, succeeded, failed []int64
	// Per bucket, sampled at its end: the mean retry quota balance over the
	// clients, and the sum of the enabled adaptive limiters' fill rates
	// (tokens/s).
	quota, sendRate []float64
	// fleetBudget is the shared fleet retry budgets' balance (tokens) per
	// bucket; nil in runs without one.
	fleetBudget []float64
	phases      []phaseStats
	// streams are the streaming groups' drops and reconnects (streams.go).
	streams streamStats
	// events is how many events the run scheduled (for the summary line).
	events uint64
}

// phaseStats is one phase's numbers for one mode.
type phaseStats struct {
	start, end time.Duration
	// started calls, and the attempts those calls made in all (whenever
	// they made them): attempts per call by the phase the call started in.
	started, startedAttempts, startedEnded int64
	// startedRetries counts the attempts after the first of those calls.
	startedRetries                  int64
	serverReq, responses, throttled int64
	// succeeded and failed count calls that ended in the phase.
	succeeded, failed int64
	latency           histogram
	quotaSum          float64
	sendRateSum       float64
	samples           int64
	// drainedAt is when every client's retry quota first held less than
	// the retry cost of the outage's failures (14 tokens for a 503, 5 for
	// throttling) in this phase, or -1;
	// drained* count the calls started after it.
	drainedAt                      time.Duration
	drainedStarted, drainedAttempt int64
}

func newRunStats(label, mode, sharing string, sc *Scenario, end, bucket time.Duration) *runStats {
	n := int((end + bucket - 1) / bucket)
	s := &runStats{
		label: label, mode: mode, sharing: sharing, bucket: bucket,
		offered: make([]int64, n), serverReq: make([]int64, n), responses: make([]int64, n),
		throttled: make([]int64, n), succeeded: make([]int64, n), failed: make([]int64, n),
		quota: make([]float64, n), sendRate: make([]float64, n),
	}
	var t time.Duration
	for _, p := range sc.Phases {
		d := seconds(p.DurationS)
		s.phases = append(s.phases, phaseStats{start: t, end: t + d, drainedAt: -1})
		t += d
	}
	return s
}

// bucketAt returns the bucket index of t, or -1 past the end.
func (s *runStats) bucketAt(t time.Duration) int {
	i := int(t / s.bucket)
	if i >= len(s.offered) {
		return -1
	}
	return i
}

func (s *runStats) callStarted(r *run, c *call) {
	if b := s.bucketAt(r.now); b >= 0 {
		s.offered[b]++
	}
	if c.phase >= 0 {
		p := &s.phases[c.phase]
		p.started++
		if p.drainedAt >= 0 {
			c.drained = true
			p.drainedStarted++
		}
	}
}

func (s *runStats) sent(r *run) {
	if b := s.bucketAt(r.now); b >= 0 {
		s.serverReq[b]++
	}
	if p := r.phaseAt(r.now); p >= 0 {
		s.phases[p].serverReq++
	}
}

func (s *runStats) responded(r *run, class engine.Class) {
	throttled := int64(0)
	if class == engine.ClassThrottling {
		throttled = 1
	}
	if b := s.bucketAt(r.now); b >= 0 {
		s.responses[b]++
		s.throttled[b] += throttled
	}
	if p := r.phaseAt(r.now); p >= 0 {
		s.phases[p].responses++
		s.phases[p].throttled += throttled
	}
}

func (s *runStats) callEnded(r *run, c *call, ok bool) {
	if b := s.bucketAt(r.now); b >= 0 {
		if ok {
			s.succeeded[b]++
		} else {
			s.failed[b]++
		}
	}
	if p := r.phaseAt(r.now); p >= 0 {
		ps := &s.phases[p]
		if ok {
			ps.succeeded++
		} else {
			ps.failed++
		}
		ps.latency.add(r.now - c.start)
	}
	if c.phase >= 0 {
		ps := &s.phases[c.phase]
		ps.startedAttempts += int64(c.attempts)
		ps.startedRetries += int64(max(c.attempts-1, 0))
		ps.startedEnded++
		if c.drained {
			ps.drainedAttempt += int64(c.attempts)
		}
	}
}

// sample runs at the end of every bucket: the quota and limiter state of
// every client, and whether the phase's retry quotas have drained.
func (s *runStats) sample(r *run) {
	b := int(r.now/s.bucket) - 1
	if b < 0 || b >= len(s.quota) {
		return
	}
	p := r.phaseAt(r.now - 1)
	cost := engine.RetryCostTransient
	if p >= 0 && r.sc.Phases[p].Failure != failure503 && r.clients[0].info.svc.CodeClass(r.sc.Phases[p].Failure) == engine.ClassThrottling {
		cost = engine.RetryCostThrottling
	}
	var quota, rate float64
	drained := true
	for _, cl := range r.clients {
		q := cl.rc.RetryQuota().Balance()
		quota += float64(q)
		if q >= cost {
			drained = false
		}
	}
	for _, l := range r.limiters { // a shared limiter counts once
		rate += l.Rate()
	}
	quota /= float64(len(r.clients))
	s.quota[b], s.sendRate[b] = quota, rate
	if len(r.budgets) > 0 {
		if s.fleetBudget == nil {
			s.fleetBudget = make([]float64, len(s.quota))
		}
		for _, q := range r.budgets {
			s.fleetBudget[b] += float64(q.Balance())
		}
	}
	if p >= 0 {
		ps := &s.phases[p]
		ps.quotaSum += quota
		ps.sendRateSum += rate
		ps.samples++
		if drained && ps.drainedAt < 0 && r.clients[0].info.params.UsesQuota && r.clients[0].info.params.MaxAttempts > 1 && r.sc.Phases[p].Kind == kindOutage {
			ps.drainedAt = r.now
		}
	}
}

// histogram is a log-bucketed latency histogram with 1 % resolution,
// deterministic and small whatever the number of calls: counts[i+1] counts
// the durations of bucket i, [1 µs × 1.01^i, 1 µs × 1.01^(i+1)), and
// counts[0] those under 1 µs (bucket -1). A slice, not a map: add runs at
// the end of every call.
type histogram struct {
	counts []int64
	n      int64
}

// histBase is the ratio between bucket bounds: 1 %.
const histBase = 1.01

// logHistBase is math.Log(histBase), computed once.
var logHistBase = math.Log(histBase)

func (h *histogram) add(d time.Duration) {
	i := -1 // d < 1 µs
	if d >= time.Microsecond {
		i = int(math.Log(float64(d)/float64(time.Microsecond)) / logHistBase)
	}
	if i+1 >= len(h.counts) {
		h.counts = append(h.counts, make([]int64, i+2-len(h.counts))...)
	}
	h.counts[i+1]++
	h.n++
}

// quantile returns the upper bound of the bucket holding the q-quantile,
// or 0 when empty.
func (h *histogram) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := int64(math.Ceil(q * float64(h.n)))
	var seen int64
	for k, n := range h.counts {
		seen += n
		if seen >= rank {
			i := k - 1
			if i < 0 {
				return time.Microsecond
			}
			return time.Duration(float64(time.Microsecond) * math.Pow(histBase, float64(i+1)))
		}
	}
	return 0
}
