package redisstore

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// okClient answers every request with a prebuilt 200 without a body, so the
// success path is measured without a transport.
type okClient struct{}

func (okClient) Do(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: http.NoBody}, nil
}

// commandCounter is a go-redis hook counting the commands and pipelines
// sent (each one Redis round trip).
type commandCounter struct{ n atomic.Int64 }

func (c *commandCounter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (c *commandCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error { c.n.Add(1); return next(ctx, cmd) }
}
func (c *commandCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error { c.n.Add(1); return next(ctx, cmds) }
}

// sharedClient returns a client with throttle control on (every call asks
// the window store) and, when shared, the Store's windows and fleet retry
// budget; counter counts the Store's Redis commands. Background writes wait
// an hour, so only round trips made on a call's path count.
func sharedClient(tb testing.TB, shared bool) (*runtime.Client, *Store, *commandCounter) {
	tb.Helper()
	opts := runtime.Options{HTTPClient: okClient{}, RetryMode: runtime.ModeStandard, MaxAttempts: 3, ThrottleIdentity: "ak-1"}
	var store *Store
	counter := &commandCounter{}
	if shared {
		r := testserver.StartRedis(tb)
		rdb := redis.NewClient(&redis.Options{Addr: r.Addr, MaxRetries: -1, ContextTimeoutEnabled: true})
		rdb.AddHook(counter)
		var err error
		store, err = New(rdb, Options{FleetCapacity: 1000, Timeout: time.Second, FlushInterval: time.Hour, ResyncInterval: time.Hour})
		require.NoError(tb, err)
		tb.Cleanup(func() { _ = store.Close(); _ = rdb.Close() })
		require.Eventually(tb, func() bool { return store.resyncs.Load() > 0 }, 5*time.Second, time.Millisecond, "first resync")
		store.Share(&opts)
	}
	c, err := runtime.NewClient(fleetService(), "http://svc.test", opts)
	require.NoError(tb, err)
	return c, store, counter
}

// TestSuccessPathNoRoundTrip: 1,000 successful calls with no active window
// make no Redis round trip; their 1,000 first-attempt increments reach the
// fleet bucket in one batched write.
func TestSuccessPathNoRoundTrip(t *testing.T) {
	c, store, counter := sharedClient(t, true)
	// The client's bucket is its service's at its endpoint host.
	fb := store.Scope(fleetService().Name, "svc.test").(*budget)
	// Spend a lease first, so the increments have room below the capacity.
	ok, _ := fb.Acquire(engine.RetryCostTransient)
	require.True(t, ok)
	before := counter.n.Load()
	for range 1000 {
		_, err := c.Do(context.Background(), fleetOp, &runtime.Request{Method: http.MethodGet, Path: "/"}, nil, nil)
		require.NoError(t, err)
	}
	require.Equal(t, before, counter.n.Load(), "no Redis command on the success path")
	require.Equal(t, int64(1000-14), fb.delta.Load(), "increments held locally, 14 topping up the lease")
	require.Zero(t, store.budget.delta.Load(), "the unscoped bucket is not the client's")
	require.NoError(t, fb.flush(false))
	require.Equal(t, before+1, counter.n.Load(), "one batched write")
}

// BenchmarkDoSuccessShared is the success path with throttle control on,
// without ("local") and with ("redisstore") the shared Store: no window is
// active, so the Store answers from its mirror.
func BenchmarkDoSuccessShared(b *testing.B) {
	for _, bc := range []struct {
		name   string
		shared bool
	}{{"local", false}, {"redisstore", true}} {
		b.Run(bc.name, func(b *testing.B) {
			c, _, counter := sharedClient(b, bc.shared)
			req := &runtime.Request{Method: http.MethodGet, Path: "/"}
			ctx := context.Background()
			before := counter.n.Load()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Do(ctx, fleetOp, req, nil, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(counter.n.Load()-before)/float64(b.N), "redis-cmds/op")
		})
	}
}

// BenchmarkFleetRetryBudget is a retry that succeeds, as the fleet retry
// budget sees it: Acquire 14 tokens, Release them. After the first lease
// no Redis round trip.
func BenchmarkFleetRetryBudget(b *testing.B) {
	_, store, counter := sharedClient(b, true)
	fb := store.FleetRetryBudget()
	b.ReportAllocs()
	for b.Loop() {
		if ok, _ := fb.Acquire(engine.RetryCostTransient); !ok {
			b.Fatal("refused")
		}
		fb.Release(engine.RetryCostTransient)
	}
	b.ReportMetric(float64(counter.n.Load())/float64(b.N), "redis-cmds/op")
}
