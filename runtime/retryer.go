package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// callMachine is one call's retry state and its attempt state machine
// (retry-behavior.md §3), an [engine.Call]: a driver feeds it
// [engine.Event]s with Next and carries out the [engine.Action]s it
// returns. [Client.Do] drives one per call on real time; the simulator
// (cmd/retrygen-sim) and the conformance runner (retrygen vectors) drive
// it on a virtual clock through [Client.NewCall]. The order of the rules
// lives in Next and decide only. Not safe for concurrent use.
type callMachine struct {
	// The fields every step reads or writes come first (128 bytes), so
	// that a driver of many calls (cmd/retrygen-sim, whose calls embed a
	// CallState after 64 bytes of their own) finds a step's memory in
	// three cache lines; the fields after endpoint are read when the call is
	// observed, hooked, sent over HTTP or streamed.
	c    *Client
	op   *Operation
	opts *Options
	// pol is the call's resolved policy (resolvePolicy): every rule below
	// reads it, never the levels it came from. It is shared with every call
	// of the operation whose options change nothing it reads
	// (Client.operationPolicy) and never written, except through ownPolicy.
	pol *Policy
	// polOwned: pol is the call's own copy (ownPolicy, or call options
	// that change the policy).
	polOwned bool
	// state is where the state machine stands (Next).
	state callState
	// noReplay: the request body is longer than MaxReplayBody and is
	// streamed by the only attempt; a retryable failure ends the call with
	// a *NotRetrySafeError saying so.
	noReplay bool
	// observed: something observes every decision (observe): the
	// client's or the call's Logger or OnAttempt, or an OnAttempt hook
	// that OnCall returned.
	observed bool
	// attempts counts the attempts decided so far
	// (ResponseMetadata.Attempts: metadata).
	attempts int
	// paid is the retry cost paid for the attempt in flight: 0 for a first
	// attempt, else 14 or 5 tokens (§5).
	paid int
	// final is the error a long-polling call returns after its last sleep.
	final error
	// last is the last attempt's error.
	last error
	// admitWait is how long the attempt in flight waited for throttle
	// windows before it was sent (AttemptInfo.AdmitWait).
	admitWait time.Duration
	// start is when the call started (the retry deadline Service.MaxElapsed
	// counts from it).
	start time.Time
	// endpoint is the call's Options.Endpoint as checkTarget parsed and
	// checked it before the first attempt (nil for the client's): every
	// attempt and stream resume uses it, never the caller's Options again;
	// its scope is the call's (callMachine.scope, read by every step).
	endpoint *endpoint
	// own are the call's own options when they are not the client's
	// (nil otherwise): their hooks run after the client's (hooks.go).
	own *Options
	// hooks are what the client's and then the call's Options.OnCall
	// returned for this call.
	hooks [2]CallHooks
	// md is what the call reports (ResponseMetadata, read through
	// metadata), but for Attempts.
	md ResponseMetadata
	// callHeaders are headers that hold one value for the whole call and
	// are sent on every attempt, such as the invocation ID
	// (Service.InvocationIDHeader, a UUID v4) and the idempotency key
	// (Operation.IdempotencyHeader): keys canonical. They go
	// into each attempt's own header map, never into the caller's Request.
	callHeaders  [3]headerKV
	nCallHeaders int
	// stream, when set, receives a 2xx response unread (Client.Open).
	stream *Stream
}

// metadata returns what the call reports: md with the attempts decided
// so far.
func (cl *callMachine) metadata() ResponseMetadata {
	md := cl.md
	md.Attempts = cl.attempts
	return md
}

// headerKV is one header key (canonical) and its value.
type headerKV struct{ key, value string }

// setCallHeader sends key: value on every attempt of the call; key must
// be canonical. At most len(callMachine.callHeaders) keys; a repeated key
// replaces its value.
func (cl *callMachine) setCallHeader(key, value string) {
	for i := range cl.callHeaders[:cl.nCallHeaders] {
		if cl.callHeaders[i].key == key {
			cl.callHeaders[i].value = value
			return
		}
	}
	cl.callHeaders[cl.nCallHeaders] = headerKV{key, value}
	cl.nCallHeaders++
}

// NewCall starts a call of op with the call's options (nil means the
// client's), resolving its [Policy], for a driver that keeps its own time
// (a simulator, a conformance runner): it sends nothing itself. It returns
// a *ConfigError when the call's options set an invalid retry mode or max
// attempts. Drive it with [engine.Call.Next], starting with
// [engine.EventStart]; [Client.Do] drives the same state machine.
func (c *Client) NewCall(op *Operation, opts *Options) (engine.Call, error) {
	cl, err := c.newCall(op, opts)
	if err != nil {
		return nil, err
	}
	return cl, nil
}

