package engine

import (
	"math"
	"strings"
	"time"
)

// Default names of the throttle headers, used when runtime.ThrottleControl leaves
// a name empty.
const (
	// DefaultUserAPIHeader carries the "API + User" dimension.
	DefaultUserAPIHeader = "X-RateLimit-User-API"
	// DefaultUserHeader carries the "User" dimension.
	DefaultUserHeader = "X-RateLimit-User"
)

// ThrottleQuota is the parsed value of one throttle header (one dimension),
// such as
// `X-RateLimit-User-API: Remain:0,Limit:2,Time:1000,TimeLeft:122,Reset:1637835220000`
// (retry-behavior.md §8).
type ThrottleQuota struct {
	// Present reports whether the header was there and held at least one
	// usable field.
	Present bool
	// Remain is the calls left in the window: -1 = quota sufficient,
	// 0 = throttled. Limit is the calls allowed per window.
	Remain, Limit int64
	// Window is the window's length (Time, ms on the wire); TimeLeft is
	// what is left of the current window (ms on the wire).
	Window, TimeLeft time.Duration
	// Reset is the start of the next window (epoch ms on the wire); zero
	// when absent.
	Reset time.Time
}

// ThrottleHeaders holds the parsed throttle headers of one response: both
// dimensions.
type ThrottleHeaders struct {
	// UserAPI is the "API + User" dimension (X-RateLimit-User-API).
	UserAPI ThrottleQuota
	// User is the "User" dimension (X-RateLimit-User).
	User ThrottleQuota
}

// Throttled reports whether q says the quota of its dimension is used up:
// the header was present and its Remain is 0 (retry-behavior.md §8).
func (q ThrottleQuota) Throttled() bool { return q.Present && q.Remain == 0 }

// Throttled reports whether either dimension is throttled (Remain 0).
func (i ThrottleHeaders) Throttled() bool { return i.UserAPI.Throttled() || i.User.Throttled() }

// ParseThrottleLines parses every line of one throttle header in order, as
// if they were one comma-separated value: a field of a later line replaces
// the same field of an earlier one.
func ParseThrottleLines(lines []string) ThrottleQuota {
	q := ThrottleQuota{Remain: -1}
	for _, v := range lines {
		q.parse(v)
	}
	return q
}

// parseThrottleHeader parses one throttle header value such as
// "Remain:0,Limit:2,Time:1000,TimeLeft:122,Reset:1637835220000"
// (retry-behavior.md §8): comma-separated Key:Value pairs in any order, keys
// compared ASCII case-insensitively, whitespace around keys and values
// trimmed, unknown keys ignored, the last usable value of a repeated key kept.
//
// Values are decimal integers: Remain (calls left; -1 = quota sufficient,
// 0 = throttled), Limit (calls per window, ≥ 0), Time (window length in ms,
// ≥ 0), TimeLeft (ms left in the current window, ≥ 0) and Reset (start of the
// next window, epoch ms, ≥ 0). A malformed pair — no colon, a value that is
// not an integer, overflows int64, or is out of the field's range — is
// ignored; the rest of the value still counts. Time and TimeLeft too large
// for time.Duration are clamped to the longest Duration. Remain is -1 when
// the value gives no usable Remain, so that a header without Remain never
// reads as throttled. Present is true when at least one field was usable.
//
// parseThrottleHeader never fails, never panics and does not allocate.
func parseThrottleHeader(value string) ThrottleQuota {
	q := ThrottleQuota{Remain: -1}
	q.parse(value)
	return q
}

// parse reads the pairs of value into q (parseThrottleHeader).
func (q *ThrottleQuota) parse(value string) {
	for value != "" {
		var pair string
		pair, value, _ = strings.Cut(value, ",")
		key, val, ok := strings.Cut(pair, ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if asciiEqualFold(key, "TimeLeft") || asciiEqualFold(key, "Time") {
			// Durations: a count of ms too large for time.Duration (or
			// int64) is clamped to the longest Duration, never dropped;
			// the client clamps it again to its max throttle window.
			d, ok := parseUnits(val, time.Millisecond)
			if !ok {
				continue
			}
			if asciiEqualFold(key, "Time") {
				q.Window = d
			} else {
				q.TimeLeft = d
			}
			q.Present = true
			continue
		}
		n, ok := parseInt64(val)
		if !ok {
			continue
		}
		if q.setField(key, n) {
			q.Present = true
		}
	}
}

// setField stores n under key when key is known and n is in its range, and
// reports whether it did.
func (q *ThrottleQuota) setField(key string, n int64) bool {
	switch {
	case asciiEqualFold(key, "Remain"):
		if n < -1 {
			return false
		}
		q.Remain = n
	case asciiEqualFold(key, "Limit"):
		if n < 0 {
			return false
		}
		q.Limit = n
	case asciiEqualFold(key, "Reset"):
		if n < 0 {
			return false
		}
		q.Reset = time.UnixMilli(n)
	default:
		return false
	}
	return true
}

// parseInt64 parses an optionally '-'-signed decimal integer without
// allocating (strconv.ParseInt allocates its error). It reports false for an
// empty string, any non-digit, and values outside int64.
func parseInt64(s string) (int64, bool) {
	neg := false
	if s != "" && s[0] == '-' {
		neg, s = true, s[1:]
	}
	if s == "" {
		return 0, false
	}
	// Accumulate negatively: -MaxInt64-1 fits, MaxInt64+1 does not.
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n < (math.MinInt64+d)/10 {
			return 0, false
		}
		n = n*10 - d
	}
	if !neg {
		if n == math.MinInt64 {
			return 0, false
		}
		n = -n
	}
	return n, true
}

// asciiEqualFold reports whether s equals the ASCII word t, ignoring ASCII
// case only (strings.EqualFold would also match "Reſet").
func asciiEqualFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		a, b := s[i], t[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}
