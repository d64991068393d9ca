package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// TestACSRetryAfterDelaysWhereverItClassifies: x-acs-retry-after is one
// rule (§5): a positive value makes the response throttling and is its
// delay, and above the max delay the call fails at once — whether or not
// the service lists the header in ServerDelayHeaders (third new-user trial
// F11: unlisted, it classified but the retry waited equal jitter, 104 ms,
// even for a value above the max delay). Aliyun mode with throttle control
// (max delay 3 s), the header not listed; a standard-mode service without
// throttle control checks the value against the max server delay (20 s).
func TestACSRetryAfterDelaysWhereverItClassifies(t *testing.T) {
	svc := aliyunService()
	svc.ThrottleControl = &ThrottleControl{MaxDelay: 3 * time.Second}
	svc.ServerDelayHeaders = nil

	h := newHarness(t, svc, 0.5, script(status(400, engine.HeaderACSRetryAfter, "2500"), status(200)), nil)
	md, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
	require.Equal(t, []time.Duration{2500 * time.Millisecond}, h.clock.Sleeps())

	h = newHarness(t, svc, 0.5, script(status(400, engine.HeaderACSRetryAfter, "5000"), status(200)), nil)
	md, err = h.call(context.Background(), opGet)
	var twe *ThrottleWindowError
	require.True(t, errors.As(err, &twe), "%v", err)
	require.Equal(t, 1, md.Attempts)
	require.Empty(t, h.clock.Sleeps())

	std := testService() // Retry-After and x-amz-retry-after listed only
	h = newHarness(t, std, 0.5, script(status(400, engine.HeaderACSRetryAfter, "1500"), status(200)), nil)
	md, err = h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
	require.Equal(t, []time.Duration{1500 * time.Millisecond}, h.clock.Sleeps())

	h = newHarness(t, std, 0.5, script(status(400, engine.HeaderACSRetryAfter, "30000"), status(200)), nil)
	md, err = h.call(context.Background(), opGet)
	var sde *ServerDelayError
	require.True(t, errors.As(err, &sde), "%v", err)
	require.Equal(t, 30*time.Second, sde.Delay)
	require.Equal(t, 1, md.Attempts)
	require.Empty(t, h.clock.Sleeps())
}
