package engine

import (
	"context"
	"time"
)

// Clock is the runtime's source of time. Every wait goes through it, so a
// fake clock makes retries instantaneous and exact in tests.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Sleep waits for d, or until ctx is done. It returns nil after the full
	// wait and ctx's error otherwise; d ≤ 0 returns at once. Implementations
	// release any timer on every path.
	Sleep(ctx context.Context, d time.Duration) error
}

// SystemClock is the real clock: time.Now and a time.Timer that is stopped
// on every exit path.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// Sleep waits for d or until ctx is done; it returns ctx.Err() in the latter
// case.
func (SystemClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
