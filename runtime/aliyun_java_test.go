package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// Side by side with aliyun-java-sdk-core (issue 9, "What must be shown" 2):
// the aliyun rules against values computed with the Java SDK's own
// formulas, from these files of aliyun/aliyun-openapi-java-sdk,
// aliyun-java-sdk-core/src/main/java/com/aliyuncs/policy/retry/:
//
//   - RetryUtil.java: BASE_DELAY = 100 (ms), MAX_BACKOFF = 2 * 60 * 1000
//     (ms), DEFAULT_MAX_RETRIES = 3;
//   - backoff/BackoffStrategy.java calculateExponentialDelay:
//     ceil = min(baseDelay * (1L << retriesAttempted), maxBackoffTime);
//   - backoff/EqualJitterBackoffStrategy.java:
//     delay = ceil/2 + random.nextInt(ceil/2 + 1), so [ceil/2, ceil];
//   - pattern/AliyunThrottlingPattern.java escapeTime: TimeLeft + BASE_DELAY,
//     or DEFAULT_ESCAPE_TIME (-1) without TimeLeft;
//   - RetryPolicy.java shouldRetry / getBackoffDelay: delay =
//     max(backoff, escapeTime) when throttled; no retry when escapeTime is
//     -1 or the delay is above maxDelayTimeMillis; the window is kept in
//     ThrottlingPool and a later call's first attempt waits for it.
//
// Where Alibaba's published policy (retry-behavior.md §8) speaks, it wins
// over Java; the two places are marked POLICY OVERRIDES JAVA below.

// javaEqualJitterBounds is EqualJitterBackoffStrategy's range for the retry
// with retriesAttempted = k, in integer milliseconds as Java computes it.
func javaEqualJitterBounds(k int, baseMs, maxBackoffMs int64) (lo, hi time.Duration) {
	capped := min(k, 30) // RETRIES_ATTEMPTED_CEILING
	ceil := min(baseMs*(int64(1)<<capped), maxBackoffMs)
	return ms(ceil / 2), ms(ceil/2 + ceil/2)
}

const (
	javaBaseDelayMs  = 100        // RetryUtil.BASE_DELAY
	javaMaxBackoffMs = 2 * 60_000 // RetryUtil.MAX_BACKOFF
)

// aliyunRetries runs one call whose first n attempts are throttled by code
// (no throttle header) and returns the delays before each retry.
func aliyunRetries(t *testing.T, n int, r float64) []time.Duration {
	t.Helper()
	steps := make([]step, 0, n+1)
	for range n {
		steps = append(steps, status(400, "X-Amzn-ErrorType", "Throttling"))
	}
	h := newHarness(t, aliyunService(), r, script(append(steps, status(200))...), func(o *Options) { o.MaxAttempts = n + 1 })
	md, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, n+1, md.Attempts)
	return h.clock.Sleeps()
}

func TestAliyunEqualJitterBoundsMatchJava(t *testing.T) {
	// 12 retries, k = 1…12: with Rand 0 every delay is Java's lower bound;
	// with Rand just below 1 it is Java's upper bound, less than 1 ms
	// (Java draws whole milliseconds up to ceil, ours r × ceil/2 with r < 1).
	// From k = 11 (100 ms × 2^11 = 204.8 s) the ceiling is the max delay,
	// 120 s, wherever throttle control is on (RetryUtil.MAX_BACKOFF).
	const n = 12
	low, high := aliyunRetries(t, n, 0), aliyunRetries(t, n, 1-1e-12)
	require.Len(t, low, n)
	require.Len(t, high, n)
	for k := 1; k <= n; k++ {
		lo, hi := javaEqualJitterBounds(k, javaBaseDelayMs, javaMaxBackoffMs)
		require.Equal(t, lo, low[k-1], "retry k=%d: lower bound", k)
		require.InDelta(t, float64(hi), float64(high[k-1]), float64(time.Millisecond), "retry k=%d: upper bound", k)
		require.Less(t, high[k-1], hi+time.Nanosecond, "retry k=%d: never above Java's", k)
	}
	require.Equal(t, 60*time.Second, low[10], "k=11: ceil is the 120 s max delay")
	require.Equal(t, []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}, low[:3])
}

