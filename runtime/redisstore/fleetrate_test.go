package redisstore

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
	"github.com/retrygen/retrygen/runtime/engine"
)

// TestFleetRateShared: a throttle seen by one process sets the fleet's
// CUBIC state in Redis (last_max_rate = the measured 20 req/s × 2 live
// processes = 40), which the other process adopts through pub/sub: both
// then fill at half of 0.7 × 40 right after the throttle; a second throttle
// within rateDebounce does not decrease it again. A store whose limiter is
// never used (no adaptive client) never heartbeats.
func TestFleetRateShared(t *testing.T) {
	r := testserver.StartRedis(t)
	a, rdb := newTestStore(t, r, Options{})
	b, _ := newTestStore(t, r, Options{})
	idle, _ := newTestStore(t, r, Options{})
	eventually(t, func() bool { return a.resyncs.Load() > 0 && b.resyncs.Load() > 0 }, "both resynced")
	idle.Limiter("Svc", "svc.test", engine.SystemClock{})
	la := a.Limiter("Svc", "svc.test", engine.SystemClock{})
	require.Same(t, la, a.Limiter("Svc", "svc.test", engine.SystemClock{}), "one limiter per scope and process")
	b.Limiter("Svc", "svc.test", engine.SystemClock{})
	fa, fb := a.rates[a.opts.Prefix+"{rate:3:Svc:svc.test}"].f, b.rates[b.opts.Prefix+"{rate:3:Svc:svc.test}"].f
	_, on := fa.Share(time.Now())
	require.False(t, on, "no throttle yet: free")
	fb.Share(time.Now())
	key := a.opts.Prefix + "{rate:3:Svc:svc.test}"
	eventually(t, func() bool {
		n, err := rdb.ZCard(context.Background(), key+":procs").Result()
		return err == nil && n == 2
	}, "two live processes (the idle store does not count)")
	require.NoError(t, fa.sync(true))

	now := time.Now()
	fa.Throttled(now, 20)
	eventually(t, func() bool {
		lm, err := rdb.HGet(context.Background(), key, "max").Float64()
		return err == nil && lm == 40
	}, "last_max_rate = 20 × 2 processes")
	eventually(t, func() bool { _, on := fb.Share(time.Now()); return on }, "b adopted the fleet's throttle")
	require.NoError(t, fb.sync(true)) // b counts the live processes afresh (it heartbeat first)
	rb, _ := fb.Share(time.Now())
	ra, _ := fa.Share(time.Now())
	require.InDelta(t, 0.7*40/2, rb, 1, "b fills at its half of 0.7 × 40, growing from there")
	require.InDelta(t, ra, rb, 0.5, "a and b agree")
	fb.Throttled(time.Now(), 5)
	require.NoError(t, fb.sync(true))
	lm, err := rdb.HGet(context.Background(), key, "max").Float64()
	require.NoError(t, err)
	require.Equal(t, 40.0, lm, "a second throttle within 500 ms does not decrease the fleet rate again")
}
