package engine

import (
	"sync"
	"time"
)

// The dimensions of a throttle window (retry-behavior.md §8), as reported in
// runtime.ThrottleWindowError.Dimension.
const (
	// DimensionUser is the "User" dimension (X-RateLimit-User): its window
	// blocks every operation of one throttle identity.
	DimensionUser = "user"
	// DimensionAPIUser is the "API + User" dimension (X-RateLimit-User-API):
	// its window blocks one operation of one throttle identity.
	DimensionAPIUser = "api_user"
)

// ThrottleWindowStore is where a client keeps its throttle windows
// (retry-behavior.md §8): runtime.Client records the windows each response reports
// and asks before every attempt whether one covers it. [*WindowStore], the
// default, keeps them in this process; runtime/redisstore shares them between
// processes through Redis. Set one with runtime.Options.Windows.
//
// Implementations must be safe for concurrent use, must not block or fail
// (a store that depends on a remote service falls back to its local state and
// says so through [StoreFaultReporter]), and must honour the semantics of
// [WindowStore.Record] and [WindowStore.Blocked]: a window covers [start,
// end); of two windows of one key the later end wins.
type ThrottleWindowStore interface {
	// Record remembers the windows that info reports for operation of
	// identity, as seen at now (see [WindowStore.Record]).
	Record(identity, operation string, info ThrottleHeaders, now time.Time)
	// Blocked reports whether a call of operation by identity starting at
	// now falls inside a window, until when, and in which dimension (see
	// [WindowStore.Blocked]).
	Blocked(identity, operation string, now time.Time) (until time.Time, dimension string, ok bool)
}

// StoreFaultReporter is implemented by a [ThrottleWindowStore] or
// [RetryBudget] that shares state with other processes (runtime/redisstore).
// StoreFault returns the error that made it fall back to its local state, or
// nil while it shares. The client copies it into runtime.AttemptInfo.StoreFault
// and logs it; it never fails a call.
type StoreFaultReporter interface {
	StoreFault() error
}

// WindowStore remembers throttle windows as absolute end times
// (retry-behavior.md §8): a "User" window keyed by a throttle identity, an
// "API + User" window keyed by a throttle identity and an operation. A window
// covers [start, end): at its end nothing waits any more. Expired windows are
// dropped as the store is used (an amortised sweep; no goroutine).
//
// WindowStore is the in-process [ThrottleWindowStore], and the default. It
// is safe for concurrent use; share one between clients on purpose. The zero
// value is an empty store ready to use.
type WindowStore struct {
	mu sync.Mutex
	// ends holds each window's absolute end; ended windows linger until a
	// sweep or a lookup of their key drops them.
	ends map[windowKey]time.Time
	// shapes holds each window's length and limit, and how many waiters
	// were released into the window after it (ReleaseAt); dropped with
	// the window.
	shapes map[windowKey]windowShape
	// untilSweep counts down the Record calls until the next sweep; each
	// sweep sets it to the number of windows left, so sweeping costs O(1)
	// per Record, amortised.
	untilSweep int
}

// windowKey identifies one window: operation is "" for the User dimension.
type windowKey struct {
	identity, operation string
	user                bool
}

// DefaultMaxThrottleWindow is the longest a client remembers one throttle
// window (§8): 10 min. A header's TimeLeft above the cap
// (Options.MaxThrottleWindow) is clamped to it, so one bogus value
// ("TimeLeft:9223372036854") cannot block a client for centuries.
const DefaultMaxThrottleWindow = 10 * time.Minute

// DefaultThrottleMaxDelay is the max delay of throttle control (§8) when
// neither the spec nor the options set one: 120 s, aliyun-java-sdk-core's
// RetryUtil.MAX_BACKOFF (Alibaba's published example sets 20 s).
const DefaultThrottleMaxDelay = 120 * time.Second

// NewWindowStore returns an empty store.
func NewWindowStore() *WindowStore { return &WindowStore{} }