// newCall is NewCall's state machine, concretely typed.
func (c *Client) newCall(op *Operation, opts *Options) (*callMachine, error) {
	cl := new(callMachine)
	if err := c.initCall(cl, op, opts); err != nil {
		return nil, err
	}
	return cl, nil
}

// StartCall is [Client.NewCall] in the memory of cl, a call NewCall
// returned: it starts a call of op with the call's options (nil means the
// client's) in cl, whose earlier call, if any, has ended and is no longer
// used. A driver that runs many calls one after another (cmd/retrygen-sim
// runs millions) reuses its calls instead of allocating one per call. It
// returns NewCall's errors (a *ConfigError when the call's options set an
// invalid retry mode or max attempts), or an error when cl did not come
// from NewCall.
//
// cl may also be a *[CallState]: the same state machine in the driver's own
// memory.
func (c *Client) StartCall(cl engine.Call, op *Operation, opts *Options) error {
	switch m := cl.(type) {
	case *callMachine:
		if m != nil {
			return c.initCall(m, op, opts)
		}
	case *CallState:
		if m != nil {
			return c.initCall(&m.m, op, opts)
		}
	}
	return fmt.Errorf("runtime: Client.StartCall: %T is not a call Client.NewCall returned nor a *runtime.CallState", cl)
}

// CallState is the memory of one call's state machine, the one
// [Client.NewCall] returns and [Client.Do] drives, for a driver that keeps
// its calls in its own structures: cmd/retrygen-sim embeds one in each
// simulated call, so that an event of the call reads one piece of memory
// instead of two (at 20,000 clients, reading memory is most of the
// simulator's time). Start a call in it with [Client.StartCall] (again
// once that call has ended, to reuse it) and drive it with Next. The zero
// value holds no call: Next then returns ActionReturn with an error. Not
// safe for concurrent use; do not copy one that holds a call.
type CallState struct{ m callMachine }

// Next is [engine.Call.Next] of the call started in s: given what
// happened, it says what to do next (retry-behavior.md §3). Before
// [Client.StartCall] it returns ActionReturn with an error saying so.
func (s *CallState) Next(ctx context.Context, ev engine.Event) engine.Action {
	if s.m.c == nil {
		return engine.Action{Kind: engine.ActionReturn, Err: errors.New("runtime: CallState.Next: no call started (Client.StartCall)")}
	}
	return s.m.next(ctx, ev.Kind, ev.Result, ev.Err)
}

func (c *Client) initCall(cl *callMachine, op *Operation, opts *Options) error {
	if opts == nil {
		opts = &c.opts
	}
	if opts != &c.opts && (opts.MaxBackoff < 0 || opts.AttemptTimeout < 0 || opts.MaxServerDelay < 0) {
		return checkDurations(opts, engine.LevelCallOption)
	}
	pol, owned := (*Policy)(nil), false
	if opts == &c.opts || c.sharesPolicy(opts) {
		pol = c.operationPolicy(op)
	} else {
		s, err := c.settings.WithCall(c.svc, opts)
		if err != nil {
			return err
		}
		p := resolvePolicy(s, c.svc, op, &c.opts, opts)
		pol, owned = &p, true
	}
	if pol.idempotencyErr != nil {
		// service.go: a key that is not sent must not make a call retry-safe.
		return pol.idempotencyErr
	}
	*cl = callMachine{c: c, op: op, opts: opts, pol: pol, polOwned: owned, start: c.clock.Now(), observed: c.observed}
	if opts != &c.opts {
		cl.own = opts
		cl.observed = cl.observed || opts.Logger != nil || opts.OnAttempt != nil
	}
	if c.invocationIDHeader != "" {
		cl.setCallHeader(c.invocationIDHeader, NewUUID())
	}
	return nil
}

// Policy returns the call's resolved policy.
func (cl *callMachine) Policy() Policy { return *cl.pol }

// ownPolicy returns the call's policy for writing: a copy of its own the
// first time, as the operation's policy is shared by its calls.
func (cl *callMachine) ownPolicy() *Policy {
	if !cl.polOwned {
		p := *cl.pol
		cl.pol, cl.polOwned = &p, true
	}
	return cl.pol
}

