package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/stretchr/testify/require"
)

// TestCallRandReplacesClients: a call's Options.Rand draws that call's
// jitter, as every other non-hook field of a call's options replaces the
// client's (newuser4 G9: the client's was used; client Rand 0, call Rand
// 0.5 gave a first delay of 0 s). A call without one uses the client's.
func TestCallRandReplacesClients(t *testing.T) {
	var delays []time.Duration
	c, err := NewClient(testService(), "http://svc.test", Options{
		HTTPClient: firstAttemptFails{},
		MaxBackoff: 20 * time.Second,
		Clock:      clocktest.New(epoch),
		Rand:       fixedRand(0),
		OnAttempt: func(a AttemptInfo) {
			if a.Attempt == 1 {
				delays = append(delays, a.Delay)
			}
		},
	})
	require.NoError(t, err)
	req := func() *Request { return &Request{Method: "GET", Path: "/"} }
	half, short := c.Options(), c.Options()
	half.Rand = fixedRand(0.5)
	short.Rand, short.MaxBackoff = fixedRand(0.5), 40*time.Millisecond
	for _, opts := range []*Options{&half, nil, &short} {
		md, err := c.Do(context.Background(), opGet, req(), opts, nil)
		require.NoError(t, err)
		require.Equal(t, 2, md.Attempts)
	}
	// Standard mode, full jitter after a 503: rand × min(MaxBackoff, 50 ms).
	require.Equal(t, []time.Duration{25 * time.Millisecond, 0, 20 * time.Millisecond}, delays)
}
