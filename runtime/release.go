package runtime

import (
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// releaseAt is when a call held back by a window until `until` is sent: the
// store's spread release (WindowReleaser; reserve as there) when it has
// one and it comes no later than latest, else until.
func (cl *callMachine) releaseAt(operation, dimension string, until, latest time.Time, reserve bool) time.Time {
	c := cl.c
	rel, ok := c.windows.(engine.WindowReleaser)
	if !ok || dimension == "" {
		return until
	}
	if t := rel.ReleaseAt(cl.scope().identity, operation, dimension, until, latest, cl.rand(), reserve); t.After(until) {
		return t
	}
	return until
}

// rand draws the call's jitter: from its own Options.Rand when it has one
// (a call's options replace the client's, options.go), else the client's.
func (cl *callMachine) rand() float64 {
	if r := cl.opts.Rand; r != nil {
		return r()
	}
	return cl.c.rand()
}

// spreadRetry is the delay of a retry after a throttled response whose
// delay (max(TimeLeft, jitter), §8) is delay: when the window it recorded
// ends no later than that, the retry is placed by the release schedule
// (ReleaseAt, not reserved: it is counted when Blocked lets it go), never
// earlier than delay nor past maxDelay.
func (cl *callMachine) spreadRetry(operation string, delay, maxDelay time.Duration) time.Duration {
	c := cl.c
	now := c.clock.Now()
	until, dim, ok := c.windows.Blocked(cl.scope().identity, operation, now)
	if !ok {
		return delay
	}
	return max(delay, cl.releaseAt(operation, dim, until, now.Add(maxDelay), false).Sub(now))
}
