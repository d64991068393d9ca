package runtime

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// TestServerDelayThroughDo checks what a call sleeps after a server-delay
// header, with r=1 so the computed transient backoff t is exactly 50 ms.
func TestServerDelayThroughDo(t *testing.T) {
	const tr = 50 * time.Millisecond // t: first transient retry with r=1
	for _, tc := range []struct {
		name        string
		header, val string
		want        time.Duration
	}{
		{"x-amz-retry-after below t gives t", engine.HeaderAmzRetryAfter, "10", tr},
		{"x-amz-retry-after inside [t, t+5 s] is used", engine.HeaderAmzRetryAfter, "3000", ms(3000)},
		{"x-amz-retry-after at t+5 s is used", engine.HeaderAmzRetryAfter, "5050", ms(5050)},
		{"x-amz-retry-after above t+5 s is clamped to t+5 s", engine.HeaderAmzRetryAfter, "9000", tr + 5*time.Second},
		{"x-amz-retry-after overflowing is clamped to t+5 s", engine.HeaderAmzRetryAfter, "99999999999999999999", tr + 5*time.Second},
		{"x-amz-retry-after with a plus sign is read as Go v2's ParseInt does", engine.HeaderAmzRetryAfter, "+1500", ms(1500)},
		{"x-amz-retry-after with two signs is ignored", engine.HeaderAmzRetryAfter, "++1500", tr},
		{"x-amz-retry-after invalid is ignored", engine.HeaderAmzRetryAfter, "soon", tr},
		{"x-amz-retry-after negative is ignored", engine.HeaderAmzRetryAfter, "-3000", tr},
		{"x-amz-retry-after empty is ignored", engine.HeaderAmzRetryAfter, "", tr},
		{"x-amz-retry-after fractional is ignored", engine.HeaderAmzRetryAfter, "3000.5", tr},
		{"Retry-After delta-seconds above t is used", engine.HeaderRetryAfter, "3", 3 * time.Second},
		{"Retry-After 0 gives t", engine.HeaderRetryAfter, "0", tr},
		{"Retry-After equal to max server delay is slept", engine.HeaderRetryAfter, "20", 20 * time.Second},
		{"Retry-After HTTP-date relative to the clock", engine.HeaderRetryAfter, "Thu, 01 Jan 1970 00:00:10 GMT", 10 * time.Second},
		{"Retry-After past date gives t", engine.HeaderRetryAfter, "Thu, 01 Jan 1970 00:00:00 GMT", tr},
		{"Retry-After invalid is ignored", engine.HeaderRetryAfter, "later", tr},
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
	svc.ServerDelayHeaders = []string{engine.HeaderAmzRetryAfter}
	h := newHarness(t, svc, 1, script(status(503, engine.HeaderRetryAfter, "3"), status(200)), nil)
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
			h := newHarnessAt(t, future, nil, 1, script(status(503, engine.HeaderRetryAfter, tc.val)), tc.edit)
			ctx := context.Background()
			if tc.deadline > 0 {
				ctx = h.deadline(t, tc.deadline)
			}
			md, err := h.call(ctx, opPost)
			var sde *ServerDelayError
			require.ErrorAs(t, err, &sde)
			require.Equal(t, tc.want, sde.Delay)
			require.Positive(t, sde.Delay)
			require.Equal(t, engine.HeaderRetryAfter, sde.Header)
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

// TestRetryAfterDateIsMeasuredAgainstTheResponsesDate: an HTTP-date
// Retry-After is relative to the server's clock (RFC 9110 §10.2.3), so the
// delay is Retry-After − Date of the same response when it has a valid Date
// (§6.6.1), else measured against the client's clock; delta-seconds are
// unaffected. The client's clock is at 1970-01-01 00:00:00 UTC; r=1 gives
// t = 50 ms (trial F17: a server 1 h ahead made "2 s" a refused 1 h wait).
func TestRetryAfterDateIsMeasuredAgainstTheResponsesDate(t *testing.T) {
	const tr = 50 * time.Millisecond
	for _, tc := range []struct {
		name, date, retryAfter string
		want                   time.Duration
	}{
		{"server clock 1 h ahead: 2 s, not 1 h 2 s", "Thu, 01 Jan 1970 01:00:00 GMT", "Thu, 01 Jan 1970 01:00:02 GMT", 2 * time.Second},
		{"server clock 1 h behind: 3 s, not a past date", "Wed, 31 Dec 1969 23:00:00 GMT", "Wed, 31 Dec 1969 23:00:03 GMT", 3 * time.Second},
		{"a date before the response's Date gives t", "Thu, 01 Jan 1970 01:00:00 GMT", "Thu, 01 Jan 1970 00:59:00 GMT", tr},
		{"a malformed Date: the client's clock", "yesterday", "Thu, 01 Jan 1970 00:00:10 GMT", 10 * time.Second},
		{"no Date: the client's clock", "", "Thu, 01 Jan 1970 00:00:04 GMT", 4 * time.Second},
		{"delta-seconds ignore Date", "Thu, 01 Jan 1970 01:00:00 GMT", "5", 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kv := []string{engine.HeaderRetryAfter, tc.retryAfter}
			if tc.date != "" {
				kv = append(kv, "Date", tc.date)
			}
			h := newHarness(t, nil, 1, script(status(503, kv...), status(200)), nil)
			md, err := h.call(context.Background(), opPost)
			require.NoError(t, err)
			require.Equal(t, 2, md.Attempts)
			require.Equal(t, []time.Duration{tc.want}, h.clock.Sleeps())
		})
	}
}
