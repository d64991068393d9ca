package runtime

import "sync/atomic"

// Retry quota constants (retry-behavior.md §5).
const (
	// DefaultRetryQuotaCapacity is the retry quota's initial and maximum
	// balance: 500 tokens.
	DefaultRetryQuotaCapacity = 500
	// RetryCostTransient is the retry cost of a transient error (timeouts
	// included): 14 tokens.
	RetryCostTransient = 14
	// RetryCostThrottling is the retry cost of a throttling error: 5 tokens.
	RetryCostThrottling = 5
	// NoRetryIncrement is what a first-attempt success adds: 1 token.
	NoRetryIncrement = 1
	// RetryCostTimeout is the retry cost of a timed-out attempt: 14 tokens,
	// as a transient error (aws-sdk-go-v2 charges RetryCost; its
	// RetryTimeoutCost of 10 is a legacy value it no longer uses).
	RetryCostTimeout = 14
)

// RetryQuota is the client-side retry quota: a token bucket shared by every
// call of one client (retry-behavior.md §5). Retries pay their retry cost; a
// successful retry refunds the cost of that last retry; a first-attempt
// success adds 1 token; the balance never exceeds the capacity. It never
// delays a first attempt. Safe for concurrent use; lock-free.
type RetryQuota struct {
	balance  atomic.Int64
	capacity int64
}

// newRetryQuota returns a full quota of capacity tokens (the initial balance
// is also the maximum). A negative capacity is treated as 0.
func newRetryQuota(capacity int) *RetryQuota {
	q := &RetryQuota{capacity: int64(max(capacity, 0))}
	q.balance.Store(q.capacity)
	return q
}

// Acquire takes cost tokens if the balance covers them. It returns whether it
// did and the balance it saw when it refused (or the new balance).
func (q *RetryQuota) Acquire(cost int) (ok bool, balance int) {
	for {
		b := q.balance.Load()
		if b < int64(cost) {
			return false, int(b)
		}
		if q.balance.CompareAndSwap(b, b-int64(cost)) {
			return true, int(b - int64(cost))
		}
	}
}

// Release adds n tokens (a refund or the first-attempt increment), never
// above the capacity.
func (q *RetryQuota) Release(n int) {
	for {
		b := q.balance.Load()
		nb := min(b+int64(n), q.capacity)
		if nb == b || q.balance.CompareAndSwap(b, nb) {
			return
		}
	}
}

// Balance returns the current balance in tokens.
func (q *RetryQuota) Balance() int { return int(q.balance.Load()) }

// Capacity returns the maximum balance in tokens.
func (q *RetryQuota) Capacity() int { return int(q.capacity) }

// retryCosts are one client's retry costs and success increment (§5),
// DefaultRetryQuotaCapacity's siblings, possibly changed by Options.
type retryCosts struct {
	transient, throttling, timeout, noRetryIncrement int
}

// newRetryCosts returns the costs opts set, the defaults of §5 elsewhere.
func newRetryCosts(opts *Options) retryCosts {
	pick := func(p *int, def int) int {
		if p == nil {
			return def
		}
		return max(*p, 0)
	}
	return retryCosts{
		transient:        pick(opts.RetryCostTransient, RetryCostTransient),
		throttling:       pick(opts.RetryCostThrottling, RetryCostThrottling),
		timeout:          pick(opts.RetryCostTimeout, RetryCostTimeout),
		noRetryIncrement: pick(opts.NoRetryIncrement, NoRetryIncrement),
	}
}

// retryCost is the retry cost of a retry after err, of class c: the
// throttling cost for throttling, the timeout cost for a timed-out attempt,
// the transient cost for everything else retried (§5).
func (k retryCosts) retryCost(c Class, err error) int {
	switch {
	case c == ClassThrottling:
		return k.throttling
	case isTimeout(err):
		return k.timeout
	}
	return k.transient
}

// retryCost is the default retry cost of class c (§5): 5 tokens for
// throttling, 14 for everything else retried.
func retryCost(c Class) int {
	if c == ClassThrottling {
		return RetryCostThrottling
	}
	return RetryCostTransient
}
