package engine

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime/clocktest"
	"pgregory.net/rapid"
)

// adaptiveSafetyNet bounds, in real time, tests that wait for another
// goroutine; it only fires when the limiter under test is broken.
const adaptiveSafetyNet = 3 * time.Second

// throttledLimiter returns a limiter created at fake time 0 and throttled at
// once: enabled, measured rate 0, so fill rate 0.5 tokens/s, capacity 1 and
// an empty bucket.
func throttledLimiter(t *testing.T, clock Clock) *RateLimiter {
	t.Helper()
	l := NewRateLimiter(clock)
	l.Update(true)
	require.Equal(t, RateLimiterState{
		Enabled: true, FillRate: 0.5, Capacity: 1, LastThrottle: adaptiveAt(0),
	}, l.State())
	return l
}

// nextSleep returns the duration of the next Sleep on clock, failing the
// test if none starts before ctx ends.
func nextSleep(t *testing.T, ctx context.Context, clock *adaptiveManualClock) time.Duration {
	t.Helper()
	select {
	case d := <-clock.sleeps:
		return d
	case <-ctx.Done():
		t.Fatal("no Sleep started: the waiter is stuck")
		return 0
	}
}

func TestAdaptiveAcquireWhileDisabledIsFree(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name      string
		successes []float64 // Update(false) at these times (s) before acquiring
		tokens    float64   // balance before and after acquiring
	}{
		{name: "new limiter grants without a bucket", tokens: 0},
		{name: "successes only keep it disabled and its balance untouched", successes: []float64{0.5, 1, 2, 3}, tokens: 2.0736},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := clocktest.New(adaptiveAt(0))
			l := NewRateLimiter(clock)
			for _, at := range tt.successes {
				clock.Set(adaptiveAt(at))
				l.Update(false)
			}
			require.InDelta(t, tt.tokens, l.State().Tokens, 1e-12)
			for i := range 100 {
				require.NoError(t, l.Acquire(cancelled, i%2 == 0), "acquire %d", i)
			}
			st := l.State()
			require.False(t, st.Enabled)
			require.InDelta(t, tt.tokens, st.Tokens, 1e-12)
			require.Zero(t, l.Rate())
			require.Empty(t, clock.Sleeps())
		})
	}
}

func TestAdaptiveFailFast(t *testing.T) {
	tests := []struct {
		name    string
		elapsed time.Duration // after the throttle at 0
		wantErr *RateLimitedError
		tokens  float64 // balance after Acquire
	}{
		{name: "empty bucket at 0.5 tokens/s waits exactly 2 s", elapsed: 0,
			wantErr: &RateLimitedError{Wait: 2 * time.Second, Rate: 0.5}, tokens: 0},
		{name: "0.25 tokens at 0.5 tokens/s waits exactly 1.5 s", elapsed: 500 * time.Millisecond,
			wantErr: &RateLimitedError{Wait: 1500 * time.Millisecond, Rate: 0.5}, tokens: 0.25},
		{name: "0.9 tokens at 0.5 tokens/s waits exactly 200 ms", elapsed: 1800 * time.Millisecond,
			wantErr: &RateLimitedError{Wait: 200 * time.Millisecond, Rate: 0.5}, tokens: 0.9},
		{name: "a whole token is granted and deducted", elapsed: 2 * time.Second, tokens: 0},
		{name: "the balance stops at capacity 1", elapsed: 10 * time.Second, tokens: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := clocktest.New(adaptiveAt(0))
			l := throttledLimiter(t, clock)
			clock.Advance(tt.elapsed)
			err := l.Acquire(context.Background(), true)
			if tt.wantErr == nil {
				require.NoError(t, err)
			} else {
				var rl *RateLimitedError
				require.ErrorAs(t, err, &rl)
				require.Equal(t, tt.wantErr, rl)
			}
			require.InDelta(t, tt.tokens, l.State().Tokens, 1e-12)
			require.Empty(t, clock.Sleeps())
		})
	}
}

func TestAdaptiveCancelledAcquireCostsNothing(t *testing.T) {
	tests := []struct {
		name         string
		cancelBefore bool
	}{
		{name: "context cancelled before Acquire", cancelBefore: true},
		{name: "context cancelled while waiting for a token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			safety, stop := context.WithTimeout(context.Background(), adaptiveSafetyNet)
			defer stop()
			clock := newAdaptiveManualClock(adaptiveAt(0))
			l := throttledLimiter(t, clock)
			clock.Advance(500 * time.Millisecond) // 0.25 tokens, 1.5 s to wait

			ctx, cancel := context.WithCancel(safety)
			defer cancel()
			if tt.cancelBefore {
				cancel()
			}
			done := make(chan error, 1)
			go func() { done <- l.Acquire(ctx, false) }()
			if !tt.cancelBefore {
				require.Equal(t, 1500*time.Millisecond, nextSleep(t, safety, clock))
				cancel()
			}
			select {
			case err := <-done:
				require.ErrorIs(t, err, context.Canceled)
			case <-safety.Done():
				t.Fatal("Acquire did not return after its context was cancelled")
			}
			require.Equal(t, 0.25, l.State().Tokens)
			require.Empty(t, l.waiters)
		})
	}
}

