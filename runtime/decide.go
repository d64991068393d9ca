package runtime

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// decide classifies the result of the next attempt and decides what follows
// (§3): success, a retry after Decision.Delay, or the error the call returns.
// It pays and refunds the retry quota and records throttle windows.
//
// decide is the response half of the attempt state machine: [callMachine.Next]
// calls it for every EventResponse, and a conformance runner may call it
// directly with a scripted result. Every rule reads the call's [Policy].
// It takes these steps in this order; the first step that
// ends the call decides:
//
//  1. read the throttle headers and record their windows (§8), then classify
//     the attempt (§4) and update the adaptive rate limiter (§6);
//  2. end: success, a non-retryable error, an ambiguous failure of an
//     operation that is not retry-safe, or max attempts (§3);
//  3. retry quota: compute the backoff and pay the retry cost (§5);
//     OutcomeQuotaExhausted when the quota cannot pay;
//  4. server delay: Retry-After, x-amz-retry-after, x-acs-retry-after (§5);
//     OutcomeServerDelayTooLong when it is too long;
//  5. throttle window: wait at least the time left of a throttled window
//     (§8); OutcomeThrottleWindow when it is longer than the max delay;
//  6. deadline: never start a sleep that ends after ctx's deadline;
//     OutcomeDeadline.
//
// Otherwise the outcome is OutcomeRetry after Decision.Delay.
func (cl *callMachine) decide(ctx context.Context, res *engine.AttemptResult) engine.Decision {
	cl.attempts++
	throttled := cl.recordThrottleHeaders(res)
	k := classifier{p: cl.pol, op: cl.op}
	d := engine.Decision{Class: k.classify(ctx, res, throttled)}
	if cl.pol.Params.UsesLimiter {
		// After every attempt, transport failures included
		// (aws-sdk-go-v2 aws/retry/adaptive.go).
		cl.scope().limiter.Update(d.Class == engine.ClassThrottling)
	}
	if cl.decideEnd(ctx, res, &d) ||
		cl.payQuota(ctx, res, &d) ||
		cl.applyServerDelay(ctx, res, &d) ||
		cl.applyThrottleWindow(res, &d) ||
		cl.checkDeadline(ctx, res, &d) {
		return cl.observe(res, d)
	}
	d.Outcome = engine.OutcomeRetry
	return cl.observe(res, d)
}

// recordThrottleHeaders parses the attempt's throttle headers into the
// call's metadata, records the windows they report (§8) and reports whether
// one of their dimensions is throttled. With throttle control off it only
// parses, for ThrottleDebug (header names from the service then), and
// reports false.
func (cl *callMachine) recordThrottleHeaders(res *engine.AttemptResult) (throttled bool) {
	c, tc := cl.c, cl.pol.ThrottleControl
	if res.Header == nil || (tc == nil && !cl.opts.ThrottleDebug) {
		return false
	}
	names := tc
	if names == nil {
		names = c.svc.ThrottleControl
	}
	cl.md.Throttle = parseThrottleHeaders(res.Header, names)
	if tc == nil {
		return false
	}
	// §8: no window longer than the cap, clamped, not discarded; the delay
	// of this attempt uses the clamped value too.
	cl.md.Throttle.UserAPI.TimeLeft = min(cl.md.Throttle.UserAPI.TimeLeft, cl.pol.MaxThrottleWindow)
	cl.md.Throttle.User.TimeLeft = min(cl.md.Throttle.User.TimeLeft, cl.pol.MaxThrottleWindow)
	// A window's length paces the calls after it (engine.Windows): the
	// same cap, or one header could hold an identity for days.
	cl.md.Throttle.UserAPI.Window = min(cl.md.Throttle.UserAPI.Window, cl.pol.MaxThrottleWindow)
	cl.md.Throttle.User.Window = min(cl.md.Throttle.User.Window, cl.pol.MaxThrottleWindow)
	c.windows.Record(cl.scope().identity, cl.op.Name, cl.md.Throttle, c.clock.Now())
	return cl.md.Throttle.Throttled()
}

