package runtime

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// These tests check the seams that runtime/redisstore plugs into:
// Options.Windows takes any ThrottleWindowStore, Options.FleetRetryBudget
// adds a second token bucket on top of the retry quota, and a store's
// StoreFault reaches AttemptInfo.

// faultyBudget is a RetryBudget that reports a fixed StoreFault.
type faultyBudget struct {
	*engine.RetryQuota
	fault error
}

func (b faultyBudget) StoreFault() error { return b.fault }

func fleetOf(capacity int) func(*Options) {
	return func(o *Options) { o.FleetRetryBudget = engine.NewRetryQuota(capacity) }
}

// TestFleetRetryBudgetThroughDo: a retry pays its retry cost from both the
// client's retry quota and the fleet retry budget, refunds and the
// first-attempt increment go back to both (retry-behavior.md §5 costs).
func TestFleetRetryBudgetThroughDo(t *testing.T) {
	for _, tc := range []struct {
		name          string
		fleetCapacity int
		steps         []step
		attempts      int
		quota, fleet  int
		wantErr       func(*testing.T, error)
	}{
		{name: "transient retries pay 14 from both",
			fleetCapacity: 100, steps: []step{status(500), status(500), status(500)}, attempts: 3,
			quota: 500 - 28, fleet: 100 - 28, wantErr: wantAs[*MaxAttemptsError]},
		{name: "successful retry refunds its cost to both",
			fleetCapacity: 100, steps: []step{status(500), status(429), status(200)}, attempts: 3,
			quota: 500 - 14, fleet: 100 - 14},
		{name: "first-attempt success adds 1 to both, capped",
			fleetCapacity: 100, steps: []step{status(200)}, attempts: 1, quota: 500, fleet: 100},
		{name: "fleet budget refuses: the client's quota is given back",
			fleetCapacity: 20, steps: []step{status(500), status(500)}, attempts: 2,
			quota: 500 - 14, fleet: 20 - 14,
			wantErr: func(t *testing.T, err error) {
				var qe *QuotaExhaustedError
				require.ErrorAs(t, err, &qe)
				require.Equal(t, QuotaExhaustedError{Available: 6, Needed: 14, Attempts: 2, Fleet: true, Err: qe.Err}, *qe)
				require.Regexp(t, `^test: GetThing: fleet retry budget exhausted: 6 tokens available, 14 needed \(after 2 attempts\)`, err.Error())
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fleet := engine.NewRetryQuota(tc.fleetCapacity)
			h := newHarness(t, nil, 1, script(tc.steps...), func(o *Options) { o.FleetRetryBudget = fleet })
			md, err := h.call(context.Background(), opGet)
			if tc.wantErr == nil {
				require.NoError(t, err)
			} else {
				tc.wantErr(t, err)
			}
			require.Equal(t, tc.attempts, md.Attempts)
			require.Len(t, h.http.requests(), tc.attempts)
			require.Equal(t, tc.quota, h.c.RetryQuota().Balance())
			require.Equal(t, tc.fleet, fleet.Balance())
		})
	}
}

// TestFleetRetryBudgetRefundOnAbandon: a paid retry abandoned before it is
// sent (Retry-After above the max server delay) is refunded to both.
func TestFleetRetryBudgetRefundOnAbandon(t *testing.T) {
	fleet := engine.NewRetryQuota(50)
	h := newHarness(t, nil, 1, script(status(503, "Retry-After", "21")), func(o *Options) { o.FleetRetryBudget = fleet })
	_, err := h.call(context.Background(), opGet)
	wantAs[*ServerDelayError](t, err)
	require.Equal(t, 500, h.c.RetryQuota().Balance())
	require.Equal(t, 50, fleet.Balance())
}

// TestNoFleetRetryBudgetByDefault: without the option the client's retry
// quota alone decides (the error names the client-side retry quota).
func TestNoFleetRetryBudgetByDefault(t *testing.T) {
	h := newHarness(t, nil, 1, script(status(500)), func(o *Options) { o.RetryQuotaCapacity = new(int) })
	_, err := h.call(context.Background(), opGet)
	var qe *QuotaExhaustedError
	require.ErrorAs(t, err, &qe)
	require.False(t, qe.Fleet)
	require.Nil(t, h.c.scope.fleet)
	require.Empty(t, h.c.faults)
}

// recordingStore is a ThrottleWindowStore that delegates to a WindowStore
// and counts its calls, with a StoreFault.
type recordingStore struct {
	engine.WindowStore
	mu               sync.Mutex
	records, queries int
	fault            error
}

