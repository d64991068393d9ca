package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// TestThrottledRetrySpreadOverNextWindow: a throttled response (TimeLeft
// 2000 ms of a 1000 ms window… Time:1000) makes the retry wait the time
// left plus r × half the window: with r = 0.5, 2000 + 250 ms; a call held
// back by the window (Admit) is spread the same way.
func TestThrottledRetrySpreadOverNextWindow(t *testing.T) {
	sc := script(status(400, "X-Amzn-ErrorType", "Throttling.User", engine.DefaultUserHeader, throttled2s), status(200), status(200))
	h := newHarness(t, aliyunService(), 0.5, sc, nil)
	_, err := h.call(context.Background(), opGet)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{2250 * time.Millisecond}, h.clock.Sleeps())
}
