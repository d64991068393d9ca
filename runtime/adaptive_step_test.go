package runtime

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime/clocktest"
)

// TryAcquireAt is Acquire without the wait: the same bucket, the same waits.
func TestAdaptiveTryAcquireAt(t *testing.T) {
	tests := []struct {
		name     string
		at       time.Duration // after the throttle at 0
		wantWait time.Duration
		wantOK   bool
		tokens   float64 // balance after the call
	}{
		{name: "empty bucket at 0.5 tokens/s: next token in exactly 2 s", at: 0, wantWait: 2 * time.Second, tokens: 0},
		{name: "0.25 tokens: next token in exactly 1.5 s", at: 500 * time.Millisecond, wantWait: 1500 * time.Millisecond, tokens: 0.25},
		{name: "a whole token is granted and deducted", at: 2 * time.Second, wantOK: true, tokens: 0},
		{name: "the balance stops at capacity 1", at: 10 * time.Second, wantOK: true, tokens: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := clocktest.New(adaptiveAt(0))
			l := throttledLimiter(t, clock)
			wait, ok := l.TryAcquireAt(adaptiveAt(0).Add(tt.at))
			require.Equal(t, tt.wantOK, ok)
			require.Equal(t, tt.wantWait, wait)
			clock.Advance(tt.at)
			require.InDelta(t, tt.tokens, l.State().Tokens, 1e-12)
			require.Empty(t, clock.Sleeps())
		})
	}
}

func TestAdaptiveTryAcquireAtWhileDisabledIsFree(t *testing.T) {
	clock := clocktest.New(adaptiveAt(0))
	l := NewRateLimiter(clock)
	for i := range 10 {
		wait, ok := l.TryAcquireAt(adaptiveAt(float64(i)))
		require.True(t, ok)
		require.Zero(t, wait)
	}
	require.Zero(t, l.State().Tokens)
}

// The wait TryAcquireAt reports is exactly when the next token can be taken.
func TestAdaptiveTryAcquireAtWaitIsExact(t *testing.T) {
	clock := clocktest.New(adaptiveAt(0))
	l := throttledLimiter(t, clock)
	now := adaptiveAt(0)
	for i := range 5 {
		wait, ok := l.TryAcquireAt(now)
		require.False(t, ok, "token %d", i)
		require.Equal(t, 2*time.Second, wait, "token %d", i)
		_, ok = l.TryAcquireAt(now.Add(wait - time.Nanosecond))
		require.False(t, ok, "token %d a nanosecond early", i)
		now = now.Add(wait)
		_, ok = l.TryAcquireAt(now)
		require.True(t, ok, "token %d", i)
	}
}

// A driver that gives up on a call before its next attempt is sent
// (EventFailed) gets the retry cost paid for that attempt back, once.
func TestCallFailedEventRefundsThePaidRetry(t *testing.T) {
	svc := &Service{Name: "svc"}
	c, err := NewClient(svc, "http://x.invalid", Options{RetryMode: ModeStandard, MaxAttempts: 3, Clock: clocktest.New(adaptiveAt(0)), Rand: func() float64 { return 0 }})
	require.NoError(t, err)
	cl, err := c.NewCall(&Operation{Name: "Op"}, nil)
	require.NoError(t, err)
	ctx := context.Background()
	require.Equal(t, Action{Kind: ActionSend, Attempt: 1}, cl.Next(ctx, Event{Kind: EventStart}))
	act := cl.Next(ctx, Event{Kind: EventResponse, Result: &AttemptResult{StatusCode: http.StatusServiceUnavailable, Err: &APIError{}, Sent: true}})
	require.Equal(t, ActionWait, act.Kind)
	require.Equal(t, OutcomeRetry, act.Decision.Outcome)
	require.Equal(t, 500-RetryCostTransient, c.RetryQuota().Balance())
	act = cl.Next(ctx, Event{Kind: EventFailed, Err: context.DeadlineExceeded})
	require.Equal(t, ActionReturn, act.Kind)
	require.ErrorIs(t, act.Err, context.DeadlineExceeded)
	require.Equal(t, 500, c.RetryQuota().Balance())
	c.RetryQuota().Acquire(100)
	require.Equal(t, ActionReturn, cl.Next(ctx, Event{Kind: EventFailed}).Kind)
	require.Equal(t, 400, c.RetryQuota().Balance())
	require.Same(t, c.RateLimiter(), c.RateLimiter())
}