func (s *recordingStore) Record(identity, operation string, info engine.ThrottleHeaders, now time.Time) {
	s.mu.Lock()
	s.records++
	s.mu.Unlock()
	s.WindowStore.Record(identity, operation, info, now)
}

func (s *recordingStore) Blocked(identity, operation string, now time.Time) (time.Time, string, bool) {
	s.mu.Lock()
	s.queries++
	s.mu.Unlock()
	return s.WindowStore.Blocked(identity, operation, now)
}

func (s *recordingStore) StoreFault() error { return s.fault }

// TestWindowsOptionTakesAnyStore: a client uses the ThrottleWindowStore it
// is given: it asks before each attempt, records each response, and a
// window recorded by one client blocks another client of the same identity
// that shares the store.
func TestWindowsOptionTakesAnyStore(t *testing.T) {
	store := &recordingStore{}
	share := func(o *Options) { o.Windows, o.ThrottleIdentity, o.MaxAttempts = store, "ak-1", 1 }
	a := newHarness(t, aliyunService(), 0, script(status(400, "X-Amzn-ErrorType", "Throttling.User", engine.DefaultUserHeader, throttled2s)), share)
	_, err := a.call(context.Background(), opGet)
	wantAs[*MaxAttemptsError](t, err)
	require.Equal(t, 1, store.records)
	require.Equal(t, 1, store.queries)

	b := newHarness(t, aliyunService(), 0, script(status(200)), share)
	b.clock.Advance(500 * time.Millisecond)
	_, err = b.call(context.Background(), opPost)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{1500 * time.Millisecond}, b.clock.Sleeps(), "the User window learned by a blocks b")
	require.Equal(t, 2, store.records)
	require.Equal(t, 2, store.queries)
}

