package runtime

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// A throttle header's window length (Time) is clamped to MaxThrottleWindow
// like its TimeLeft (retry-behavior.md §8): "Time:864000000" (10 days) with
// Limit:1 must not hold the identity's calls for 10 days after one call.
func TestThrottleWindowLengthIsCapped(t *testing.T) {
	srv := newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n == 1 {
			w.Header().Add(engine.DefaultUserHeader, "Remain:0,Limit:1,Time:864000000,TimeLeft:1000")
			w.Header().Set("X-Amzn-ErrorType", "Throttling.User")
			w.WriteHeader(400)
		}
	})
	c, clock := loopbackClient(t, aliyunService(), srv.URL, nil)
	clock.Set(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	start := clock.Now()
	var lastErr error
	for range 4 {
		_, lastErr = c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
		clock.Advance(2 * time.Second)
	}
	// The window after the 1 s left lasts the cap (10 min), not 10 days:
	// the call after the one it let through is held until its end.
	var twe *ThrottleWindowError
	require.ErrorAs(t, lastErr, &twe)
	require.Equal(t, start.Add(time.Second+engine.DefaultMaxThrottleWindow), twe.Until)
}
