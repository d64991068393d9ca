package runtime

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Decision is what the runtime decided after one attempt (retry-behavior.md
// §3, §8).
type Decision struct {
	// Outcome is OutcomeRetry, OutcomeSuccess or why the call ends.
	Outcome Outcome
	// Class is the attempt's class.
	Class Class
	// Delay is the wait before the next attempt (OutcomeRetry), before
	// returning (a long-polling operation whose retry quota is exhausted),
	// or the delay the server or a throttle window asked for when it was too
	// long. DelayReason names its rule.
	Delay       time.Duration
	DelayReason string
	// Err is what the call returns: nil for OutcomeRetry and
	// OutcomeSuccess.
	Err error
}

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
	// hooks are what Options.OnCall returned for this call.
	hooks CallHooks
	// admitWait is how long the attempt in flight waited for throttle
	// windows before it was sent (AttemptInfo.AdmitWait).
	admitWait time.Duration
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
	*cl = Call{c: c, op: op, opts: opts, p: p, k: classifier{
		svc: c.svc, op: op, opts: opts, tc: c.tc,
		aliyun: p.Mode == ModeAliyun, legacy: p.Mode == ModeLegacy,
	}}
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
	if req.ContentType != "" && (req.Body != nil || req.stream != nil) {
		if req.Header == nil {
			req.Header = make(http.Header, 4)
		}
		req.Header.Set("Content-Type", req.ContentType)
	}
	if opts := cl.opts; opts.OnCall != nil {
		cl.hooks = opts.OnCall(ctx, CallInfo{Service: c.svc.Name, Operation: op.Name, Start: c.clock.Now(), Mode: cl.p.Mode, MaxAttempts: cl.p.MaxAttempts})
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
		resp, res := cl.send(ctx, req, cl.attempts+1)
		d := cl.Decide(ctx, &res)
		switch d.Outcome {
		case OutcomeSuccess:
			if err := decodeAndClose(resp, decode); err != nil {
				return &DecodeError{Operation: cl.op.Name, StatusCode: resp.StatusCode, Err: err}
			}
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
	wait := until.Sub(now)
	if wait > cl.maxDelay() || !cl.fitsDeadline(ctx, wait) {
		return 0, &ThrottleWindowError{Until: until, Dimension: dim, Operation: cl.op.Name, Err: cl.last}
	}
	return wait, nil
}

// Decide classifies the result of the next attempt and decides what follows
// (§3): success, a retry after Decision.Delay, or the error the call returns.
// It pays and refunds the retry quota and records throttle windows.
func (cl *Call) Decide(ctx context.Context, res *AttemptResult) Decision {
	c, p := cl.c, &cl.p
	cl.attempts++
	cl.md.Attempts = cl.attempts
	throttled := false
	if res.Header != nil && (c.tc != nil || cl.opts.RateLimitDebug) {
		// Debug mode exposes the quota even with throttle control off
		// (header names from the service then).
		names := c.tc
		if names == nil {
			names = c.svc.ThrottleControl
		}
		cl.md.RateLimit = ParseRateLimitInfo(res.Header, names)
		if c.tc != nil {
			c.windows.Record(c.identity, cl.op.Name, cl.md.RateLimit, c.clock.Now())
			throttled = cl.md.RateLimit.Throttled()
		}
	}
	d := Decision{Class: cl.k.classify(ctx, res, throttled)}
	if p.UsesLimiter && res.StatusCode != 0 {
		c.limiter.Update(d.Class == ClassThrottling)
	}
	switch {
	case d.Class == ClassSuccess:
		if p.UsesQuota {
			if cl.paid > 0 {
				c.quota.Release(cl.paid)
			} else {
				c.quota.Release(NoRetryIncrement)
			}
			cl.paid = 0
		}
		d.Outcome = OutcomeSuccess
		return cl.observe(res, d)
	case d.Class == ClassNonRetryable:
		cl.last = res.Err
		d.Outcome, d.Err = OutcomeNonRetryable, res.Err
		if err := ctx.Err(); err != nil && !errors.Is(res.Err, err) {
			d.Err = joinCtx(res.Err, err) // not retried because ctx is done (§4 rule 1)
		}
		return cl.observe(res, d)
	}
	cl.last = res.Err
	if res.StatusCode == 0 && res.Sent && !cl.retrySafe() {
		d.Outcome, d.Err = OutcomeNotRetrySafe, res.Err
		return cl.observe(res, d)
	}
	if cl.attempts >= p.MaxAttempts {
		d.Outcome, d.Err = OutcomeMaxAttempts, &MaxAttemptsError{Attempts: cl.attempts, Err: res.Err}
		return cl.observe(res, d)
	}
	d.Delay, d.DelayReason = cl.backoff(d.Class)
	cl.paid = 0
	if p.UsesQuota {
		cost := retryCost(d.Class)
		ok, balance := c.quota.Acquire(cost)
		if !ok {
			d.Outcome = OutcomeQuotaExhausted
			d.Err = &QuotaExhaustedError{Available: balance, Needed: cost, Attempts: cl.attempts, Err: res.Err}
			if cl.op.LongPolling && cl.fitsDeadline(ctx, d.Delay) {
				d.DelayReason += " (long polling)"
			} else {
				d.Delay, d.DelayReason = 0, ""
			}
			return cl.observe(res, d)
		}
		cl.paid = cost
	}
	now := c.clock.Now()
	delay, requested, from, bounded := serverDelay(res.Header, c.svc.ServerDelayHeaders, d.Delay, now)
	if from != "" {
		d.Delay, d.DelayReason = delay, from
	}
	// With throttle control, x-acs-retry-after is bounded by the max delay
	// like a throttle window (§5), below; other server delays by the max
	// server delay.
	windowed := from == HeaderACSRetryAfter && c.tc != nil
	if bounded && !windowed && (requested > cl.maxServerDelay() || !cl.fitsDeadline(ctx, requested)) {
		cl.refund()
		d.Class, d.Outcome, d.Delay = ClassThrottling, OutcomeServerDelayTooLong, requested
		d.Err = &ServerDelayError{Delay: requested, Header: from, Err: res.Err}
		return cl.observe(res, d)
	}
	if c.tc != nil {
		// §8: a throttled response waits at least the time left of its
		// window; longer than the max delay fails at once.
		delay, exceeded, dim := throttleDelay(cl.md.RateLimit, d.Delay, cl.maxDelay())
		if dim != "" {
			d.Delay, d.DelayReason = delay, "throttle window ("+dim+")"
		}
		if exceeded {
			cl.refund()
			d.Outcome = OutcomeThrottleWindow
			d.Err = &ThrottleWindowError{Until: now.Add(delay), Dimension: dim, Operation: cl.op.Name, Err: res.Err}
			return cl.observe(res, d)
		}
	}
	// Never start a sleep that would end after the deadline.
	if !cl.fitsDeadline(ctx, d.Delay) {
		cl.refund()
		d.Outcome, d.Err = OutcomeDeadline, joinCtx(res.Err, context.DeadlineExceeded)
		return cl.observe(res, d)
	}
	d.Outcome = OutcomeRetry
	return cl.observe(res, d)
}

// backoff computes the delay before the next retry after an error of class,
// and names its rule: full jitter (§5), equal jitter (§5, aliyun), or the
// service's exact exponential backoff (JitterNone).
func (cl *Call) backoff(class Class) (time.Duration, string) {
	p := &cl.p
	base := p.TransientBaseDelay
	if class == ClassThrottling {
		base = p.ThrottlingBaseDelay
	}
	n := cl.attempts - 1 // retry index from 0
	switch p.Jitter {
	case JitterNone:
		return backoffCeiling(base, p.MaxBackoff, n), "exponential backoff"
	case JitterEqual:
		return equalJitter(base, p.MaxBackoff, n+1, cl.c.rand()), "equal jitter"
	default:
		return fullJitter(base, p.MaxBackoff, n, cl.c.rand()), "full jitter"
	}
}

// refund returns the cost of a paid retry that is abandoned before it is
// sent (§3 step 7).
func (cl *Call) refund() {
	if cl.paid > 0 {
		cl.c.quota.Release(cl.paid)
		cl.paid = 0
	}
}

func (cl *Call) retrySafe() bool {
	return cl.op.RetrySafe || cl.c.svc.RetrySafe
}

func (cl *Call) maxServerDelay() time.Duration {
	if cl.opts.MaxServerDelay > 0 {
		return cl.opts.MaxServerDelay
	}
	return DefaultMaxServerDelay
}

// maxDelay bounds throttle-window waits (§8): the aliyun mode's max delay
// (its max backoff), else the service's ThrottleControl.MaxDelay, else 20 s.
func (cl *Call) maxDelay() time.Duration {
	if cl.p.Mode == ModeAliyun {
		return cl.p.MaxBackoff
	}
	if tc := cl.c.tc; tc != nil && tc.MaxDelay > 0 {
		return tc.MaxDelay
	}
	return DefaultMaxServerDelay
}

// fitsDeadline reports whether a wait of d would end no later than ctx's
// deadline.
func (cl *Call) fitsDeadline(ctx context.Context, d time.Duration) bool {
	dl, ok := ctx.Deadline()
	return !ok || d <= dl.Sub(cl.c.clock.Now())
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
		QuotaBalance: cl.c.quota.Balance(), RateLimit: cl.md.RateLimit, AdmitWait: cl.admitWait,
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