// TestStoreFaultReachesAttemptInfo: a shared store's StoreFault is copied
// into every AttemptInfo while it lasts, and is nil otherwise; the call
// itself is unaffected.
func TestStoreFaultReachesAttemptInfo(t *testing.T) {
	down := errors.New("redis: connection refused")
	store := &recordingStore{fault: down}
	var infos []AttemptInfo
	var logs bytes.Buffer
	h := newHarness(t, aliyunService(), 0, script(status(500), status(200), status(200)), func(o *Options) {
		o.Windows, o.ThrottleIdentity = store, "ak-1"
		o.FleetRetryBudget = faultyBudget{RetryQuota: engine.NewRetryQuota(100)}
		o.OnAttempt = func(ai AttemptInfo) { infos = append(infos, ai) }
		o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	store.fault = nil
	_, err = h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Len(t, infos, 3)
	require.Equal(t, []error{down, down, nil}, []error{infos[0].StoreFault, infos[1].StoreFault, infos[2].StoreFault})
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	require.Len(t, lines, 3)
	require.Contains(t, lines[0], `msg=retrying`)
	require.Contains(t, lines[0], ` store_fault="redis: connection refused"`)
	require.Contains(t, lines[1], ` store_fault="redis: connection refused"`)
	require.NotContains(t, lines[2], "store_fault", "absent while the store shares")
}

// TestNilPointersMeanNotSet: a nil *WindowStore in Options.Windows (the
// field's type before it took any ThrottleWindowStore) still means a store
// owned by the client, and a nil *RetryQuota in FleetRetryBudget means none:
// neither is called through a nil pointer.
func TestNilPointersMeanNotSet(t *testing.T) {
	var ws *engine.WindowStore
	var q *engine.RetryQuota
	sc := script(status(400, "X-Amzn-ErrorType", "Throttling.User", engine.DefaultUserHeader, throttled2s), status(200))
	h := newHarness(t, aliyunService(), 0, sc, func(o *Options) { o.Windows, o.FleetRetryBudget = ws, q })
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{2 * time.Second}, h.clock.Sleeps(), "the client's own store holds the window")
	require.Nil(t, h.c.scope.fleet)
}

// TestSharedWindowsAreScopedByServiceAndEndpointHost: a throttle window is
// the server's answer for one service at one endpoint host (a product in a
// region), so a store shared by clients of one identity blocks only the
// clients of that service and host, as the fleet retry budget is scoped
// (trial F12: service A's User window failed service B's calls unsent).
func TestSharedWindowsAreScopedByServiceAndEndpointHost(t *testing.T) {
	store := engine.NewWindowStore()
	client := func(name, endpoint string, sc *scriptedClient, clock *clocktest.Clock) *Client {
		svc := aliyunService()
		svc.Name = name
		c, err := NewClient(svc, endpoint, Options{HTTPClient: sc, Clock: clock, Rand: fixedRand(0), Windows: store, ThrottleIdentity: "ak-1", MaxAttempts: 1})
		require.NoError(t, err)
		return c
	}
	call := func(c *Client) error {
		_, err := c.Do(context.Background(), opGet, &Request{Method: http.MethodGet, Path: "/"}, nil, nil)
		return err
	}
	ecs := client("Ecs", "https://ecs.cn-hangzhou.aliyuncs.com", script(status(400, "X-Amzn-ErrorType", "Throttling.User", engine.DefaultUserHeader, throttled2s)), clocktest.New(epoch))
	wantAs[*MaxAttemptsError](t, call(ecs))

	for _, tc := range []struct {
		name, service, endpoint string
		sleeps                  []time.Duration
	}{
		{"another service at another host is not blocked", "Rds", "https://rds.cn-hangzhou.aliyuncs.com", nil},
		{"another service at the same host is not blocked", "Rds", "https://ecs.cn-hangzhou.aliyuncs.com", nil},
		{"the same service in another region is not blocked", "Ecs", "https://ecs.cn-beijing.aliyuncs.com", nil},
		{"the same service at the same host waits out the window", "Ecs", "https://ecs.cn-hangzhou.aliyuncs.com/v2", []time.Duration{2 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, clock := script(status(200)), clocktest.New(epoch)
			require.NoError(t, call(client(tc.service, tc.endpoint, sc, clock)))
			require.Len(t, sc.requests(), 1, "sent")
			require.Equal(t, tc.sleeps, clock.Sleeps())
		})
	}
}

// TestCallEndpointScopesWindowsAndFleetBudget: a call whose Options.Endpoint
// names a server the operation declares at another host keeps its throttle
// windows and pays its fleet retry budget under that host, by the one
// scoping rule NewClient uses for the client's own host (scopeTo): a
// window the Beijing server answers blocks Beijing calls only, never the
// client's Hangzhou calls, and a Hangzhou window never blocks a Beijing
// call (review: the call's windows were kept under the client's host).
func TestCallEndpointScopesWindowsAndFleetBudget(t *testing.T) {
	const hz, bj = "https://ecs.cn-hangzhou.aliyuncs.com", "https://ecs.cn-beijing.aliyuncs.com"
	store := engine.NewWindowStore()
	budget := &scopes{RetryQuota: engine.NewRetryQuota(100), by: map[string]*engine.RetryQuota{}}
	clock := clocktest.New(epoch)
	sc := script(status(500), status(400, "X-Amzn-ErrorType", "Throttling.User", engine.DefaultUserHeader, throttled2s),
		status(200), status(200), status(200))
	svc := aliyunService()
	svc.Name = "Ecs"
	c, err := NewClient(svc, hz, Options{HTTPClient: sc, Clock: clock, Rand: fixedRand(0), Windows: store, FleetRetryBudget: budget, ThrottleIdentity: "ak-1", MaxAttempts: 2})
	require.NoError(t, err)
	op := &Operation{Name: "Get", RetrySafe: true, Servers: []string{bj}}
	call := func(endpoint string) error {
		var opts *Options
		if endpoint != "" {
			opts = &Options{Endpoint: endpoint, HTTPClient: sc}
		}
		_, err := c.Do(context.Background(), op, &Request{Method: http.MethodGet, Path: "/"}, opts, nil)
		return err
	}
	wantAs[*MaxAttemptsError](t, call(bj)) // 500, then throttled
	bjKey, hzKey := "3:Ecs:27:ecs.cn-beijing.aliyuncs.com:ak-1", "3:Ecs:28:ecs.cn-hangzhou.aliyuncs.com:ak-1"
	require.Equal(t, hzKey, c.WindowIdentity())
	_, user := store.Windows(bjKey, "Get", clock.Now())
	require.Equal(t, []time.Duration{100 * time.Millisecond}, clock.Sleeps(), "the 500's backoff")
	require.Equal(t, epoch.Add(2100*time.Millisecond), user, "Beijing's window (2 s from the throttled answer at 100 ms), under Beijing's key")
	_, user = store.Windows(hzKey, "Get", clock.Now())
	require.True(t, user.IsZero(), "nothing under the client's key")
	require.Equal(t, []string{"Ecs|ecs.cn-beijing.aliyuncs.com", "Ecs|ecs.cn-hangzhou.aliyuncs.com"}, slices.Sorted(maps.Keys(budget.by)))
	require.Equal(t, 86, budget.by["Ecs|ecs.cn-beijing.aliyuncs.com"].Balance(), "the retry paid Beijing's bucket (14)")
	require.Equal(t, 100, budget.by["Ecs|ecs.cn-hangzhou.aliyuncs.com"].Balance())

	require.NoError(t, call(""))
	require.Len(t, clock.Sleeps(), 1, "the client's own host is not blocked")
	require.NoError(t, call(bj))
	require.Equal(t, []time.Duration{100 * time.Millisecond, 2 * time.Second}, clock.Sleeps(), "a Beijing call waits out Beijing's window")
}

// TestCallEndpointScopesSharedLimiter: in adaptive mode a throttled answer
// from a call Endpoint's host turns on that host's shared rate limiter
// (Options.RateLimiters), not the client's host's, by the same scopeTo.
func TestCallEndpointScopesSharedLimiter(t *testing.T) {
	const hz, bj = "https://ecs.cn-hangzhou.aliyuncs.com", "https://ecs.cn-beijing.aliyuncs.com"
	pool, clock := engine.NewRateLimiterPool(), clocktest.New(epoch)
	sc := script(status(429, "X-Amzn-ErrorType", "Throttling"), status(200))
	svc := testService()
	svc.Name = "Ecs"
	c, err := NewClient(svc, hz, Options{HTTPClient: sc, Clock: clock, Rand: fixedRand(0), RateLimiters: pool, RetryMode: ModeAdaptive, MaxAttempts: 1})
	require.NoError(t, err)
	op := &Operation{Name: "Get", RetrySafe: true, Servers: []string{bj}}
	_, err = c.Do(context.Background(), op, &Request{Method: http.MethodGet, Path: "/"}, &Options{Endpoint: bj, HTTPClient: sc}, nil)
	require.Error(t, err)
	require.True(t, pool.Limiter("Ecs", "ecs.cn-beijing.aliyuncs.com", clock).State().Enabled, "Beijing's limiter saw the throttle")
	require.False(t, pool.Limiter("Ecs", "ecs.cn-hangzhou.aliyuncs.com", clock).State().Enabled, "the client's host's did not")
	require.Same(t, pool.Limiter("Ecs", "ecs.cn-hangzhou.aliyuncs.com", clock), c.RateLimiter())
}

// TestCallEndpointSameHostSpelledOtherwiseKeepsClientScope: a call
// Endpoint that names the client's own host in other letter case or with
// the scheme's default port is the client's origin (sameOrigin), so it is
// kept under the client's scope: it waits out the client's throttle window
// instead of passing it under a key of its own ("ECS…:443"), and two
// clients that spell one host differently share their windows (review:
// the scope compared and keyed u.Host as written).
func TestCallEndpointSameHostSpelledOtherwiseKeepsClientScope(t *testing.T) {
	const hz = "https://ecs.cn-hangzhou.aliyuncs.com"
	store := engine.NewWindowStore()
	clock := clocktest.New(epoch)
	sc := script(status(400, "X-Amzn-ErrorType", "Throttling.User", engine.DefaultUserHeader, throttled2s), status(200), status(200))
	svc := aliyunService()
	svc.Name = "Ecs"
	c, err := NewClient(svc, hz, Options{HTTPClient: sc, Clock: clock, Rand: fixedRand(0), Windows: store, ThrottleIdentity: "ak-1", MaxAttempts: 1})
	require.NoError(t, err)
	_, err = c.Do(context.Background(), opGet, &Request{Method: http.MethodGet, Path: "/"}, nil, nil)
	wantAs[*MaxAttemptsError](t, err)
	_, err = c.Do(context.Background(), opGet, &Request{Method: http.MethodGet, Path: "/"}, &Options{Endpoint: "https://ECS.cn-hangzhou.aliyuncs.com:443/", HTTPClient: sc}, nil)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{2 * time.Second}, clock.Sleeps(), "the call waits out the client's window")

	other, err := NewClient(svc, "HTTPS://Ecs.CN-Hangzhou.aliyuncs.com:443", Options{HTTPClient: sc, Clock: clock, Rand: fixedRand(0), Windows: store, ThrottleIdentity: "ak-1"})
	require.NoError(t, err)
	require.Equal(t, c.WindowIdentity(), other.WindowIdentity())
}
