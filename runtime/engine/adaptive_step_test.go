package engine

import (
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
