package runtime

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/retrygen/retrygen/runtime/internal/httpsyntax"
)

// Service is what a spec's x-retry extension declares about a service. The
// generator emits one as a Go literal in every client; the runtime never
// mutates it.
type Service struct {
	// Name is the service's title ("Amazon DynamoDB"), used in error
	// messages and logs.
	Name string
	// PackageName is the generated Go package's name ("dynamodb"). Errors
	// returned by [Client.Do] start with it, as Go errors start with their
	// package's name ([OperationError]); empty means Name.
	PackageName string
	// Extension names the spec extension the service's defaults come from
	// in Source.Location ("x-speakeasy-retries of Swagger Petstore"); empty
	// means "x-retry".
	Extension string
	// EnvPrefix names the environment variables and config file that
	// configure retries: <EnvPrefix>_RETRY_MODE, <EnvPrefix>_MAX_ATTEMPTS,
	// <EnvPrefix>_CONFIG_FILE (default ~/.<envprefix>/config),
	// <EnvPrefix>_PROFILE. Empty disables those two levels.
	EnvPrefix string
	// DefaultMode is the service's mode when nothing else chooses one;
	// empty means standard.
	DefaultMode Mode
	// Defaults apply to every mode; PerMode entries override them field by
	// field for one mode.
	Defaults ModeDefaults
	PerMode  map[Mode]ModeDefaults

	// TransientCodes, ThrottlingCodes and NonRetryableCodes add error codes
	// to the built-in lists of retry-behavior.md §4 (a code listed here
	// moves to this class).
	TransientCodes    []string
	ThrottlingCodes   []string
	NonRetryableCodes []string
	// Bare429NotRetried asks for botocore's standard mode: an HTTP 429
	// without a recognised code is non-retryable instead of throttling (§4
	// rule 7; aws-sdk-go-v2 retries it as throttling).
	Bare429NotRetried bool
	// RetryStatuses, when set, replace §4 rules 6 and 7 (outside aliyun
	// mode, whose ThrottleControl.RetryStatuses apply): an error response
	// whose status is in a range is retried, as throttling for 429 and as
	// transient otherwise, and any other status is non-retryable. Error
	// codes still decide first (rules 2–4). x-retry retryStatuses;
	// x-speakeasy-retries statusCodes.
	RetryStatuses []StatusRange
	// ConnectionErrorsNotRetried makes I/O failures (§4 rule 5)
	// non-retryable: x-retry retryConnectionErrors: false,
	// x-speakeasy-retries retryConnectionErrors: false.
	ConnectionErrorsNotRetried bool
	// MaxElapsed is the retry deadline of every call, counted from its
	// start: a retry whose delay would end later is not made, and the call
	// returns the last attempt's error joined with
	// context.DeadlineExceeded, as for a context deadline (§3 step 7); an
	// attempt in flight is not cancelled. 0 means none. x-retry
	// maxElapsedMs; x-speakeasy-retries backoff.maxElapsedTime.
	MaxElapsed time.Duration

	// ErrorCodeHeaders are response headers holding the error code, looked
	// at first; the code is the value's part before the first ':'
	// (X-Amzn-ErrorType: "ResourceNotFoundException:http://…").
	ErrorCodeHeaders []string
	// ErrorCodeFields are JSON body fields holding the error code, dotted
	// for nesting ("error.code"); the code is the value's part after the
	// last '#' ("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException").
	// An XML body (Content-Type *xml, or starting with '<') is read as its
	// elements below the root: "Error.Code" finds SlowDown in
	// <ErrorResponse><Error><Code>SlowDown</Code></Error></ErrorResponse>
	// (the AWS query protocol). ErrorMessageFields and RequestIDFields
	// read bodies the same way.
	ErrorCodeFields []string
	// ErrorMessageFields are JSON body fields holding the message
	// ("message", "Message").
	ErrorMessageFields []string
	// RequestIDHeaders are response headers holding the request ID
	// (x-amzn-RequestId); RequestIDFields are JSON body fields for it. When
	// both are empty the runtime looks at X-Request-Id, then Request-Id.
	RequestIDHeaders []string
	RequestIDFields  []string

	// ServerDelayHeaders lists the server-delay headers this service sends,
	// among "x-amz-retry-after" (ms), "Retry-After" (RFC 9110) and
	// "x-acs-retry-after" (ms). Others are ignored.
	ServerDelayHeaders []string

	// RetrySafe declares every operation retry-safe after an ambiguous
	// transport failure, even POST (the AWS JSON services are; §3).
	RetrySafe bool
	// AttemptHeader, when set, is sent on every attempt as
	// "attempt=N; max=M" (AWS: "amz-sdk-request").
	AttemptHeader string

	// InvocationIDHeader, when set, is sent on every attempt with one
	// random UUID version 4 per call, the same on every attempt of that
	// call (AWS: "amz-sdk-invocation-id", as aws-sdk-go-v2 sends it).
	InvocationIDHeader string
	// ChecksumHeader, when set, names a response header holding the
	// decimal CRC32 (IEEE) of a 2xx body (DynamoDB: "x-amz-crc32"). A
	// mismatch is a *ChecksumError, a transient I/O failure (§4).
	ChecksumHeader string

	// ThrottleControl enables Alibaba-style throttle windows (§8); nil
	// means off.
	ThrottleControl *ThrottleControl
}

