package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/retrygen/retrygen/internal/vectors"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// throttleIdentity is the throttle identity of the vector client.
const throttleIdentity = "vectors"

// runThrottleControl drives one aliyun-mode client step by step on a fake
// clock (§8): each call is an engine.Call driven by its state machine
// (Call.Next); a call step starts it (a throttle-window wait, the send or
// the end), a response step reports the response, and windows are read from
// the client's store.
func (r *vectorRunner) runThrottleControl(sc *vectors.Scenario) result {
	g := sc.Given
	maxRetries, maxDelay, rnd := 3, int64(20000), 0.0
	if g.MaxRetries != nil {
		maxRetries = *g.MaxRetries
	}
	if g.MaxDelayMs != nil {
		maxDelay = *g.MaxDelayMs
	}
	if g.Random != nil {
		rnd = *g.Random
	}
	epoch := time.Unix(0, 0)
	clock := clocktest.New(epoch)
	store := engine.NewWindowStore()
	svc := &runtime.Service{
		Name:               "throttle-control vectors",
		DefaultMode:        runtime.ModeAliyun,
		ErrorCodeHeaders:   []string{vectorErrorHeader},
		ServerDelayHeaders: []string{engine.HeaderACSRetryAfter},
		ThrottleControl:    &runtime.ThrottleControl{MaxDelay: time.Duration(maxDelay) * time.Millisecond},
	}
	c, err := runtime.NewClient(svc, "http://vectors.invalid", runtime.Options{
		MaxAttempts:      maxRetries + 1,
		Clock:            clock,
		Rand:             func() float64 { return rnd },
		Windows:          store,
		ThrottleIdentity: throttleIdentity,
	})
	if err != nil {
		return failf("setup: %v", err)
	}
	type callState struct {
		call engine.Call
		op   string
		// next is the call's last action: the send, or a wait before it.
		next engine.Action
	}
	calls := map[string]*callState{}
	ops := map[string]*runtime.Operation{}
	ctx := context.Background()
	for i, st := range sc.Steps {
		at := epoch.Add(time.Duration(st.AtMs) * time.Millisecond)
		if at.Before(clock.Now()) {
			return failf("step %d: at_ms %d is before the clock (%d ms): the clock only moves forward", i+1, st.AtMs, clock.Now().Sub(epoch).Milliseconds())
		}
		clock.Advance(at.Sub(clock.Now()))
		want := st.Expected
		switch {
		case st.Call != "":
			op := ops[st.Operation]
			if op == nil {
				op = &runtime.Operation{Name: st.Operation}
				ops[st.Operation] = op
			}
			call, err := c.NewCall(op, nil)
			if err != nil {
				return failf("step %d: %v", i+1, err)
			}
			// The call's state machine says what comes before its first
			// attempt: a wait for a throttle window, the send, or the end.
			act := call.Next(ctx, engine.Event{Kind: engine.EventStart})
			var wait time.Duration
			if act.Kind == engine.ActionWait {
				wait = act.Delay
				act = call.Next(ctx, engine.Event{Kind: engine.EventWaited})
			}
			calls[st.Call] = &callState{call: call, op: st.Operation, next: act}
			got, err := "send", act.Err
			if act.Kind == engine.ActionReturn {
				got = "throttle_window_exceeded"
			}
			if got != want.Outcome {
				return failf("step %d: want outcome %s, got %s (%v)", i+1, want.Outcome, got, err)
			}
			if want.WaitMs != nil && wait != time.Duration(*want.WaitMs)*time.Millisecond {
				return failf("step %d: want wait_ms %d, got %v", i+1, *want.WaitMs, wait)
			}
		case st.Response != "":
			cs := calls[st.Response]
			if cs == nil {
				return failf("step %d: response to unknown call %q", i+1, st.Response)
			}
			h := make(http.Header)
			for k, v := range st.Headers {
				h.Set(k, v)
			}
			res := engine.AttemptResult{StatusCode: st.StatusCode, Header: h, Code: st.ErrorCode, Sent: true}
			if st.StatusCode < 200 || st.StatusCode > 299 {
				res.Err = &runtime.APIError{ErrorMetadata: runtime.ErrorMetadata{HTTPStatusCode: st.StatusCode, Code: st.ErrorCode}}
			}
			// A retry's wait (and any throttle-window wait after it) is over
			// when its response step comes: the clock is at the step's time.
			for cs.next.Kind == engine.ActionWait {
				cs.next = cs.call.Next(ctx, engine.Event{Kind: engine.EventWaited})
			}
			if cs.next.Kind != engine.ActionSend {
				return failf("step %d: response to call %q, which sends no attempt (%v)", i+1, st.Response, cs.next.Err)
			}
			cs.next = cs.call.Next(ctx, engine.Event{Kind: engine.EventResponse, Result: &res})
			d := cs.next.Decision
			if got := d.Outcome.String(); got != want.Outcome {
				return failf("step %d: want outcome %s, got %s (%v)", i+1, want.Outcome, got, d.Err)
			}
			if want.DelayMs != nil && d.Delay != time.Duration(*want.DelayMs)*time.Millisecond {
				return failf("step %d: want delay_ms %d, got %v", i+1, *want.DelayMs, d.Delay)
			}
			if want.BlockedUntilMs != nil {
				apiUser, user := store.Windows(c.WindowIdentity(), cs.op, clock.Now())
				if msg := checkWindow("api_user", want.BlockedUntilMs, apiUser, epoch); msg != "" {
					return failf("step %d: %s", i+1, msg)
				}
				if msg := checkWindow("user", want.BlockedUntilMs, user, epoch); msg != "" {
					return failf("step %d: %s", i+1, msg)
				}
			}
		default:
			return failf("step %d: neither call nor response", i+1)
		}
	}
	return result{}
}

// checkWindow compares one dimension's window end (zero: none in force) with
// blocked_until_ms, where an omitted dimension means no window.
func checkWindow(dim string, want map[string]int64, got, epoch time.Time) string {
	w, ok := want[dim]
	switch {
	case !ok && !got.IsZero():
		return fmt.Sprintf("want no %s window, got one until %d ms", dim, got.Sub(epoch).Milliseconds())
	case ok && got.IsZero():
		return fmt.Sprintf("want %s window until %d ms, got none", dim, w)
	case ok && got.Sub(epoch).Milliseconds() != w:
		return fmt.Sprintf("want %s window until %d ms, got %d ms", dim, w, got.Sub(epoch).Milliseconds())
	}
	return ""
}
