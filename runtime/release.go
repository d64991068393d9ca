package runtime

import "time"

// WindowReleaser is implemented by a [ThrottleWindowStore] that spreads the
// release of the calls a throttle window holds back (issue 22, beyond the
// published policy: retry-behavior.md §8a). [*WindowStore] implements it,
// and runtime/redisstore's Store through its mirror; a store that does not
// releases every waiter at the window's end.
type WindowReleaser interface {
	// ReleaseAt returns when a call held back by the window of dimension
	// (DimensionUser or DimensionAPIUser) of operation by identity, ending
	// at until, may be sent; r is a uniform random value in [0,1). A
	// release point after latest is not taken (and not counted): it
	// returns until, and the caller waits for that or gives up.
	ReleaseAt(identity, operation, dimension string, until, latest time.Time, r float64) time.Time
}

var _ WindowReleaser = (*WindowStore)(nil)

// windowShape is what a store knows of a window besides its end: its
// length and limit (from the throttle header's Time and Limit; the
// longest TimeLeft seen when Time is absent), and how many waiters were
// released into the window that follows the one ending at relEnd.
type windowShape struct {
	length time.Duration
	limit  int64
	relEnd time.Time
	relN   int64
}

// ReleaseAt spreads the calls a window holds back over the start of the
// next window instead of releasing them all at its end, where they would
// all land in its first milliseconds and exhaust it at once (issue 22: 100 %
// of requests in the first 50 ms after a boundary): equal-jitter style, the
// fixed part is the wait for the window's end and the random part is
// r × half the window's length. Waiters are paced by the window's Limit: the
// first Limit released into the next window go into it, the next Limit into
// the one after, and so on (this process's waiters; a fleet that shares
// windows spreads them over the same span, so its collisions fall with the
// spread, but pacing counts each process's own). A window of unknown shape
// releases at until; so does one whose release point would come after
// latest (the caller's max delay), which is then not counted.
func (s *WindowStore) ReleaseAt(identity, operation, dimension string, until, latest time.Time, r float64) time.Time {
	k := windowKey{identity: identity, operation: operation}
	if dimension == DimensionUser {
		k = windowKey{identity: identity, user: true}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, ok := s.shapes[k]
	if !ok || sh.length <= 0 {
		return until
	}
	if gap := until.Sub(sh.relEnd); gap >= sh.length/2 || gap <= -sh.length/2 {
		// Another window (a retry's until is its own clock reading plus
		// TimeLeft: within half a window of the recorded end is the same).
		sh.relEnd, sh.relN = until, 0
	}
	var slot int64
	if sh.limit > 0 {
		slot = sh.relN / sh.limit
	}
	at := releasePoint(until, sh.length, slot, r)
	if at.After(latest) {
		s.shapes[k] = sh
		return until
	}
	sh.relN++
	s.shapes[k] = sh
	return at
}

// releasePoint is the rule of ReleaseAt: until + slot × length + r ×
// length / 2.
func releasePoint(until time.Time, length time.Duration, slot int64, r float64) time.Time {
	return until.Add(time.Duration(slot)*length + time.Duration(r*float64(length/2)))
}

// releaseAt is when a call held back by a window until `until` is sent: the
// store's spread release (WindowReleaser) when it has one and it comes no
// later than latest, else until.
func (c *Client) releaseAt(operation, dimension string, until, latest time.Time) time.Time {
	rel, ok := c.windows.(WindowReleaser)
	if !ok || dimension == "" {
		return until
	}
	if t := rel.ReleaseAt(c.identity, operation, dimension, until, latest, c.rand()); t.After(until) {
		return t
	}
	return until
}
