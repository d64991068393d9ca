package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestStreamDrop: 100 streams dropped at once reconnect through the
// runtime's state machine — full jitter spreads the first reconnect attempts
// over the 50 ms transient backoff window, every stream reconnects after
// the outage with retries paid from each client's own quota, a fleet retry
// budget of 1,400 tokens pays exactly 100 reconnect attempts (14 each), and
// without retries every stream is lost.
func TestStreamDrop(t *testing.T) {
	sc, err := LoadScenario("testdata/stream-drop-small.yaml")
	require.NoError(t, err)
	run := func(mode, sharing string) streamStats {
		r, err := simulate(sc, mode, sharing, sc.Seed, groupService, nil)
		require.NoError(t, err)
		return r.streams
	}
	per := run("standard", sharingPerProcess)
	require.Equal(t, int64(100), per.opened)
	require.Equal(t, int64(100), per.drops)
	require.Equal(t, int64(100), per.reconnected, "every stream reconnects after the outage")
	require.Zero(t, per.lost)
	require.Len(t, per.firstWaits, 100)
	lo, hi := per.firstWaits[0], per.firstWaits[0]
	distinct := map[time.Duration]bool{}
	for _, w := range per.firstWaits {
		lo, hi = min(lo, w), max(hi, w)
		distinct[w] = true
	}
	require.GreaterOrEqual(t, lo, time.Duration(0))
	require.Less(t, hi, 50*time.Millisecond, "full jitter of the 50 ms transient base delay")
	require.Greater(t, hi-lo, 40*time.Millisecond, "spread over the window, not one burst")
	require.Len(t, distinct, 100)
	require.Greater(t, per.reconnectAttempts, int64(300), "a few attempts each through the 1 s outage")

	shared := run("standard", sharingShared)
	require.Equal(t, int64(100), shared.reconnectAttempts, "the fleet budget pays 1,400 / 14 = 100 reconnect attempts")
	require.Equal(t, int64(100), shared.lost)
	require.Equal(t, map[string]int64{"retry quota exhausted": 100}, shared.lostBy)

	none := run("none", sharingPerProcess)
	require.Equal(t, int64(100), none.lost)
	require.Zero(t, none.reconnectAttempts)
}
