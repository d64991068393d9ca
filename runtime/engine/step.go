package engine

import (
	"context"
	"net/http"
	"time"
)

// EventKind is the kind of an [Event] a driver reports to [Call.Next].
type EventKind uint8

// Event is what a driver reports to [Call.Next].
type Event struct {
	Kind EventKind
	// Result is the attempt's result (EventResponse).
	Result *AttemptResult
	// Err is why waiting or taking a token failed (EventFailed).
	Err error
}

// ActionKind is the kind of an [Action] that [Call.Next] asks for.
type ActionKind uint8

// Action is what [Call.Next] asks a driver to do next.
type Action struct {
	Kind ActionKind
	// Delay is how long to wait (ActionWait); Reason names why: "throttle
	// window" before an attempt, Decision.DelayReason after one.
	Delay  time.Duration
	Reason string
	// Attempt is the attempt to send, from 1 (ActionSend).
	Attempt int
	// Decision is what was decided about the reported response (the
	// action that answers EventResponse); the zero Decision otherwise.
	Decision Decision
	// Err is what the call returns (ActionReturn).
	Err error
}

// Outcome is what one attempt led to. Its String form uses the outcome names
// of the cross-SDK retry vectors where they exist.
type Outcome uint8

// String returns the outcome's name ("retry_request", "success",
// "fail_request", "max_attempts_exceeded", "retry_quota_exceeded", …).
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "unknown"
}

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

// Class is the retry class of a failed attempt (retry-behavior.md §4).
type Class uint8

// String returns "success", "transient", "throttling" or "non-retryable".
func (c Class) String() string {
	switch c {
	case ClassSuccess:
		return "success"
	case ClassTransient:
		return "transient"
	case ClassThrottling:
		return "throttling"
	default:
		return "non-retryable"
	}
}

// AttemptResult is what one attempt produced, as seen by classification.
type AttemptResult struct {
	// StatusCode is the HTTP status, or 0 when no response arrived.
	StatusCode int
	// Header is the response header, or nil.
	Header http.Header
	// Code is the normalised error code, or "".
	Code string
	// Err is the transport error or the decoded API error; nil on success.
	Err error
	// Sent reports whether the request may have reached the server: false
	// for failures before anything was written (dial errors, refused
	// connections), which are retried for every operation (§3).
	Sent bool
	// StreamRetry is the reconnection time an event stream cut by Err asked
	// for (its retry field; 0 for none): a server delay, clamped to the max
	// server delay (Stream.Resume).
	StreamRetry time.Duration
}

const (
	// OutcomeRetry: another attempt follows after AttemptInfo.Delay.
	OutcomeRetry Outcome = iota
	// OutcomeSuccess: a 2xx response; the call returns it.
	OutcomeSuccess
	// OutcomeNonRetryable: a non-retryable error; returned at once.
	OutcomeNonRetryable
	// OutcomeNotRetrySafe: an ambiguous transport failure on an operation
	// that is not retry-safe (§3); returned at once.
	OutcomeNotRetrySafe
	// OutcomeMaxAttempts: the attempt was the last allowed.
	OutcomeMaxAttempts
	// OutcomeQuotaExhausted: the retry quota could not pay for a retry.
	OutcomeQuotaExhausted
	// OutcomeServerDelayTooLong: the server asked for a delay above the max
	// server delay or past the deadline.
	OutcomeServerDelayTooLong
	// OutcomeDeadline: the next delay would end after the context deadline,
	// or the context ended while waiting.
	OutcomeDeadline
	// OutcomeThrottleWindow: a throttle window (or needed delay) is longer
	// than the max delay allows (§8).
	OutcomeThrottleWindow
)

var outcomeNames = [...]string{
	OutcomeRetry:              "retry_request",
	OutcomeSuccess:            "success",
	OutcomeNonRetryable:       "fail_request",
	OutcomeNotRetrySafe:       "not_retry_safe",
	OutcomeMaxAttempts:        "max_attempts_exceeded",
	OutcomeQuotaExhausted:     "retry_quota_exceeded",
	OutcomeServerDelayTooLong: "server_delay_too_long",
	OutcomeDeadline:           "deadline_exceeded",
	OutcomeThrottleWindow:     "throttle_window_exceeded",
}

const (
	// ClassSuccess: the attempt succeeded (any 2xx).
	ClassSuccess Class = iota
	// ClassTransient: retried after the transient base delay; costs 14
	// quota tokens.
	ClassTransient
	// ClassThrottling: retried after the throttling base delay; costs 5
	// quota tokens.
	ClassThrottling
	// ClassNonRetryable: returned at once.
	ClassNonRetryable
)

const (
	// EventStart starts the call; it must be the first event.
	EventStart EventKind = iota
	// EventWaited: the wait of the last ActionWait is over.
	EventWaited
	// EventAcquired: the driver took a send token for the last
	// ActionAcquire.
	EventAcquired
	// EventResponse: the attempt of the last ActionSend produced
	// Event.Result.
	EventResponse
	// EventFailed: the driver could not wait or take a send token
	// (Event.Err: the context ended, *RateLimitedError), or gave up on the
	// call before its next attempt was sent; the call ends, refunding a
	// retry cost paid for that attempt (§3 step 7).
	EventFailed
	// EventCut: the body of the attempt that ended the call with success
	// broke off while the caller read it (a streamed response,
	// Client.Open); Event.Result holds its status and the read error. The
	// attempt is decided again, as failed: the call goes on as after any
	// failed attempt (a reconnect, a Range resume) or ends with its error.
	EventCut
)

const (
	// ActionSend: send attempt Action.Attempt (from 1), then report
	// EventResponse.
	ActionSend ActionKind = iota
	// ActionWait: wait Action.Delay (it may be 0: a retry without delay),
	// then report EventWaited, or EventFailed when the context ends first.
	ActionWait
	// ActionAcquire: take a send token from the client's rate limiter
	// (runtime.Client.RateLimiter, §6), then report EventAcquired, or EventFailed.
	ActionAcquire
	// ActionReturn: the call is over; it returns Action.Err (nil on
	// success). Next returns it again for any later event.
	ActionReturn
)

// Call is one call's attempt state machine (retry-behavior.md §3) as a
// driver sees it: runtime.Client.NewCall starts one; the driver feeds it
// [Event]s and carries out the [Action]s it returns, on its own clock.
// runtime.Client.Do drives the same machine on real time, so the order of
// the rules (classify → end → quota → server delay → throttle window →
// deadline → long-polling sleep) is written once. Not safe for
// concurrent use.
type Call interface {
	// Next takes the driver's event and returns what to do next; the
	// first event is EventStart. After ActionReturn it returns the same
	// action for any event.
	Next(ctx context.Context, ev Event) Action
}
