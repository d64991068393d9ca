package redisstore

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/retrygen/retrygen/internal/testserver"
	"github.com/retrygen/retrygen/runtime/engine"
)

// newTestStore starts a Store on r's Redis with opts and closes it (and its
// client) in cleanup. Zero FleetCapacity means 100 and zero Timeout 10 s
// (testBackgroundTimeout: no lease times out on a loaded machine).
func newTestStore(t *testing.T, r *testserver.Redis, opts Options) (*Store, *redis.Client) {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: r.Addr, MaxRetries: -1, ContextTimeoutEnabled: true, DialTimeout: testBackgroundTimeout})
	if opts.FleetCapacity == 0 {
		opts.FleetCapacity = 100
	}
	if opts.Timeout == 0 {
		opts.Timeout = testBackgroundTimeout // exact lease arithmetic, even on a loaded machine
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s, err := New(rdb, opts)
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, s.Close())
		_ = rdb.Close()
	})
	return s, rdb
}

// eventually polls cond every 5 ms for up to 20 s (these tests run over a
// real socket on purpose; a generous deadline costs nothing when cond
// holds) and fails with msg if it never holds.
func eventually(t *testing.T, cond func() bool, msg string) {
	t.Helper()
	require.Eventually(t, cond, 20*time.Second, 5*time.Millisecond, msg)
}

// throttledUser reports a "User" window with timeLeft left.
func throttledUser(timeLeft time.Duration) engine.ThrottleHeaders {
	return engine.ThrottleHeaders{User: engine.ThrottleQuota{Present: true, Remain: 0, Limit: 2, Window: time.Second, TimeLeft: timeLeft}}
}

