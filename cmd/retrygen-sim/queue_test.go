package main

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The calendar queue pops every event in (at, seq) order, as a sort of all
// of them would: ties at the same time in the order scheduled, events
// scheduled while popping (at or after the time popped, into the current
// bucket too), in the fine and the coarse wheel, beyond them (in far), and long gaps of empty
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
	delays := []time.Duration{0, time.Nanosecond, 300 * time.Microsecond, time.Millisecond, 8 * time.Millisecond, 60 * time.Millisecond, 70 * time.Millisecond, time.Second, 20 * time.Second, 34 * time.Second, 40 * time.Second, 10 * time.Minute}
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
	require.Zero(t, q.inFine+q.inCoarse)
}

// The latency histogram's buckets are 1 % wide from 1 µs: a quantile is
// the upper bound of its bucket, durations under 1 µs count in a bucket of
// their own, and durations beyond the slice grow it.
func TestHistogramQuantiles(t *testing.T) {
	var h histogram
	if got := h.quantile(0.5); got != 0 {
		t.Fatalf("empty: %v, want 0", got)
	}
	h.add(500 * time.Nanosecond)
	for range 98 {
		h.add(20 * time.Millisecond)
	}
	h.add(10 * time.Minute)
	for _, tc := range []struct {
		q    float64
		want time.Duration
	}{
		// ln(20,000)/ln(1.01) = 995.3: bucket 995, upper bound 1.01^996 µs.
		{0.01, time.Microsecond},
		{0.5, time.Duration(float64(time.Microsecond) * math.Pow(1.01, 996))},
		{0.99, time.Duration(float64(time.Microsecond) * math.Pow(1.01, 996))},
		// ln(6e8)/ln(1.01) = 2031.3: bucket 2031.
		{1, time.Duration(float64(time.Microsecond) * math.Pow(1.01, 2032))},
	} {
		if got := h.quantile(tc.q); got != tc.want {
			t.Errorf("quantile(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if h.n != 100 || len(h.counts) != 2033 {
		t.Errorf("n = %d, len(counts) = %d, want 100 and 2033", h.n, len(h.counts))
	}
}
