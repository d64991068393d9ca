package runtime

import (
	"context"
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

// firstAttemptFails answers 503 to attempt 1 and 200 to later attempts,
// reading the attempt header: stateless, so any number of goroutines may
// share it.
type firstAttemptFails struct{}

func (firstAttemptFails) Do(r *http.Request) (*http.Response, error) {
	code := 200
	if strings.HasPrefix(r.Header.Get("amz-sdk-request"), "attempt=1;") {
		code = 503
	}
	return &http.Response{StatusCode: code, Header: http.Header{}, Body: nopBody{}}, nil
}

// withSpare returns a copy of list with spare capacity filled with a
// sentinel, so an append into the shared backing array is visible.
func withSpare(list ...string) []string {
	s := make([]string, len(list), len(list)+4)
	copy(s, list)
	for i := len(list); i < cap(s); i++ {
		s[:cap(s)][i] = "sentinel"
	}
	return s
}

// TestOptionsSharedByGoroutines: one Options value, used as the client's
// options and as the per-call options of 50 goroutines, is never written:
// the race detector sees no write, and every field and slice (spare capacity
// included) is unchanged afterwards (options.go: "the runtime copies it and
// never mutates it").
func TestOptionsSharedByGoroutines(t *testing.T) {
	capacity := 100000
	var observed sync.Map
	shared := Options{
		HTTPClient:         firstAttemptFails{},
		MaxAttempts:        3,
		MaxBackoff:         10 * time.Second,
		MaxServerDelay:     5 * time.Second,
		RetryQuotaCapacity: &capacity,
		TransientCodes:     withSpare("Busy"),
		ThrottlingCodes:    withSpare("Slow", "Slower"),
		NonRetryableCodes:  withSpare("Gone"),
		Classify:           func(*engine.AttemptResult) (engine.Class, bool) { return engine.ClassSuccess, false },
		OnAttempt:          func(a AttemptInfo) { observed.Store(a.Attempt, true) },
		Clock:              clocktest.New(epoch),
		Rand:               fixedRand(1),
	}
	snapshot := shared
	lists := func(o *Options) [][]string {
		return [][]string{o.TransientCodes[:cap(o.TransientCodes)], o.ThrottlingCodes[:cap(o.ThrottlingCodes)],
			o.NonRetryableCodes[:cap(o.NonRetryableCodes)]}
	}
	var before [][]string
	for _, l := range lists(&shared) {
		before = append(before, slices.Clone(l))
	}

	c, err := NewClient(testService(), "http://svc.test", shared)
	require.NoError(t, err)
	const goroutines, calls = 50, 20
	var wg sync.WaitGroup
	failures := make(chan error, goroutines*calls)
	for range goroutines {
		wg.Go(func() {
			for i := range calls {
				opts := &shared
				if i%2 == 1 {
					opts = nil // the client's copy
				}
				md, err := c.Do(context.Background(), opPost,
					&Request{Method: "POST", Path: "/", Body: []byte("{}"), ContentType: "application/json"}, opts, nil)
				if err != nil || md.Attempts != 2 {
					failures <- err
				}
			}
		})
	}
	wg.Wait()
	close(failures)
	for err := range failures {
		t.Errorf("call did not succeed on attempt 2: %v", err)
	}
	require.Equal(t, 100000, c.RetryQuota().Balance(), "every retry refunded")
	require.Equal(t, 100000, capacity)
	require.Equal(t, before, lists(&shared))
	require.Equal(t, snapshot.HTTPClient, shared.HTTPClient)
	require.Same(t, snapshot.RetryQuotaCapacity, shared.RetryQuotaCapacity)
	require.Same(t, snapshot.Clock, shared.Clock)
	require.Equal(t, []any{snapshot.RetryMode, snapshot.MaxAttempts, snapshot.MaxBackoff, snapshot.MaxServerDelay, snapshot.Windows, snapshot.ThrottleIdentity},
		[]any{shared.RetryMode, shared.MaxAttempts, shared.MaxBackoff, shared.MaxServerDelay, shared.Windows, shared.ThrottleIdentity})
	_, ok1 := observed.Load(1)
	_, ok2 := observed.Load(2)
	require.True(t, ok1 && ok2, "OnAttempt saw attempts 1 and 2")
}
