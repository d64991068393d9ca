package main

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The calendar queue pops every event in (at, seq) order, as a sort of all
// of them would: ties at the same time in the order scheduled, events
// scheduled while popping (at or after the time popped, into the current
// bucket too), events beyond the wheel (in far) and long gaps of empty
// buckets included.
func TestEventQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q eventQueue
	var want []event
	seq := uint64(0)
	schedule := func(at time.Duration) {
		seq++
		e := event{at: at, seq: seq, ref: uint32(seq)}
		q.push(e)
		want = append(want, e)
	}
	delays := []time.Duration{0, time.Nanosecond, time.Millisecond, 8 * time.Millisecond, time.Second, 20 * time.Second, 40 * time.Second, 10 * time.Minute}
	for range 2000 {
		schedule(delays[rng.IntN(len(delays))] + time.Duration(rng.IntN(3)))
	}
	var got []event
	var now time.Duration
	for {
		h, ok := q.peek()
		if !ok {
			break
		}
		require.GreaterOrEqual(t, h.at, now)
		e := q.pop()
		got = append(got, e)
		now = e.at
		if len(want) < 20000 {
			for range rng.IntN(3) {
				schedule(now + delays[rng.IntN(len(delays))] + time.Duration(rng.IntN(3)))
			}
		}
	}
	slices.SortFunc(want, func(a, b event) int {
		if a.at != b.at {
			return int(a.at - b.at)
		}
		return int(a.seq) - int(b.seq)
	})
	require.Len(t, got, len(want))
	for i := range want {
		require.Equal(t, want[i], got[i], "event %d", i)
	}
	require.Zero(t, q.inWheel)
}