// do is the attempt loop of retry-behavior.md §3: it carries out the
// actions of the call's state machine (callMachine.Next) on the client's clock,
// limiter and HTTP client, sending to ep (checkTarget's call Endpoint; nil
// for the client's).
func (c *Client) do(ctx context.Context, op *Operation, req *Request, opts *Options, ep *endpoint, decode func(*http.Response) error) (ResponseMetadata, error) {
	var cl callMachine
	ctx, err := c.begin(ctx, &cl, op, req, opts)
	if err != nil {
		return ResponseMetadata{}, err
	}
	cl.endpoint = ep // checkTarget's
	err = cl.run(ctx, req, decode)
	closeBodyReader(req)
	cl.end(err)
	return cl.metadata(), err
}

// end runs the call's End hooks with err, as deferred calls: the call's
// first, then the client's.
func (cl *callMachine) end(err error) {
	for i := len(cl.hooks) - 1; i >= 0; i-- {
		if end := cl.hooks[i].End; end != nil {
			end(cl.metadata(), err)
		}
	}
}

// closeBodyReader closes the request's BodyReader when it is an io.Closer,
// as net/http closes request bodies: a body written through a pipe
// (openapi.MultipartReader) stops its writer.
func closeBodyReader(req *Request) {
	if c, ok := req.BodyReader.(io.Closer); ok {
		_ = c.Close()
	}
}

// begin starts the call cl of op: it resolves the call's parameters, reads
// the request body (bufferBody), sets the call's headers and calls
// Options.OnCall. It returns the context the attempts use, or
// ErrNoIdempotencyHeader before anything else for an IdempotencyKey that op
// would not send.
func (c *Client) begin(ctx context.Context, cl *callMachine, op *Operation, req *Request, opts *Options) (context.Context, error) {
	if opts != nil && opts.IdempotencyKey != "" && op.IdempotencyHeader == "" {
		return ctx, ErrNoIdempotencyHeader // options.go: a key that would do nothing
	}
	if err := c.initCall(cl, op, opts); err != nil {
		return ctx, err
	}
	if err := req.readDeclaredLength(); err != nil { // contentlength.go
		return ctx, err
	}
	stream, err := bufferBody(ctx, req, cl.opts.AttemptTimeout)
	if err != nil {
		return ctx, err
	}
	if stream != nil {
		// Too long to replay: one attempt only (MaxReplayBody).
		req.stream, cl.noReplay = stream, true
		cl.ownPolicy().Params.MaxAttempts = 1
	}
	if op.IdempotencyHeader != "" && req.Header.Get(op.IdempotencyHeader) == "" {
		// One key per call, sent on every attempt.
		key := cl.opts.IdempotencyKey
		if key == "" {
			key = NewUUID()
		}
		cl.setCallHeader(http.CanonicalHeaderKey(op.IdempotencyHeader), key)
	}
	for i, opts := range cl.hookOptions() {
		if opts == nil || opts.OnCall == nil {
			continue
		}
		// The client's hook first; the call's sees the client's context.
		cl.hooks[i] = opts.OnCall(ctx, CallInfo{Service: c.svc.Name, Operation: op.Name, Start: cl.start, Mode: cl.pol.Mode.Value, MaxAttempts: cl.pol.Params.MaxAttempts})
		if cl.hooks[i].Context != nil {
			ctx = cl.hooks[i].Context
		}
		cl.observed = cl.observed || cl.hooks[i].OnAttempt != nil
	}
	return ctx, nil
}

// run drives the state machine: it waits on the client's clock, takes send
// tokens from the limiter and sends, and reports each result back.
func (cl *callMachine) run(ctx context.Context, req *Request, decode func(*http.Response) error) error {
	return cl.drive(ctx, req, decode, engine.Event{Kind: engine.EventStart})
}

// drive carries out the state machine's actions from the action that
// answers first (EventStart, or EventCut when a stream resumes) until the
// call returns.
func (cl *callMachine) drive(ctx context.Context, req *Request, decode func(*http.Response) error, first engine.Event) error {
	clock := cl.c.clock
	act := cl.Next(ctx, first)
	// res is every attempt's result, reported to next as a pointer that
	// stays on this stack: Event holds it beside an error that the call
	// keeps, which would move it to the heap on every attempt.
	var res engine.AttemptResult
	for {
		kind, result, err := engine.EventWaited, (*engine.AttemptResult)(nil), error(nil)
		switch act.Kind {
		case engine.ActionWait:
			if err = clock.Sleep(ctx, act.Delay); err != nil {
				kind = engine.EventFailed
			}
		case engine.ActionAcquire:
			kind = engine.EventAcquired
			if err = cl.scope().limiter.Acquire(ctx, cl.opts.RateLimiterFailFast); err != nil {
				kind = engine.EventFailed
			}
		case engine.ActionSend:
			res = cl.send(ctx, req, act.Attempt, decode)
			kind, result = engine.EventResponse, &res
		default:
			return act.Err
		}
		act = cl.next(ctx, kind, result, err)
	}
}

