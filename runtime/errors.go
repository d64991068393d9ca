package runtime

import (
	"fmt"
	"time"
)

// ErrorMetadata is what every error response carries. Generated error types
// embed it (`runtime.ErrorMetadata` with tag `json:"-"`), and the runtime
// fills it through [ModeledError.Metadata]. Through it every API error —
// generated types and [APIError] — has the ErrorCode and ErrorMessage
// methods of smithy-go's APIError interface, so code written against
// aws-sdk-go-v2 (`var ae interface{ ErrorCode() string }; errors.As(err,
// &ae)`) works unchanged. smithy-go's third method, ErrorFault, returns a
// smithy-go type that a standard-library-only runtime cannot name; it is
// left out.
type ErrorMetadata struct {
	// HTTPStatusCode is the response's real HTTP status (not the spec's
	// fake 48x status).
	HTTPStatusCode int
	// Code is the service's error code, normalised (part after '#',
	// before ':'); "" when the response names none.
	Code string
	// Message is the service's message, if any.
	Message string
	// RequestID is the server's request ID, if any.
	RequestID string
	// Body holds up to 64 KiB of a modelled error's response body as
	// received (JSON, XML, or a proxy's HTML page its fields cannot hold),
	// as *APIError keeps its own in APIError.Body (this one nil there).
	Body []byte
}

// Metadata returns m itself, so that a type embedding ErrorMetadata satisfies
// the Metadata half of [ModeledError].
func (m *ErrorMetadata) Metadata() *ErrorMetadata { return m }

// ErrorCode returns the service's error code ("" when the response named
// none), as smithy-go's APIError.ErrorCode does.
func (m *ErrorMetadata) ErrorCode() string { return m.Code }

// ErrorMessage returns the service's error message ("" when the response
// carried none), as smithy-go's APIError.ErrorMessage does.
func (m *ErrorMetadata) ErrorMessage() string { return m.Message }

// String renders "api error CODE (HTTP STATUS, request ID ID): MESSAGE",
// leaving out empty parts.
func (m *ErrorMetadata) String() string {
	s := "api error"
	if m.Code != "" {
		s += " " + m.Code
	}
	s += fmt.Sprintf(" (HTTP %d", m.HTTPStatusCode)
	if m.RequestID != "" {
		s += ", request ID " + m.RequestID
	}
	s += ")"
	if m.Message != "" {
		s += ": " + m.Message
	}
	return s
}

// ModeledError is an error response the spec models; generated error types
// implement it by embedding ErrorMetadata and declaring Error().
type ModeledError interface {
	error
	Metadata() *ErrorMetadata
}

// APIError is an error response whose code the operation does not model.
// Body holds up to 64 KiB of the response body.
type APIError struct {
	ErrorMetadata
	Body []byte
}

// Error renders the metadata (see ErrorMetadata.String).
func (e *APIError) Error() string { return e.ErrorMetadata.String() }

// QuotaExhaustedError is returned when the client-side retry quota cannot pay
// for a retry (retry-behavior.md §5). It wraps the last attempt's error.
type QuotaExhaustedError struct {
	// Available and Needed are token counts at the moment of refusal.
	Available, Needed int
	// Attempts is the number of attempts made.
	Attempts int
	// Fleet reports that the fleet retry budget (Options.FleetRetryBudget)
	// refused, not the client's own retry quota; Available is then the
	// budget's balance.
	Fleet bool
	Err   error
}

// Error says plainly that the client-side retry quota (or the fleet retry
// budget) is exhausted.
func (e *QuotaExhaustedError) Error() string {
	what := "client-side retry quota"
	if e.Fleet {
		what = "fleet retry budget"
	}
	return fmt.Sprintf("%s exhausted: %d tokens available, %d needed (after %s): %v",
		what, e.Available, e.Needed, plural(e.Attempts, "attempt"), e.Err)
}

// Unwrap returns the last attempt's error.
func (e *QuotaExhaustedError) Unwrap() error { return e.Err }

// MaxAttemptsError is returned when every allowed attempt failed with a
// retryable error. It wraps the last attempt's error.
type MaxAttemptsError struct {
	// Attempts is the number of attempts made (= max attempts).
	Attempts int
	Err      error
}

// Error names the attempt count and the last error.
func (e *MaxAttemptsError) Error() string {
	return fmt.Sprintf("failed after %s (max attempts reached): %v", plural(e.Attempts, "attempt"), e.Err)
}

// Unwrap returns the last attempt's error.
func (e *MaxAttemptsError) Unwrap() error { return e.Err }

