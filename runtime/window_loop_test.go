package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// These tests drive throttle windows through Client.Do (retry-behavior.md
// §8): the loop records windows from every response, waits for them before
// new calls and retries, and the client can turn throttle control on or off.

func aliyunService() *Service {
	svc := testService()
	svc.DefaultMode = ModeAliyun
	svc.ThrottleControl = &ThrottleControl{}
	return svc
}

const throttled2s = "Remain:0,Limit:2,Time:1000,TimeLeft:2000"

func TestWindowDelaysRetryAndNextCall(t *testing.T) {
	// Throttled with TimeLeft 2000 ms: the retry waits max(2000, jitter 100)
	// = 2000 ms; a new call at 2000 ms is at the window's end and does not
	// wait. ResponseMetadata exposes the parsed quota of the last response.
	sc := script(status(400, "X-Amzn-ErrorType", "Throttling.User", engine.DefaultUserAPIHeader, throttled2s),
		status(200, engine.DefaultUserAPIHeader, "Remain:1,Limit:2,Time:1000,TimeLeft:900"), status(200))
	h := newHarness(t, aliyunService(), 0, sc, nil)
	md, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
	require.Equal(t, int64(1), md.Throttle.UserAPI.Remain)
	require.Equal(t, 900*time.Millisecond, md.Throttle.UserAPI.TimeLeft)
	_, err = h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{2 * time.Second}, h.clock.Sleeps())
}

func TestWindowBlocksOtherCallsUntilItsEnd(t *testing.T) {
	// Call 1 ends in a throttle window (max attempts 1); call 2 on the same
	// operation 500 ms later waits the 1500 ms left before sending.
	sc := script(status(400, "X-Amzn-ErrorType", "Throttling.User", engine.DefaultUserAPIHeader, throttled2s), status(200))
	h := newHarness(t, aliyunService(), 0, sc, func(o *Options) { o.MaxAttempts = 1 })
	_, err := h.call(context.Background(), opGet)
	var maxErr *MaxAttemptsError
	require.ErrorAs(t, err, &maxErr)
	h.clock.Advance(500 * time.Millisecond)
	_, err = h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{1500 * time.Millisecond}, h.clock.Sleeps())
}

func TestWindowTooLongFailsWithoutSending(t *testing.T) {
	// TimeLeft 125 s is above the default max delay of throttle control,
	// 120 s (aliyun-java-sdk-core RetryUtil.MAX_BACKOFF).
	sc := script(status(400, "X-Amzn-ErrorType", "Throttling.Api", engine.DefaultUserAPIHeader, "Remain:0,TimeLeft:125000"), status(200))
	h := newHarness(t, aliyunService(), 0, sc, nil)
	_, err := h.call(context.Background(), opGet)
	var twe *ThrottleWindowError
	require.ErrorAs(t, err, &twe)
	require.Equal(t, epoch.Add(125*time.Second), twe.Until)
	require.Equal(t, engine.DimensionAPIUser, twe.Dimension)
	_, err = h.call(context.Background(), opGet)
	require.ErrorAs(t, err, &twe)
	require.Len(t, sc.requests(), 1, "a call inside a too-long window sends nothing")
}

func TestDisableThrottleControl(t *testing.T) {
	// Off: the same response is a plain aliyun retry with equal jitter
	// (k = 1, r = 0: 100 ms) and records no window.
	sc := script(status(400, "X-Amzn-ErrorType", "Throttling.User", engine.DefaultUserAPIHeader, throttled2s), status(200), status(200))
	h := newHarness(t, aliyunService(), 0, sc, func(o *Options) { o.DisableThrottleControl = true })
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	_, err = h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{100 * time.Millisecond}, h.clock.Sleeps())
}

func TestThrottleControlEnabledInCode(t *testing.T) {
	// A standard-mode service without throttle control, enabled by an
	// option: windows are honoured in every mode (§1): the retry waits
	// max(TimeLeft 2000, full jitter 0) = 2000 ms.
	sc := script(status(429, engine.DefaultUserHeader, throttled2s), status(200))
	h := newHarness(t, nil, 0, sc, func(o *Options) { o.ThrottleControl = &ThrottleControl{} })
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{2 * time.Second}, h.clock.Sleeps())
}

func TestThrottleDebugHeader(t *testing.T) {
	sc := script(status(200))
	h := newHarness(t, aliyunService(), 0, sc, func(o *Options) { o.ThrottleDebug = true })
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, "debug", sc.requests()[0].header.Get("X-RateLimit-Mode"))
}

func TestThrottleDebugExposesQuotaWithControlOff(t *testing.T) {
	sc := script(status(200, engine.DefaultUserHeader, "Remain:4,Limit:5,Time:200,TimeLeft:120"))
	h := newHarness(t, aliyunService(), 0, sc, func(o *Options) { o.ThrottleDebug = true; o.DisableThrottleControl = true })
	md, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, engine.ThrottleQuota{Present: true, Remain: 4, Limit: 5, Window: 200 * time.Millisecond, TimeLeft: 120 * time.Millisecond}, md.Throttle.User)
}