// decideEnd ends the call without a retry when one of these holds, in this
// order (§3): the attempt succeeded (a first-attempt success adds
// NoRetryIncrement to the retry quota, a successful retry refunds its
// cost); its error is non-retryable; it failed ambiguously (sent, no
// response) on an operation that is not retry-safe; it was the last of max
// attempts. It reports whether the call ends.
func (cl *callMachine) decideEnd(ctx context.Context, res *engine.AttemptResult, d *engine.Decision) bool {
	switch d.Class {
	case engine.ClassSuccess:
		if cl.pol.Params.UsesQuota || cl.scope().fleet != nil {
			if cl.paid > 0 {
				cl.releaseRetry(cl.paid, cl.pol.Params.UsesQuota)
			} else {
				cl.releaseRetry(cl.c.costs.noRetryIncrement, cl.pol.Params.UsesQuota)
			}
			cl.paid = 0
		}
		d.Outcome = engine.OutcomeSuccess
		return true
	case engine.ClassNonRetryable:
		cl.last = res.Err
		d.Outcome, d.Err = engine.OutcomeNonRetryable, res.Err
		if err := ctx.Err(); err != nil && !errors.Is(res.Err, err) {
			d.Err = joinCtx(res.Err, err) // not retried because ctx is done (§4 rule 1)
		}
		return true
	}
	cl.last = res.Err
	switch {
	case res.Sent && d.Class == engine.ClassTransient && !cl.pol.RetrySafe &&
		(res.StatusCode == 0 || res.StatusCode >= 200 && res.StatusCode < 300):
		// No response, or a 2xx whose body broke off: the request may have
		// had its effect (§3).
		d.Outcome, d.Err = engine.OutcomeNotRetrySafe, &NotRetrySafeError{Attempts: cl.attempts, Err: res.Err}
		return true
	case cl.noReplay && cl.attempts >= cl.pol.Params.MaxAttempts:
		d.Outcome, d.Err = engine.OutcomeNotRetrySafe, &NotRetrySafeError{Attempts: cl.attempts, Reason: reasonBodyNotReplayable, Err: res.Err}
		return true
	case cl.attempts >= cl.pol.Params.MaxAttempts:
		d.Outcome, d.Err = engine.OutcomeMaxAttempts, &MaxAttemptsError{Attempts: cl.attempts, Err: res.Err}
		return true
	}
	return false
}

// payQuota sets the retry's backoff (§5) and, in modes with a retry quota,
// pays its retry cost. It reports true, ending the call, when the quota
// cannot pay: the outcome is OutcomeQuotaExhausted, and a long-polling
// operation keeps the backoff as the delay to sleep before returning (§7)
// when it fits the deadline.
func (cl *callMachine) payQuota(ctx context.Context, res *engine.AttemptResult, d *engine.Decision) bool {
	d.Delay, d.DelayReason = cl.backoff(d.Class, res.Err)
	cl.paid = 0
	if !cl.pol.Params.UsesQuota && cl.scope().fleet == nil {
		return false
	}
	cost := cl.c.costs.retryCost(d.Class, res.Err)
	ok, balance, fleet := cl.payRetry(cost, cl.pol.Params.UsesQuota)
	if ok {
		cl.paid = cost
		return false
	}
	d.Outcome = engine.OutcomeQuotaExhausted
	d.Err = &QuotaExhaustedError{Available: balance, Needed: cost, Attempts: cl.attempts, Fleet: fleet, Err: res.Err}
	if cl.pol.LongPolling {
		// §7: the forced sleep honours the server delay headers the
		// service declares, clamped to the max server delay as a retry's
		// delay would be (aws-sdk-go-v2 honours x-amz-retry-after here).
		delay, _, from, _ := cl.serverDelay(res, d.Delay)
		if from != "" {
			d.Delay, d.DelayReason = min(delay, cl.pol.MaxServerDelay), from
		}
	}
	if cl.pol.LongPolling && cl.fitsDeadline(ctx, d.Delay) {
		d.DelayReason += " (long polling)"
	} else {
		d.Delay, d.DelayReason = 0, ""
	}
	return true
}