// ServerDelayError is returned when the server asks for a delay (Retry-After,
// x-acs-retry-after) longer than the max server delay or than the time left
// before the context deadline: the client does not sleep, so the caller can
// reschedule. It is a throttling error and wraps the last attempt's error;
// when the delay does not fit the deadline it also matches
// errors.Is(err, context.DeadlineExceeded).
type ServerDelayError struct {
	// Delay is the delay the server asked for; for an overflowing value it
	// is the largest time.Duration.
	Delay time.Duration
	// Header names the header that asked.
	Header string
	Err    error
}

// Error says what the server asked for and why the client did not wait.
func (e *ServerDelayError) Error() string {
	return fmt.Sprintf("server asked to retry after %v (%s), longer than the client will wait: %v", e.Delay, e.Header, e.Err)
}

// Unwrap returns the last attempt's error.
func (e *ServerDelayError) Unwrap() error { return e.Err }

// RequestHookError is returned when Options.BeforeAttempt fails: nothing was
// sent and the call ends without retrying.
type RequestHookError struct {
	// Attempt is the attempt (from 1) whose request the hook refused.
	Attempt int
	Err     error
}

// Error names the attempt and the hook's error.
func (e *RequestHookError) Error() string {
	return fmt.Sprintf("request hook failed on attempt %d: %v", e.Attempt, e.Err)
}

// Unwrap returns the hook's error.
func (e *RequestHookError) Unwrap() error { return e.Err }

// DecodeError is returned when a 2xx response's body cannot be decoded into
// the operation's output. It is not retried (the request succeeded) unless
// Err is an I/O failure (§4 rule 5): a body shorter than its Content-Length
// (io.ErrUnexpectedEOF), an attempt deadline or a *ChecksumError, retried on
// retry-safe operations (§3).
type DecodeError struct {
	// Operation is the operation's name; StatusCode the response's status.
	Operation  string
	StatusCode int
	Err        error
}

// Error names the status and the decoder's error ([OperationError] names
// the operation).
func (e *DecodeError) Error() string {
	return fmt.Sprintf("decoding the HTTP %d response: %v", e.StatusCode, e.Err)
}

// Unwrap returns the decoder's error.
func (e *DecodeError) Unwrap() error { return e.Err }

// NotRetrySafeError is returned when an attempt failed after its request
// may have reached the server — the connection broke or timed out, or a 2xx
// body broke off or failed its checksum — and the operation is not
// retry-safe (§3), so it was not retried. Err is the attempt's error.
//
// It is also returned when a retryable attempt cannot be replayed because
// its request body, read from Request.BodyReader, is longer than
// MaxReplayBody: Reason then says so ("the request body is longer than
// MaxReplayBody (8 MiB) and cannot be replayed").
type NotRetrySafeError struct {
	Attempts int
	// Reason says why a retry was not safe; "" means the operation is not
	// retry-safe and the request may have reached the server.
	Reason string
	Err    error
}

// reasonBodyNotReplayable is NotRetrySafeError.Reason for a request body
// too long to replay.
const reasonBodyNotReplayable = "the request body is longer than MaxReplayBody (8 MiB) and cannot be replayed"

// Error renders "not retried after N attempts: the operation is not
// retry-safe and the request may have reached the server: ERR", or "not
// retried after N attempts: REASON: ERR".
func (e *NotRetrySafeError) Error() string {
	reason := e.Reason
	if reason == "" {
		reason = "the operation is not retry-safe and the request may have reached the server"
	}
	return fmt.Sprintf("not retried after %s: %s: %v", plural(e.Attempts, "attempt"), reason, e.Err)
}

// Unwrap returns the attempt's error.
func (e *NotRetrySafeError) Unwrap() error { return e.Err }

// OperationError is what [Client.Do] returns for every failure: it names
// the service and the operation, and wraps the error that ended the call, so
// errors.As and errors.Is reach every error type of this package, the
// operation's modeled errors and context errors through it. Its text is
// "SERVICE: OPERATION: ERR", e.g. "dynamodb: GetItem: failed after 4
// attempts (max attempts reached): api error …", after aws-sdk-go-v2's
// "operation error DynamoDB: GetItem, …".
type OperationError struct {
	// Service is the service's [Service.PackageName], else its
	// [Service.Name].
	Service string
	// Operation is the operation's name ([Operation.Name], "GetItem").
	Operation string
	// Err is the error that ended the call.
	Err error
}

// Error renders "SERVICE: OPERATION: ERR".
func (e *OperationError) Error() string {
	return e.Service + ": " + e.Operation + ": " + e.Err.Error()
}

// Unwrap returns the error that ended the call.
func (e *OperationError) Unwrap() error { return e.Err }

// plural renders "1 attempt", "2 attempts".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
