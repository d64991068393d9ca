package runtime

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// TestRetryQuotaThroughDo checks the retry quota of retry-behavior.md §5 as
// calls see it: costs, refunds and the first-attempt increment.
func TestRetryQuotaThroughDo(t *testing.T) {
	for _, tc := range []struct {
		name string
		// before are calls made first, each a script, to move the balance.
		before   [][]step
		steps    []step
		edit     func(*Options)
		wantErr  func(t *testing.T, err error)
		attempts int
		balance  int
	}{
		{name: "transient retries cost 14 each and a final failure refunds nothing",
			steps: []step{status(500), status(500), status(500)}, attempts: 3, balance: 500 - 14 - 14,
			wantErr: wantAs[*MaxAttemptsError]},
		{name: "throttling retries cost 5 each and a final failure refunds nothing",
			steps: []step{status(429), status(429), status(429)}, attempts: 3, balance: 500 - 5 - 5,
			wantErr: wantAs[*MaxAttemptsError]},
		{name: "successful retry refunds the last retry's cost only (throttling last)",
			steps: []step{status(500), status(429), status(200)}, attempts: 3, balance: 500 - 14 - 5 + 5},
		{name: "successful retry refunds the last retry's cost only (transient last)",
			steps: []step{status(429), status(500), status(200)}, attempts: 3, balance: 500 - 5 - 14 + 14},
		{name: "first-attempt success adds 1 token",
			before: [][]step{{status(500), status(500), status(500)}},
			steps:  []step{status(200)}, attempts: 1, balance: 500 - 28 + 1},
		{name: "first-attempt success never goes above capacity",
			steps: []step{status(200)}, attempts: 1, balance: 500},
		{name: "non-retryable after a paid retry refunds nothing",
			steps: []step{status(500), coded(400, "ValidationException")}, attempts: 2, balance: 500 - 14,
			wantErr: wantAs[*APIError]},
		{name: "retry abandoned for Retry-After above max server delay is refunded",
			steps: []step{status(503, "Retry-After", "21")}, attempts: 1, balance: 500,
			wantErr: wantAs[*ServerDelayError]},
		{name: "configured capacity is the initial and maximum balance",
			edit:  func(o *Options) { o.RetryQuotaCapacity = new(int); *o.RetryQuotaCapacity = 40 },
			steps: []step{status(200)}, attempts: 1, balance: 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var all []step
			for _, s := range tc.before {
				all = append(all, s...)
			}
			h := newHarness(t, nil, 1, script(append(all, tc.steps...)...), tc.edit)
			for range tc.before {
				_, _ = h.call(context.Background(), opPost)
			}
			sentBefore := len(h.http.requests())
			md, err := h.call(context.Background(), opPost)
			if tc.wantErr == nil {
				require.NoError(t, err)
			} else {
				tc.wantErr(t, err)
			}
			require.Equal(t, tc.attempts, md.Attempts)
			require.Equal(t, tc.attempts, len(h.http.requests())-sentBefore, "requests sent")
			require.Equal(t, tc.balance, h.c.RetryQuota().Balance())
			h.http.requireAllClosed(t)
		})
	}
}

// wantAs fails unless errors.As finds a T in err.
func wantAs[T error](t *testing.T, err error) {
	t.Helper()
	var target T
	require.ErrorAs(t, err, &target)
}

// TestRetryQuotaDeadlineRefund: a paid retry abandoned because its delay
// would end after the context deadline is refunded (§3 step 7).
func TestRetryQuotaDeadlineRefund(t *testing.T) {
	svc := testService()
	svc.Defaults.ThrottlingBaseDelay = ms(5000)
	h := newHarnessAt(t, future, svc, 1, script(status(429)), nil)
	md, err := h.call(h.deadline(t, ms(1000)), opPost)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Equal(t, 1, md.Attempts)
	require.Empty(t, h.clock.Sleeps())
	require.Equal(t, 500, h.c.RetryQuota().Balance())
}