// callState is where a call's state machine stands.
type callState uint8

const (
	stateNew         callState = iota // before EventStart
	stateAdmitWait                    // waiting for a throttle window to end
	stateAcquire                      // waiting for a send token
	stateSending                      // an attempt is in flight
	stateRetryWait                    // waiting before the next attempt
	stateLongPolling                  // the long-polling sleep before returning
	stateDone                         // the call has returned
)

// Next is the attempt state machine of retry-behavior.md §3: given what
// happened, it says what to do next. Before every attempt it checks ctx
// (no attempt after cancellation), then the throttle windows covering the
// operation (§8: ActionWait, or ActionReturn with a *ThrottleWindowError
// when the wait is longer than the max delay or than the time left before
// ctx's deadline), then the rate limiter (§6, adaptive mode:
// ActionAcquire), then asks for the send (ActionSend). After a response it
// calls decide, which owns the order classify → end → retry quota →
// server delay → throttle window → deadline, and asks for the retry's wait
// (ActionWait), the long-polling sleep before returning (§7: ActionWait,
// then ActionReturn), or returns (ActionReturn). An event that does not fit
// the state ends the call with an error naming both.
func (cl *callMachine) Next(ctx context.Context, ev engine.Event) engine.Action {
	return cl.next(ctx, ev.Kind, ev.Result, ev.Err)
}

// next is Next with the event's fields as parameters, so that the
// escape analysis sees the result and the error apart: the call keeps the
// error (callMachine.final), never the result, which then stays on the driver's
// stack.
func (cl *callMachine) next(ctx context.Context, kind engine.EventKind, result *engine.AttemptResult, evErr error) engine.Action {
	if kind == engine.EventCut && cl.state == stateDone && cl.final == nil && cl.attempts > 0 && result != nil {
		// The successful attempt's body broke off: decide it again.
		cl.attempts--
		cl.state, kind = stateSending, engine.EventResponse
	}
	if cl.state == stateDone {
		return engine.Action{Kind: engine.ActionReturn, Err: cl.final}
	}
	if kind == engine.EventFailed {
		if cl.state == stateLongPolling {
			return cl.done(joinCtx(cl.final, evErr)) // nothing was paid
		}
		cl.refund()
		return cl.done(joinCtx(cl.last, evErr))
	}
	switch {
	case kind == engine.EventStart && cl.state == stateNew,
		kind == engine.EventWaited && cl.state == stateRetryWait:
		return cl.beforeAttempt(ctx)
	case kind == engine.EventWaited && cl.state == stateAdmitWait:
		return cl.acquire()
	case kind == engine.EventAcquired && cl.state == stateAcquire:
		return cl.sendAction()
	case kind == engine.EventWaited && cl.state == stateLongPolling:
		return cl.done(cl.final)
	case kind == engine.EventResponse && cl.state == stateSending && result != nil:
		d := cl.decide(ctx, result)
		var act engine.Action
		switch {
		case d.Outcome == engine.OutcomeSuccess:
			act = cl.done(nil)
		case d.Outcome == engine.OutcomeRetry:
			cl.state = stateRetryWait
			act = engine.Action{Kind: engine.ActionWait, Delay: d.Delay, Reason: d.DelayReason}
		case d.Outcome == engine.OutcomeQuotaExhausted && d.Delay > 0:
			// Long polling (§7): sleep the backoff, then return.
			cl.state, cl.final = stateLongPolling, d.Err
			act = engine.Action{Kind: engine.ActionWait, Delay: d.Delay, Reason: d.DelayReason}
		default:
			act = cl.done(d.Err)
		}
		act.Decision = d
		return act
	}
	return cl.done(fmt.Errorf("runtime: call state machine: event %d in state %d", kind, cl.state))
}

// beforeAttempt checks the context and the throttle windows before an
// attempt (§3, §8).
func (cl *callMachine) beforeAttempt(ctx context.Context) engine.Action {
	if err := ctx.Err(); err != nil {
		cl.refund()
		return cl.done(joinCtx(cl.last, err))
	}
	wait, err := cl.admit(ctx)
	if err != nil {
		cl.refund()
		return cl.done(err)
	}
	cl.admitWait = wait
	if wait > 0 {
		cl.state = stateAdmitWait
		return engine.Action{Kind: engine.ActionWait, Delay: wait, Reason: "throttle window"}
	}
	return cl.acquire()
}

