package redisstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/retrygen/retrygen/runtime"
)

// budget is this process's side of the fleet retry budget: the tokens left
// of its current lease, and the refills not yet written.
type budget struct {
	s *Store

	// delta is the tokens to add to the fleet bucket at the next flush:
	// refunds and first-attempt increments that the lease had no room for,
	// minus what retries spent on credit while Redis was unreachable.
	// Atomic: Release, on every call's success path, never waits.
	delta atomic.Int64

	mu sync.Mutex
	// have is the unspent tokens of the lease named lease, which ends (for
	// this process) at leaseEnd.
	have     int
	lease    string
	leaseEnd time.Time
	// inflight is the lease request under way, or nil.
	inflight *leaseRequest
	// seq numbers this process's leases.
	seq int
}

var (
	_ runtime.RetryBudget        = (*budget)(nil)
	_ runtime.StoreFaultReporter = (*budget)(nil)
	_ runtime.StoreFaultReporter = (*Store)(nil)

	errLeaseTimeout = errors.New("no answer to a lease request within Options.Timeout")
	// processID names this process's leases.
	processID = newProcessID()
)

// newProcessID returns 8 random bytes in hex, naming this process's leases.
func newProcessID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// budgetScript settles this process's account with the fleet bucket and
// optionally takes a new lease, atomically. KEYS[1] is the bucket, KEYS[2]
// the new lease's key, KEYS[3] the ending lease's key. ARGV: capacity,
// tokens wanted (0: none), the least worth granting, lease TTL in ms,
// unused tokens of the ending lease, refills (may be negative), the
// bucket's idle TTL in ms. A missing bucket is full. The ending lease's
// tokens come back only if its key has not expired. It returns {granted,
// balance}.
var budgetScript = redis.NewScript(`
local cap = tonumber(ARGV[1])
local b = tonumber(redis.call('GET', KEYS[1]) or cap)
local back = tonumber(ARGV[5])
if redis.call('DEL', KEYS[3]) == 1 then b = b + back end
b = b + tonumber(ARGV[6])
if b > cap then b = cap end
if b < 0 then b = 0 end
local got = 0
local want = tonumber(ARGV[2])
if want > 0 and b >= tonumber(ARGV[3]) then
  got = math.min(want, b)
  b = b - got
  redis.call('SET', KEYS[2], got, 'PX', ARGV[4])
end
redis.call('SET', KEYS[1], b, 'PX', ARGV[7])
return {got, b}
`)

// Acquire takes cost tokens from this process's lease, taking a new lease
// from the fleet bucket (one Redis round trip, bounded by Options.Timeout)
// when the lease is short or has ended. While Redis is unreachable it grants
// the retry, so that the client's own retry quota alone decides, and owes
// the tokens to the fleet. It returns the lease's tokens left, or the
// fleet's balance when it refuses.
func (b *budget) Acquire(cost int) (bool, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		if b.have >= cost && time.Now().Before(b.leaseEnd) {
			b.have -= cost
			return true, b.have
		}
		if b.s.StoreFault() != nil || b.s.closed.Load() {
			b.delta.Add(-int64(cost))
			return true, b.have
		}
		l := b.inflight
		if l == nil {
			l = b.startLease(cost)
		}
		b.mu.Unlock()
		t := time.NewTimer(b.s.opts.Timeout)
		select {
		case <-l.done:
			t.Stop()
		case <-t.C:
			b.s.setFault(errLeaseTimeout)
		}
		b.mu.Lock()
		if l.ended() && l.refused && b.have < cost {
			return false, l.balance
		}
	}
}

// leaseRequest is one lease request under way: done is closed when it
// ends; refused and balance are then set.
type leaseRequest struct {
	done    chan struct{}
	refused bool
	balance int
}

// ended reports whether the request has ended.
func (l *leaseRequest) ended() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

// startLease starts a request for a new lease of at least cost tokens,
// giving back what is left of the current lease and writing pending refills
// in the same round trip. b.mu is held.
func (b *budget) startLease(cost int) *leaseRequest {
	l := &leaseRequest{done: make(chan struct{})}
	b.inflight = l
	b.seq++
	name := b.s.opts.Prefix + "{budget}:lease:" + processID + ":" + strconv.Itoa(b.seq)
	old, back := b.lease, b.have
	b.lease, b.have = "", 0 // on their way back (lost, as spent, if the write fails)
	want := max(b.s.opts.LeaseSize, cost)
	go func() {
		defer close(l.done)
		delta := b.delta.Load()
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), backgroundTimeout)
		res, err := b.run(ctx, name, old, want, cost, back, delta)
		cancel()
		b.mu.Lock()
		defer b.mu.Unlock()
		b.inflight = nil
		if err != nil {
			b.s.setFault(err)
			return
		}
		b.delta.Add(-delta)
		granted, balance := int(res[0]), int(res[1])
		l.refused, l.balance = granted == 0, balance
		if granted > 0 {
			b.have += granted
			b.lease, b.leaseEnd = name, start.Add(b.s.opts.LeaseTTL)
		}
	}()
	return l
}

// run runs budgetScript for lease (taking want tokens, at least least) and
// the ending lease old (giving back back tokens), adding delta, and returns
// {granted, balance}.
func (b *budget) run(ctx context.Context, lease, old string, want, least, back int, delta int64) ([]int64, error) {
	none := b.s.opts.Prefix + "{budget}:lease:none"
	if lease == "" {
		lease = none
	}
	if old == "" {
		old, back = none, 0
	}
	return budgetScript.Run(ctx, b.s.rdb, []string{b.s.opts.Prefix + "{budget}", lease, old},
		b.s.opts.FleetCapacity, want, least, 2*b.s.opts.LeaseTTL.Milliseconds(), back, delta, bucketIdleTTL.Milliseconds()).Int64Slice()
}

// Release gives back n tokens (a successful retry's refund, a first-attempt
// increment) without a Redis round trip and without waiting: they first top
// the current lease back up to Options.LeaseSize (leased tokens count as
// spent, so the fleet bucket sees no difference until the lease is given
// back), and the rest is written in one batch by the next flush, every
// Options.FlushInterval. When the lease's lock is busy, all of n waits for
// the flush.
func (b *budget) Release(n int) {
	if b.mu.TryLock() {
		if b.lease != "" && b.have < b.s.opts.LeaseSize {
			add := min(n, b.s.opts.LeaseSize-b.have)
			b.have += add
			n -= add
		}
		b.mu.Unlock()
	}
	if n > 0 {
		b.delta.Add(int64(n))
	}
}

// StoreFault is the store's (runtime.StoreFaultReporter).
func (b *budget) StoreFault() error { return b.s.StoreFault() }

// flush writes pending refills and, when the lease has ended (or all is
// true), gives back its unused tokens. It does nothing without either, or
// while a lease request (which writes them too) is under way.
func (b *budget) flush(all bool) error {
	b.mu.Lock()
	if b.inflight != nil {
		b.mu.Unlock()
		return nil
	}
	old, back := "", 0
	if b.lease != "" && (all || !time.Now().Before(b.leaseEnd)) {
		old, back = b.lease, b.have
		b.lease, b.have = "", 0 // on their way back (lost, as spent, if the write fails)
	}
	b.mu.Unlock()
	delta := b.delta.Load()
	if delta == 0 && old == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), backgroundTimeout)
	_, err := b.run(ctx, "", old, 0, 0, back, delta)
	cancel()
	if err != nil {
		return err
	}
	b.delta.Add(-delta)
	return nil
}