// ThrottleControl declares the throttle headers of a service that uses
// Alibaba-style throttle windows (retry-behavior.md §8).
type ThrottleControl struct {
	// UserAPIHeader carries the "API + User" dimension
	// (default X-RateLimit-User-API).
	UserAPIHeader string
	// UserHeader carries the "User" dimension (default X-RateLimit-User).
	UserHeader string
	// MaxDelay bounds every delay and window wait; 0 means
	// DefaultThrottleMaxDelay (120 s, aliyun-java-sdk-core's RetryUtil).
	MaxDelay time.Duration
	// RetryStatuses are the HTTP statuses retried in aliyun mode
	// (default 408, 429, 500, 502, 503, 504).
	RetryStatuses []int
}

// Operation describes one API operation to the runtime. Generated code
// declares one package-level value per operation.
type Operation struct {
	// Name is the operation's Go name ("GetItem"); it keys API + User
	// throttle windows and appears in errors.
	Name string
	// RetrySafe: retry after an ambiguous transport failure (GET, HEAD,
	// OPTIONS, PUT, DELETE, or marked idempotent by the spec; §3).
	RetrySafe bool
	// LongPolling: when the retry quota cannot pay, sleep the backoff of
	// the error's class before returning (§7).
	LongPolling bool
	// FixedHeaders are headers with one fixed value sent on every attempt
	// of every call (X-Amz-Target: DynamoDB_20120810.GetItem), keys in
	// canonical form. Read-only: each attempt copies them into its own
	// header map, so generated code builds no header map per call for
	// them; Request.Header adds to them and wins for the same key.
	FixedHeaders map[string]string
	// TransientCodes, ThrottlingCodes and NonRetryableCodes add
	// per-operation classification on top of the service's.
	TransientCodes    []string
	ThrottlingCodes   []string
	NonRetryableCodes []string
	// Backoff overrides the service's mode defaults for this operation
	// (the operation's x-retry or x-speakeasy-retries): its set fields win
	// over Service.Defaults and PerMode; options still win over it. Its
	// MaxAttempts applies when max attempts is not set in options, the
	// environment or the config file (§2).
	Backoff ModeDefaults
	// RetryStatuses, when set, replace the service's (Service.RetryStatuses)
	// for this operation.
	RetryStatuses []StatusRange
	// ConnectionErrorsNotRetried makes I/O failures non-retryable for this
	// operation (Service.ConnectionErrorsNotRetried).
	ConnectionErrorsNotRetried bool
	// MaxElapsed, when positive, replaces the service's retry deadline
	// (Service.MaxElapsed) for this operation.
	MaxElapsed time.Duration
	// IdempotencyHeader names the header carrying the operation's
	// idempotency key (x-retry idempotencyKey.header, Stripe's
	// "Idempotency-Key"); "" for none. Each call sends one key on every
	// attempt: the request's own value, else Options.IdempotencyKey, else a
	// fresh NewUUID. Generated code marks such an operation RetrySafe: the
	// server answers a repeated key with the first request's result.
	IdempotencyHeader string
	// Servers are the URLs of the servers the spec declares for the
	// operation itself (its servers, else its path item's; OpenAPI 3.0
	// §4.7.10), nil when it has none and uses the root's. Generated code
	// lists each with its variables at their defaults, or at each value of
	// an enum variable of the scheme, host or port. A call's
	// Options.Endpoint may name the origin (scheme, host, port) of one of
	// them, besides the client's own (target.go).
	Servers []string
	// NewError returns a new, empty modeled error for an error code, or nil
	// when the code is not modeled for this operation. The runtime decodes
	// the error body into it and fills its metadata.
	NewError func(code string) ModeledError
	// NewErrorForStatus returns a new, empty modeled error for an HTTP
	// status (specs that model errors by status, "4XX" ranges and
	// "default" responses), or nil. The runtime consults it when NewError
	// is nil or returns nil, then decodes the error body into it and fills
	// its metadata as for NewError. Nil means no error is modeled by
	// status.
	NewErrorForStatus func(status int) ModeledError
}

// errorName is the service's name in errors: PackageName, else Name.
func (s *Service) errorName() string {
	if s.PackageName != "" {
		return s.PackageName
	}
	return s.Name
}

// connectionSpecific is why a connection-specific header is not sent: Go
// 1.26 net/http's HTTP/2 transport (internal/httpcommon encodeHeaders and
// checkConnHeaders) drops it, or refuses the request for most values.
const connectionSpecific = " is connection-specific: net/http's HTTP/2 transport drops it (or refuses the request) and a proxy removes it (RFC 9110 §7.6.1, RFC 9113 §8.2.2)"

