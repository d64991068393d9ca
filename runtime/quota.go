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

// retryCost is the retry cost of a class: 5 tokens for throttling, 14 for
// everything else retried (§5).
func retryCost(c Class) int {
	if c == ClassThrottling {
		return RetryCostThrottling
	}
	return RetryCostTransient
}
