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
	// at until, may be sent; r is a uniform random value in [0,1). With
	// reserve the call is counted in the window it is released into (it
	// is sent then without asking again); without, it is only placed, and
	// counted when it asks Blocked at that time (a retry after a
	// throttled response's delay). A release point after latest is not
	// taken (and not counted): it returns until, and the caller waits for
	// that or gives up.
	ReleaseAt(identity, operation, dimension string, until, latest time.Time, r float64, reserve bool) time.Time
}

var _ WindowReleaser = (*WindowStore)(nil)

// windowShape is what a store knows of a window besides its end: its
// length and limit (from the throttle header's Time and Limit; 0 when
// absent: a window of unknown length is not spread), and the release
// schedule: relEnd is the end of the window that first held calls back,
// relN the calls counted in the windows after it.
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
// r × half the window's length. Calls are paced by the window's Limit: from
// the end of the window that first held calls back, the windows that follow
// (each of the window's length) take Limit calls each, counting both the
// calls released into them and the calls sent unblocked during them
// (Blocked counts those, and holds back the calls past Limit to the next
// window with room). The count is this process's: a fleet that shares
// windows spreads its releases over the same span, so its collisions fall
// with the spread. A window of unknown shape releases at until; so does one
// whose release point would come after latest (the caller's max delay),
// which is then not counted. Only a reserved call is counted here (see
// WindowReleaser).
func (s *WindowStore) ReleaseAt(identity, operation, dimension string, until, latest time.Time, r float64, reserve bool) time.Time {
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
	// The period of the schedule that until starts (a retry's until is its
	// own clock reading plus TimeLeft: within half a window is the same).
	p := int64(-1)
	if !sh.relEnd.IsZero() {
		if off := until.Sub(sh.relEnd); off > -sh.length/2 {
			p = int64((off + sh.length/2) / sh.length)
			if sh.limit > 0 && p > sh.relN/sh.limit+1 {
				p = -1 // past the schedule: a new one
			}
		}
	}
	if p < 0 {
		sh.relEnd, sh.relN, p = until, 0, 0
	}
	slot := p
	n := sh.relN
	if sh.limit > 0 {
		n = max(n, p*sh.limit)
		slot = n / sh.limit
	}
	at := releasePoint(sh.relEnd, sh.length, slot, r)
	if at.After(latest) {
		s.shapes[k] = sh
		return until
	}
	if reserve {
		sh.relN = n + 1
	}
	s.shapes[k] = sh
	return at
}

// pace applies the schedule of ReleaseAt to a call at now that no window
// holds back (s.mu held): while the window after a held-back window has
// room (fewer than Limit calls counted in it), the call is counted and goes
// (ok false); once full, it is held until the next window with room, and
// until is that window's start (ReleaseAt then counts it and spreads it).
// Schedules that have ended are dropped.
func (s *WindowStore) pace(identity, operation string, now time.Time) (until time.Time, dimension string, ok bool) {
	for _, k := range [2]windowKey{{identity: identity, user: true}, {identity: identity, operation: operation}} {
		sh, found := s.shapes[k]
		if !found || sh.limit <= 0 || sh.relEnd.IsZero() || now.Before(sh.relEnd) {
			continue
		}
		p := int64(now.Sub(sh.relEnd) / sh.length)
		n := max(sh.relN, p*sh.limit)
		if q := n / sh.limit; q > p {
			dim := DimensionAPIUser
			if k.user {
				dim = DimensionUser
			}
			return sh.relEnd.Add(time.Duration(q) * sh.length), dim, true
		}
		if p > sh.relN/sh.limit+1 {
			if _, live := s.ends[k]; !live {
				delete(s.shapes, k) // the schedule is over
			}
			continue
		}
		sh.relN = n + 1
		s.shapes[k] = sh
	}
	return time.Time{}, "", false
}

// releasePoint is the rule of ReleaseAt: until + slot × length + r ×
// length / 2.
func releasePoint(until time.Time, length time.Duration, slot int64, r float64) time.Time {
	return until.Add(time.Duration(slot)*length + time.Duration(r*float64(length/2)))
}

// releaseAt is when a call held back by a window until `until` is sent: the
// store's spread release (WindowReleaser; reserve as there) when it has
// one and it comes no later than latest, else until.
func (c *Client) releaseAt(operation, dimension string, until, latest time.Time, reserve bool) time.Time {
	rel, ok := c.windows.(WindowReleaser)
	if !ok || dimension == "" {
		return until
	}
	if t := rel.ReleaseAt(c.identity, operation, dimension, until, latest, c.rand(), reserve); t.After(until) {
		return t
	}
	return until
}

// spreadRetry is the delay of a retry after a throttled response whose
// delay (max(TimeLeft, jitter), §8) is delay: when the window it recorded
// ends no later than that, the retry is placed by the release schedule
// (ReleaseAt, not reserved: it is counted when Blocked lets it go), never
// earlier than delay nor past maxDelay.
func (c *Client) spreadRetry(operation string, delay, maxDelay time.Duration) time.Duration {
	now := c.clock.Now()
	until, dim, ok := c.windows.Blocked(c.identity, operation, now)
	if !ok {
		return delay
	}
	return max(delay, c.releaseAt(operation, dim, until, now.Add(maxDelay), false).Sub(now))
}
