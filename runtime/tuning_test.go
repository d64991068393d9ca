package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// Tuning as aws-sdk-go-v2 offers it (issue 9 item 6): a backoff function and
// the retry costs and success increment as options.

func TestBackoffOptionReplacesComputedBackoff(t *testing.T) {
	// Backoff returns attempt × 7 ms: the retries wait 7 ms and 14 ms
	// instead of full jitter; it sees each failed attempt's error.
	var seen []string
	h := newHarness(t, nil, 0.5, script(status(500), coded(400, "ThrottlingException"), status(200)), func(o *Options) {
		o.Backoff = func(attempt int, err error) time.Duration {
			seen = append(seen, err.Error())
			return time.Duration(attempt) * 7 * time.Millisecond
		}
	})
	md, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, 3, md.Attempts)
	require.Equal(t, []time.Duration{7 * time.Millisecond, 14 * time.Millisecond}, h.clock.Sleeps())
	require.Equal(t, []string{"api error (HTTP 500)", "api error ThrottlingException (HTTP 400)"}, seen)
}

func TestBackoffOptionNeverReplacesServerDelay(t *testing.T) {
	// x-amz-retry-after 300 ms on top of a 0 backoff: max(0, min(300, 0 + 5 s)).
	h := newHarness(t, nil, 0.5, script(status(500, engine.HeaderAmzRetryAfter, "300"), status(200)), func(o *Options) {
		o.Backoff = func(int, error) time.Duration { return 0 }
	})
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{300 * time.Millisecond}, h.clock.Sleeps())
}

func TestRetryCostOptions(t *testing.T) {
	// Transient 20, throttling 3, success increment 2, capacity 100: a
	// throttled retry then a transient retry then success leaves
	// 100 − 3 − 20 + 20 (the last retry's refund) = 97; a first-attempt
	// success then adds 2 (99).
	cap100, tr, th, inc := 100, 20, 3, 2
	var balances []int
	h := newHarness(t, nil, 0, script(coded(400, "ThrottlingException"), status(503), status(200), status(200)), func(o *Options) {
		o.RetryQuotaCapacity, o.RetryCostTransient, o.RetryCostThrottling, o.NoRetryIncrement = &cap100, &tr, &th, &inc
		o.OnAttempt = func(a AttemptInfo) { balances = append(balances, a.QuotaBalance) }
	})
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	_, err = h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, []int{97, 77, 97, 99}, balances)
}

func TestRetryCostTimeoutOption(t *testing.T) {
	// A timed-out attempt pays RetryCostTimeout (here 10, Go v2's legacy
	// value), a transient error RetryCostTransient (14).
	ten := 10
	var balances []int
	h := newHarness(t, nil, 0, script(failure(context.DeadlineExceeded), status(500), status(200)), func(o *Options) {
		o.RetryCostTimeout = &ten
		o.OnAttempt = func(a AttemptInfo) { balances = append(balances, a.QuotaBalance) }
	})
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, []int{490, 476, 490}, balances)
}
