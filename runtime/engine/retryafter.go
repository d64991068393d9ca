package engine

import (
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/retrygen/retrygen/runtime/internal/httpsyntax"
)

// amzRetryAfterSlack bounds how far x-amz-retry-after may push a delay past
// the computed backoff: 5 s (§5).
const amzRetryAfterSlack = 5 * time.Second

// DefaultMaxServerDelay is the longest server-directed delay a client
// sleeps unless Options.MaxServerDelay says otherwise: 20 s.
const DefaultMaxServerDelay = 20 * time.Second

// tooLong stands for a delay that overflows time.Duration: it is "too long",
// never negative.
const tooLong = time.Duration(math.MaxInt64)

// parseMillis parses a non-negative decimal integer of milliseconds, as
// x-amz-retry-after and x-acs-retry-after carry. Empty, negative and
// non-integer values are not ok; values that overflow time.Duration saturate
// to tooLong.
func parseMillis(v string) (time.Duration, bool) {
	return parseUnits(strings.TrimSpace(v), time.Millisecond)
}

// parseUnits parses v, a non-empty string of decimal digits (no sign, no
// space), as a count of unit. Anything else is not ok; a count that
// overflows time.Duration saturates to tooLong.
func parseUnits(v string, unit time.Duration) (time.Duration, bool) {
	if !httpsyntax.Digits(v) {
		return 0, false
	}
	n, ok := parseInt64(v)
	if !ok || n > int64(tooLong/unit) {
		return tooLong, true // all digits: only overflow is left
	}
	return time.Duration(n) * unit, true
}

// parseAmzRetryAfter parses an x-amz-retry-after value: a decimal integer
// of ms with an optional '+' sign ("+1500"), as aws-sdk-go-v2 reads it with
// strconv.ParseInt (aws/retry middleware.go adjustForRetryAfterHeader).
// Negative and malformed values are not ok; a value too large for
// time.Duration gives tooLong (Go v2 ignores one too large for int64: the
// delay is then the backoff + 5 s here, the backoff there).
func parseAmzRetryAfter(v string) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "+") {
		v = v[1:]
	}
	return parseUnits(v, time.Millisecond)
}

// ParseACSRetryAfter parses an x-acs-retry-after value (retry-behavior.md
// §5): a positive decimal integer of ms, surrounding whitespace allowed. It
// reports false — the header counts as absent — for empty, 0, negative and
// non-integer values. A value too large for time.Duration gives tooLong, so
// it counts as "above max delay", never as negative.
func ParseACSRetryAfter(v string) (time.Duration, bool) {
	d, ok := parseMillis(v)
	return d, ok && d > 0
}

// parseRetryAfter parses an RFC 9110 Retry-After value: delta-seconds, or an
// HTTP-date in any of its three forms (IMF-fixdate/RFC 1123, RFC 850,
// asctime). A date in the past gives 0. A delta that overflows
// time.Duration gives the largest Duration ("too long", never negative).
// ok is false for an empty or malformed value. clock is called only for an
// HTTP-date (ServerDelay's reads the response's Date header).
func parseRetryAfter(v string, clock func() time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		return parseUnits(v, time.Second) // delta-seconds
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	now := clock()
	if !t.After(now) {
		return 0, true
	}
	return t.Sub(now), true // Sub saturates
}

// ServerDelay applies the server-delay headers the service declares to the
// computed backoff t (§5). It returns the delay to sleep, the header that
// decided it ("" when none did: d == t), and requested, the server's own
// request, which the caller checks against the max server delay and the
// context deadline when bounded is true (Retry-After and x-acs-retry-after;
// x-amz-retry-after is clamped to t + 5 s instead). A later header in the
// service's list wins over an earlier one. An HTTP-date Retry-After is
// measured from the response's Date when valid, else from now (serverNow).
func ServerDelay(h http.Header, headers []string, t time.Duration, now time.Time) (d, requested time.Duration, from string, bounded bool) {
	d = t
	for _, name := range headers {
		v := HeaderGet(h, name)
		if v == "" {
			continue
		}
		switch {
		case strings.EqualFold(name, HeaderAmzRetryAfter):
			if ms, ok := parseAmzRetryAfter(v); ok {
				d, requested, from, bounded = max(t, min(ms, satAdd(t, amzRetryAfterSlack))), ms, HeaderAmzRetryAfter, false
			}
		case strings.EqualFold(name, HeaderRetryAfter):
			if v, ok := parseRetryAfter(v, func() time.Time { return serverNow(h, now) }); ok {
				d, requested, from, bounded = max(t, v), v, HeaderRetryAfter, true
			}
		case strings.EqualFold(name, HeaderACSRetryAfter):
			if ms, ok := ParseACSRetryAfter(v); ok {
				d, requested, from, bounded = ms, ms, HeaderACSRetryAfter, true
			}
		}
	}
	return d, requested, from, bounded
}

// serverNow is the time an HTTP-date Retry-After is measured from: the
// response's Date when it is a valid HTTP-date (an origin server with a
// clock sends one, RFC 9110 §6.6.1; the Retry-After date is on that clock,
// §10.2.3), so a server clock ahead of or behind the client's does not
// lengthen or cancel the wait; else the client's now.
func serverNow(h http.Header, now time.Time) time.Time {
	if v := HeaderGet(h, "Date"); v != "" {
		if t, err := http.ParseTime(strings.TrimSpace(v)); err == nil {
			return t
		}
	}
	return now
}

// satAdd returns a + b for non-negative durations, saturating at the largest
// Duration.
func satAdd(a, b time.Duration) time.Duration {
	if a > tooLong-b {
		return tooLong
	}
	return a + b
}
