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
	"github.com/retrygen/retrygen/runtime/engine"
)

// budget is this process's side of one fleet retry budget (one scope: a
// service and endpoint, or the store's default): the tokens left of its
// current lease, and the refills not yet written.
type budget struct {
	s *Store
	// key is the bucket's Redis key; its lease keys extend it, so that
	// every key of the scope shares one hash slot (its {…} hash tag).
	key string

	// delta is the tokens to add to the fleet bucket at the next flush:
	// refunds and first-attempt increments that the lease had no room for,
	// minus what retries spent on credit.
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
	// refusedUntil: the bucket refused a lease (balance refusedBalance);
	// until then retries are refused without asking again, and none goes
	// on credit.
	refusedUntil   time.Time
	refusedBalance int
	// inDebt: retries went on credit and the lease that followed did not
	// cover them; no retry goes on credit again until a lease is granted,
	// so that what a process spends past the budget stays within one lease.
	inDebt bool
	// fullUntil: the last reply showed a full bucket; until then positive
	// refills are not written (they would be clamped away).
	fullUntil time.Time
}

var (
	_ engine.RetryBudget        = (*budget)(nil)
	_ engine.StoreFaultReporter = (*budget)(nil)
	_ engine.StoreFaultReporter = (*Store)(nil)

	// errLeaseStalled is the fault of a lease request that got no answer
	// within Options.StallTimeout.
	errLeaseStalled = errors.New("no answer to a lease request within Options.StallTimeout")
)

// newProcessID returns 8 random bytes in hex, naming one Store (so, in
// practice, one process): its leases and its fleet-rate heartbeat.
func newProcessID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// budgetScript settles this process's account with the fleet bucket and
// optionally takes a new lease, atomically. KEYS[1] is the bucket, KEYS[2]
// the new lease's key, KEYS[3] the ending lease's key (all in one hash
// slot). ARGV: capacity, tokens wanted (0: none), the least worth granting,
// lease TTL in ms, unused tokens of the ending lease, refills (may be
// negative: spending on credit), the bucket's idle TTL in ms. A missing
// bucket is full. The ending lease's tokens come back only if its key has
// not expired. The balance may go below 0 (a debt of spending on credit,
// repaid by refills, never forgiven) down to -capacity. A bucket whose
// balance does not change is not rewritten, and a full one that does not
// exist is not created. It returns {granted, balance}.
var budgetScript = redis.NewScript(`
local cap = tonumber(ARGV[1])
local cur = redis.call('GET', KEYS[1])
local b = tonumber(cur or cap)
local old = b
local back = tonumber(ARGV[5])
if back > 0 and redis.call('DEL', KEYS[3]) == 1 then b = b + back end
b = b + tonumber(ARGV[6])
if b > cap then b = cap end
if b < -cap then b = -cap end
local got = 0
local want = tonumber(ARGV[2])
if want > 0 and b >= tonumber(ARGV[3]) then
  got = math.min(want, b)
  b = b - got
  redis.call('SET', KEYS[2], got, 'PX', ARGV[4])
end
if b ~= old then redis.call('SET', KEYS[1], b, 'PX', ARGV[7]) end
return {got, b}
`)

// Acquire takes cost tokens from this process's lease, taking a new lease
// from the fleet bucket (one Redis round trip, waited for at most
// Options.Timeout) when the lease is short or has ended. A lease request
// slower than Options.Timeout does not fault the store: the retry goes on
// credit, and so may others up to one lease (Options.LeaseSize) while that
// request is under way, settled against the lease when it comes; beyond
// that, retries are refused until it answers. That bounds what a process
// can spend past the fleet budget at an outage's onset to one lease. A
// bucket that refused a lease refuses a retry that costs more than its
// balance again, without a round trip, for Options.FlushInterval; after
// such a refusal no retry goes on credit until a lease is granted. While Redis is unreachable (a fault) it grants the
// retry, so that the client's own retry quota alone decides, and owes the
// tokens to the fleet. It returns the lease's tokens left, or the fleet's
// balance when it refuses.
func (b *budget) Acquire(cost int) (bool, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	waited := false
	for {
		now := time.Now()
		if b.have >= cost && now.Before(b.leaseEnd) {
			b.have -= cost
			return true, b.have
		}
		if b.s.StoreFault() != nil || b.s.closed.Load() {
			b.delta.Add(-int64(cost))
			return true, b.have
		}
		if now.Before(b.refusedUntil) && cost > b.refusedBalance {
			return false, b.refusedBalance
		}
		l := b.inflight
		if l == nil {
			l = b.startLease(cost)
		} else if waited {
			// The request outlived Options.Timeout: on credit, up to one lease.
			if !b.inDebt && l.credit+cost <= b.s.opts.LeaseSize {
				l.credit += cost
				return true, b.have
			}
			return false, b.have
		}
		b.mu.Unlock()
		t := time.NewTimer(b.s.opts.Timeout)
		select {
		case <-l.done:
			t.Stop()
		case <-t.C:
		}
		b.mu.Lock()
		if l.ended() {
			if l.refused && b.have < cost {
				return false, l.balance
			}
		} else {
			waited = true
		}
	}
}

