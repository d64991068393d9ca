package runtime

import (
	"context"
	"testing"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// TestSharedWindowsNeedThrottleIdentity: a window store shared between
// processes (one that reports faults) with no throttle identity is an error
// naming the option; the in-process store needs none.
func TestSharedWindowsNeedThrottleIdentity(t *testing.T) {
	_, err := NewClient(testService(), "http://svc.test", Options{Windows: &recordingStore{}})
	require.EqualError(t, err, "runtime.NewClient: Options.Windows (*runtime.recordingStore) shares throttle windows between processes, but Options.ThrottleIdentity is empty: set it to the identity the server throttles (the access key ID the requests are signed with), or no window would ever be shared")
	_, err = NewClient(testService(), "http://svc.test", Options{Windows: &recordingStore{}, ThrottleIdentity: "ak-1"})
	require.NoError(t, err)
	_, err = NewClient(testService(), "http://svc.test", Options{Windows: engine.NewWindowStore()})
	require.NoError(t, err)
}

// scopes is a ScopedRetryBudget that hands out one RetryQuota per scope.
type scopes struct {
	*engine.RetryQuota
	by map[string]*engine.RetryQuota
}

func (s *scopes) Scope(service, host string) engine.RetryBudget {
	k := service + "|" + host
	if s.by[k] == nil {
		s.by[k] = engine.NewRetryQuota(100)
	}
	return s.by[k]
}

// TestFleetRetryBudgetScoped: NewClient asks a ScopedRetryBudget for the
// bucket of its service and endpoint host, and pays from that one.
func TestFleetRetryBudgetScoped(t *testing.T) {
	sc := &scopes{RetryQuota: engine.NewRetryQuota(100), by: map[string]*engine.RetryQuota{}}
	h := newHarness(t, nil, 1, script(status(500), status(200)), func(o *Options) { o.FleetRetryBudget = sc })
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, 100, sc.Balance(), "the unscoped bucket is untouched")
	require.Len(t, sc.by, 1)
	require.Equal(t, 100, sc.by[testService().Name+"|svc.test"].Balance(), "paid 14 and refunded on success")
	require.Same(t, sc.by[testService().Name+"|svc.test"], h.c.scope.fleet)
}

// TestFleetRetryBudgetEveryMode: legacy and aliyun modes, which have no
// retry quota (§1), still pay the fleet retry budget (issue 22), with the
// same costs: 14 a transient retry, refunded on success; a refusal ends the
// call with a QuotaExhaustedError naming the fleet budget.
func TestFleetRetryBudgetEveryMode(t *testing.T) {
	for _, mode := range []Mode{ModeLegacy, ModeAliyun} {
		t.Run(string(mode), func(t *testing.T) {
			fleet := engine.NewRetryQuota(30)
			h := newHarness(t, nil, 0, script(status(500), status(500), status(500)), func(o *Options) {
				o.RetryMode, o.MaxAttempts, o.FleetRetryBudget = mode, 4, fleet
			})
			md, err := h.call(context.Background(), opGet)
			var qe *QuotaExhaustedError
			require.ErrorAs(t, err, &qe)
			require.True(t, qe.Fleet)
			require.Equal(t, 2, qe.Available)
			require.Equal(t, 3, md.Attempts, "two retries paid (28 of 30), the third refused")
			require.Equal(t, 2, fleet.Balance())

			fleet = engine.NewRetryQuota(30)
			h = newHarness(t, nil, 0, script(status(500), status(200), status(200)), func(o *Options) {
				o.RetryMode, o.FleetRetryBudget = mode, fleet
			})
			_, err = h.call(context.Background(), opGet)
			require.NoError(t, err)
			require.Equal(t, 30, fleet.Balance(), "the successful retry's cost came back")
		})
	}
}