// acquire asks for a send token in modes with the rate limiter (§6: every
// attempt, retries too, takes one), else for the send.
func (cl *callMachine) acquire() engine.Action {
	if cl.pol.Params.UsesLimiter {
		cl.state = stateAcquire
		return engine.Action{Kind: engine.ActionAcquire}
	}
	return cl.sendAction()
}

func (cl *callMachine) sendAction() engine.Action {
	cl.state = stateSending
	return engine.Action{Kind: engine.ActionSend, Attempt: cl.attempts + 1}
}

// done ends the call with err.
func (cl *callMachine) done(err error) engine.Action {
	cl.state, cl.final = stateDone, err
	return engine.Action{Kind: engine.ActionReturn, Err: err}
}

// admit decides whether the next attempt may be sent now. It returns how
// long to wait first for the throttle windows covering the operation (§8),
// or a *ThrottleWindowError when that wait is longer than the max delay or
// than the time left before ctx's deadline: the attempt must not be sent.
func (cl *callMachine) admit(ctx context.Context) (time.Duration, error) {
	c := cl.c
	if cl.pol.ThrottleControl == nil {
		return 0, nil
	}
	now := c.clock.Now()
	until, dim, ok := c.windows.Blocked(cl.scope().identity, cl.op.Name, now)
	if !ok {
		return 0, nil
	}
	until = cl.releaseAt(cl.op.Name, dim, until, now.Add(cl.pol.ThrottleMaxDelay), true) // spread over the next window (release.go)
	wait := until.Sub(now)
	if wait > cl.pol.ThrottleMaxDelay || !cl.fitsDeadline(ctx, wait) {
		return 0, &ThrottleWindowError{Until: until, Dimension: dim, Operation: cl.op.Name, Err: cl.deadlineErr(ctx, cl.last, wait)}
	}
	return wait, nil
}

// joinCtx joins the last attempt's error (if any) with a context error, so
// both errors.Is(err, context.DeadlineExceeded) and errors.As on the API
// error work. The message stays on one line: "LAST: CTXERR".
func joinCtx(last, ctxErr error) error {
	if last == nil {
		return ctxErr
	}
	return &joinedError{errs: [2]error{last, ctxErr}}
}

// joinedError is errors.Join of two errors with a one-line message.
type joinedError struct{ errs [2]error }

func (e *joinedError) Error() string   { return e.errs[0].Error() + ": " + e.errs[1].Error() }
func (e *joinedError) Unwrap() []error { return e.errs[:] }

// observe reports one decision to the OnAttempt hook and the logger, if any,
// and returns it. It builds nothing when neither is set.
func (cl *callMachine) observe(res *engine.AttemptResult, d engine.Decision) engine.Decision {
	if !cl.observed {
		return d // nothing observes it (callMachine.observed)
	}
	hopts := cl.hookOptions()
	info := AttemptInfo{
		Operation: cl.op.Name, Attempt: cl.attempts, MaxAttempts: cl.pol.Params.MaxAttempts, Mode: cl.pol.Mode.Value,
		Class: d.Class, StatusCode: res.StatusCode, Code: res.Code, Err: res.Err,
		Outcome: d.Outcome, Retry: d.Outcome == engine.OutcomeRetry, Delay: d.Delay, DelayReason: d.DelayReason,
		QuotaBalance: cl.c.quota.Balance(), Throttle: cl.md.Throttle, AdmitWait: cl.admitWait, StoreFault: cl.c.storeFault(),
	}
	if cl.pol.Params.UsesLimiter {
		info.LimiterRate = cl.scope().limiter.Rate()
	}
	for _, opts := range hopts {
		if opts != nil && opts.OnAttempt != nil {
			opts.OnAttempt(info)
		}
	}
	if cl.opts.Logger != nil {
		logAttempt(cl.opts.Logger, &info)
	}
	for _, h := range cl.hooks {
		if h.OnAttempt != nil {
			h.OnAttempt(info)
		}
	}
	return d
}

// hookOptions returns the options whose hooks run, in order: the client's,
// then the call's own (nil when the call runs with the client's options).
func (cl *callMachine) hookOptions() [2]*Options { return [2]*Options{&cl.c.opts, cl.own} }
