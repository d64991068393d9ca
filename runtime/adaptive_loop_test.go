package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// These tests drive adaptive mode through Client.Do: the loop must take a
// send token before every attempt, feed every response to the limiter, and
// keep the retry quota exactly as standard mode does (retry-behavior.md §6).

func adaptive(o *Options) { o.RetryMode = ModeAdaptive }

func TestAdaptiveRefillsQuotaOnSuccess(t *testing.T) {
	// 500 → retry (−14) → 200 refunds 14; then a first-attempt success adds
	// 1 but never above capacity; so a throttled retry (−5) then success
	// (+5) ends where it began. A library that skips the refill in adaptive
	// mode ends at 486 and 495.
	h := newHarness(t, nil, 1, script(status(500), status(200), coded(400, "Throttling"), status(200)), adaptive)
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, 500, h.c.RetryQuota().Balance())
	_, err = h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, 500, h.c.RetryQuota().Balance())
	// Sleeps: 50 ms transient backoff; 1,000 ms throttling backoff; then the
	// limiter, enabled by the throttle at t = 0.05 s with fill rate 0.5/s and
	// 0.025 tokens, has 0.525 tokens at t = 1.05 s and needs 1: it waits
	// (1 − 0.525) / 0.5 = 0.95 s before the retry.
	require.Equal(t, []time.Duration{ms(50), ms(1000), ms(950)}, h.clock.Sleeps())
}

func TestAdaptiveEnablesLimiterOnThrottle(t *testing.T) {
	var rates []float64
	h := newHarness(t, nil, 0, script(status(200), coded(400, "Throttling"), status(200)), func(o *Options) {
		adaptive(o)
		o.OnAttempt = func(a AttemptInfo) { rates = append(rates, a.LimiterRate) }
	})
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.False(t, h.c.scope.limiter.State().Enabled, "a success alone must not enable the limiter")
	_, err = h.call(context.Background(), opGet)
	require.NoError(t, err)
	st := h.c.scope.limiter.State()
	require.True(t, st.Enabled)
	// The hook reports 0 while the limiter is disabled. The throttle at t = 0
	// finds a measured rate of 0: fill rate = the 0.5 tokens/s floor. The
	// retry waits 2 s for its token; its success at t = 2 s closes the
	// 0.5 s buckets: measured = 0.8 × 3 requests / 2 s = 1.2/s, CUBIC gives
	// 0.4 × (2 − 0 − 0)^3 + 0 = 3.2, fill = min(3.2, 2 × 1.2) = 2.4 (§6).
	require.Equal(t, []float64{0, 0.5, 2.4}, roundAll(rates))
	require.InDelta(t, 2.4, st.FillRate, 1e-9)
	require.InDelta(t, 1.2, st.MeasuredRate, 1e-9)
}

func TestAdaptiveFailFastReturnsRateLimitedError(t *testing.T) {
	// A throttle at t = 0 enables the limiter with 0 tokens at 0.5 tokens/s;
	// the retry (backoff 0 with r = 0) would wait 1 / 0.5 = 2 s for its send
	// token: fail-fast returns at once, wrapping the throttling error, and
	// sends nothing more. The paid retry cost (5) is refunded.
	sc := script(coded(400, "Throttling"), status(200))
	h := newHarness(t, nil, 0, sc, func(o *Options) { adaptive(o); o.RateLimiterFailFast = true })
	_, err := h.call(context.Background(), opGet)
	var rl *engine.RateLimitedError
	require.ErrorAs(t, err, &rl)
	require.Equal(t, 2*time.Second, rl.Wait)
	require.Equal(t, 0.5, rl.Rate)
	var api *APIError
	require.ErrorAs(t, err, &api)
	require.Equal(t, "Throttling", api.ErrorCode())
	require.Len(t, sc.requests(), 1, "fail-fast must not send")
	require.Equal(t, 500, h.c.RetryQuota().Balance())
	require.Empty(t, h.clock.Sleeps())
}

func TestAdaptiveWaitHonoursContext(t *testing.T) {
	sc := script(coded(400, "Throttling"), status(200), status(200))
	h := newHarness(t, nil, 0, sc, adaptive)
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = h.call(ctx, opGet)
	require.True(t, errors.Is(err, context.Canceled), "got %v", err)
	require.Len(t, sc.requests(), 2)
}

func TestStandardModeNeverTouchesLimiter(t *testing.T) {
	h := newHarness(t, nil, 0, script(coded(400, "Throttling"), status(200)), nil)
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.False(t, h.c.scope.limiter.State().Enabled)
}

func roundAll(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(int64(x*1e9+0.5)) / 1e9
	}
	return out
}
