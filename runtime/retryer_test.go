package runtime

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// TestDeadline: the attempt loop never starts a sleep that would end after
// the context deadline; such a call returns the last attempt's error joined
// with context.DeadlineExceeded (retry-behavior.md §3 step 7).
func TestDeadline(t *testing.T) {
	for _, tc := range []struct {
		name     string
		deadline time.Duration
		svc      func(*Service)
		steps    []step
		attempts int
		sleeps   []time.Duration
		wantErr  bool
	}{
		{name: "no sleep past a 1 s deadline when the next backoff is 5 s", deadline: ms(1000),
			svc:   func(s *Service) { s.Defaults.ThrottlingBaseDelay = ms(5000) },
			steps: []step{status(429)}, attempts: 1, sleeps: nil, wantErr: true},
		{name: "a sleep ending exactly at the deadline is allowed", deadline: ms(1000),
			svc:   func(s *Service) { s.Defaults.TransientBaseDelay = ms(1000) },
			steps: []step{status(500), status(200)}, attempts: 2, sleeps: []time.Duration{ms(1000)}},
		{name: "the second retry's backoff of 2 s does not fit the 0.5 s left", deadline: ms(1500),
			steps: []step{status(429), status(429)}, attempts: 2, sleeps: []time.Duration{ms(1000)}, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc := testService()
			if tc.svc != nil {
				tc.svc(svc)
			}
			h := newHarnessAt(t, future, svc, 1, script(tc.steps...), nil)
			md, err := h.call(h.deadline(t, tc.deadline), opPost)
			require.Equal(t, tc.attempts, md.Attempts)
			require.Len(t, h.http.requests(), tc.attempts)
			require.Equal(t, tc.sleeps, h.clock.Sleeps())
			if !tc.wantErr {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, context.DeadlineExceeded)
			var api *APIError
			require.ErrorAs(t, err, &api)
			require.Equal(t, 429, api.HTTPStatusCode)
		})
	}
}

// TestNoAttemptAfterCancellation: a context cancelled during attempt 1 (in
// the request hook or in the attempt hook) gets no attempt 2; the error says
// the call was cancelled and still wraps the last API error.
func TestNoAttemptAfterCancellation(t *testing.T) {
	for _, tc := range []struct {
		name string
		hook func(cancel context.CancelFunc) func(*Options)
	}{
		{"cancelled in OnAttempt of attempt 1", func(cancel context.CancelFunc) func(*Options) {
			return func(o *Options) {
				o.OnAttempt = func(a AttemptInfo) {
					if a.Attempt == 1 {
						cancel()
					}
				}
			}
		}},
		{"cancelled in BeforeAttempt of attempt 1", func(cancel context.CancelFunc) func(*Options) {
			return func(o *Options) {
				o.BeforeAttempt = func(_ *http.Request, attempt int) error {
					if attempt == 1 {
						cancel()
					}
					return nil
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			h := newHarness(t, nil, 1, script(status(500), status(200)), tc.hook(cancel))
			md, err := h.call(ctx, opPost)
			require.ErrorIs(t, err, context.Canceled)
			var api *APIError
			require.ErrorAs(t, err, &api)
			require.Equal(t, 1, md.Attempts)
			require.Len(t, h.http.requests(), 1)
			require.Empty(t, h.clock.Sleeps())
			require.Equal(t, 500, h.c.RetryQuota().Balance(), "no retry paid for")
		})
	}
}

// TestCancelledBeforeFirstAttempt: an already cancelled context sends
// nothing.
func TestCancelledBeforeFirstAttempt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h := newHarness(t, nil, 1, script(status(200)), nil)
	md, err := h.call(ctx, opPost)
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 0, md.Attempts)
	require.Empty(t, h.http.requests())
}

