package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestReleaseAtSpreadsAndPaces: waiters held back by a window of 1 s and
// Limit 2 are released at until + r × 500 ms (half the window), the first
// two into the next window, the next two a window later; a release point
// past latest is not taken (until comes back, uncounted); a window of
// unknown shape (no store entry) releases at until.
func TestReleaseAtSpreadsAndPaces(t *testing.T) {
	s := NewWindowStore()
	t0 := epoch
	s.Record("ak", "Op", ThrottleHeaders{User: ThrottleQuota{Present: true, Remain: 0, Limit: 2, Window: time.Second, TimeLeft: 400 * time.Millisecond}}, t0)
	until := t0.Add(400 * time.Millisecond)
	far := t0.Add(time.Hour)
	require.Equal(t, until.Add(250*time.Millisecond), s.ReleaseAt("ak", "Op", DimensionUser, until, far, 0.5))
	require.Equal(t, until, s.ReleaseAt("ak", "Op", DimensionUser, until, far, 0))
	require.Equal(t, until, s.ReleaseAt("ak", "Op", DimensionUser, until, until.Add(time.Second), 0.5), "past latest: not taken")
	require.Equal(t, until.Add(time.Second+125*time.Millisecond), s.ReleaseAt("ak", "Op", DimensionUser, until, far, 0.25), "third waiter: the window after")
	require.Equal(t, until.Add(time.Second+499*time.Millisecond), s.ReleaseAt("ak", "Op", DimensionUser, until, far, 0.998))
	require.Equal(t, until.Add(2*time.Second), s.ReleaseAt("ak", "Op", DimensionUser, until, far, 0), "fifth: two windows later")
	require.Equal(t, until, s.ReleaseAt("ak", "Other", DimensionAPIUser, until, far, 0.5), "no API + User window: unknown shape")
	next := until.Add(time.Second)
	require.Equal(t, next.Add(100*time.Millisecond), s.ReleaseAt("ak", "Op", DimensionUser, next, far, 0.2), "a later window counts afresh")
}

// TestThrottledRetrySpreadOverNextWindow: a throttled response (TimeLeft
// 2000 ms of a 1000 ms window… Time:1000) makes the retry wait the time
// left plus r × half the window: with r = 0.5, 2000 + 250 ms; a call held
// back by the window (Admit) is spread the same way.
func TestThrottledRetrySpreadOverNextWindow(t *testing.T) {
	sc := script(status(400, "X-Amzn-ErrorType", "Throttling.User", DefaultUserHeader, throttled2s), status(200), status(200))
	h := newHarness(t, aliyunService(), 0.5, sc, nil)
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{2250 * time.Millisecond}, h.clock.Sleeps())
}
