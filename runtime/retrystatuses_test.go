package runtime

import (
	"context"
	"errors"
	"math"
	"syscall"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// TestRetryStatuses: a service's RetryStatuses replace rules 6 and 7 (§4):
// listed statuses and ranges are retried (429 as throttling), others are
// not; error codes still decide first. ConnectionErrorsNotRetried makes I/O
// failures non-retryable. Rand 1, so a transient retry sleeps 50 ms and a
// throttling one 1,000 ms.
func TestRetryStatuses(t *testing.T) {
	fiveXX := []StatusRange{{500, 599}, {408, 408}, {429, 429}}
	rows := []classRow{
		{name: "5XX range: 501 is transient", first: status(501), svc: func(s *Service) { s.RetryStatuses = fiveXX }, class: engine.ClassTransient},
		{name: "5XX range: 599 is transient", first: status(599), svc: func(s *Service) { s.RetryStatuses = fiveXX }, class: engine.ClassTransient},
		{name: "listed 408 is transient", first: status(408), svc: func(s *Service) { s.RetryStatuses = fiveXX }, class: engine.ClassTransient},
		{name: "listed 429 is throttling", first: status(429), svc: func(s *Service) { s.RetryStatuses = fiveXX }, class: engine.ClassThrottling},
		{name: "unlisted 503 is non-retryable", first: status(503), svc: func(s *Service) { s.RetryStatuses = []StatusRange{{429, 429}} }, class: engine.ClassNonRetryable},
		{name: "unlisted 429 is non-retryable", first: status(429), svc: func(s *Service) { s.RetryStatuses = []StatusRange{{503, 503}} }, class: engine.ClassNonRetryable},
		{name: "a throttling code still decides on an unlisted status", first: coded(400, "ThrottlingException"),
			svc: func(s *Service) { s.RetryStatuses = []StatusRange{{503, 503}} }, class: engine.ClassThrottling, code: "ThrottlingException"},
		{name: "4XX range: 404 is transient", first: status(404), svc: func(s *Service) { s.RetryStatuses = []StatusRange{{400, 499}} }, class: engine.ClassTransient},
		{name: "connection refused is transient by default", first: step{err: syscall.ECONNREFUSED}, class: engine.ClassTransient},
		{name: "connection refused is non-retryable with ConnectionErrorsNotRetried", first: step{err: syscall.ECONNREFUSED},
			svc: func(s *Service) { s.ConnectionErrorsNotRetried = true }, class: engine.ClassNonRetryable},
	}
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			svc := testService()
			if tc.svc != nil {
				tc.svc(svc)
			}
			var infos []AttemptInfo
			h := newHarness(t, svc, 1, script(tc.first, status(200)), func(o *Options) {
				o.OnAttempt = func(a AttemptInfo) { infos = append(infos, a) }
			})
			_, _ = h.call(context.Background(), opPost)
			require.NotEmpty(t, infos)
			require.Equal(t, tc.class, infos[0].Class)
			require.Equal(t, tc.code, infos[0].Code)
			var want []time.Duration
			switch tc.class {
			case engine.ClassTransient:
				want = []time.Duration{ms(50)}
			case engine.ClassThrottling:
				want = []time.Duration{ms(1000)}
			}
			require.Equal(t, want, h.clock.Sleeps())
		})
	}
}

func TestBackoffCeilingExp(t *testing.T) {
	tests := []struct {
		name     string
		base     time.Duration
		max      time.Duration
		exponent float64
		n        int
		want     time.Duration
	}{
		{"exponent 0 is 2", ms(500), ms(60000), 0, 3, ms(4000)},
		{"exponent 2 is the integer rule", ms(500), ms(60000), 2, 3, ms(4000)},
		{"1.5^0", ms(500), ms(60000), 1.5, 0, ms(500)},
		{"1.5^1", ms(500), ms(60000), 1.5, 1, ms(750)},
		{"1.5^2", ms(500), ms(60000), 1.5, 2, ms(1125)},
		{"1.5^3", ms(500), ms(60000), 1.5, 3, 1687500 * time.Microsecond},
		{"capped at max backoff", ms(500), ms(1000), 1.5, 2, ms(1000)},
		{"exponent 1 is constant", ms(300), ms(60000), 1, 40, ms(300)},
		{"exponent below 1 counts as 1", ms(300), ms(60000), 0.5, 5, ms(300)},
		{"huge n saturates", ms(500), ms(60000), 1.5, math.MaxInt32, ms(60000)},
		{"huge exponent saturates", ms(500), ms(60000), math.MaxFloat64, 2, ms(60000)},
		{"NaN exponent saturates", ms(500), ms(60000), math.NaN(), 2, ms(60000)},
		{"negative n is n 0", ms(500), ms(60000), 3, -4, ms(500)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, backoffCeilingExp(tt.base, tt.max, tt.exponent, tt.n))
		})
	}
}

