package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// failingSleepClock is a fake clock whose sleeps report that the call's
// deadline passed while waiting, as SystemClock.Sleep does when ctx ends.
type failingSleepClock struct{ *clocktest.Clock }

func (c failingSleepClock) Sleep(context.Context, time.Duration) error {
	return context.DeadlineExceeded
}

// TestDeadlineEndsTheCallAsDeadlineExceeded: whichever rule notices that
// the call's deadline ends it, the error is errors.Is
// context.DeadlineExceeded and still an *OperationError (issue 25 item 3),
// with the rule's own error type where there is one.
func TestDeadlineEndsTheCallAsDeadlineExceeded(t *testing.T) {
	throttled := &Service{Name: "Throttled", ErrorCodeHeaders: []string{"X-Amzn-ErrorType"},
		ThrottleControl: &ThrottleControl{}}
	for _, tc := range []struct {
		rule     string
		svc      *Service
		op       *Operation
		deadline time.Duration // from the fake clock's start; 0: none
		steps    []step
		edit     func(*Options)
		wantAs   any // a pointer to the rule's error type, or nil
	}{
		{rule: "the backoff ends after the deadline (decide: deadline)", deadline: 10 * time.Millisecond,
			steps: []step{status(503)}},
		{rule: "Retry-After longer than the time left (decide: server delay)", deadline: 5 * time.Second,
			steps: []step{status(503, "Retry-After", "10")}, wantAs: new(*ServerDelayError)},
		{rule: "a throttle window longer than the time left, before an attempt (admit)", svc: throttled, deadline: 5 * time.Second,
			edit: func(o *Options) {
				ws := engine.NewWindowStore()
				ws.Record(windowIdentity("Throttled", "svc.test", "u"), opGet.Name, engine.ThrottleHeaders{User: engine.ThrottleQuota{Present: true, Remain: 0, TimeLeft: 10 * time.Second}}, future)
				o.Windows, o.ThrottleIdentity = ws, "u"
			},
			wantAs: new(*ThrottleWindowError)},
		{rule: "a throttled response's window wait ends after the deadline (decide: throttle window, then deadline)", svc: throttled,
			deadline: 5 * time.Second,
			steps:    []step{status(503, "X-RateLimit-User", "Remain:0,TimeLeft:10000")}},
		{rule: "the retry deadline Service.MaxElapsed (decide: deadline)", op: &Operation{Name: "GetThing", RetrySafe: true, MaxElapsed: 10 * time.Millisecond},
			steps: []step{status(503)}},
		{rule: "the context is past its deadline before the first attempt", deadline: -time.Second},
		{rule: "the deadline passes during the retry's wait (driver: EventFailed)", deadline: time.Hour,
			steps: []step{status(503)}, edit: func(o *Options) { o.Clock = failingSleepClock{clocktest.New(future)} }},
		{rule: "the deadline passes during the long-polling sleep (driver: EventFailed)", deadline: time.Hour,
			op:    &Operation{Name: "Receive", RetrySafe: true, LongPolling: true},
			steps: []step{status(503)}, wantAs: new(*QuotaExhaustedError),
			edit: func(o *Options) {
				zero := 0
				o.RetryQuotaCapacity = &zero
				o.Clock = failingSleepClock{clocktest.New(future)}
			}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			h := newHarnessAt(t, future, tc.svc, 0.5, script(tc.steps...), tc.edit)
			ctx := context.Background()
			if tc.deadline != 0 {
				at := future.Add(tc.deadline)
				if tc.deadline < 0 {
					at = time.Now().Add(tc.deadline) // past in real time too
				}
				var cancel context.CancelFunc
				ctx, cancel = context.WithDeadline(ctx, at)
				defer cancel()
			}
			op := tc.op
			if op == nil {
				op = opGet
			}
			_, err := h.call(ctx, op)
			require.ErrorIs(t, err, context.DeadlineExceeded)
			var oe *OperationError
			require.ErrorAs(t, err, &oe)
			if tc.wantAs != nil {
				require.ErrorAs(t, err, tc.wantAs)
			}
			require.Len(t, h.http.requests(), len(tc.steps), "no attempt after the deadline")
		})
	}
}

// TestServerDelayAboveMaxIsNotDeadlineExceeded: a Retry-After above the max
// server delay, with no deadline, ends the call by that rule alone: it is
// not reported as the deadline.
func TestServerDelayAboveMaxIsNotDeadlineExceeded(t *testing.T) {
	h := newHarness(t, nil, 0.5, script(status(503, "Retry-After", "30")), nil)
	_, err := h.call(context.Background(), opGet)
	var sd *ServerDelayError
	require.ErrorAs(t, err, &sd)
	require.False(t, errors.Is(err, context.DeadlineExceeded))
}
