package runtime

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

// Request is one call's HTTP request, built once by generated code and
// replayed on every attempt.
type Request struct {
	// Method is the HTTP method ("POST").
	Method string
	// Path is the request path, parameters already expanded and escaped,
	// joined to the endpoint's path ("/" for AWS JSON services).
	Path string
	// Query holds query parameters, added to the endpoint's.
	Query url.Values
	// Header holds request headers (e.g. X-Amz-Target). The runtime adds
	// Content-Type, the attempt header and the debug header itself.
	Header http.Header
	// Body is sent on every attempt byte for byte; nil sends no body.
	Body []byte
	// ContentType is the body's media type
	// ("application/x-amz-json-1.0").
	ContentType string
}

// ResponseMetadata describes how a call went. Generated output types carry it
// as ResultMetadata.
type ResponseMetadata struct {
	// Attempts is the number of attempts made, counting the first.
	Attempts int
	// RequestID is the last response's request ID, if any.
	RequestID string
	// RateLimit is the quota the last response reported in its rate-limit
	// headers (§8), if the service declares them.
	RateLimit RateLimitInfo
}

// Class is the retry class of a failed attempt (retry-behavior.md §4).
type Class uint8

const (
	// ClassNone: the attempt succeeded (any 2xx).
	ClassNone Class = iota
	// ClassTransient: retried after the transient base delay; costs 14
	// quota tokens.
	ClassTransient
	// ClassThrottling: retried after the throttling base delay; costs 5
	// quota tokens.
	ClassThrottling
	// ClassNonRetryable: returned at once.
	ClassNonRetryable
)

// String returns "success", "transient", "throttling" or "non-retryable".
func (c Class) String() string {
	switch c {
	case ClassNone:
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
}

// AttemptInfo is passed to Options.OnAttempt after every attempt.
type AttemptInfo struct {
	// Operation is the operation's name.
	Operation string
	// Attempt counts from 1; MaxAttempts is the resolved max attempts.
	Attempt, MaxAttempts int
	// Mode is the resolved retry mode.
	Mode Mode
	// Class is the attempt's class (ClassNone on success).
	Class Class
	// StatusCode and Code describe the response (0, "" when none).
	StatusCode int
	Code       string
	// Err is the attempt's error, nil on success.
	Err error
	// Retry reports whether another attempt follows; Delay is the wait
	// before it and DelayReason says where Delay came from ("full jitter",
	// "equal jitter", "x-amz-retry-after", "Retry-After", "throttle window",
	// "long polling", …). Outcome says why the call ends when Retry is false.
	Retry       bool
	Delay       time.Duration
	DelayReason string
	Outcome     string
	// QuotaBalance is the retry quota after the attempt, in tokens.
	QuotaBalance int
	// LimiterRate is the adaptive limiter's fill rate in tokens/s (0 when
	// the limiter is not enabled).
	LimiterRate float64
	// RateLimit is the quota parsed from the response's rate-limit headers.
	RateLimit RateLimitInfo
}

// Client holds one generated client's retry state: the resolved settings,
// the retry quota, the adaptive rate limiter and the throttle-window store.
// It is safe for concurrent use.
type Client struct {
	service  *Service
	endpoint *url.URL
	opts     Options
	// further state is added by retryer.go, quota.go, adaptive.go, window.go
	state
}

// NewClient resolves the settings of opts against the service's defaults,
// the environment and the shared config file (retry-behavior.md §2), and
// returns a client for endpoint. It returns an error naming the level and
// value when the winning retry mode or max attempts is invalid
// (`AWS_MAX_ATTEMPTS="0" (environment): must be an integer ≥ 1`), or when
// endpoint is not an absolute http(s) URL.
func NewClient(svc *Service, endpoint string, opts Options) (*Client, error) {
	return newClient(svc, endpoint, opts)
}

// Do sends req for op with retries as the resolved mode prescribes. opts are
// the call's options: the client's options with any per-call changes applied
// (nil means the client's). On a 2xx response decode is called with the
// response, whose body the runtime closes afterwards; decode's error is
// returned as is (not retried). On failure Do returns a ModeledError (from
// op.NewError), an *APIError, a transport error, or one of
// *MaxAttemptsError, *QuotaExhaustedError, *ServerDelayError,
// *RateLimitedError, *ThrottleWindowError wrapping the last attempt's error.
// Every response body not handed to decode is drained (up to 4 KiB) and
// closed.
func (c *Client) Do(ctx context.Context, op *Operation, req *Request, opts *Options, decode func(*http.Response) error) (ResponseMetadata, error) {
	return c.do(ctx, op, req, opts, decode)
}