func TestNewRequiresFleetCapacity(t *testing.T) {
	_, err := New(redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"}), Options{})
	require.EqualError(t, err, "redisstore.New: Options.FleetCapacity is 0: the fleet retry budget's capacity in tokens is required (at least Options.LeaseSize, 28, per process that may hold a lease at once: 28,000 for 1,000 processes)")
	_, err = New(redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"}), Options{FleetCapacity: 1, Prefix: "a{b}:"})
	require.EqualError(t, err, `redisstore.New: Options.Prefix "a{b}:" holds a brace: the Store adds Redis Cluster hash tags after the prefix`)
	_, err = New(nil, Options{FleetCapacity: 1})
	require.EqualError(t, err, "redisstore.New: nil Redis client")
}

// TestWindowMemberNames: members of the windows set name the dimension,
// identity and operation unambiguously (identities may hold ':').
func TestWindowMemberNames(t *testing.T) {
	for _, k := range []windowKey{
		{dimension: engine.DimensionUser, identity: "ak:1"},
		{dimension: engine.DimensionAPIUser, identity: "ak:1", operation: "Describe:Regions"},
		{dimension: engine.DimensionAPIUser, identity: "", operation: "x"},
	} {
		name := windowMember(k)
		got, ok := parseWindowMember(name)
		require.True(t, ok, name)
		require.Equal(t, k, got)
	}
	require.Equal(t, "api_user:4:ak:1:Op", windowMember(windowKey{engine.DimensionAPIUser, "ak:1", "Op"}))
	require.Equal(t, "retrygen:{windows}", (&Store{opts: Options{Prefix: DefaultPrefix}}).windowsKey())
	for _, bad := range []string{"other:1:a:", "user:9:a:", "user:x:a:", "user"} {
		_, ok := parseWindowMember(bad)
		require.False(t, ok, bad)
	}
}

// TestWindowSharedBetweenStores: a window recorded through one Store (one
// process) blocks the same identity in another Store on the same Redis; the
// key holds the end in Redis time and expires with the window.
func TestWindowSharedBetweenStores(t *testing.T) {
	r := testserver.StartRedis(t)
	a, rdb := newTestStore(t, r, Options{})
	b, _ := newTestStore(t, r, Options{})
	eventually(t, func() bool { return b.resyncs.Load() > 0 }, "b resynced once")

	// A long window: it must still be running when b is asked, however
	// slow the machine.
	const left = 30 * time.Second
	now := time.Now()
	a.Record("ak-1", "DescribeRegions", throttledUser(left), now)
	_, _, ok := a.Blocked("ak-1", "RunInstances", now)
	require.True(t, ok, "the recording process honours its window at once")
	eventually(t, func() bool { _, _, ok := b.Blocked("ak-1", "RunInstances", time.Now()); return ok },
		"b honours a's User window")
	until, dim, _ := b.Blocked("ak-1", "RunInstances", time.Now())
	require.Equal(t, engine.DimensionUser, dim)
	require.False(t, until.Before(now.Add(left-time.Millisecond)), "never early")
	require.WithinDuration(t, now.Add(left), until, 500*time.Millisecond)
	_, _, ok = b.Blocked("ak-2", "RunInstances", time.Now())
	require.False(t, ok, "another identity is not blocked")

	// PTTL and TIME in one transaction: Redis runs them back to back, so
	// the set's end in Redis time is exact however late the reply arrives.
	key := a.windowsKey()
	var pttlCmd *redis.DurationCmd
	var timeCmd *redis.TimeCmd
	var scoreCmd *redis.FloatCmd
	_, err := rdb.TxPipelined(context.Background(), func(p redis.Pipeliner) error {
		pttlCmd, timeCmd = p.PTTL(context.Background(), key), p.Time(context.Background())
		scoreCmd = p.ZScore(context.Background(), key, windowMember(windowKey{dimension: engine.DimensionUser, identity: "ak-1"}))
		return nil
	})
	require.NoError(t, err)
	elapsed := time.Since(now) // Redis read the TTL no later than this
	pttl, redisNow := pttlCmd.Val(), timeCmd.Val()
	require.GreaterOrEqual(t, pttl, left-elapsed-2*time.Millisecond, "the key lasts the window: what is left of it, give or take the ms rounding")
	require.LessOrEqual(t, pttl, left+time.Millisecond, "the key expires with the window")
	end := scoreCmd.Val()
	require.InDelta(t, redisNow.UnixMilli()+pttl.Milliseconds(), end, 5, "the score is the end in Redis time")
}

// TestWindowResyncAfterJoin: a Store that starts after a window was written
// learns it from its first resync, not only from announcements.
func TestWindowResyncAfterJoin(t *testing.T) {
	r := testserver.StartRedis(t)
	a, _ := newTestStore(t, r, Options{})
	a.Record("ak-1", "Op", throttledUser(5*time.Second), time.Now())
	eventually(t, func() bool { return len(a.unwrittenSnapshot()) == 0 }, "a wrote its window")
	late, _ := newTestStore(t, r, Options{})
	eventually(t, func() bool { _, _, ok := late.Blocked("ak-1", "Op", time.Now()); return ok }, "the late store resynced the window")
}

// unwrittenSnapshot returns the windows not yet written, for tests.
func (s *Store) unwrittenSnapshot() map[windowKey]unwrittenWindow {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	out := make(map[windowKey]unwrittenWindow, len(s.unwritten))
	for k, v := range s.unwritten {
		out[k] = v
	}
	return out
}

// bucket reads the fleet bucket's balance from Redis.
func bucket(t *testing.T, rdb *redis.Client) int64 {
	t.Helper()
	n, err := rdb.Get(context.Background(), DefaultPrefix+"{budget}").Int64()
	require.NoError(t, err)
	return n
}

// TestFleetBudgetLeases: retries spend from a lease of 28 tokens taken from
// the fleet bucket in one round trip; leased tokens count as spent; the
// lease key expires after twice the lease TTL; a short bucket grants what
// it has, then refuses with its balance; unused tokens of a lease come back
// when a new lease is taken.
func TestFleetBudgetLeases(t *testing.T) {
	r := testserver.StartRedis(t)
	s, rdb := newTestStore(t, r, Options{FleetCapacity: 80, LeaseTTL: time.Minute, FlushInterval: time.Hour})
	fb := s.FleetRetryBudget()

	ok, bal := fb.Acquire(engine.RetryCostTransient)
	require.True(t, ok)
	require.Equal(t, 14, bal, "lease tokens left")
	require.Equal(t, int64(80-28), bucket(t, rdb), "the whole lease counts as spent")
	keys, err := rdb.Keys(context.Background(), DefaultPrefix+"{budget}:lease:*").Result()
	require.NoError(t, err)
	require.Len(t, keys, 1)
	pttl, err := rdb.PTTL(context.Background(), keys[0]).Result()
	require.NoError(t, err)
	require.Greater(t, pttl, time.Minute, "the lease key lives twice the lease TTL")
	require.LessOrEqual(t, pttl, 2*time.Minute)

	ok, bal = fb.Acquire(engine.RetryCostTransient)
	require.True(t, ok)
	require.Equal(t, 0, bal)
	require.Equal(t, int64(80-28), bucket(t, rdb), "spent from the lease: no round trip")

	ok, _ = fb.Acquire(engine.RetryCostThrottling)
	require.True(t, ok)
	require.Equal(t, int64(80-56), bucket(t, rdb), "second lease")

	// 24 left in the bucket, 23 in the lease.
	for range 4 {
		ok, _ = fb.Acquire(engine.RetryCostThrottling) // 23 → 18 → 13 → 8 → 3
		require.True(t, ok)
	}
	// The next lease gives the 3 back and takes what the bucket has: 27.
	ok, bal = fb.Acquire(engine.RetryCostTransient)
	require.True(t, ok)
	require.Equal(t, 27-14, bal)
	require.Equal(t, int64(0), bucket(t, rdb))
	// 13 in the lease: given back, 13 in the bucket, less than 14.
	ok, bal = fb.Acquire(engine.RetryCostTransient)
	require.False(t, ok, "the fleet budget cannot pay a transient retry")
	require.Equal(t, 13, bal, "the fleet's balance")
	require.Equal(t, int64(13), bucket(t, rdb))
	ok, bal = fb.Acquire(engine.RetryCostThrottling)
	require.True(t, ok, "but a throttling retry")
	require.Equal(t, 13-5, bal)
	require.Nil(t, s.StoreFault(), "a refusal is not a fault")
}

// TestFleetBudgetRefillsBatched: Release costs no round trip: refunds and
// increments first top the lease back up to 28 tokens, the rest reaches the
// bucket in one batch at the next flush, capped at the capacity; Close gives
// back the unused tokens of the lease.
func TestFleetBudgetRefillsBatched(t *testing.T) {
	r := testserver.StartRedis(t)
	s, rdb := newTestStore(t, r, Options{FleetCapacity: 100, FlushInterval: time.Hour})
	fb := s.FleetRetryBudget()
	ok, bal := fb.Acquire(engine.RetryCostTransient)
	require.True(t, ok)
	require.Equal(t, 14, bal)
	require.Equal(t, int64(72), bucket(t, rdb))
	fb.Release(engine.RetryCostTransient) // a successful retry's refund: the lease is full again
	for range 5 {
		fb.Release(engine.NoRetryIncrement)
	}
	require.Equal(t, int64(72), bucket(t, rdb), "nothing written yet")
	require.Equal(t, int64(5), s.budget.delta.Load())
	require.NoError(t, s.budget.flush(false))
	require.Equal(t, int64(72+5), bucket(t, rdb))
	require.NoError(t, s.Close())
	require.Equal(t, int64(100), bucket(t, rdb), "Close gave back the lease's 28 tokens (77+28 capped at 100)")
}

// TestFleetBudgetSuccessfulRetriesNoRoundTrip: after the first lease,
// 1,000 retries that each succeed (pay 14, get 14 back) make no Redis round
// trip.
func TestFleetBudgetSuccessfulRetriesNoRoundTrip(t *testing.T) {
	_, store, counter := sharedClient(t, true)
	fb := store.FleetRetryBudget()
	ok, _ := fb.Acquire(engine.RetryCostTransient) // the first lease
	require.True(t, ok)
	fb.Release(engine.RetryCostTransient)
	before := counter.n.Load()
	for range 1000 {
		ok, _ := fb.Acquire(engine.RetryCostTransient)
		require.True(t, ok)
		fb.Release(engine.RetryCostTransient)
	}
	require.Equal(t, before, counter.n.Load())
	require.Equal(t, 28, store.budget.have)
}

// TestFleetBudgetLeaseEndsAfterTTL: a lease ends LeaseTTL after its
// request started; until then a flush leaves its tokens alone, once it has
// ended the next flush gives back its unused tokens. The lease's end is
// moved rather than waited for (no real sleep: on a loaded machine a sleep
// past the TTL may also outlast the key's 2 × TTL, and the tokens would be
// lost); the key lives 2 min, so it is still there.
func TestFleetBudgetLeaseEndsAfterTTL(t *testing.T) {
	r := testserver.StartRedis(t)
	const ttl = time.Minute
	s, rdb := newTestStore(t, r, Options{FleetCapacity: 100, LeaseTTL: ttl, FlushInterval: time.Hour})
	fb := s.FleetRetryBudget()
	before := time.Now()
	ok, _ := fb.Acquire(engine.RetryCostTransient)
	after := time.Now()
	require.True(t, ok)
	require.Equal(t, int64(72), bucket(t, rdb))
	s.budget.mu.Lock()
	end := s.budget.leaseEnd
	s.budget.mu.Unlock()
	require.False(t, end.Before(before.Add(ttl)), "the lease ends LeaseTTL after its request started")
	require.False(t, end.After(after.Add(ttl)), "the lease ends LeaseTTL after its request started")

	require.NoError(t, s.budget.flush(false))
	require.Equal(t, int64(72), bucket(t, rdb), "the lease has not ended: its tokens stay spent")

	s.budget.mu.Lock()
	s.budget.leaseEnd = time.Now() // the TTL has passed
	s.budget.mu.Unlock()
	require.NoError(t, s.budget.flush(false))
	require.Equal(t, int64(86), bucket(t, rdb), "the 14 unused tokens came back")
	ok, _ = fb.Acquire(engine.RetryCostTransient)
	require.True(t, ok)
	require.Equal(t, int64(86-28), bucket(t, rdb), "a new lease")
}

// TestRedisDownFallsBackAndResumes: with Redis killed, a retry that needs a
// lease is granted at once on credit and the fault is reported (StoreFault,
// slog); windows keep working locally. When Redis is back the store resumes
// sharing, and what was spent on credit is charged to the new bucket.
func TestRedisDownFallsBackAndResumes(t *testing.T) {
	r := testserver.StartRedis(t)
	var logs syncBuffer
	s, rdb := newTestStore(t, r, Options{FleetCapacity: 100, FlushInterval: 20 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	fb := s.FleetRetryBudget()
	r.Kill()
	began := time.Now()
	ok, _ := fb.Acquire(engine.RetryCostTransient)
	require.True(t, ok)
	require.Less(t, time.Since(began), testBackgroundTimeout, "bounded by Options.Timeout")
	require.Error(t, s.StoreFault())
	require.NotErrorIs(t, s.StoreFault(), errLeaseStalled, "a refused connection is a fault at once, not after Options.StallTimeout")
	ok, _ = fb.Acquire(engine.RetryCostTransient)
	require.True(t, ok, "on credit")
	s.Record("ak-1", "Op", throttledUser(time.Minute), time.Now())
	_, _, blocked := s.Blocked("ak-1", "Op", time.Now())
	require.True(t, blocked, "local windows still apply")

	r.Restart()
	eventually(t, func() bool { return s.StoreFault() == nil }, "sharing resumes")
	eventually(t, func() bool {
		n, err := rdb.Get(context.Background(), DefaultPrefix+"{budget}").Int64()
		return err == nil && n <= 100-14
	}, "the spending on credit is charged to the restarted bucket")
	eventually(t, func() bool {
		_, err := rdb.ZScore(context.Background(), s.windowsKey(), windowMember(windowKey{dimension: engine.DimensionUser, identity: "ak-1"})).Result()
		return err == nil
	}, "the window learned while Redis was down is written once it is back")
	require.Contains(t, logs.String(), "level=WARN msg=\"redisstore: Redis unreachable, using local state\"")
	require.Contains(t, logs.String(), "level=INFO msg=\"redisstore: Redis reachable again, sharing resumed\"")
}

// TestRedisStalledNeverStallsARetry: a Redis that answers nothing (SIGSTOP)
// costs a retry that needs a new lease at most Options.Timeout, and is no
// fault yet: the retry goes on credit, and so does the next, up to one
// lease (28 tokens, two transient retries); the third is refused. Once the
// lease request has had no answer for Options.StallTimeout the store
// faults, and retries go on credit without waiting while it stays stalled.
func TestRedisStalledNeverStallsARetry(t *testing.T) {
	r := testserver.StartRedis(t)
	s, _ := newTestStore(t, r, Options{FleetCapacity: 100, Timeout: 20 * time.Millisecond, StallTimeout: 500 * time.Millisecond})
	eventually(t, func() bool { return s.resyncs.Load() > 0 }, "connected")
	r.Pause()
	defer r.Resume()
	fb := s.FleetRetryBudget()
	began := time.Now()
	for i := range 3 {
		start := time.Now()
		ok, _ := fb.Acquire(engine.RetryCostTransient)
		waited := time.Since(start)
		require.Equal(t, i < 2, ok, "retry %d: on credit up to one lease", i)
		require.GreaterOrEqual(t, waited, 20*time.Millisecond, "waited for the lease up to the timeout")
		require.Less(t, waited, 250*time.Millisecond)
	}
	require.NoError(t, s.StoreFault(), "a slow lease is no fault")
	eventually(t, func() bool { return s.StoreFault() != nil }, "stalled past StallTimeout: a fault")
	require.Less(t, time.Since(began), 2*time.Second, "detected within StallTimeout, give or take the scheduler")
	require.Equal(t, int64(-2*engine.RetryCostTransient), s.budget.delta.Load(), "the credit is owed to the fleet")
	s.budget.mu.Lock()
	leases := s.budget.seq
	s.budget.mu.Unlock()
	for range 10 {
		start := time.Now()
		ok, _ := fb.Acquire(engine.RetryCostTransient)
		require.True(t, ok)
		require.Less(t, time.Since(start), 20*time.Millisecond, "no wait while faulted")
	}
	s.budget.mu.Lock()
	require.Equal(t, leases, s.budget.seq, "no further lease requests (so no waits) while Redis is stalled")
	s.budget.mu.Unlock()
	require.Equal(t, int64(-12*engine.RetryCostTransient), s.budget.delta.Load(), "12 retries on credit")
	r.Resume()
	eventually(t, func() bool { return s.StoreFault() == nil }, "sharing resumes")
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Clone(b.b.String())
}

// TestCloseStopsGoroutines: Close ends the Store's goroutines (with the
// Redis client closed too, nothing is left running), and a closed Store
// still answers from local state without touching Redis.
func TestCloseStopsGoroutines(t *testing.T) {
	r := testserver.StartRedis(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	rdb := redis.NewClient(&redis.Options{Addr: r.Addr})
	s, err := New(rdb, Options{FleetCapacity: 100})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return s.resyncs.Load() > 0 }, 5*time.Second, time.Millisecond)
	require.NoError(t, s.Close())
	require.NoError(t, s.Close(), "twice is fine")
	require.NoError(t, rdb.Close())
	ok, _ := s.FleetRetryBudget().Acquire(engine.RetryCostTransient)
	require.True(t, ok, "closed: local state only")
}

// TestWindowPropagationDelay measures how long a window recorded in one
// Store takes to block calls in another (20 windows, polled every 100 µs)
// and asserts the documented bound: well within ResyncInterval.
func TestWindowPropagationDelay(t *testing.T) {
	r := testserver.StartRedis(t)
	a, _ := newTestStore(t, r, Options{})
	b, _ := newTestStore(t, r, Options{})
	eventually(t, func() bool { return b.resyncs.Load() > 0 }, "b resynced once")
	var delays []time.Duration
	for i := range 20 {
		id := "ak-" + strconv.Itoa(i)
		start := time.Now()
		a.Record(id, "Op", throttledUser(time.Minute), start)
		for {
			if _, _, ok := b.Blocked(id, "Op", time.Now()); ok {
				break
			}
			require.Less(t, time.Since(start), DefaultResyncInterval, "window %d never arrived", i)
			time.Sleep(100 * time.Microsecond)
		}
		delays = append(delays, time.Since(start))
	}
	slices.Sort(delays)
	t.Logf("propagation delay over %d windows: median %v, max %v", len(delays), delays[len(delays)/2], delays[len(delays)-1])
}

// TestCloseWaitsForLeaseRequest: a lease request still under way when Close
// is called (Redis stalled past Options.Timeout) ends before Close returns,
// so no goroutine of the Store outlives Close or uses the Redis client
// after it.
func TestCloseWaitsForLeaseRequest(t *testing.T) {
	r := testserver.StartRedis(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	rdb := redis.NewClient(&redis.Options{Addr: r.Addr, MaxRetries: -1, ContextTimeoutEnabled: true})
	defer rdb.Close()
	s, err := New(rdb, Options{FleetCapacity: 100, Timeout: 20 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	eventually(t, func() bool { return s.resyncs.Load() > 0 }, "connected")
	r.Pause()
	ok, _ := s.FleetRetryBudget().Acquire(engine.RetryCostTransient)
	require.True(t, ok, "granted on credit after Options.Timeout")
	resumed := make(chan struct{})
	go func() { time.Sleep(100 * time.Millisecond); r.Resume(); close(resumed) }()
	require.NoError(t, s.Close())
	s.budget.mu.Lock()
	inflight := s.budget.inflight
	s.budget.mu.Unlock()
	require.Nil(t, inflight, "the lease request ended before Close returned")
	<-resumed
}
