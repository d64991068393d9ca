package redisstore

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
	"github.com/retrygen/retrygen/runtime/engine"
)

// newClusterStore returns a Store on a Cluster client of c, closed (with
// its client) in cleanup.
func newClusterStore(t *testing.T, c *testserver.RedisCluster, opts Options) *Store {
	t.Helper()
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs, MaxRetries: -1, ContextTimeoutEnabled: true, DialTimeout: testBackgroundTimeout})
	if opts.FleetCapacity == 0 {
		opts.FleetCapacity = 100
	}
	if opts.Timeout == 0 {
		opts.Timeout = testBackgroundTimeout
	}
	s, err := New(rdb, opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close(); _ = rdb.Close() })
	return s
}

// TestRedisCluster runs the Store against a real 3-node Redis Cluster: 20
// windows learned by one process reach another through pub/sub, a late
// joiner learns all 20 from its first resync, the fleet budget leases,
// refills and gives back, and no operation fails (no CROSSSLOT: every key of
// a scope shares one hash slot). Unrelated keys in the cluster are never
// read: the resync reads one sorted set.
func TestRedisCluster(t *testing.T) {
	c := testserver.StartRedisCluster(t)
	admin := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs})
	defer admin.Close()
	ctx := context.Background()
	for i := range 300 {
		require.NoError(t, admin.Set(ctx, "unrelated:"+strconv.Itoa(i), "x", time.Minute).Err())
	}
	a := newClusterStore(t, c, Options{})
	b := newClusterStore(t, c, Options{})
	eventually(t, func() bool { return a.resyncs.Load() > 0 && b.resyncs.Load() > 0 }, "both resynced")

	now := time.Now()
	for i := range 20 {
		a.Record("ak-"+strconv.Itoa(i), "Op", throttledUser(time.Minute), now)
	}
	eventually(t, func() bool {
		for i := range 20 {
			if _, _, ok := b.Blocked("ak-"+strconv.Itoa(i), "Op", time.Now()); !ok {
				return false
			}
		}
		return true
	}, "b honours a's 20 windows")

	late := newClusterStore(t, c, Options{ResyncInterval: time.Hour})
	eventually(t, func() bool { return late.resyncs.Load() > 0 }, "the late joiner resynced")
	for i := range 20 {
		until, _, ok := late.Blocked("ak-"+strconv.Itoa(i), "Op", time.Now())
		require.True(t, ok, "window %d known to the late joiner", i)
		require.False(t, until.Before(now.Add(time.Minute-time.Millisecond)), "never early")
	}

	fb := a.Scope("Svc", "svc.test")
	ok, have := fb.Acquire(engine.RetryCostTransient)
	require.True(t, ok)
	require.Equal(t, 14, have)
	fb.Release(engine.RetryCostTransient)
	for range 5 {
		fb.Release(engine.NoRetryIncrement)
	}
	require.NoError(t, fb.(*budget).flush(true))
	bal, err := admin.Get(ctx, DefaultPrefix+"{budget:3:Svc:svc.test}").Int64()
	require.NoError(t, err)
	require.Equal(t, int64(100), bal, "the lease came back and the refills were capped")
	for _, s := range []*Store{a, b, late} {
		require.NoError(t, s.StoreFault())
	}
	slots := map[int64]bool{}
	for _, k := range []string{a.windowsKey(), DefaultPrefix + "{budget:3:Svc:svc.test}", DefaultPrefix + "{budget:3:Svc:svc.test}:lease:x"} {
		slot, err := admin.ClusterKeySlot(ctx, k).Result()
		require.NoError(t, err)
		slots[slot] = true
	}
	require.Len(t, slots, 2, "the windows set has its slot; a budget and its leases share one")
}

// TestRedisSentinel: through Sentinel (redis.NewFailoverClient, one master
// watched by one sentinel) a window learned by one Store reaches another,
// and the fleet budget leases.
func TestRedisSentinel(t *testing.T) {
	master := testserver.StartRedis(t)
	sentinel := testserver.StartRedisSentinel(t, master)
	newStore := func() *Store {
		rdb := redis.NewFailoverClient(&redis.FailoverOptions{MasterName: sentinel.MasterName, SentinelAddrs: []string{sentinel.Addr},
			MaxRetries: -1, ContextTimeoutEnabled: true, DialTimeout: testBackgroundTimeout})
		s, err := New(rdb, Options{FleetCapacity: 100, Timeout: testBackgroundTimeout})
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close(); _ = rdb.Close() })
		return s
	}
	a, b := newStore(), newStore()
	eventually(t, func() bool { return a.resyncs.Load() > 0 && b.resyncs.Load() > 0 }, "both resynced")
	a.Record("ak-1", "Op", throttledUser(time.Minute), time.Now())
	eventually(t, func() bool { _, _, ok := b.Blocked("ak-1", "Op", time.Now()); return ok }, "b honours a's window")
	ok, have := b.Scope("Svc", "svc.test").Acquire(engine.RetryCostTransient)
	require.True(t, ok)
	require.Equal(t, 14, have)
	require.NoError(t, a.StoreFault())
	require.NoError(t, b.StoreFault())
}