// applyServerDelay applies the server-delay headers the service declares to
// the backoff (§5, serverDelay). It reports true, ending the call with a
// refund and a *ServerDelayError, when a Retry-After or x-acs-retry-after
// delay is longer than the max server delay or the time left before ctx's
// deadline. With throttle control, x-acs-retry-after is bounded by the max
// delay like a throttle window instead (applyThrottleWindow).
func (cl *callMachine) applyServerDelay(ctx context.Context, res *engine.AttemptResult, d *engine.Decision) bool {
	delay, requested, from, bounded := cl.serverDelay(res, d.Delay)
	if from != "" {
		d.Delay, d.DelayReason = delay, from
	} else if res.StreamRetry > 0 {
		// An event stream's retry field: a server delay, clamped (§5).
		d.Delay, d.DelayReason = max(d.Delay, min(res.StreamRetry, cl.pol.MaxServerDelay)), "event stream retry field"
	}
	windowed := from == engine.HeaderACSRetryAfter && cl.pol.ThrottleControl != nil
	if !bounded || windowed || (requested <= cl.pol.MaxServerDelay && cl.fitsDeadline(ctx, requested)) {
		return false
	}
	cl.refund()
	d.Class, d.Outcome, d.Delay = engine.ClassThrottling, engine.OutcomeServerDelayTooLong, requested
	d.Err = &ServerDelayError{Delay: requested, Header: from, Err: cl.deadlineErr(ctx, res.Err, requested)}
	return true
}

// serverDelay is engine.ServerDelay over the service's server-delay
// headers, and x-acs-retry-after even when the service does not list it:
// a positive value makes the response throttling wherever it appears
// (classify, §4 rule 3), so it is also its delay (§5), as if listed last
// (third new-user trial F11: it classified but was not waited for).
func (cl *callMachine) serverDelay(res *engine.AttemptResult, t time.Duration) (d, requested time.Duration, from string, bounded bool) {
	d, requested, from, bounded = engine.ServerDelay(res.Header, cl.pol.ServerDelayHeaders, t, cl.c.clock.Now())
	if res.Header == nil || slices.ContainsFunc(cl.pol.ServerDelayHeaders, isACSRetryAfter) {
		return d, requested, from, bounded
	}
	if ms, ok := engine.ParseACSRetryAfter(engine.HeaderGet(res.Header, engine.HeaderACSRetryAfter)); ok {
		return ms, ms, engine.HeaderACSRetryAfter, true
	}
	return d, requested, from, bounded
}

// isACSRetryAfter reports whether header name is x-acs-retry-after.
func isACSRetryAfter(name string) bool { return strings.EqualFold(name, engine.HeaderACSRetryAfter) }

// applyThrottleWindow, with throttle control on (§8), makes a throttled
// response wait at least the time left of its window (throttleDelay). It
// reports true, ending the call with a refund and a *ThrottleWindowError,
// when that delay is longer than the max delay.
func (cl *callMachine) applyThrottleWindow(res *engine.AttemptResult, d *engine.Decision) bool {
	if cl.pol.ThrottleControl == nil {
		return false
	}
	delay, exceeded, dim := throttleDelay(cl.md.Throttle, d.Delay, cl.pol.ThrottleMaxDelay)
	if dim != "" {
		d.Delay, d.DelayReason = delay, "throttle window ("+dim+")"
		if !exceeded { // spread over the next window (release.go), within the max delay
			d.Delay = cl.spreadRetry(cl.op.Name, delay, cl.pol.ThrottleMaxDelay)
		}
	}
	if !exceeded {
		return false
	}
	cl.refund()
	d.Outcome = engine.OutcomeThrottleWindow
	d.Err = &ThrottleWindowError{Until: cl.c.clock.Now().Add(delay), Dimension: dim, Operation: cl.op.Name, Err: res.Err}
	return true
}

