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

// RetryBudget is a token bucket that pays retry costs in tokens like the
// retry quota (retry-behavior.md §5): a retry pays its retry cost (14 or 5
// tokens) with Acquire, a successful retry gets that cost back and a
// first-attempt success adds [NoRetryIncrement] through Release.
// [*RetryQuota], each client's own retry quota, implements it.
//
// [Options.FleetRetryBudget] takes one as a second bucket, on top of the
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

var _ RetryBudget = (*RetryQuota)(nil)

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
// common [Options.FleetRetryBudget].
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

// retryCosts are one client's retry costs and success increment (§5),
// DefaultRetryQuotaCapacity's siblings, possibly changed by Options.
type retryCosts struct {
	transient, throttling, timeout, noRetryIncrement int
}

// newRetryCosts returns the costs of q, the client's resolved quota
// settings (ResolveQuotaSettings: the options', else the defaults of §5).
func newRetryCosts(q QuotaSettings) retryCosts {
	return retryCosts{
		transient:        q.CostTransient.Value,
		throttling:       q.CostThrottling.Value,
		timeout:          q.CostTimeout.Value,
		noRetryIncrement: q.NoRetryIncrement.Value,
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

// storeFault returns the first fault reported by the client's shared stores
// (StoreFaultReporter), or nil.
func (c *Client) storeFault() error {
	for _, f := range c.faults {
		if err := f.StoreFault(); err != nil {
			return err
		}
	}
	return nil
}

// QuotaSettings are the retry quota's tunable values (§5), each with the
// source that decided it: an Options field (client option) or the global
// default. Values are in tokens.
type QuotaSettings struct {
	Capacity, CostTransient, CostThrottling, CostTimeout, NoRetryIncrement Setting[int]
}

// ResolveQuotaSettings returns the retry quota settings a client built
// with opts uses (nil opts: the defaults). It is what NewClient reads and
// what `retrygen explain` prints.
func ResolveQuotaSettings(opts *Options) QuotaSettings {
	if opts == nil {
		opts = &Options{}
	}
	pick := func(p *int, field, desc string, def int) Setting[int] {
		if p == nil {
			return Setting[int]{Value: def, Source: Source{Level: LevelGlobalDefault, Name: desc}}
		}
		return Setting[int]{Value: max(*p, 0), Source: Source{Level: LevelClientOption, Name: field}}
	}
	return QuotaSettings{
		Capacity:         pick(opts.RetryQuotaCapacity, "RetryQuotaCapacity", "retry quota capacity", DefaultRetryQuotaCapacity),
		CostTransient:    pick(opts.RetryCostTransient, "RetryCostTransient", "retry cost of a transient error", RetryCostTransient),
		CostThrottling:   pick(opts.RetryCostThrottling, "RetryCostThrottling", "retry cost of a throttling error", RetryCostThrottling),
		CostTimeout:      pick(opts.RetryCostTimeout, "RetryCostTimeout", "retry cost of a timeout", RetryCostTimeout),
		NoRetryIncrement: pick(opts.NoRetryIncrement, "NoRetryIncrement", "first-attempt success increment", NoRetryIncrement),
	}
}
