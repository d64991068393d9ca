package engine

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestReleaseAtSpreadsAndPaces: waiters held back by a window of 1 s and
// Limit 2 are released at until + r × 500 ms (half the window), the first
// two into the next window, the next two a window later; a release point
// past latest is not taken (until comes back, uncounted); a window of
// unknown shape (no store entry) releases at until.
func TestReleaseAtSpreadsAndPaces(t *testing.T) {
	s := NewWindowStore()
	t0 := epoch
	s.Record("ak", "Op", ThrottleHeaders{User: ThrottleQuota{Present: true, Remain: 0, Limit: 2, Window: time.Second, TimeLeft: 400 * time.Millisecond}}, t0)
	until := t0.Add(400 * time.Millisecond)
	far := t0.Add(time.Hour)
	require.Equal(t, until.Add(250*time.Millisecond), s.ReleaseAt("ak", "Op", DimensionUser, until, far, 0.5, true))
	require.Equal(t, until, s.ReleaseAt("ak", "Op", DimensionUser, until, far, 0, true))
	require.Equal(t, until, s.ReleaseAt("ak", "Op", DimensionUser, until, until.Add(time.Second), 0.5, true), "past latest: not taken")
	require.Equal(t, until.Add(time.Second+125*time.Millisecond), s.ReleaseAt("ak", "Op", DimensionUser, until, far, 0.25, true), "third waiter: the window after")
	require.Equal(t, until.Add(time.Second+499*time.Millisecond), s.ReleaseAt("ak", "Op", DimensionUser, until, far, 0.998, true))
	require.Equal(t, until.Add(2*time.Second), s.ReleaseAt("ak", "Op", DimensionUser, until, far, 0, true), "fifth: two windows later")
	require.Equal(t, until, s.ReleaseAt("ak", "Other", DimensionAPIUser, until, far, 0.5, true), "no API + User window: unknown shape")
	next := until.Add(time.Second)
	require.Equal(t, until.Add(2*time.Second+100*time.Millisecond), s.ReleaseAt("ak", "Op", DimensionUser, next, far, 0.2, true), "the window after is full (3rd and 4th): the schedule goes on")
	require.Equal(t, until.Add(3*time.Second), s.ReleaseAt("ak", "Op", DimensionUser, until.Add(3*time.Second), far, 0, false), "unreserved: placed, not counted")
	require.Equal(t, until.Add(3*time.Second), s.ReleaseAt("ak", "Op", DimensionUser, until.Add(3*time.Second), far, 0, true), "so this one goes in the same window")
}

// TestBlockedPacesAfterRelease: once a window's held-back calls were
// released (Limit 2, Time 1 s), a call that finds no window is counted in
// the window it falls in; past Limit it is blocked until the next window
// with room. Without a release schedule Blocked paces nothing.
func TestBlockedPacesAfterRelease(t *testing.T) {
	s := NewWindowStore()
	s.Record("ak", "Op", ThrottleHeaders{User: ThrottleQuota{Present: true, Remain: 0, Limit: 2, Window: time.Second, TimeLeft: 400 * time.Millisecond}}, epoch)
	end := epoch.Add(400 * time.Millisecond)
	_, _, ok := s.Blocked("ak", "Op", end)
	require.False(t, ok, "no schedule yet: nothing paced")
	require.Equal(t, end, s.ReleaseAt("ak", "Op", DimensionUser, end, epoch.Add(time.Hour), 0, true), "one released into the next window")
	_, _, ok = s.Blocked("ak", "Op", end.Add(100*time.Millisecond))
	require.False(t, ok, "the second call of the window goes")
	until, dim, ok := s.Blocked("ak", "Op", end.Add(200*time.Millisecond))
	require.True(t, ok, "the third waits")
	require.Equal(t, DimensionUser, dim)
	require.Equal(t, end.Add(time.Second), until)
	_, _, ok = s.Blocked("ak", "Op", end.Add(1100*time.Millisecond))
	require.False(t, ok, "a window later there is room")
	_, _, ok = s.Blocked("ak", "Op", end.Add(5*time.Second))
	require.False(t, ok)
	require.Empty(t, s.shapes, "the schedule is over")
}
