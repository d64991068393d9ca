package runtime

import (
	"context"
	"net/http"
	"time"
)

// Call is one call's retry state. [Client.Do] drives one per call; a
// conformance runner can drive one step by step with [Call.Admit] and
// [Call.Decide] on a fake clock. Not safe for concurrent use.
type Call struct {
	c    *Client
	op   *Operation
	opts *Options
	p    ModeParams
	k    classifier
	// attempts counts the attempts decided so far.
	attempts int
	// paid is the retry cost paid for the attempt in flight: 0 for a first
	// attempt, else 14 or 5 tokens (§5).
	paid int
	// last is the last attempt's error.
	last error
	md   ResponseMetadata
	// start is when the call started (the retry deadline Service.MaxElapsed
	// counts from it).
	start time.Time
	// hooks are what Options.OnCall returned for this call.
	hooks CallHooks
	// admitWait is how long the attempt in flight waited for throttle
	// windows before it was sent (AttemptInfo.AdmitWait).
	admitWait time.Duration
	// callHeaders are headers that hold one value for the whole call and
	// are sent on every attempt, such as the invocation ID
	// (Service.InvocationIDHeader, a UUID v4) and the idempotency key
	// (Operation.IdempotencyHeader): keys canonical. They go
	// into each attempt's own header map, never into the caller's Request.
	callHeaders  [3]headerKV
	nCallHeaders int
}

// headerKV is one header key (canonical) and its value.
type headerKV struct{ key, value string }

