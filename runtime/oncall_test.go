package runtime

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime/clocktest"
)

type ctxKey struct{}

// TestOnCall: the call hook sees the call's context and start, its context
// reaches every attempt's request, its per-attempt hooks run on every
// attempt, and End gets the call's metadata and error exactly once.
func TestOnCall(t *testing.T) {
	sc := script(step{status: 503}, step{status: 200, body: `{}`})
	clock := clocktest.New(epoch.Add(time.Hour))
	var (
		info     CallInfo
		seenCtx  []any
		attempts []int
		ends     int
		endMD    ResponseMetadata
		endErr   error
	)
	c, err := NewClient(testService(), "http://api.test", Options{HTTPClient: sc, Clock: clock, Rand: fixedRand(0.5),
		OnCall: func(ctx context.Context, call CallInfo) CallHooks {
			info = call
			require.Equal(t, "caller", ctx.Value(ctxKey{}))
			return CallHooks{
				Context: context.WithValue(ctx, ctxKey{}, "span"),
				BeforeAttempt: func(req *http.Request, attempt int) error {
					seenCtx = append(seenCtx, req.Context().Value(ctxKey{}))
					req.Header.Set("traceparent", "t")
					return nil
				},
				OnAttempt: func(a AttemptInfo) { attempts = append(attempts, a.Attempt) },
				End:       func(md ResponseMetadata, err error) { ends++; endMD, endErr = md, err },
			}
		}})
	require.NoError(t, err)
	ctx := context.WithValue(context.Background(), ctxKey{}, "caller")
	_, err = c.Do(ctx, opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, CallInfo{Service: "Test", Operation: opGet.Name, Start: epoch.Add(time.Hour), Mode: ModeStandard, MaxAttempts: 3}, info)
	require.Equal(t, []any{"span", "span"}, seenCtx)
	require.Equal(t, []int{1, 2}, attempts)
	require.Equal(t, 1, ends)
	require.Equal(t, 2, endMD.Attempts)
	require.NoError(t, endErr)
	for _, r := range sc.requests() {
		require.Equal(t, "t", r.header.Get("traceparent"))
	}

	// A failing per-call request hook ends the call without sending.
	sc2 := script()
	boom := errors.New("boom")
	c2, err := NewClient(testService(), "http://api.test", Options{HTTPClient: sc2, OnCall: func(ctx context.Context, _ CallInfo) CallHooks {
		return CallHooks{BeforeAttempt: func(*http.Request, int) error { return boom }, End: func(_ ResponseMetadata, err error) { endErr = err }}
	}})
	require.NoError(t, err)
	_, err = c2.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
	require.ErrorIs(t, err, boom)
	require.ErrorIs(t, endErr, boom)
	require.Empty(t, sc2.requests())
}
