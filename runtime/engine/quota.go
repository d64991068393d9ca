package engine

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

// RetryBudget is a token bucket that pays retry costs in tokens like the
// retry quota (retry-behavior.md §5): a retry pays its retry cost (14 or 5
// tokens) with Acquire, a successful retry gets that cost back and a
// first-attempt success adds [NoRetryIncrement] through Release.
// [*RetryQuota], each client's own retry quota, implements it.
//
// runtime.Options.FleetRetryBudget takes one as a second bucket, on top of the
// client's retry quota: a retry is sent only when both pay. runtime/redisstore
// provides one that a fleet of processes shares through Redis.
// Implementations must be safe for concurrent use and must not block; one
// that depends on a remote service falls back to local state and says so
// through [StoreFaultReporter].
type RetryBudget interface {
	// Acquire takes cost tokens if the balance covers them. It returns
	// whether it did and the balance in tokens it saw when it refused (or
	// the new balance).
	Acquire(cost int) (ok bool, balance int)
	// Release gives back n tokens (a refund or the first-attempt
	// increment), never above the capacity.
	Release(n int)
}

// RetryQuota is the client-side retry quota: a token bucket shared by every
// call of one client (retry-behavior.md §5). Retries pay their retry cost; a
// successful retry refunds the cost of that last retry; a first-attempt
// success adds 1 token; the balance never exceeds the capacity. It never
// delays a first attempt. Safe for concurrent use; lock-free.
type RetryQuota struct {
	balance  atomic.Int64
	capacity int64
}

// NewRetryQuota returns a full quota of capacity tokens (the initial balance
// is also the maximum). A negative capacity is treated as 0. Every client
// makes its own; make one yourself to give several clients of one process a
// common runtime.Options.FleetRetryBudget.
func NewRetryQuota(capacity int) *RetryQuota {
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

// QuotaSettings are the retry quota's tunable values (§5), each with the
// source that decided it: an Options field (client option) or the global
// default. Values are in tokens.
type QuotaSettings struct {
	Capacity, CostTransient, CostThrottling, CostTimeout, NoRetryIncrement Setting[int]
}

// ScopedRetryBudget is a [RetryBudget] that keeps one bucket per service and
// endpoint host, so that one sick service or region spends only its own
// budget (issue 22). runtime.NewClient asks it once for the client's bucket with
// Scope(Service.Name, the endpoint's host) and uses what it returns as the
// client's fleet retry budget. runtime/redisstore's implements it.
type ScopedRetryBudget interface {
	RetryBudget
	// Scope returns the bucket of service (Service.Name, "Amazon
	// DynamoDB") called at endpointHost ("dynamodb.eu-west-1.amazonaws.com",
	// which names the region); the same arguments give the same bucket.
	Scope(service, endpointHost string) RetryBudget
}

var _ RetryBudget = (*RetryQuota)(nil)