// TestMaxElapsed: the service's retry deadline stops retries whose delay
// would end after start + MaxElapsed, with no attempt in flight cancelled.
// Base 500 ms, exponent 1.5, jitter none: delays 500, 750, 1,125 ms; with
// MaxElapsed 1,500 ms the third delay (ending at 2,375 ms) is not slept.
func TestMaxElapsed(t *testing.T) {
	svc := testService()
	svc.MaxElapsed = ms(1500)
	svc.Defaults = ModeDefaults{MaxAttempts: 10, TransientBaseDelay: ms(500), BackoffExponent: 1.5, Jitter: JitterNone}
	h := newHarness(t, svc, 1, script(status(503), status(503), status(503), status(503)), nil)
	md, err := h.call(context.Background(), opGet)
	require.Equal(t, 3, md.Attempts)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	var api *APIError
	require.ErrorAs(t, err, &api)
	require.Equal(t, 503, api.HTTPStatusCode)
	require.Equal(t, []time.Duration{ms(500), ms(750)}, h.clock.Sleeps())
	require.Equal(t, engine.DefaultRetryQuotaCapacity-2*engine.RetryCostTransient, h.c.RetryQuota().Balance(), "the abandoned third retry was refunded")
	require.False(t, errors.Is(err, context.Canceled))
}

// TestOperationOverrides: an operation's own backoff, retry statuses, retry
// deadline and connection-error rule win over the service's; options still
// win over the operation's max backoff and max attempts.
func TestOperationOverrides(t *testing.T) {
	svc := testService()
	svc.RetryStatuses = []StatusRange{{500, 599}}
	op := &Operation{Name: "Slow", RetrySafe: true,
		Backoff:       ModeDefaults{MaxAttempts: 4, TransientBaseDelay: ms(200), BackoffExponent: 3, Jitter: JitterNone},
		RetryStatuses: []StatusRange{{409, 409}}}
	// 409 retried only for op; delays 200, 600, 1,800 ms (exponent 3).
	h := newHarness(t, svc, 1, script(status(409), status(409), status(409), status(409)), nil)
	md, err := h.c.Do(context.Background(), op, &Request{Method: "GET", Path: "/"}, nil, nil)
	require.Error(t, err)
	require.Equal(t, 4, md.Attempts, "the operation's max attempts")
	require.Equal(t, []time.Duration{ms(200), ms(600), ms(1800)}, h.clock.Sleeps())

	// Options win: max attempts 2 and max backoff 100 ms.
	h = newHarness(t, svc, 1, script(status(409), status(409)), func(o *Options) { o.MaxAttempts, o.MaxBackoff = 2, ms(100) })
	md, _ = h.c.Do(context.Background(), op, &Request{Method: "GET", Path: "/"}, nil, nil)
	require.Equal(t, 2, md.Attempts)
	require.Equal(t, []time.Duration{ms(100)}, h.clock.Sleeps())

	// The service's statuses still apply to other operations: 409 is not retried.
	h = newHarness(t, svc, 1, script(status(409)), nil)
	md, _ = h.c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
	require.Equal(t, 1, md.Attempts)

	// The operation's retry deadline and connection-error rule.
	op2 := &Operation{Name: "Once", RetrySafe: true, ConnectionErrorsNotRetried: true, MaxElapsed: ms(10)}
	h = newHarness(t, svc, 1, script(step{err: syscall.ECONNREFUSED}), nil)
	md, _ = h.c.Do(context.Background(), op2, &Request{Method: "GET", Path: "/"}, nil, nil)
	require.Equal(t, 1, md.Attempts, "connection errors not retried for this operation")
	h = newHarness(t, svc, 1, script(status(503), status(503)), nil)
	md, err = h.c.Do(context.Background(), op2, &Request{Method: "GET", Path: "/"}, nil, nil)
	require.Equal(t, 1, md.Attempts, "a 50 ms retry does not fit the operation's 10 ms retry deadline")
	require.ErrorIs(t, err, context.DeadlineExceeded)
}