// Record remembers the windows that info reports for operation of identity,
// as seen at now: for each dimension whose Remain is 0 and whose TimeLeft is
// positive, a window ending at now + TimeLeft (§8: the time left, not the
// window's full length). A dimension with quota left, or throttled without a
// usable TimeLeft (a throttle known only from the error code), records
// nothing. When a window of the same key exists, the later end is kept.
func (s *WindowStore) Record(identity, operation string, info ThrottleHeaders, now time.Time) {
	api, user := windowEnd(info.UserAPI, now), windowEnd(info.User, now)
	if api.IsZero() && user.IsZero() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.untilSweep--; s.untilSweep < 0 {
		s.sweep(now)
	}
	if s.ends == nil {
		s.ends = make(map[windowKey]time.Time)
	}
	s.extend(windowKey{identity: identity, operation: operation}, api, info.UserAPI)
	s.extend(windowKey{identity: identity, user: true}, user, info.User)
}

// windowEnd returns now + q.TimeLeft when q is throttled with a positive
// TimeLeft, else the zero time.
func windowEnd(q ThrottleQuota, now time.Time) time.Time {
	if !q.Throttled() || q.TimeLeft <= 0 {
		return time.Time{}
	}
	return now.Add(q.TimeLeft)
}

// extend sets k's end to end unless end is zero or k already ends later,
// and remembers q's window length (Window) and Limit when present.
func (s *WindowStore) extend(k windowKey, end time.Time, q ThrottleQuota) {
	if end.IsZero() {
		return
	}
	if old, ok := s.ends[k]; !ok || end.After(old) {
		s.ends[k] = end
	}
	if s.shapes == nil {
		s.shapes = make(map[windowKey]windowShape)
	}
	sh := s.shapes[k]
	if q.Window > 0 {
		sh.length = q.Window
	}
	if q.Limit > 0 {
		sh.limit = q.Limit
	}
	s.shapes[k] = sh
}

// sweep drops every window that has ended at now and restarts the
// countdown.
func (s *WindowStore) sweep(now time.Time) {
	for k, end := range s.ends {
		if !now.Before(end) {
			delete(s.ends, k)
		}
	}
	for k, sh := range s.shapes {
		if _, ok := s.ends[k]; !ok && (sh.relEnd.IsZero() || sh.limit <= 0 ||
			now.After(sh.relEnd.Add(time.Duration(sh.relN/sh.limit+2)*sh.length))) {
			delete(s.shapes, k)
		}
	}
	s.untilSweep = len(s.ends)
}

// Blocked reports whether a call of operation by identity starting at now
// falls inside a window: until is the latest end among the windows covering
// it (the User window of identity and the API + User window of identity and
// operation), dimension is [DimensionUser] or [DimensionAPIUser] for the
// window that ends last (User on a tie, since it blocks more), and ok is
// false with zero values when no window covers now. The caller waits
// until.Sub(now) or, when that is above max delay, fails at once with a
// runtime.ThrottleWindowError (§8). After a window whose held-back calls were
// released by ReleaseAt, the windows that follow take at most its Limit
// calls each (§8a): a call past that is blocked until the next window with
// room, and a call that goes is counted.
func (s *WindowStore) Blocked(identity, operation string, now time.Time) (until time.Time, dimension string, ok bool) {
	api, user := s.Windows(identity, operation, now)
	switch {
	case user.IsZero() && api.IsZero():
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.pace(identity, operation, now)
	case !user.Before(api):
		return user, DimensionUser, true
	default:
		return api, DimensionAPIUser, true
	}
}

// Windows returns the ends of the windows in force at now for operation of
// identity: apiUser for the API + User dimension and user for the User
// dimension, each the zero time when no window of that dimension covers now.
// Windows that have ended are dropped.
func (s *WindowStore) Windows(identity, operation string, now time.Time) (apiUser, user time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inForce(windowKey{identity: identity, operation: operation}, now),
		s.inForce(windowKey{identity: identity, user: true}, now)
}

// inForce returns k's end if it covers now; an ended window is dropped and
// gives the zero time.
func (s *WindowStore) inForce(k windowKey, now time.Time) time.Time {
	end, ok := s.ends[k]
	if !ok {
		return time.Time{}
	}
	if !now.Before(end) {
		delete(s.ends, k)
		return time.Time{}
	}
	return end
}

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

var _ WindowReleaser = (*WindowStore)(nil)