// checkDeadline reports true, ending the call with a refund and an error
// that wraps context.DeadlineExceeded, when the delay would end after ctx's
// deadline: never start a sleep that cannot finish.
func (cl *callMachine) checkDeadline(ctx context.Context, res *engine.AttemptResult, d *engine.Decision) bool {
	if cl.fitsDeadline(ctx, d.Delay) {
		return false
	}
	cl.refund()
	d.Outcome, d.Err = engine.OutcomeDeadline, joinCtx(res.Err, &waitPastDeadlineError{wait: d.Delay})
	return true
}

// waitPastDeadlineError is context.DeadlineExceeded for a wait the call did
// not start because it would end after the call's deadline (§3 step 7):
// errors.Is(err, context.DeadlineExceeded) holds, as when the deadline has
// passed, and the message says it has not yet (newuser4 G8: a caller saw
// "context deadline exceeded" seconds before its deadline).
type waitPastDeadlineError struct{ wait time.Duration }

func (e *waitPastDeadlineError) Error() string {
	return "a wait of " + e.wait.String() + " would end after the call's deadline: " + context.DeadlineExceeded.Error()
}

func (e *waitPastDeadlineError) Unwrap() error { return context.DeadlineExceeded }

// backoff computes the delay before the next retry after err, of class,
// and names its rule: the policy's Backoff (Options.Backoff) when set, else
// full jitter (§5), equal jitter (§5, aliyun), or the service's exact
// exponential backoff (JitterNone), with the policy's base delays, max
// backoff and backoff exponent (§9). These formula functions are the ones
// their tests check.
func (cl *callMachine) backoff(class engine.Class, err error) (time.Duration, string) {
	if f := cl.pol.Backoff; f != nil {
		return max(f(cl.attempts, err), 0), "Options.Backoff"
	}
	p := &cl.pol.Params
	base := p.TransientBaseDelay
	if class == engine.ClassThrottling {
		base = p.ThrottlingBaseDelay
	}
	n := cl.attempts - 1 // retry index from 0
	switch p.Jitter {
	case JitterNone:
		return backoffCeilingExp(base, p.MaxBackoff, p.BackoffExponent, n), "exponential backoff"
	case JitterEqual:
		return equalJitter(base, p.MaxBackoff, p.BackoffExponent, n+1, cl.rand()), "equal jitter"
	default:
		return fullJitter(base, p.MaxBackoff, p.BackoffExponent, n, cl.rand()), "full jitter"
	}
}

// refund returns the cost of a paid retry that is abandoned before it is
// sent (§3 step 7).
func (cl *callMachine) refund() {
	if cl.paid > 0 {
		cl.releaseRetry(cl.paid, cl.pol.Params.UsesQuota)
		cl.paid = 0
	}
}

// deadlineErr returns err joined with context.DeadlineExceeded when a wait
// of d does not fit the deadline (fitsDeadline), so that
// errors.Is(err, context.DeadlineExceeded) holds whenever the deadline ended
// the call, whichever rule noticed it; else err.
func (cl *callMachine) deadlineErr(ctx context.Context, err error, d time.Duration) error {
	if cl.fitsDeadline(ctx, d) {
		return err
	}
	return joinCtx(err, &waitPastDeadlineError{wait: d})
}

// fitsDeadline reports whether a wait of d would end no later than ctx's
// deadline.
func (cl *callMachine) fitsDeadline(ctx context.Context, d time.Duration) bool {
	now := cl.c.clock.Now()
	if e := cl.pol.MaxElapsed; e > 0 && !cl.start.IsZero() && d > cl.start.Add(e).Sub(now) {
		return false // the service's retry deadline (Service.MaxElapsed)
	}
	dl, ok := ctx.Deadline()
	return !ok || d <= dl.Sub(now)
}