func TestAdaptiveRateChangeWakesWaiter(t *testing.T) {
	safety, stop := context.WithTimeout(context.Background(), adaptiveSafetyNet)
	defer stop()
	clock := newAdaptiveManualClock(adaptiveAt(0))
	l := throttledLimiter(t, clock)

	done := make(chan error, 1)
	go func() { done <- l.Acquire(safety, false) }()
	require.Equal(t, 2*time.Second, nextSleep(t, safety, clock), "empty bucket at 0.5 tokens/s")

	// At 1.5 s the waiter's 2 s sleep is not over; the bucket holds 0.75.
	// A success raises the rate to CUBIC 0.4 × 1.5^3 = 1.35 tokens/s (below
	// 2 × measured = 2 × 0.8 × 2 / 1.5).
	clock.Advance(1500 * time.Millisecond)
	l.Update(false)
	st := l.State()
	require.InDelta(t, 1.35, st.FillRate, 1e-12)
	require.Equal(t, 0.75, st.Tokens)

	// The waiter wakes and waits only for the missing 0.25 token at 1.35/s.
	require.Equal(t, 185185186*time.Nanosecond, nextSleep(t, safety, clock))
	clock.Advance(185185186 * time.Nanosecond)
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-safety.Done():
		t.Fatal("Acquire did not return once its token was there")
	}
	// The wait was rounded up to the nanosecond: 1.35e-9 × 185185186 − 0.25.
	require.InDelta(t, 1.1e-9, l.State().Tokens, 1e-12)
}

// TestAdaptiveRecoversAfterThrottling simulates a client that wants 10
// requests/s and waits for send tokens: after a burst of throttles ends, the
// fill rate must climb back to the pre-throttle send rate within 10 s, and
// never starve below 0.5 tokens/s on the way.
func TestAdaptiveRecoversAfterThrottling(t *testing.T) {
	clock := clocktest.New(adaptiveAt(0))
	l := NewRateLimiter(clock)
	step := func(throttled bool) {
		require.NoError(t, l.Acquire(context.Background(), false))
		l.Update(throttled)
		clock.Advance(100 * time.Millisecond)
	}
	for range 50 { // 5 s at 10 requests/s, disabled
		step(false)
	}
	before := l.State().MeasuredRate
	require.InDelta(t, 9.999998976, before, 1e-12) // 10 × (1 − 0.2^10)
	for range 5 {
		step(true)
	}
	after := l.State()
	require.True(t, after.Enabled)
	require.Less(t, after.FillRate, before)

	deadline := after.LastThrottle.Add(10 * time.Second)
	for l.State().FillRate < before {
		require.True(t, clock.Now().Before(deadline), "fill rate %v at %v, still below %v",
			l.State().FillRate, clock.Now().Sub(adaptiveEpoch), before)
		step(false)
		require.GreaterOrEqual(t, l.State().FillRate, minFillRate)
	}
	t.Logf("fill rate %v ≥ %v again %v after the last throttle", l.State().FillRate, before, clock.Now().Sub(after.LastThrottle))
}

// TestAdaptiveBalanceNeverNegative is a property test: whatever the sequence
// of acquisitions, responses and time advances, the balance stays in
// [0, capacity], the capacity is max(fill rate, 1) and an enabled limiter
// fills at 0.5 tokens/s or more.
func TestAdaptiveBalanceNeverNegative(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		clock := clocktest.New(adaptiveAt(rapid.Float64Range(0, 1e6).Draw(rt, "t0")))
		l := NewRateLimiter(clock)
		rt.Repeat(map[string]func(*rapid.T){
			"advance": func(rt *rapid.T) {
				clock.Advance(time.Duration(rapid.Int64Range(0, int64(3*time.Second)).Draw(rt, "d")))
			},
			"update": func(rt *rapid.T) {
				l.Update(rapid.Bool().Draw(rt, "throttled"))
			},
			"acquire": func(rt *rapid.T) {
				err := l.Acquire(context.Background(), rapid.Bool().Draw(rt, "failFast"))
				var rl *RateLimitedError
				if err != nil && !errors.As(err, &rl) {
					rt.Fatalf("Acquire: %v", err)
				}
			},
			"": func(rt *rapid.T) {
				l.mu.Lock()
				tokens := l.tokens
				l.mu.Unlock()
				st := l.State()
				if tokens < 0 || st.Tokens < 0 || st.Tokens > st.Capacity {
					rt.Fatalf("balance %v (stored %v) outside [0, %v]", st.Tokens, tokens, st.Capacity)
				}
				if st.Enabled && st.FillRate < minFillRate {
					rt.Fatalf("enabled with fill rate %v < 0.5", st.FillRate)
				}
				if st.FillRate > 0 && st.Capacity != max(st.FillRate, 1) {
					rt.Fatalf("capacity %v for fill rate %v", st.Capacity, st.FillRate)
				}
			},
		})
	})
}

// TestAdaptiveConcurrentUse runs acquisitions and updates from many
// goroutines, for the race detector, and checks the balance afterwards.
func TestAdaptiveConcurrentUse(t *testing.T) {
	clock := clocktest.New(adaptiveAt(0))
	l := NewRateLimiter(clock)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				var rl *RateLimitedError
				if err := l.Acquire(context.Background(), g%2 == 0); err != nil && !errors.As(err, &rl) {
					t.Errorf("goroutine %d, acquire %d: %v", g, i, err)
				}
				l.Update((g+i)%7 == 0)
				clock.Advance(10 * time.Millisecond)
				_ = l.Rate()
			}
		})
	}
	wg.Wait()
	st := l.State()
	require.True(t, st.Enabled)
	require.GreaterOrEqual(t, st.Tokens, 0.0)
	require.GreaterOrEqual(t, st.FillRate, minFillRate)
	require.Empty(t, l.waiters)
}

// BenchmarkRateLimiterAcquire measures one granted Acquire on an enabled
// limiter with ample tokens, on the system clock.
func BenchmarkRateLimiterAcquire(b *testing.B) {
	l := NewRateLimiter(SystemClock{})
	l.Update(true)
	l.mu.Lock()
	l.fillRate, l.capacity, l.tokens = 1e12, 1e12, 1e12
	l.mu.Unlock()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Acquire(ctx, false); err != nil {
			b.Fatal(err)
		}
	}
}