// unsentHeaders are the request headers the runtime cannot send as its own,
// each with the reason (any letter case matches): the ones net/http does
// not send as a Request's Header sets them (Go 1.26: request.go's
// reqWriteExcludeHeader for HTTP/1.1, internal/httpcommon's encodeHeaders
// for HTTP/2), RFC 9110's hop-by-hop headers, and the ones the runtime
// itself sets on an attempt for another purpose (Client.Do, body.go).
// User-Agent is sent as set and is not listed.
var unsentHeaders = [...]struct{ name, reason string }{
	{"Host", "net/http sends the endpoint's host (Request.Host) as Host, never a header value"},
	{"Content-Length", "net/http sends the body's length as Content-Length, never a header value"},
	{"Transfer-Encoding", "net/http sets Transfer-Encoding itself (HTTP/1.1; HTTP/2 has none), never a header value"},
	{"Trailer", "net/http sends Request.Trailer's names as Trailer (HTTP/1.1), never a header value"},
	{"Connection", "Connection" + connectionSpecific},
	{"Proxy-Connection", "Proxy-Connection" + connectionSpecific},
	{"Keep-Alive", "Keep-Alive" + connectionSpecific},
	{"Upgrade", "Upgrade" + connectionSpecific},
	{"TE", `TE is hop-by-hop: a proxy removes it and HTTP/2 allows only "trailers" (RFC 9110 §7.6.1, RFC 9113 §8.2.2)`},
	{"Content-Type", "the runtime sends the request body's media type as Content-Type"},
	{"Accept-Encoding", "the runtime sets Accept-Encoding (gzip with Options.AcceptGzip, identity to check a response checksum)"},
	{engine.HeaderThrottlingControl, "the runtime sends " + engine.HeaderThrottlingControl + " when throttle control is on (retry-behavior.md §8)"},
	{headerRateLimitMode, "the runtime sends " + headerRateLimitMode + " with Options.ThrottleDebug"},
}

// headerRateLimitMode is the header Options.ThrottleDebug sends ("debug").
const headerRateLimitMode = "X-Ratelimit-Mode"

// CheckSentHeader returns an error when name cannot be a header the runtime
// sends of its own on every attempt of any Service (the rule does not
// depend on s, which may be nil) (Service.AttemptHeader,
// Service.InvocationIDHeader, Operation.IdempotencyHeader; x-retry
// attemptHeader, invocationIdHeader, idempotencyKey.header): it is not an
// RFC 9110 token, net/http does not send it as set (Host, Content-Length,
// Transfer-Encoding, Trailer), it is connection-specific or hop-by-hop
// (Connection, Proxy-Connection, Keep-Alive, Upgrade, TE), or the runtime
// sets it for another purpose (Content-Type, Accept-Encoding,
// X-Sdk-Throttling-Control, X-Ratelimit-Mode). Any letter case; nil
// otherwise, without allocating. The generator reports the error at the
// x-retry setting, NewClient for the Service's headers, Client.Do (before
// any attempt) for an operation's: an idempotency key that is not sent must
// not make a POST retry-safe (newuser4 G2).
func (s *Service) CheckSentHeader(name string) error {
	if !httpsyntax.Token(name) {
		return errors.New(strconv.Quote(name) + " is not an HTTP header name (RFC 9110 token)")
	}
	for _, u := range unsentHeaders {
		if strings.EqualFold(name, u.name) {
			return errors.New(u.reason)
		}
	}
	return nil
}

// checkSentHeaders checks the headers s sends on every attempt
// (CheckSentHeader) and that they differ: for NewClient.
func (s *Service) checkSentHeaders() error {
	for _, h := range [...]struct{ field, name string }{{"AttemptHeader", s.AttemptHeader}, {"InvocationIDHeader", s.InvocationIDHeader}} {
		if h.name == "" {
			continue
		}
		if err := s.CheckSentHeader(h.name); err != nil {
			return fmt.Errorf("Service.%s %q: %w", h.field, h.name, err)
		}
	}
	if s.AttemptHeader != "" && strings.EqualFold(s.AttemptHeader, s.InvocationIDHeader) {
		return sameHeaderError("Service.InvocationIDHeader", s.InvocationIDHeader, "Service.AttemptHeader")
	}
	return nil
}

// checkIdempotencyHeader checks op's IdempotencyHeader (CheckSentHeader,
// and unlike the service's own headers) before a call's first attempt.
func (s *Service) checkIdempotencyHeader(op *Operation) error {
	h := op.IdempotencyHeader
	if err := s.CheckSentHeader(h); err != nil {
		return fmt.Errorf("Operation.IdempotencyHeader %q: %w", h, err)
	}
	switch {
	case strings.EqualFold(h, s.AttemptHeader):
		return sameHeaderError("Operation.IdempotencyHeader", h, "Service.AttemptHeader")
	case strings.EqualFold(h, s.InvocationIDHeader):
		return sameHeaderError("Operation.IdempotencyHeader", h, "Service.InvocationIDHeader")
	}
	return nil
}

// sameHeaderError is the error for two settings naming one header.
func sameHeaderError(field, name, other string) error {
	return fmt.Errorf("%s %q is also %s: each attempt would carry one of the two values", field, name, other)
}
