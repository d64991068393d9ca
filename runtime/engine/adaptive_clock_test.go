package engine

import (
	"context"
	"sync"
	"time"
)

// adaptiveEpoch is "time 0" of the vectors: the Unix epoch, so bucket
// boundaries fall on multiples of 0.5 s of the timestamps.
var adaptiveEpoch = time.Unix(0, 0)

// adaptiveAt is the fake time `seconds` after adaptiveEpoch.
func adaptiveAt(seconds float64) time.Time {
	return adaptiveEpoch.Add(time.Duration(seconds * float64(time.Second)))
}

// adaptiveManualClock is a clock whose Sleep blocks until Advance reaches
// its end or ctx is done. Every Sleep reports its d on the sleeps channel
// once it is registered, so a test knows when a caller is blocked.
type adaptiveManualClock struct {
	mu       sync.Mutex
	now      time.Time
	sleepers map[*manualSleeper]struct{}
	sleeps   chan time.Duration
}

type manualSleeper struct {
	until time.Time
	done  chan struct{}
}

func newAdaptiveManualClock(now time.Time) *adaptiveManualClock {
	return &adaptiveManualClock{
		now:      now,
		sleepers: make(map[*manualSleeper]struct{}),
		sleeps:   make(chan time.Duration, 16),
	}
}

func (c *adaptiveManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *adaptiveManualClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	c.mu.Lock()
	s := &manualSleeper{until: c.now.Add(d), done: make(chan struct{})}
	c.sleepers[s] = struct{}{}
	c.mu.Unlock()
	c.sleeps <- d
	select {
	case <-s.done:
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.sleepers, s)
		c.mu.Unlock()
		return ctx.Err()
	}
}

// Advance moves time forward by d and ends the sleeps that are due.
func (c *adaptiveManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for s := range c.sleepers {
		if !s.until.After(c.now) {
			close(s.done)
			delete(c.sleepers, s)
		}
	}
}

// epoch is the fake clocks' start in the window and release tests.
var epoch = time.Unix(0, 0)
