package runtime

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestParseRetryAfter checks RFC 9110 Retry-After: delta-seconds, the three
// HTTP-date forms, past dates and overflow (retry-behavior.md §5).
func TestParseRetryAfter(t *testing.T) {
	now := time.Date(1994, time.November, 6, 8, 49, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, value string
		want        time.Duration
		ok          bool
	}{
		{"delta-seconds", "120", 120 * time.Second, true},
		{"delta-seconds zero", "0", 0, true},
		{"delta-seconds with surrounding space", " 7 ", 7 * time.Second, true},
		{"IMF-fixdate (RFC 1123)", "Sun, 06 Nov 1994 08:49:37 GMT", 37 * time.Second, true},
		{"RFC 850 date", "Sunday, 06-Nov-94 08:49:37 GMT", 37 * time.Second, true},
		{"asctime date", "Sun Nov  6 08:49:37 1994", 37 * time.Second, true},
		{"past date is 0", "Sun, 06 Nov 1994 08:48:00 GMT", 0, true},
		{"date equal to now is 0", "Sun, 06 Nov 1994 08:49:00 GMT", 0, true},
		{"delta just past the largest Duration is too long", "9223372037", math.MaxInt64, true},
		{"delta overflowing int64 is too long", "99999999999999999999", math.MaxInt64, true},
		{"largest delta that fits", "9223372036", 9223372036 * time.Second, true},
		{"empty is absent", "", 0, false},
		{"negative is malformed", "-1", 0, false},
		{"fraction is malformed", "1.5", 0, false},
		{"garbage is malformed", "soon", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, ok := parseRetryAfter(tc.value, now)
			require.Equal(t, tc.ok, ok)
			require.Equal(t, tc.want, d)
			require.GreaterOrEqual(t, d, time.Duration(0), "never negative")
		})
	}
}

// TestServerDelayThroughDo checks what a call sleeps after a server-delay
// header, with r=1 so the computed transient backoff t is exactly 50 ms.
func TestServerDelayThroughDo(t *testing.T) {
	const tr = 50 * time.Millisecond // t: first transient retry with r=1
	for _, tc := range []struct {
		name        string
		header, val string
		want        time.Duration
	}{
		{"x-amz-retry-after below t gives t", HeaderAmzRetryAfter, "10", tr},
		{"x-amz-retry-after inside [t, t+5 s] is used", HeaderAmzRetryAfter, "3000", ms(3000)},
		{"x-amz-retry-after at t+5 s is used", HeaderAmzRetryAfter, "5050", ms(5050)},
		{"x-amz-retry-after above t+5 s is clamped to t+5 s", HeaderAmzRetryAfter, "9000", tr + 5*time.Second},
		{"x-amz-retry-after overflowing is clamped to t+5 s", HeaderAmzRetryAfter, "99999999999999999999", tr + 5*time.Second},
		{"x-amz-retry-after with a plus sign is read as Go v2's ParseInt does", HeaderAmzRetryAfter, "+1500", ms(1500)},
		{"x-amz-retry-after with two signs is ignored", HeaderAmzRetryAfter, "++1500", tr},
		{"x-amz-retry-after invalid is ignored", HeaderAmzRetryAfter, "soon", tr},
		{"x-amz-retry-after negative is ignored", HeaderAmzRetryAfter, "-3000", tr},
		{"x-amz-retry-after empty is ignored", HeaderAmzRetryAfter, "", tr},
		{"x-amz-retry-after fractional is ignored", HeaderAmzRetryAfter, "3000.5", tr},
		{"Retry-After delta-seconds above t is used", HeaderRetryAfter, "3", 3 * time.Second},
		{"Retry-After 0 gives t", HeaderRetryAfter, "0", tr},
		{"Retry-After equal to max server delay is slept", HeaderRetryAfter, "20", 20 * time.Second},
		{"Retry-After HTTP-date relative to the clock", HeaderRetryAfter, "Thu, 01 Jan 1970 00:00:10 GMT", 10 * time.Second},
		{"Retry-After past date gives t", HeaderRetryAfter, "Thu, 01 Jan 1970 00:00:00 GMT", tr},
		{"Retry-After invalid is ignored", HeaderRetryAfter, "later", tr},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil, 1, script(status(503, tc.header, tc.val), status(200)), nil)
			md, err := h.call(context.Background(), opPost)
			require.NoError(t, err)
			require.Equal(t, 2, md.Attempts)
			require.Equal(t, []time.Duration{tc.want}, h.clock.Sleeps())
			require.Equal(t, 500, h.c.RetryQuota().Balance(), "retry paid 14 and was refunded")
		})
	}
}

// TestServerDelayUndeclaredHeaderIgnored: a server-delay header the service
// does not list in ServerDelayHeaders changes nothing.
func TestServerDelayUndeclaredHeaderIgnored(t *testing.T) {
	svc := testService()
	svc.ServerDelayHeaders = []string{HeaderAmzRetryAfter}
	h := newHarness(t, svc, 1, script(status(503, HeaderRetryAfter, "3"), status(200)), nil)
	_, err := h.call(context.Background(), opPost)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{ms(50)}, h.clock.Sleeps())
}

// TestServerDelayTooLong: a Retry-After longer than the max server delay, or
// than the time left before the deadline, or overflowing, is not slept: the
// call returns a *ServerDelayError carrying the request, and the paid retry
// is refunded (retry-behavior.md §3, §5).
func TestServerDelayTooLong(t *testing.T) {
	for _, tc := range []struct {
		name     string
		val      string
		deadline time.Duration // 0: none
		edit     func(*Options)
		want     time.Duration
	}{
		{name: "above the default max server delay of 20 s", val: "21", want: 21 * time.Second},
		{name: "just past the largest Duration", val: "9223372037", want: math.MaxInt64},
		{name: "overflowing int64", val: "99999999999999999999", want: math.MaxInt64},
		{name: "above a configured max server delay", val: "3",
			edit: func(o *Options) { o.MaxServerDelay = 2 * time.Second }, want: 3 * time.Second},
		{name: "beyond the context deadline", val: "10", deadline: 5 * time.Second, want: 10 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarnessAt(t, future, nil, 1, script(status(503, HeaderRetryAfter, tc.val)), tc.edit)
			ctx := context.Background()
			if tc.deadline > 0 {
				ctx = h.deadline(t, tc.deadline)
			}
			md, err := h.call(ctx, opPost)
			var sde *ServerDelayError
			require.ErrorAs(t, err, &sde)
			require.Equal(t, tc.want, sde.Delay)
			require.Positive(t, sde.Delay)
			require.Equal(t, HeaderRetryAfter, sde.Header)
			var api *APIError
			require.ErrorAs(t, err, &api)
			require.Equal(t, 503, api.HTTPStatusCode)
			require.Equal(t, 1, md.Attempts)
			require.Len(t, h.http.requests(), 1, "no immediate retry")
			require.Empty(t, h.clock.Sleeps(), "nothing slept")
			require.Equal(t, 500, h.c.RetryQuota().Balance(), "paid retry refunded")
		})
	}
}
