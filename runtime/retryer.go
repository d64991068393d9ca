package runtime

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// call is the state of one Do call: what the attempt loop needs besides the
// client. It lives on Do's stack.
type call struct {
	c    *Client
	op   *Operation
	req  *Request
	opts *Options
	p    modeParams
	k    classifier
	md   ResponseMetadata
	// paid is the retry cost paid for the attempt in flight: 0 for a first
	// attempt, else 14 or 5 tokens (§5).
	paid int
}

// do is the attempt loop of retry-behavior.md §3.
func (c *Client) do(ctx context.Context, op *Operation, req *Request, opts *Options, decode func(*http.Response) error) (ResponseMetadata, error) {
	if opts == nil {
		opts = &c.opts
	}
	p, err := c.params(opts)
	if err != nil {
		return ResponseMetadata{}, err
	}
	cl := call{c: c, op: op, req: req, opts: opts, p: p,
		k: classifier{svc: c.svc, op: op, opts: opts, aliyun: p.Mode == ModeAliyun, legacy: p.Mode == ModeLegacy}}
	if req.ContentType != "" && req.Body != nil {
		if req.Header == nil {
			req.Header = make(http.Header, 4)
		}
		req.Header.Set("Content-Type", req.ContentType)
	}
	err = cl.run(ctx, decode)
	return cl.md, err
}

func (cl *call) run(ctx context.Context, decode func(*http.Response) error) error {
	c, p := cl.c, &cl.p
	var last error // the last attempt's error
	for attempt := 1; ; attempt++ {
		// Check ctx before every attempt: no attempt after cancellation.
		if err := ctx.Err(); err != nil {
			cl.refund()
			return joinCtx(last, err)
		}
		resp, res := cl.send(ctx, attempt)
		cl.md.Attempts = attempt
		class := cl.k.classify(ctx, &res, false)
		if class == ClassNone {
			err := decodeAndClose(resp, decode)
			if p.UsesQuota {
				if cl.paid > 0 {
					c.quota.Release(cl.paid)
				} else {
					c.quota.Release(NoRetryIncrement)
				}
			}
			cl.observe(attempt, &res, class, false, 0, "", "success")
			return err
		}
		last = res.Err
		if class == ClassNonRetryable {
			cl.observe(attempt, &res, class, false, 0, "", "non-retryable")
			if err := ctx.Err(); err != nil && !errors.Is(last, err) {
				return joinCtx(last, err) // not retried because ctx is done (§4 rule 1)
			}
			return last
		}
		if res.StatusCode == 0 && res.Sent && !cl.retrySafe() {
			cl.observe(attempt, &res, class, false, 0, "", "not retry-safe after an ambiguous transport failure")
			return last
		}
		if attempt >= p.MaxAttempts {
			cl.observe(attempt, &res, class, false, 0, "", "max attempts")
			return &MaxAttemptsError{Attempts: attempt, Err: last}
		}
		delay, reason := cl.backoff(class, attempt-1)
		cl.paid = 0
		if p.UsesQuota {
			cost := retryCost(class)
			ok, balance := c.quota.Acquire(cost)
			if !ok {
				qerr := &QuotaExhaustedError{Available: balance, Needed: cost, Attempts: attempt, Err: last}
				if cl.op.LongPolling {
					// §7: sleep the backoff of this error's class, then return.
					cl.observe(attempt, &res, class, false, delay, "long polling", "retry quota exhausted")
					if !cl.fitsDeadline(ctx, delay) {
						return joinCtx(qerr, context.DeadlineExceeded)
					}
					if err := c.clock.Sleep(ctx, delay); err != nil {
						return joinCtx(qerr, err)
					}
					return qerr
				}
				cl.observe(attempt, &res, class, false, 0, "", "retry quota exhausted")
				return qerr
			}
			cl.paid = cost
		}
		d, requested, from, bounded := serverDelay(res.Header, c.svc.ServerDelayHeaders, delay, c.clock.Now())
		if from != "" {
			delay, reason = d, from
		}
		if bounded && (requested > cl.maxServerDelay() || !cl.fitsDeadline(ctx, requested)) {
			cl.refund()
			cl.observe(attempt, &res, ClassThrottling, false, requested, from, "server delay too long")
			return &ServerDelayError{Delay: requested, Header: from, Err: last}
		}
		// Never start a sleep that would end after the deadline.
		if !cl.fitsDeadline(ctx, delay) {
			cl.refund()
			cl.observe(attempt, &res, class, false, delay, reason, "deadline")
			return joinCtx(last, context.DeadlineExceeded)
		}
		cl.observe(attempt, &res, class, true, delay, reason, "")
		if err := c.clock.Sleep(ctx, delay); err != nil {
			cl.refund()
			return joinCtx(last, err)
		}
	}
}

// backoff computes the delay before retry n (from 0) after an error of
// class, and names its rule.
func (cl *call) backoff(class Class, n int) (time.Duration, string) {
	p := &cl.p
	base := p.TransientBaseDelay
	if class == ClassThrottling {
		base = p.ThrottlingBaseDelay
	}
	switch p.Jitter {
	case JitterNone:
		return backoffCeiling(base, p.MaxBackoff, n), "exponential backoff, no jitter"
	default:
		return fullJitter(base, p.MaxBackoff, n, cl.c.rand()), "full jitter"
	}
}

// refund returns the cost of a paid retry that is abandoned before it is
// sent (§3 step 7).
func (cl *call) refund() {
	if cl.paid > 0 {
		cl.c.quota.Release(cl.paid)
		cl.paid = 0
	}
}

func (cl *call) retrySafe() bool {
	return cl.op.RetrySafe || cl.c.svc.RetrySafe
}

func (cl *call) maxServerDelay() time.Duration {
	if cl.opts.MaxServerDelay > 0 {
		return cl.opts.MaxServerDelay
	}
	return DefaultMaxServerDelay
}

// fitsDeadline reports whether a wait of d would end no later than ctx's
// deadline.
func (cl *call) fitsDeadline(ctx context.Context, d time.Duration) bool {
	dl, ok := ctx.Deadline()
	return !ok || d <= dl.Sub(cl.c.clock.Now())
}

// joinCtx joins the last attempt's error (if any) with a context error, so
// both errors.Is(err, context.DeadlineExceeded) and errors.As on the API
// error work.
func joinCtx(last, ctxErr error) error {
	if last == nil {
		return ctxErr
	}
	return errors.Join(last, ctxErr)
}

// observe reports one attempt to the OnAttempt hook and the logger, if any.
// It builds nothing when neither is set.
func (cl *call) observe(attempt int, res *AttemptResult, class Class, retry bool, delay time.Duration, reason, outcome string) {
	if cl.opts.OnAttempt == nil && cl.opts.Logger == nil {
		return
	}
	info := AttemptInfo{
		Operation: cl.op.Name, Attempt: attempt, MaxAttempts: cl.p.MaxAttempts, Mode: cl.p.Mode,
		Class: class, StatusCode: res.StatusCode, Code: res.Code, Err: res.Err,
		Retry: retry, Delay: delay, DelayReason: reason, Outcome: outcome,
		QuotaBalance: cl.c.quota.Balance(), RateLimit: cl.md.RateLimit,
	}
	if cl.opts.OnAttempt != nil {
		cl.opts.OnAttempt(info)
	}
	if cl.opts.Logger != nil {
		logAttempt(cl.opts.Logger, &info)
	}
}
