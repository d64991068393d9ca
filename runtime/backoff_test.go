package runtime

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestFullJitter checks delay = r × min(max_backoff, base × 2^n) with exact
// values (retry-behavior.md §5).
func TestFullJitter(t *testing.T) {
	const maxBackoff = 20 * time.Second
	for _, tc := range []struct {
		name string
		base time.Duration
		n    int
		r    float64
		want time.Duration
	}{
		{"transient r=0 gives 0", ms(50), 0, 0, 0},
		{"transient r=0.5 gives half the ceiling", ms(50), 0, 0.5, ms(25)},
		{"transient r=1 gives the ceiling", ms(50), 0, 1, ms(50)},
		{"transient retry 3 r=0.5", ms(50), 3, 0.5, ms(200)},
		{"transient cap not yet binding at n=8", ms(50), 8, 1, ms(12800)},
		{"transient cap binds at n=9", ms(50), 9, 1, maxBackoff},
		{"transient cap binds at n=9 before jitter", ms(50), 9, 0.5, ms(10000)},
		{"throttling r=0 gives 0", ms(1000), 0, 0, 0},
		{"throttling r=0.5 gives half the ceiling", ms(1000), 0, 0.5, ms(500)},
		{"throttling r=1 gives the ceiling", ms(1000), 0, 1, ms(1000)},
		{"throttling cap not yet binding at n=4", ms(1000), 4, 1, ms(16000)},
		{"throttling cap binds at n=5", ms(1000), 5, 1, maxBackoff},
		{"throttling cap binds at n=5 before jitter", ms(1000), 5, 0.5, ms(10000)},
		{"huge retry index saturates at the cap", ms(1000), 1 << 20, 1, maxBackoff},
		{"negative retry index counts as 0", ms(50), -3, 1, ms(50)},
		{"NaN random value gives 0", ms(50), 2, math.NaN(), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, fullJitter(tc.base, maxBackoff, 0, tc.n, tc.r))
		})
	}
}

// TestBackoffProperty: for any base, cap, retry index 0…200 and r in [0,1],
// the delay is never negative, never above the cap, and never above base ×
// 2^n when that does not overflow.
func TestBackoffProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base := time.Duration(rapid.Int64Range(1, int64(time.Hour)).Draw(t, "base"))
		maxBackoff := time.Duration(rapid.Int64Range(1, math.MaxInt64).Draw(t, "cap"))
		n := rapid.IntRange(0, 200).Draw(t, "n")
		r := rapid.Float64Range(0, 1).Draw(t, "r")
		d := fullJitter(base, maxBackoff, 0, n, r)
		if d < 0 || d > maxBackoff {
			t.Fatalf("delay %v outside [0, %v]", d, maxBackoff)
		}
		if n < 62 && base <= math.MaxInt64>>n && d > base<<n {
			t.Fatalf("delay %v above base × 2^n = %v", d, base<<n)
		}
		ceil := backoffCeiling(base, maxBackoff, n)
		if next := backoffCeiling(base, maxBackoff, n+1); next < ceil {
			t.Fatalf("ceiling shrank from %v to %v at n=%d", ceil, next, n+1)
		}
	})
}

// TestBackoffRetryIndexUpTo200ThroughDo: 201 transient retries with r=1 sleep
// exactly min(20 s, 50 ms × 2^n) each: never negative, never above the cap.
func TestBackoffRetryIndexUpTo200ThroughDo(t *testing.T) {
	const retries = 201
	steps := make([]step, 0, retries+1)
	for range retries {
		steps = append(steps, status(503))
	}
	h := newHarness(t, nil, 1, script(append(steps, status(200))...), func(o *Options) {
		o.MaxAttempts = retries + 1
		o.RetryQuotaCapacity = new(int)
		*o.RetryQuotaCapacity = 14 * retries
	})
	md, err := h.call(context.Background(), opPost)
	require.NoError(t, err)
	require.Equal(t, retries+1, md.Attempts)
	sleeps := h.clock.Sleeps()
	require.Len(t, sleeps, retries)
	for n, d := range sleeps {
		want := 20 * time.Second
		if n < 9 {
			want = ms(50) << n
		}
		require.Equal(t, want, d, "retry %d", n)
	}
}

// TestBackoffThroughDo checks the delays a call sleeps: error-class base
// delays, full jitter, and a sub-second max backoff that still jitters.
func TestBackoffThroughDo(t *testing.T) {
	for _, tc := range []struct {
		name   string
		r      float64
		edit   func(*Options)
		steps  []step
		sleeps []time.Duration
	}{
		{name: "transient base 50 ms with r=0.5",
			r: 0.5, steps: []step{status(500), status(502), status(200)}, sleeps: []time.Duration{ms(25), ms(50)}},
		{name: "throttling base 1,000 ms with r=0.5",
			r: 0.5, steps: []step{status(429), coded(400, "SlowDown"), status(200)}, sleeps: []time.Duration{ms(500), ms(1000)}},
		{name: "r=0 retries at once without sleeping",
			r: 0, steps: []step{status(500), status(200)}, sleeps: nil},
		{name: "sub-second max backoff still jitters",
			r: 0.5, edit: func(o *Options) { o.MaxBackoff = ms(300) },
			steps: []step{status(429), status(429), status(200)}, sleeps: []time.Duration{ms(150), ms(150)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil, tc.r, script(tc.steps...), tc.edit)
			_, err := h.call(context.Background(), opPost)
			require.NoError(t, err)
			require.Equal(t, tc.sleeps, h.clock.Sleeps())
		})
	}
}

// TestLegacyNoJitter: a DynamoDB-like legacy mode (per-mode service
// defaults: 10 attempts, 50 ms base, no jitter) sleeps exactly 50 ms × 2^n,
// whatever the random value, and spends no retry quota (retry-behavior.md §1).
func TestLegacyNoJitter(t *testing.T) {
	svc := testService()
	svc.PerMode = map[Mode]ModeDefaults{ModeLegacy: {MaxAttempts: 10, TransientBaseDelay: ms(50), ThrottlingBaseDelay: ms(50), Jitter: JitterNone}}
	steps := make([]step, 10)
	for i := range steps {
		steps[i] = status(500)
	}
	h := newHarness(t, svc, 0.25, script(steps...), func(o *Options) { o.RetryMode = ModeLegacy })
	_, err := h.call(context.Background(), opGet)
	var maxErr *MaxAttemptsError
	require.ErrorAs(t, err, &maxErr)
	require.Equal(t, 10, maxErr.Attempts)
	require.Equal(t, []time.Duration{ms(50), ms(100), ms(200), ms(400), ms(800), ms(1600), ms(3200), ms(6400), ms(12800)}, h.clock.Sleeps())
	require.Equal(t, engine.DefaultRetryQuotaCapacity, h.c.RetryQuota().Balance())
}
