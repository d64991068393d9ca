package runtime

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// HTTPClient sends one HTTP request. *http.Client satisfies it.
type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}

// Options configure a client, and may be overridden per call. Generated
// clients embed Options in their own Options type, so
// `func(o *dynamodb.Options) { o.MaxAttempts = 5 }` works directly.
//
// An Options value is plain configuration: the runtime copies it and never
// mutates it, so one value may be shared by any number of goroutines. All
// mutable state (retry quota, rate limiter, throttle windows) lives in the
// [Client]. Zero values mean "not set here" and fall through the precedence
// of retry-behavior.md §2.
//
// Hooks compose, settings replace: the hooks of a call's options
// (BeforeAttempt, OnAttempt, OnCall) run after the client's, never instead
// of them, so a per-call tracer cannot drop the client's signer. The order
// is: on every attempt's request, the client's BeforeAttempt, the call's
// BeforeAttempt, then the BeforeAttempt of the CallHooks returned by the
// client's and then the call's OnCall (the first error stops the chain);
// after every attempt, the client's OnAttempt, the call's OnAttempt, the
// Logger, then the CallHooks' OnAttempt in the same order; when a call
// starts, the client's OnCall, then the call's (given the context the
// client's returned); when it returns, the End hooks in reverse order, the
// call's first, as deferred calls run. A call's options built from
// [Client.Options] (which leaves the hooks out) set only their own hooks;
// every other field, Logger included, replaces the client's value.
type Options struct {
	// Endpoint, set in a call's options, sends that call to this absolute
	// http(s) URL instead of the client's endpoint (path and query
	// included). Its scheme, host and port must be the client's endpoint's
	// or those of a server the spec declares for the operation
	// (Operation.Servers: generated constants such as <Op>Server1Default),
	// else the call is an *InvalidParamsError before any attempt: a call
	// never goes to a host the spec does not name for it. "" means the
	// client's endpoint. Per call only: NewClient refuses options that set
	// it.
	Endpoint string
	// HTTPClient sends the requests; nil means http.DefaultClient. An
	// *http.Client is used through a copy (same Transport, Jar, Timeout)
	// that never follows a redirect to another scheme, host or port: that
	// 3xx is the attempt's answer (an *APIError with its status), so no
	// request or credential leaves the endpoint; within it the client's own
	// CheckRedirect (else net/http's limit of 10) decides. The client's
	// copy is made at NewClient, a per-call one at each call. Any other
	// HTTPClient follows its own redirect rules.
	HTTPClient HTTPClient

	// RetryMode overrides the environment, the config file and the
	// service's default (§2). Empty means "not set in code".
	RetryMode Mode
	// MaxAttempts counts the first attempt (3 = one request + 2 retries;
	// 1 disables retries). 0 means "not set in code"; negative is invalid.
	MaxAttempts int
	// MaxBackoff caps base × 2^n before jitter; 0 means the mode's default
	// (20 s). Negative is invalid: NewClient, or the call, returns a
	// *ConfigError (`MaxBackoff=-1s (client option): must be a duration ≥
	// 0`), as for MaxServerDelay and AttemptTimeout.
	MaxBackoff time.Duration
	// MaxServerDelay is the longest server-directed delay (Retry-After) the
	// client sleeps; longer requests end the call with a throttling error
	// carrying the delay. 0 means 20 s; negative is invalid (a
	// *ConfigError).
	MaxServerDelay time.Duration
	// AttemptTimeout bounds each attempt on its own, under the call's
	// context: the response headers and the reading and decoding of the
	// body. 0 means no per-attempt deadline; negative is invalid (a
	// *ConfigError). An attempt that times out (by
	// this, http.Client.Timeout, a Transport's ResponseHeaderTimeout or a
	// net timeout) while the call's context is alive is a transient I/O
	// failure (§4 rule 5, retry cost 14); after the request was written it
	// is retried only on retry-safe operations (§3). Only the call's own
	// context ending stops a call without a retry.
	AttemptTimeout time.Duration
	// ResumeStreams lets a streamed response (an event stream, a download:
	// Client.Open) of an operation that is not retry-safe reconnect after it
	// breaks off, re-sending the request; retry-safe operations always may.
	// false: such a stream ends with a *NotRetrySafeError.
	ResumeStreams bool
	// AcceptGzip asks for gzip-compressed responses (Accept-Encoding:
	// gzip), as aws-sdk-go-v2's EnableAcceptEncodingGzip does: the runtime
	// checks the service's checksum header (x-amz-crc32) over the bytes as
	// received, then decompresses them itself. Off, a service that declares
	// a checksum header gets Accept-Encoding: identity (Go v2's default);
	// any other leaves the choice to the transport.
	AcceptGzip bool
	// MaxResponseBody caps the bytes of one response body the runtime
	// reads, on the wire and decompressed, for 2xx and error bodies alike;
	// a longer body is a *DecodeError wrapping a *BodyTooLargeError, not
	// retried. 0 means DefaultMaxResponseBody (64 MiB).
	MaxResponseBody int64
	// RetryQuotaCapacity is the retry quota's initial and maximum balance in
	// tokens; nil means 500. It is read once, by NewClient.
	RetryQuotaCapacity *int
	// RetryCostTransient, RetryCostThrottling and RetryCostTimeout are the
	// retry costs in tokens of a transient error, a throttling error and a
	// timed-out attempt; nil means 14, 5 and 14 (§5, aws-sdk-go-v2's
	// RetryCost, ThrottlingRetryCost; Go v2 charges timeouts RetryCost).
	// NoRetryIncrement is what a first-attempt success adds; nil means 1.
	// They are read once, by NewClient; negative values count as 0.
	RetryCostTransient  *int
	RetryCostThrottling *int
	RetryCostTimeout    *int
	NoRetryIncrement    *int
	// Backoff, when set, replaces the computed backoff (full or equal
	// jitter, §5): it returns the delay before the retry that follows the
	// attempt-th attempt (counting from 1), which failed with err. A
	// server-directed delay (Retry-After, x-amz-retry-after,
	// x-acs-retry-after) and a throttle window still apply on top of it,
	// as they do on top of the computed backoff. A negative result counts
	// as 0. It must be safe for concurrent use (aws-sdk-go-v2:
	// StandardOptions.Backoff).
	Backoff func(attempt int, err error) time.Duration
	// FleetRetryBudget, when set, is a second token bucket that every retry
	// must also pay from, on top of the client's retry quota, with the same
	// costs and refills (§5); typically one shared by a fleet of processes
	// (runtime/redisstore). nil means none. Read once, by NewClient.
	FleetRetryBudget engine.RetryBudget

	// TransientCodes, ThrottlingCodes and NonRetryableCodes add error codes
	// to the service's classification; a code listed here moves to this
	// class. Per-call values add to the client's.
	TransientCodes    []string
	ThrottlingCodes   []string
	NonRetryableCodes []string
	// Classify, when set, is asked first for every failed attempt; it
	// returns the class and true to decide, or false to fall through to the
	// rules of retry-behavior.md §4. It must be safe for concurrent use.
	Classify func(*engine.AttemptResult) (engine.Class, bool)

	// RateLimiters, when set, gives the client the adaptive rate limiter
	// (§6) of its service and endpoint host, shared with every client given
	// the same value, instead of one of its own: a *RateLimiterPool shares
	// within a process, runtime/redisstore's Store across a fleet. Read
	// once, by NewClient.
	RateLimiters engine.SharedRateLimiters
	// RateLimiterFailFast makes the adaptive rate limiter return a
	// *RateLimitedError at once instead of waiting for a send token.
	RateLimiterFailFast bool

	// ThrottleControl turns on Alibaba-style throttle windows (§8) for this
	// client, or replaces the service's settings; nil keeps the service's.
	// DisableThrottleControl turns them off even when the spec enables them
	// (the retry mode is unchanged). Both are read once, by NewClient.
	ThrottleControl        *ThrottleControl
	DisableThrottleControl bool
	// MaxThrottleWindow caps how long one throttle header can block a
	// client (§8): a TimeLeft above it is clamped to it, not discarded.
	// 0 means DefaultMaxThrottleWindow (10 min). Read once, by NewClient.
	MaxThrottleWindow time.Duration

	// ThrottleIdentity keys "User" throttle windows (§8): clients of one
	// service (Service.Name) and endpoint host sharing a WindowStore and an
	// identity block each other; a window never blocks another service or
	// host (a product in a region throttles its own calls), as the fleet
	// retry budget is scoped. Empty means the client itself.
	ThrottleIdentity string
	// Windows is the throttle-window store; nil means a [*WindowStore] owned
	// by the client. Share one between clients on purpose, or share windows
	// between processes with runtime/redisstore. Read once, by NewClient.
	Windows engine.ThrottleWindowStore
	// ThrottleDebug sends "X-RateLimit-Mode: debug" on every request, so
	// the server reports quota before throttling (§8); the parsed quota of
	// every response is exposed in ResponseMetadata.Throttle and
	// AttemptInfo.Throttle, even with throttle control off.
	ThrottleDebug bool

	// IdempotencyKey is the idempotency key sent by operations that declare
	// one (Operation.IdempotencyHeader), on every attempt of the call; ""
	// means a fresh UUID version 4 per call. Set it per call, to repeat a
	// call the server may already have carried out. Per call only:
	// NewClient refuses options that set it (one key on every call makes a
	// Stripe-style server answer later, different calls with the first
	// call's result), and a call of an operation that declares no
	// idempotency header fails with [ErrNoIdempotencyHeader] before any
	// attempt (the key would not be sent).
	IdempotencyKey string

	// BeforeAttempt is called on every attempt's request just before it is
	// sent (attempt counts from 1), so a signer such as SigV4 can sign each
	// retry afresh. Each attempt's request is new, with its own header map
	// built from the operation's request: what a hook adds or changes is
	// sent on that attempt only, and the hook never sees an earlier
	// attempt's changes (as aws-sdk-go-v2's request cloner does). The hook
	// may modify the request and its header freely, but must not write into
	// the elements of a header's value slice in place (use Set or Add). An
	// error ends the call without sending, in a *RequestHookError.
	BeforeAttempt func(req *http.Request, attempt int) error
	// OnAttempt is called after every attempt with what was decided. It must
	// be safe for concurrent use and must not block.
	OnAttempt func(AttemptInfo)
	// OnCall, when set, is called once when a call starts, with the call's
	// context and a CallInfo holding its start time; the CallHooks it
	// returns observe that call only (a tracer starts a span here, runtime/
	// otelretry does). It must be safe for concurrent use.
	OnCall func(ctx context.Context, call CallInfo) CallHooks
	// Logger, when set, logs every attempt at Debug level and every retry at
	// Info level through the same information as OnAttempt.
	Logger *slog.Logger

	// Clock makes time injectable; nil means the system clock. Read once,
	// by NewClient: the client's rate limiters, throttle windows and fleet
	// limiter keep time on it, so a call's Clock is ignored (one client,
	// one clock).
	Clock engine.Clock
	// Rand makes jitter injectable; nil means math/rand/v2.Float64. It
	// returns a value in [0,1) and must be safe for concurrent use. A
	// call's Rand draws that call's jitter (backoff and the spread of a
	// throttle window's release); nil there means the client's.
	Rand func() float64
}