// TestIdempotency checks retry-behavior.md §3: error responses are retried
// by classification for every operation; ambiguous transport failures only
// for retry-safe operations; failures before sending for every operation.
func TestIdempotency(t *testing.T) {
	dialRefused := &url.Error{Op: "Post", URL: "http://svc.test/",
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}}
	readTimeout := &url.Error{Op: "Post", URL: "http://svc.test/",
		Err: &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}}
	for _, tc := range []struct {
		name       string
		op         *Operation
		svcSafe    bool
		first      step
		retried    bool
		wantIs     error
		wantSleeps []time.Duration
	}{
		{name: "unexpected EOF after send is retried for a retry-safe operation",
			op: opGet, first: failure(io.ErrUnexpectedEOF), retried: true},
		{name: "unexpected EOF after send is not retried for an unsafe POST",
			op: opPost, first: failure(io.ErrUnexpectedEOF), wantIs: io.ErrUnexpectedEOF},
		{name: "unexpected EOF after send is retried for POST of a retry-safe service",
			op: opPost, svcSafe: true, first: failure(io.ErrUnexpectedEOF), retried: true},
		{name: "read timeout after send is retried for a retry-safe operation",
			op: opGet, first: failure(readTimeout), retried: true},
		{name: "read timeout after send is not retried for an unsafe POST",
			op: opPost, first: failure(readTimeout), wantIs: os.ErrDeadlineExceeded},
		{name: "dial error is retried for an unsafe POST",
			op: opPost, first: failure(&net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}), retried: true},
		{name: "dial error wrapped by http.Client is retried for an unsafe POST",
			op: opPost, first: failure(dialRefused), retried: true},
		{name: "temporary DNS failure is retried for an unsafe POST",
			op: opPost, first: failure(&net.DNSError{Err: "server misbehaving", Name: "svc.test", IsTemporary: true}), retried: true},
		{name: "DNS no such host is not retried",
			op: opGet, first: failure(&net.DNSError{Err: "no such host", Name: "svc.test", IsNotFound: true})},
		{name: "5xx error response is retried for an unsafe POST",
			op: opPost, first: status(503), retried: true},
		{name: "throttling error response is retried for an unsafe POST",
			op: opPost, first: coded(400, "ThrottlingException"), retried: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc := testService()
			svc.RetrySafe = tc.svcSafe
			h := newHarness(t, svc, 1, script(tc.first, status(200)), nil)
			md, err := h.call(context.Background(), tc.op)
			if tc.retried {
				require.NoError(t, err)
				require.Equal(t, 2, md.Attempts)
				require.Len(t, h.http.requests(), 2)
				require.Len(t, h.clock.Sleeps(), 1)
				return
			}
			require.Error(t, err)
			if tc.wantIs != nil {
				require.ErrorIs(t, err, tc.wantIs)
			}
			require.Equal(t, 1, md.Attempts)
			require.Len(t, h.http.requests(), 1)
			require.Empty(t, h.clock.Sleeps())
			require.Equal(t, 500, h.c.RetryQuota().Balance())
		})
	}
}