// TestQuotaExhaustedError: when the quota cannot pay, the call ends with a
// distinct error that says so plainly and wraps the last attempt's error.
func TestQuotaExhaustedError(t *testing.T) {
	h := newHarness(t, nil, 1, script(coded(500, "InternalError")), func(o *Options) {
		o.RetryQuotaCapacity = new(int)
		*o.RetryQuotaCapacity = 3
	})
	md, err := h.call(context.Background(), opPost)
	var qe *QuotaExhaustedError
	require.ErrorAs(t, err, &qe)
	require.Equal(t, QuotaExhaustedError{Available: 3, Needed: 14, Attempts: 1, Err: qe.Err}, *qe)
	require.Regexp(t, `^test: PutThing: client-side retry quota exhausted: 3 tokens available, 14 needed`, err.Error())
	var api *APIError
	require.ErrorAs(t, err, &api)
	require.Equal(t, "InternalError", api.ErrorCode())
	require.Equal(t, 1, md.Attempts)
	require.Len(t, h.http.requests(), 1)
	require.Equal(t, 3, h.c.RetryQuota().Balance())
}

// TestRetryQuotaConcurrent: 200 goroutines share one client's quota; every
// goroutine's script is deterministic and no increment can hit the capacity
// (each goroutine adds back at most what it took before), so the final
// balance is exact whatever the interleaving.
func TestRetryQuotaConcurrent(t *testing.T) {
	const goroutines, capacity = 200, 20000
	calls := [][]step{
		{status(500), status(500), status(500)},     // −28
		{status(429), status(429), status(429)},     // −10
		{status(500), status(200)},                  // −14 +14
		{status(429), status(200)},                  // −5 +5
		{status(500), status(429), status(200)},     // −14 −5 +5
		{status(200)}, {status(200)}, {status(200)}, // +1 each
		{status(200)}, {status(200)}, // +1 each
	}
	perGoroutine := -28 - 10 + 0 + 0 - 14 + 5
	h := newHarness(t, nil, 1, nil, func(o *Options) {
		o.RetryQuotaCapacity = new(int)
		*o.RetryQuotaCapacity = capacity
	})
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for range goroutines {
		wg.Go(func() {
			var all []step
			for _, c := range calls {
				all = append(all, c...)
			}
			o := h.c.opts
			o.HTTPClient = script(all...)
			for i := range calls {
				_, err := h.c.Do(context.Background(), opPost, &Request{Method: "POST", Path: "/"}, &o, nil)
				var mae *MaxAttemptsError
				if (i < 2) != errors.As(err, &mae) {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("unexpected call result: %v", err)
	}
	require.Equal(t, capacity+goroutines*perGoroutine, h.c.RetryQuota().Balance())
}

// TestRetryQuotaAcquireRelease checks the bucket itself: Acquire refuses
// without taking when the balance is short, Release never exceeds capacity.
func TestRetryQuotaAcquireRelease(t *testing.T) {
	q := engine.NewRetryQuota(20)
	ok, b := q.Acquire(14)
	require.Equal(t, []any{true, 6}, []any{ok, b})
	ok, b = q.Acquire(14)
	require.Equal(t, []any{false, 6}, []any{ok, b}, "refused, balance untouched")
	q.Release(100)
	require.Equal(t, 20, q.Balance(), "release capped at capacity")
	require.Equal(t, 0, engine.NewRetryQuota(-1).Capacity(), "negative capacity is 0")
}

// BenchmarkRetryQuota measures one Acquire+Release pair; run with
// -cpu 1,2,8 to see contention on the shared atomic.
func BenchmarkRetryQuota(b *testing.B) {
	q := engine.NewRetryQuota(engine.DefaultRetryQuotaCapacity)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if ok, _ := q.Acquire(engine.RetryCostTransient); ok {
				q.Release(engine.RetryCostTransient)
			}
		}
	})
}
