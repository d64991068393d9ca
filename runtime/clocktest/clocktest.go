// Package clocktest provides a fake engine.Clock for tests: time moves only
// when something sleeps, so retries are instantaneous and their delays exact.
package clocktest

import (
	"context"
	"sync"
	"time"
)

// Clock is a fake clock. Sleep advances Now by the full duration at once
// (unless the context is already done) and records the duration. The zero
// value starts at the zero time; use New for a fixed start. Safe for
// concurrent use.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

// New returns a fake clock reading start.
func New(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep returns ctx.Err() if ctx is done; otherwise it advances the clock by
// d (d ≤ 0 advances nothing and records nothing) and returns nil.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.sleeps = append(c.sleeps, d)
	return nil
}

// Advance moves the clock forward by d without recording a sleep.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Set moves the clock to t (forward or back) without recording a sleep.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// Sleeps returns a copy of the durations slept so far, in order.
func (c *Clock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}