// TestLongPolling checks retry-behavior.md §7: when the retry quota cannot
// pay, a long-polling operation sleeps the backoff of that error's class,
// then returns the *QuotaExhaustedError; never on success, non-retryable
// errors or max attempts, and never for other operations.
func TestLongPolling(t *testing.T) {
	poll := &Operation{Name: "ReceiveMessage", LongPolling: true}
	for _, tc := range []struct {
		name        string
		op          *Operation
		capacity    int
		maxAttempts int
		r           float64
		steps       []step
		sleeps      []time.Duration
		needed      int // 0: no *QuotaExhaustedError expected
		wantErr     bool
	}{
		{name: "throttling sleeps the throttling backoff (1,000 ms base, r=1)",
			op: poll, capacity: 3, r: 1, steps: []step{status(429)},
			sleeps: []time.Duration{ms(1000)}, needed: 5, wantErr: true},
		{name: "throttling code on a 5xx sleeps the throttling backoff",
			op: poll, capacity: 3, r: 1, steps: []step{coded(503, "SlowDown")},
			sleeps: []time.Duration{ms(1000)}, needed: 5, wantErr: true},
		{name: "transient sleeps the transient backoff (50 ms base, r=1)",
			op: poll, capacity: 3, r: 1, steps: []step{status(500)},
			sleeps: []time.Duration{ms(50)}, needed: 14, wantErr: true},
		{name: "jittered: throttling with r=0.5 sleeps 500 ms",
			op: poll, capacity: 3, r: 0.5, steps: []step{status(429)},
			sleeps: []time.Duration{ms(500)}, needed: 5, wantErr: true},
		{name: "quota runs out on the second retry: that retry's backoff (n=1)",
			op: poll, capacity: 18, r: 1, steps: []step{status(500), status(500)},
			sleeps: []time.Duration{ms(50), ms(100)}, needed: 14, wantErr: true},
		{name: "no sleep on success",
			op: poll, capacity: 3, r: 1, steps: []step{status(200)}},
		{name: "no sleep on a non-retryable error",
			op: poll, capacity: 3, r: 1, steps: []step{coded(400, "AccessDeniedException")}, wantErr: true},
		{name: "no sleep when max attempts is reached",
			op: poll, capacity: 3, maxAttempts: 1, r: 1, steps: []step{status(429)}, wantErr: true},
		{name: "no sleep for an operation that is not long polling",
			op: opPost, capacity: 3, r: 1, steps: []step{status(429)}, needed: 5, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil, tc.r, script(tc.steps...), func(o *Options) {
				o.RetryQuotaCapacity = &tc.capacity
				o.MaxAttempts = tc.maxAttempts
			})
			md, err := h.call(context.Background(), tc.op)
			require.Equal(t, tc.sleeps, h.clock.Sleeps())
			require.Equal(t, len(tc.steps), md.Attempts)
			require.Len(t, h.http.requests(), len(tc.steps))
			if !tc.wantErr {
				require.NoError(t, err)
				return
			}
			var qe *QuotaExhaustedError
			require.Equal(t, tc.needed != 0, errors.As(err, &qe), "QuotaExhaustedError: %v", err)
			if qe != nil {
				require.Equal(t, tc.needed, qe.Needed)
				var api *APIError
				require.ErrorAs(t, err, &api)
			}
		})
	}
}

// A driver that gives up on a call before its next attempt is sent
// (EventFailed) gets the retry cost paid for that attempt back, once.
func TestCallFailedEventRefundsThePaidRetry(t *testing.T) {
	svc := &Service{Name: "svc"}
	c, err := NewClient(svc, "http://x.invalid", Options{RetryMode: ModeStandard, MaxAttempts: 3, Clock: clocktest.New(epoch), Rand: func() float64 { return 0 }})
	require.NoError(t, err)
	cl, err := c.newCall(&Operation{Name: "Op"}, nil)
	require.NoError(t, err)
	ctx := context.Background()
	require.Equal(t, engine.Action{Kind: engine.ActionSend, Attempt: 1}, cl.Next(ctx, engine.Event{Kind: engine.EventStart}))
	act := cl.Next(ctx, engine.Event{Kind: engine.EventResponse, Result: &engine.AttemptResult{StatusCode: http.StatusServiceUnavailable, Err: &APIError{}, Sent: true}})
	require.Equal(t, engine.ActionWait, act.Kind)
	require.Equal(t, engine.OutcomeRetry, act.Decision.Outcome)
	require.Equal(t, 500-engine.RetryCostTransient, c.RetryQuota().Balance())
	act = cl.Next(ctx, engine.Event{Kind: engine.EventFailed, Err: context.DeadlineExceeded})
	require.Equal(t, engine.ActionReturn, act.Kind)
	require.ErrorIs(t, act.Err, context.DeadlineExceeded)
	require.Equal(t, 500, c.RetryQuota().Balance())
	c.RetryQuota().Acquire(100)
	require.Equal(t, engine.ActionReturn, cl.Next(ctx, engine.Event{Kind: engine.EventFailed}).Kind)
	require.Equal(t, 400, c.RetryQuota().Balance())
	require.Same(t, c.RateLimiter(), c.RateLimiter())
}