// CallInfo describes a call as it starts; Options.OnCall receives it.
type CallInfo struct {
	// Service is the service's name (Service.Name); Operation the
	// operation's (Operation.Name).
	Service, Operation string
	// Start is when the call started, by the client's clock.
	Start time.Time
	// Mode and MaxAttempts are the call's resolved retry mode and max
	// attempts.
	Mode        Mode
	MaxAttempts int
}

// CallHooks observe one call; Options.OnCall returns them. Every field may
// be nil.
type CallHooks struct {
	// Context, when non-nil, replaces the call's context for its attempts
	// and waits; it must be derived from the context OnCall was given (a
	// span's context, so each attempt's request carries it).
	Context context.Context
	// BeforeAttempt is called on every attempt's request after
	// Options.BeforeAttempt, just before it is sent (a propagator injects
	// traceparent here). An error ends the call without sending, as for
	// Options.BeforeAttempt.
	BeforeAttempt func(req *http.Request, attempt int) error
	// OnAttempt is called after every attempt of this call, after
	// Options.OnAttempt.
	OnAttempt func(AttemptInfo)
	// End is called once when the call returns, with its metadata and the
	// error it returns (nil on success).
	End func(md ResponseMetadata, err error)
}

// ErrNoIdempotencyHeader is the error, wrapped in an [*OperationError],
// of a call whose options set IdempotencyKey for an operation that
// declares no idempotency header (Operation.IdempotencyHeader, x-retry
// idempotencyKey): the key would not be sent and the call would not be made
// retry-safe, so nothing is sent and no retry quota is spent.
var ErrNoIdempotencyHeader = errors.New("Options.IdempotencyKey is set but the operation declares no idempotency header (x-retry idempotencyKey): the key would not be sent and the call would not be retry-safe")