// leaseRequest is one lease request under way: done is closed when it
// ends; refused and balance are then set. credit is what retries spent
// while it was late (b.mu guards it).
type leaseRequest struct {
	done    chan struct{}
	refused bool
	balance int
	credit  int
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
// in the same round trip. b.mu is held. The request itself is bounded by
// Options.StallTimeout; past it, or on an error, the store faults.
func (b *budget) startLease(cost int) *leaseRequest {
	l := &leaseRequest{done: make(chan struct{})}
	b.inflight = l
	b.seq++
	name := b.key + ":lease:" + b.s.id + ":" + strconv.Itoa(b.seq)
	old, back := b.lease, b.have
	b.lease, b.have = "", 0 // on their way back (lost, as spent, if the write fails)
	want := max(b.s.opts.LeaseSize, cost)
	go func() {
		defer close(l.done)
		delta := b.delta.Load()
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), b.s.opts.StallTimeout)
		res, err := b.run(ctx, name, old, want, cost, back, delta)
		stalled := ctx.Err() != nil
		cancel()
		b.mu.Lock()
		defer b.mu.Unlock()
		b.inflight = nil
		if err != nil {
			b.delta.Add(-int64(l.credit)) // owed to the fleet
			if stalled {
				err = errors.Join(errLeaseStalled, err)
			}
			b.s.setFault(err)
			return
		}
		b.delta.Add(-delta)
		granted, balance := int(res[0]), int(res[1])
		b.noteBalance(balance)
		l.refused, l.balance = granted == 0, balance
		if granted == 0 {
			b.delta.Add(-int64(l.credit)) // a debt, repaid by refills
			b.inDebt = b.inDebt || l.credit > 0
			b.refusedUntil, b.refusedBalance = time.Now().Add(b.s.opts.FlushInterval), balance
			return
		}
		b.refusedUntil = time.Time{}
		if have := granted - l.credit; have >= 0 {
			b.have += have
			b.inDebt = false
		} else {
			b.delta.Add(int64(have))
			b.inDebt = true
		}
		b.lease, b.leaseEnd = name, start.Add(b.s.opts.LeaseTTL)
	}()
	return l
}

// noteBalance remembers whether the bucket was full (b.mu held).
func (b *budget) noteBalance(balance int) {
	if balance >= b.s.opts.FleetCapacity {
		b.fullUntil = time.Now().Add(b.s.opts.ResyncInterval)
	} else {
		b.fullUntil = time.Time{}
	}
}

// run runs budgetScript for lease (taking want tokens, at least least) and
// the ending lease old (giving back back tokens), adding delta, and returns
// {granted, balance}.
func (b *budget) run(ctx context.Context, lease, old string, want, least, back int, delta int64) ([]int64, error) {
	none := b.key + ":lease:none"
	if lease == "" {
		lease = none
	}
	if old == "" {
		old, back = none, 0
	}
	return budgetScript.Run(ctx, b.s.rdb, []string{b.key, lease, old},
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

// StoreFault is the store's (engine.StoreFaultReporter).
func (b *budget) StoreFault() error { return b.s.StoreFault() }

// flush writes pending refills and, when the lease has ended (or all is
// true), gives back its unused tokens: one round trip, at most once per
// call (the background goroutine calls it once per FlushInterval). It does
// nothing without either, while a lease request (which writes them too) is
// under way, or when the only news is refills to a bucket last seen full
// (less than ResyncInterval ago): those are dropped, as the bucket would
// clamp them.
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
	full := time.Now().Before(b.fullUntil)
	b.mu.Unlock()
	delta := b.delta.Load()
	if old == "" && delta > 0 && full {
		b.delta.Add(-delta)
		return nil
	}
	if delta == 0 && old == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), b.s.opts.StallTimeout)
	res, err := b.run(ctx, "", old, 0, 0, back, delta)
	cancel()
	if err != nil {
		return err
	}
	b.delta.Add(-delta)
	b.mu.Lock()
	b.noteBalance(int(res[1]))
	b.mu.Unlock()
	return nil
}