// setCallHeader sends key: value on every attempt of the call; key must
// be canonical. At most len(Call.callHeaders) keys; a repeated key
// replaces its value.
func (cl *Call) setCallHeader(key, value string) {
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
// client's). It returns a *ConfigError when the call's options set an invalid
// retry mode or max attempts.
func (c *Client) NewCall(op *Operation, opts *Options) (*Call, error) {
	cl := new(Call)
	if err := c.initCall(cl, op, opts); err != nil {
		return nil, err
	}
	return cl, nil
}

func (c *Client) initCall(cl *Call, op *Operation, opts *Options) error {
	if opts == nil {
		opts = &c.opts
	}
	p, err := c.callParams(opts)
	if err != nil {
		return err
	}
	if b := op.Backoff; b != (ModeDefaults{}) {
		// The operation's own defaults sit between the service's and the
		// options (§2).
		p.override(b)
		if opts.MaxBackoff > 0 {
			p.MaxBackoff = opts.MaxBackoff
		}
		if b.MaxAttempts > 0 && opts.MaxAttempts == 0 && c.settings.MaxAttempts.Source.Level >= LevelServiceDefault {
			p.MaxAttempts = b.MaxAttempts
		}
	}
	*cl = Call{c: c, op: op, opts: opts, p: p, start: c.clock.Now(), k: classifier{
		svc: c.svc, op: op, opts: opts, tc: c.tc,
		aliyun: p.Mode == ModeAliyun, legacy: p.Mode == ModeLegacy,
	}}
	if c.invocationIDHeader != "" {
		cl.setCallHeader(c.invocationIDHeader, NewUUID())
	}
	return nil
}

// Params returns the call's resolved retry parameters.
func (cl *Call) Params() ModeParams { return cl.p }

// do is the attempt loop of retry-behavior.md §3.
func (c *Client) do(ctx context.Context, op *Operation, req *Request, opts *Options, decode func(*http.Response) error) (ResponseMetadata, error) {
	var cl Call
	if err := c.initCall(&cl, op, opts); err != nil {
		return ResponseMetadata{}, err
	}
	stream, err := bufferBody(req)
	if err != nil {
		return ResponseMetadata{}, err
	}
	if stream != nil {
		// Too long to replay: one attempt only (MaxReplayBody).
		req.stream, cl.p.MaxAttempts = stream, 1
	}
	if op.IdempotencyHeader != "" && req.Header.Get(op.IdempotencyHeader) == "" {
		// One key per call, sent on every attempt.
		key := cl.opts.IdempotencyKey
		if key == "" {
			key = NewUUID()
		}
		cl.setCallHeader(http.CanonicalHeaderKey(op.IdempotencyHeader), key)
	}
	if opts := cl.opts; opts.OnCall != nil {
		cl.hooks = opts.OnCall(ctx, CallInfo{Service: c.svc.Name, Operation: op.Name, Start: cl.start, Mode: cl.p.Mode, MaxAttempts: cl.p.MaxAttempts})
		if cl.hooks.Context != nil {
			ctx = cl.hooks.Context
		}
	}
	err = cl.run(ctx, req, decode)
	if cl.hooks.End != nil {
		cl.hooks.End(cl.md, err)
	}
	return cl.md, err
}

func (cl *Call) run(ctx context.Context, req *Request, decode func(*http.Response) error) error {
	clock := cl.c.clock
	for {
		// Check ctx before every attempt: no attempt after cancellation.
		if err := ctx.Err(); err != nil {
			cl.refund()
			return joinCtx(cl.last, err)
		}
		wait, err := cl.Admit(ctx)
		if err != nil {
			cl.refund()
			return err
		}
		cl.admitWait = wait
		if err := clock.Sleep(ctx, wait); err != nil {
			cl.refund()
			return joinCtx(cl.last, err)
		}
		if cl.p.UsesLimiter {
			// §6: every attempt, retries too, takes a send token.
			if err := cl.c.limiter.Acquire(ctx, cl.opts.RateLimiterFailFast); err != nil {
				cl.refund()
				return joinCtx(cl.last, err)
			}
		}
		res := cl.send(ctx, req, cl.attempts+1, decode)
		d := cl.Decide(ctx, &res)
		switch d.Outcome {
		case OutcomeSuccess:
			return nil
		case OutcomeRetry:
			if err := clock.Sleep(ctx, d.Delay); err != nil {
				cl.refund()
				return joinCtx(cl.last, err)
			}
		default:
			if d.Delay > 0 && d.Outcome == OutcomeQuotaExhausted {
				// Long polling (§7): sleep the backoff, then return.
				if err := clock.Sleep(ctx, d.Delay); err != nil {
					return joinCtx(d.Err, err)
				}
			}
			return d.Err
		}
	}
}

// Admit decides whether the next attempt may be sent now. It returns how long
// to wait first for the throttle windows covering the operation (§8), or a
// *ThrottleWindowError when that wait is longer than the max delay or than
// the time left before ctx's deadline: the attempt must not be sent.
func (cl *Call) Admit(ctx context.Context) (time.Duration, error) {
	c := cl.c
	if c.tc == nil {
		return 0, nil
	}
	now := c.clock.Now()
	until, dim, ok := c.windows.Blocked(c.identity, cl.op.Name, now)
	if !ok {
		return 0, nil
	}
	until = c.releaseAt(cl.op.Name, dim, until, now.Add(cl.maxDelay()), true) // spread over the next window (release.go)
	wait := until.Sub(now)
	if wait > cl.maxDelay() || !cl.fitsDeadline(ctx, wait) {
		return 0, &ThrottleWindowError{Until: until, Dimension: dim, Operation: cl.op.Name, Err: cl.last}
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
func (cl *Call) observe(res *AttemptResult, d Decision) Decision {
	if cl.opts.OnAttempt == nil && cl.opts.Logger == nil && cl.hooks.OnAttempt == nil {
		return d
	}
	info := AttemptInfo{
		Operation: cl.op.Name, Attempt: cl.attempts, MaxAttempts: cl.p.MaxAttempts, Mode: cl.p.Mode,
		Class: d.Class, StatusCode: res.StatusCode, Code: res.Code, Err: res.Err,
		Outcome: d.Outcome, Retry: d.Outcome == OutcomeRetry, Delay: d.Delay, DelayReason: d.DelayReason,
		QuotaBalance: cl.c.quota.Balance(), Throttle: cl.md.Throttle, AdmitWait: cl.admitWait, StoreFault: cl.c.storeFault(),
	}
	if cl.p.UsesLimiter {
		info.LimiterRate = cl.c.limiter.Rate()
	}
	if cl.opts.OnAttempt != nil {
		cl.opts.OnAttempt(info)
	}
	if cl.opts.Logger != nil {
		logAttempt(cl.opts.Logger, &info)
	}
	if cl.hooks.OnAttempt != nil {
		cl.hooks.OnAttempt(info)
	}
	return d
}