func TestAliyunThrottledWindowWaitAgainstJava(t *testing.T) {
	// Throttled (Remain 0) with TimeLeft 5000 ms on the first retry (k = 1,
	// equal jitter 100 ms with Rand 0).
	// POLICY OVERRIDES JAVA: we wait max(TimeLeft, jitter) = 5000 ms as the
	// published policy states; Java waits max(jitter, TimeLeft + 100) = 5100 ms
	// (AliyunThrottlingPattern.escapeTime adds BASE_DELAY).
	const timeLeftMs = 5000
	jlo, _ := javaEqualJitterBounds(1, javaBaseDelayMs, javaMaxBackoffMs)
	javaWait := max(jlo, ms(timeLeftMs+javaBaseDelayMs))
	sc := script(status(400, "X-Amzn-ErrorType", "Throttling.User", engine.DefaultUserAPIHeader, "Remain:0,TimeLeft:5000"), status(200))
	h := newHarness(t, aliyunService(), 0, sc, nil)
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{javaWait - ms(javaBaseDelayMs)}, h.clock.Sleeps())
	require.Equal(t, 5*time.Second, h.clock.Sleeps()[0])
}

func TestAliyunThrottledWithoutTimeLeftAgainstJava(t *testing.T) {
	// A throttle header with Remain 0 but no TimeLeft.
	// POLICY OVERRIDES JAVA: Java's escapeTime is DEFAULT_ESCAPE_TIME (-1)
	// and RetryPolicy.shouldRetry returns false (1 attempt); the published
	// policy retries with equal jitter: 2 attempts, 100 ms (k = 1, Rand 0).
	sc := script(status(400, engine.DefaultUserHeader, "Remain:0,Limit:5"), status(200))
	h := newHarness(t, aliyunService(), 0, sc, nil)
	md, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
	require.Equal(t, []time.Duration{100 * time.Millisecond}, h.clock.Sleeps())
}

func TestAliyunMaxDelayAgainstJava(t *testing.T) {
	// TimeLeft 119 900 ms: Java's delay 119 900 + 100 = 120 000 ms is not
	// above MAX_BACKOFF, so it retries; ours waits 119.9 s and retries too.
	// TimeLeft 130 000 ms: above 120 s on both sides, so neither retries
	// (ours fails at once with a *ThrottleWindowError).
	for _, tc := range []struct {
		timeLeft string
		retried  bool
	}{{"119900", true}, {"130000", false}} {
		sc := script(status(429, engine.DefaultUserAPIHeader, "Remain:0,TimeLeft:"+tc.timeLeft), status(200))
		h := newHarness(t, aliyunService(), 0, sc, nil)
		md, err := h.call(context.Background(), opGet)
		var twe *ThrottleWindowError
		if tc.retried {
			require.NoError(t, err)
			require.Equal(t, 2, md.Attempts)
			require.Equal(t, []time.Duration{119900 * time.Millisecond}, h.clock.Sleeps())
		} else {
			require.ErrorAs(t, err, &twe)
			require.Equal(t, 1, md.Attempts)
			require.Empty(t, h.clock.Sleeps())
		}
	}
}

func TestAliyunWindowWaitOfNextCallAgainstJava(t *testing.T) {
	// Java keeps the window in ThrottlingPool (end = now + escapeTime) and a
	// later call's first attempt waits for it. Ours keeps now + TimeLeft
	// (the policy's override again: no + 100 ms): a call 500 ms after a
	// TimeLeft 2000 response waits the 1500 ms left, Java 1600 ms.
	sc := script(status(400, "X-Amzn-ErrorType", "Throttling.User", engine.DefaultUserAPIHeader, "Remain:0,TimeLeft:2000"), status(200))
	h := newHarness(t, aliyunService(), 0, sc, func(o *Options) { o.MaxAttempts = 1 })
	_, err := h.call(context.Background(), opGet)
	require.Error(t, err)
	h.clock.Advance(500 * time.Millisecond)
	_, err = h.call(context.Background(), opGet)
	require.NoError(t, err)
	javaWait := ms(2000+javaBaseDelayMs) - 500*time.Millisecond
	require.Equal(t, []time.Duration{javaWait - ms(javaBaseDelayMs)}, h.clock.Sleeps())
}

func TestAliyunDefaultsAreJavas(t *testing.T) {
	// RetryUtil: max retries 3 (max attempts 4), base delay 100 ms, max
	// backoff 120 s wherever throttle control is on and the spec sets no
	// max delay.
	c, err := NewClient(aliyunService(), "http://svc.test", Options{})
	require.NoError(t, err)
	p := resolvePolicy(c.settings, c.svc, nil, &c.opts, nil).Params // the client's own policy
	require.Equal(t, 4, p.MaxAttempts)
	require.Equal(t, ms(javaBaseDelayMs), p.TransientBaseDelay)
	require.Equal(t, ms(javaMaxBackoffMs), p.MaxBackoff)
	require.Equal(t, engine.DefaultThrottleMaxDelay, ms(javaMaxBackoffMs))
}
