package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime/clocktest"
)

// TestWaiterDelayFormula checks smithy's waiter delay (aws-sdk-go-v2's
// ComputeDelay) for TableExists' 20 s / 120 s: attempt 1 is the min delay,
// then min × 2^(n−1) jittered down to min, capped at max from attempt 4
// (log2(6)+1 = 3.58), and clamped so the last poll starts MinDelay before
// the max wait.
func TestWaiterDelayFormula(t *testing.T) {
	const lo, hi = 20 * time.Second, 120 * time.Second
	half := func() float64 { return 0.5 }
	top := func() float64 { return 0.999999 }
	zero := func() float64 { return 0 }
	long := time.Hour
	require.Equal(t, lo, WaiterDelay(1, lo, hi, long, top))
	require.Equal(t, 30*time.Second, WaiterDelay(2, lo, hi, long, half))  // [20, 40)
	require.Equal(t, 50*time.Second, WaiterDelay(3, lo, hi, long, half))  // [20, 80)
	require.Equal(t, 70*time.Second, WaiterDelay(4, lo, hi, long, half))  // [20, 120): capped
	require.Equal(t, 70*time.Second, WaiterDelay(40, lo, hi, long, half)) // no overflow
	require.Equal(t, lo, WaiterDelay(5, lo, hi, long, zero))
	require.Less(t, WaiterDelay(5, lo, hi, long, top), hi)
	require.Equal(t, 25*time.Second, WaiterDelay(4, lo, hi, 45*time.Second, half), "clamped to remaining − min")
	require.Equal(t, time.Duration(0), WaiterDelay(0, lo, hi, long, half))
	require.Equal(t, time.Duration(0), WaiterDelay(1, lo, hi, 0, half))
}

// TestWaitDelaysOnFakeClock runs the poll loop on a fake clock: every delay
// is within smithy's bounds for its attempt, and success ends the wait.
func TestWaitDelaysOnFakeClock(t *testing.T) {
	clock := clocktest.New(time.Unix(0, 0))
	states := []WaiterState{WaiterRetry, WaiterRetry, WaiterRetry, WaiterRetry, WaiterRetry, WaiterSuccess}
	polls := 0
	var seen []time.Duration
	w := Waiter{Name: "TableExists", MinDelay: 20 * time.Second, MaxDelay: 120 * time.Second}
	draws := []float64{0.9, 0.1, 0.7, 0.3, 0.99}
	rnd := func() float64 { d := draws[0]; draws = draws[1:]; return d }
	err := Wait(context.Background(), w, WaiterOptions{OnPoll: func(attempt int, s WaiterState, d time.Duration) {
		require.Equal(t, states[attempt-1], s)
		seen = append(seen, d)
	}}, time.Hour, clock, rnd, func(context.Context) (WaiterState, error) {
		polls++
		return states[polls-1], nil
	})
	require.NoError(t, err)
	require.Equal(t, 6, polls)
	// Attempt 1 draws nothing (delay = min); then 20+0.9×20, 20+0.1×60,
	// 20+0.7×100, 20+0.3×100.
	want := []time.Duration{20 * time.Second, 38 * time.Second, 26 * time.Second, 90 * time.Second, 50 * time.Second}
	require.Equal(t, want, clock.Sleeps())
	require.Equal(t, append(want, 0), seen)
	require.Equal(t, []float64{0.99}, draws, "one draw per jittered delay")
}

// TestWaitHonoursMaxWait: with 60 s of max wait the loop stops once less
// than MinDelay would remain, having slept no more than the max wait
// minus MinDelay, and says so.
func TestWaitHonoursMaxWait(t *testing.T) {
	clock := clocktest.New(time.Unix(0, 0))
	w := Waiter{Name: "TableExists", MinDelay: 20 * time.Second, MaxDelay: 120 * time.Second}
	polls := 0
	err := Wait(context.Background(), w, WaiterOptions{}, 60*time.Second, clock, func() float64 { return 0.5 },
		func(context.Context) (WaiterState, error) { polls++; return WaiterRetry, nil })
	var timeout *WaiterTimeoutError
	require.ErrorAs(t, err, &timeout)
	require.Equal(t, &WaiterTimeoutError{Waiter: "TableExists", Attempts: 3, MaxWait: 60 * time.Second}, timeout)
	require.Equal(t, "waiter TableExists: exceeded the max wait of 1m0s after 3 polls", err.Error())
	// 20 s, then 30 s clamped to 60−20−20 = 20 s; at 40 s the 20 s left
	// clamp the next delay to zero.
	require.Equal(t, []time.Duration{20 * time.Second, 20 * time.Second}, clock.Sleeps())
	require.Equal(t, 3, polls)
}

// TestWaitStates: a failure acceptor ends with *WaiterFailureError wrapping
// the matched error; an unmatched error is returned as is; invalid delays
// and max wait are refused before any poll.
func TestWaitStates(t *testing.T) {
	clock := clocktest.New(time.Unix(0, 0))
	w := Waiter{Name: "W", MinDelay: time.Second, MaxDelay: 4 * time.Second}
	cause := &APIError{ErrorMetadata: ErrorMetadata{Code: "ValidationException", HTTPStatusCode: 400}}
	err := Wait(context.Background(), w, WaiterOptions{}, time.Minute, clock, nil,
		func(context.Context) (WaiterState, error) { return WaiterFailure, cause })
	var fail *WaiterFailureError
	require.ErrorAs(t, err, &fail)
	require.Equal(t, 1, fail.Attempts)
	require.True(t, ErrorCodeIs(err, "ValidationException"))
	require.False(t, ErrorCodeIs(err, "ResourceNotFoundException"))

	boom := errors.New("boom")
	require.Same(t, boom, Wait(context.Background(), w, WaiterOptions{}, time.Minute, clock, nil,
		func(context.Context) (WaiterState, error) { return WaiterError, boom }))

	never := func(context.Context) (WaiterState, error) { t.Fatal("polled"); return 0, nil }
	require.EqualError(t, Wait(context.Background(), w, WaiterOptions{}, 0, clock, nil, never),
		"waiter W: the max wait must be greater than zero, got 0s")
	require.EqualError(t, Wait(context.Background(), w, WaiterOptions{MinDelay: 5 * time.Second}, time.Minute, clock, nil, never),
		"waiter W: the min delay 5s must be greater than zero and at most the max delay 4s")
	require.Empty(t, clock.Sleeps())
}

// TestWaitCancelled: the caller's context ending during a delay ends the
// wait with its error, not a timeout.
func TestWaitCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	w := Waiter{Name: "W", MinDelay: time.Second, MaxDelay: 4 * time.Second}
	err := Wait(ctx, w, WaiterOptions{}, time.Minute, clocktest.New(time.Unix(0, 0)), nil,
		func(context.Context) (WaiterState, error) { cancel(); return WaiterRetry, nil })
	require.ErrorIs(t, err, context.Canceled)
	var timeout *WaiterTimeoutError
	require.False(t, errors.As(err, &timeout))
}
