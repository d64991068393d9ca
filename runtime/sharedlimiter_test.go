package runtime

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// TestRateLimiterPoolShares: clients given one pool share one limiter per
// service and endpoint host: a throttle seen by one slows the other.
func TestRateLimiterPoolShares(t *testing.T) {
	pool := engine.NewRateLimiterPool()
	edit := func(o *Options) { o.RateLimiters, o.RetryMode = pool, ModeAdaptive }
	a := newHarness(t, nil, 0, script(status(429, "X-Amzn-ErrorType", "Throttling"), status(200)), edit)
	b := newHarness(t, nil, 0, script(status(200)), edit)
	require.Same(t, a.c.RateLimiter(), b.c.RateLimiter())
	require.NotSame(t, a.c.RateLimiter(), pool.Limiter("other", "svc.test", a.clock))
	_, err := a.call(context.Background(), opGet)
	require.NoError(t, err)
	require.True(t, b.c.RateLimiter().State().Enabled, "a's throttle enabled b's limiter: it is the same")
}

// hotKey runs clients clients of one scope for d of virtual time against a
// server that admits capacity requests a second (a token bucket holding
// capacity/10), the clients together offering load × capacity (evenly
// spaced arrivals, each queued at its client's limiter for up to 1 s), and
// returns the send rate and the share of throttled responses over the last
// half. shared gives every client one limiter (RateLimiterPool).
func hotKey(clients int, capacity, load float64, d time.Duration, shared bool) (rate, throttled float64) {
	start := time.Unix(1_700_000_000, 0)
	clock := clocktest.New(start)
	pool := engine.NewRateLimiterPool()
	lims := make([]*engine.RateLimiter, clients)
	for i := range lims {
		if shared {
			lims[i] = pool.Limiter("svc", "host", clock)
		} else {
			lims[i] = engine.NewRateLimiter(clock)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	queue := make([][]time.Time, clients)
	tokens, last := capacity/10, start
	gap := time.Duration(float64(time.Second) / (load * capacity))
	next := start
	var sent, thr int
	half := start.Add(d / 2)
	for now := start; now.Before(start.Add(d)); now = now.Add(time.Millisecond) {
		clock.Set(now)
		for !next.After(now) {
			i := rng.IntN(clients)
			queue[i] = append(queue[i], next)
			next = next.Add(gap)
		}
		tokens = min(capacity/10, tokens+now.Sub(last).Seconds()*capacity)
		last = now
		for i, q := range queue {
			for len(q) > 0 && now.Sub(q[0]) > time.Second {
				q = q[1:] // the caller gave up
			}
			for len(q) > 0 {
				if _, ok := lims[i].TryAcquireAt(now); !ok {
					break
				}
				q = q[1:]
				ok := tokens >= 1
				if ok {
					tokens--
				}
				lims[i].Update(!ok)
				if now.After(half) {
					sent++
					if !ok {
						thr++
					}
				}
			}
			queue[i] = q
		}
	}
	secs := (d / 2).Seconds()
	return float64(sent) / secs, float64(thr) / float64(max(sent, 1))
}

// TestSharedLimiterHotKey: 1,000 adaptive clients of one process at 1.5×
// a hot key's capacity (100 req/s) share one CUBIC send rate: over the last
// minute of two, the send rate is within 10 % of capacity and at most 5 %
// of responses are throttled; each with a limiter of its own they overshoot
// (the 0.5 req/s floor alone is 500 req/s).
func TestSharedLimiterHotKey(t *testing.T) {
	if testing.Short() {
		t.Skip("two minutes of virtual time, twice")
	}
	rate, thr := hotKey(1000, 100, 1.5, 2*time.Minute, true)
	t.Logf("shared: %.1f req/s sent, %.2f %% throttled", rate, 100*thr)
	require.InDelta(t, 100, rate, 10)
	require.LessOrEqual(t, thr, 0.05)
	rate, thr = hotKey(1000, 100, 1.5, 2*time.Minute, false)
	t.Logf("per client: %.1f req/s sent, %.2f %% throttled", rate, 100*thr)
	require.Greater(t, thr, 0.05)
}
