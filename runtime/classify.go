package runtime

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/retrygen/retrygen/runtime/internal/exactjson"
)

// The built-in error codes of retry-behavior.md §4. Specs and options add to
// them and may move a code to another class.
var (
	// builtinThrottlingCodes are the 14 throttling codes (base delay 1,000 ms).
	builtinThrottlingCodes = []string{
		"Throttling", "ThrottlingException", "ThrottledException",
		"RequestThrottledException", "TooManyRequestsException",
		"ProvisionedThroughputExceededException", "TransactionInProgressException",
		"LimitExceededException", "PriorRequestNotComplete", "RequestThrottled",
		"EC2ThrottledException", "RequestLimitExceeded", "SlowDown",
		"BandwidthLimitExceeded",
	}
	// aliyunThrottlingCodes are the aliyun mode's default throttling codes
	// (§8).
	aliyunThrottlingCodes = []string{"Throttling", "Throttling.User", "Throttling.Api"}
	// aliyunRetryStatuses are the aliyun mode's default retry statuses
	// (§8).
	aliyunRetryStatuses = []int{408, 429, 500, 502, 503, 504}
	// builtinTransientCodes are the transient codes (base delay 50 ms).
	// They are aws-sdk-go-v2's DefaultRetryableErrorCodes exactly
	// (aws/retry/standard.go); botocore adds IDPCommunicationError for STS
	// only, and a spec adds such codes itself.
	builtinTransientCodes = []string{"RequestTimeout", "RequestTimeoutException"}
)

// codeLists is one level's classification of error codes.
type codeLists struct {
	transient, throttling, nonRetryable []string
}

// lookup returns the class one level assigns to code. Within a level a
// non-retryable listing wins over throttling, and throttling over transient
// (§4 rules 2–4).
func (l codeLists) lookup(code string) (engine.Class, bool) {
	switch {
	case slices.Contains(l.nonRetryable, code):
		return engine.ClassNonRetryable, true
	case slices.Contains(l.throttling, code):
		return engine.ClassThrottling, true
	case slices.Contains(l.transient, code):
		return engine.ClassTransient, true
	}
	return engine.ClassSuccess, false
}

var builtinCodes = codeLists{transient: builtinTransientCodes, throttling: builtinThrottlingCodes}

// classifier holds what classification needs besides the attempt itself:
// the call's resolved policy and the operation (for its modeled errors).
type classifier struct {
	p  *Policy
	op *Operation
}

// classify applies retry-behavior.md §4 in its stated order:
//  0. Options.Classify, when set and deciding;
//  1. a cancelled context, a request hook's error, a response body over
//     the cap (*BodyTooLargeError) or a request body whose length differs
//     from its declared Content-Length (*ContentLengthError) →
//     non-retryable;
//  2. a non-retryable code → non-retryable (whatever the status);
//  3. a throttling code, a positive x-acs-retry-after, or (with throttle
//     control) a throttle header with Remain 0 → throttling;
//  4. a transient code → transient;
//  5. an I/O failure → transient;
//  6. status 500, 502, 503, 504 → transient (aliyun: the service's retry
//     statuses, default 408, 429, 500, 502, 503, 504, with 429 throttling);
//  7. status 429 → throttling (aws-sdk-go-v2), unless its code is modeled by
//     the operation, or the service asks for botocore's behaviour
//     (Bare429NotRetried); legacy mode: also 509;
//  8. anything else → non-retryable. Any 2xx is success (ClassSuccess).
func (k *classifier) classify(ctx context.Context, r *engine.AttemptResult, throttled bool) engine.Class {
	if r.Err == nil && r.StatusCode >= 200 && r.StatusCode < 300 {
		return engine.ClassSuccess
	}
	if k.p.Classify != nil {
		// A copy: the predicate cannot change the attempt, and the caller's
		// AttemptResult stays on its stack (no allocation per attempt).
		rc := *r
		if c, ok := k.p.Classify(&rc); ok {
			return c
		}
	}
	// Rule 1 looks at the call's own context only: an attempt that timed
	// out (Options.AttemptTimeout, http.Client.Timeout,
	// ResponseHeaderTimeout, a net timeout) while ctx is alive is an I/O
	// failure (rule 5), even though net/http's timeout errors match
	// context.DeadlineExceeded.
	if ctx.Err() != nil || errors.Is(r.Err, context.Canceled) || isError[*RequestHookError](r.Err) ||
		isError[*BodyTooLargeError](r.Err) || isError[*ContentLengthError](r.Err) {
		// A body over the cap would come back as long: not retried.
		return engine.ClassNonRetryable
	}
	c, listed := k.p.codeClass(r.Code)
	switch {
	case listed && c == engine.ClassNonRetryable:
		return engine.ClassNonRetryable
	case listed && c == engine.ClassThrottling, positiveACSRetryAfter(r), throttled:
		return engine.ClassThrottling
	case listed && c == engine.ClassTransient:
		return engine.ClassTransient
	}
	if r.StatusCode == 0 || r.StatusCode >= 200 && r.StatusCode < 300 {
		// No response, or a 2xx whose body broke off, timed out or failed
		// its checksum (§4 rule 5).
		if isIOFailure(r.Err) && !k.p.ConnectionErrorsNotRetried {
			return engine.ClassTransient
		}
		return engine.ClassNonRetryable
	}
	return k.statusClass(r.StatusCode, r.Code)
}

// statusClass is the class of an error response that no error code decided,
// by its HTTP status (§4 rules 6–7): the service's or operation's own retry
// statuses when it declares them (they replace rules 6 and 7); in aliyun
// mode the throttle-control retry statuses; otherwise 500, 502, 503 and 504
// are transient and 429 is throttling as aws-sdk-go-v2 decides it (509 too
// in legacy mode, botocore's table).
func (k *classifier) statusClass(status int, code string) engine.Class {
	aliyun := k.p.Mode.Value == ModeAliyun
	if rs := k.p.RetryStatuses; len(rs) > 0 && !aliyun {
		// The service's own retry statuses replace rules 6 and 7: a listed
		// status is retried (429 as throttling), any other is not.
		switch {
		case !statusIn(rs, status):
			return engine.ClassNonRetryable
		case status == 429:
			return engine.ClassThrottling
		}
		return engine.ClassTransient
	}
	if aliyun {
		// §8: the aliyun retry conditions are the service's retry statuses
		// (default 408, 429, 500, 502, 503, 504); 429 is throttling.
		switch {
		case !slices.Contains(k.p.ThrottleRetryStatuses, status):
			return engine.ClassNonRetryable
		case status == 429:
			return engine.ClassThrottling
		}
		return engine.ClassTransient
	}
	switch status {
	case 500, 502, 503, 504:
		return engine.ClassTransient
	case 429:
		// aws-sdk-go-v2 (aws/retry retryable_error.go, throttle_error.go):
		// a 429 is throttling unless it carries an error code the operation
		// models (a modeled throttling or transient code was decided above).
		// Bare429NotRetried is botocore's standard mode.
		switch {
		case k.p.Mode.Value == ModeLegacy:
			return engine.ClassThrottling
		case k.p.Bare429NotRetried:
		case k.modelsCode(code):
		default:
			return engine.ClassThrottling
		}
	case 509:
		if k.p.Mode.Value == ModeLegacy {
			return engine.ClassThrottling
		}
	}
	return engine.ClassNonRetryable
}

// modelsCode reports whether the operation models code as an error shape
// of its own (Operation.NewError), as aws-sdk-go-v2's isModeledAPIError
// does for a 429. Errors modeled only by status ("4XX", "default") do not
// count: their code is whatever the body says.
func (k *classifier) modelsCode(code string) bool {
	return code != "" && k.op.NewError != nil && k.op.NewError(code) != nil
}

func positiveACSRetryAfter(r *engine.AttemptResult) bool {
	if r.Header == nil {
		return false
	}
	_, ok := engine.ParseACSRetryAfter(engine.HeaderGet(r.Header, engine.HeaderACSRetryAfter))
	return ok
}

// isIOFailure reports whether err is a transport failure worth retrying
// (§4): connection reset or refused, broken pipe, an unexpected EOF (a body
// shorter than its Content-Length), any error reading a response body off
// the connection (*wireReadError: broken chunked framing too), a timeout (an attempt's deadline
// included: the caller has checked that the call's context is alive), a
// response checksum mismatch, or a DNS failure other than "no such host".
func isIOFailure(err error) bool {
	if err == nil {
		return false
	}
	if dns, ok := errors.AsType[*net.DNSError](err); ok {
		return !dns.IsNotFound
	}
	if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
		return true
	}
	if errors.Is(err, context.DeadlineExceeded) || isError[*ChecksumError](err) || isError[*wireReadError](err) {
		// An attempt's own deadline (the caller checked ctx), a corrupted
		// body, a body read off the connection that broke (framing included).
		return true
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	return isError[*net.OpError](err)
}

// isTimeout reports whether err is a timed-out attempt: a net timeout
// (http.Client.Timeout, ResponseHeaderTimeout) or an attempt's own deadline
// (Options.AttemptTimeout).
func isTimeout(err error) bool {
	if err == nil {
		return false
	}
	ne, ok := errors.AsType[net.Error](err)
	return ok && ne.Timeout() || errors.Is(err, context.DeadlineExceeded)
}

// sentBeforeFailure reports whether a transport failure may have happened
// after the request reached the server. Dial failures (refused, DNS,
// unreachable) happen before anything is written and are retried for every
// operation; the rest are ambiguous and retried only for retry-safe
// operations (§3).
func sentBeforeFailure(err error) bool {
	if isError[*net.DNSError](err) || errors.Is(err, syscall.ECONNREFUSED) {
		return false
	}
	if op, ok := errors.AsType[*net.OpError](err); ok && op.Op == "dial" {
		return false
	}
	return true
}

// CodeClass returns the retry class the service gives an error code by code
// alone, as the runtime classifies it (retry-behavior.md §4 rules 2–4), in
// this order:
//  1. the service's lists (NonRetryableCodes, then ThrottlingCodes, then
//     TransientCodes): a code listed here has this class, even a built-in
//     one;
//  2. the built-in lists: the 14 throttling codes, then the 2 transient
//     codes;
//  3. in aliyun mode (the service's DefaultMode), the aliyun throttling
//     codes (§8).
//
// Any other code, and "", is ClassNonRetryable by code: at run time the
// HTTP status may still make the response transient or throttling (§4 rules
// 5–7). Options and an operation's own lists, which come first at run time,
// are not consulted. The generator uses it for doc comments and its summary.
func (s *Service) CodeClass(code string) engine.Class {
	p := Policy{codes: [3]codeLists{2: {s.TransientCodes, s.ThrottlingCodes, s.NonRetryableCodes}}}
	p.Mode.Value = s.DefaultMode
	if c, listed := p.codeClass(code); listed {
		return c
	}
	return engine.ClassNonRetryable
}

// StatusRange is an inclusive range of HTTP statuses: a single status
// ({503, 503}) or a class ("5XX" is {500, 599}).
type StatusRange struct {
	Min, Max int
}

// statusIn reports whether status lies in one of the ranges.
func statusIn(ranges []StatusRange, status int) bool {
	for _, r := range ranges {
		if status >= r.Min && status <= r.Max {
			return true
		}
	}
	return false
}

// decodeError turns an error response into the operation's modeled error
// for its code (Operation.NewError), else for its status
// (Operation.NewErrorForStatus), or an *APIError. The code comes from the
// service's error-code headers (part before ':') and then its body fields
// (part after '#'): JSON fields, or for an XML body the elements below the
// root (xmlFields). A JSON body is read once for the code, message and
// request ID fields (jsonFields, no maps) and decoded once into the modeled
// error; only its first JSON value counts (trailing bytes are ignored, as
// aws-sdk-go-v2 ignores them).
func (c *Client) decodeError(op *Operation, resp *http.Response, body []byte) (ErrorMetadata, error) {
	svc := c.svc
	var fieldArr [16]string
	paths := append(append(append(fieldArr[:0], svc.ErrorCodeFields...), svc.ErrorMessageFields...), svc.RequestIDFields...)
	var valArr [16]string
	vals := valArr[:0]
	if len(paths) > len(valArr) {
		vals = make([]string, len(paths))
	} else {
		vals = valArr[:len(paths)]
	}
	end := len(body)
	if len(body) > 0 && len(paths) > 0 {
		if looksXML(engine.HeaderGet(resp.Header, "Content-Type"), body) {
			fields := xmlFields(body) // AWS query protocol: <ErrorResponse><Error><Code>
			for i, p := range paths {
				vals[i] = stringField(fields, p)
			}
		} else {
			end = jsonFields(body, paths, vals) // a body of neither kind simply has no fields
		}
	}
	nCode, nMsg := len(svc.ErrorCodeFields), len(svc.ErrorMessageFields)
	md := ErrorMetadata{HTTPStatusCode: resp.StatusCode}
	for _, h := range svc.ErrorCodeHeaders {
		if v := engine.HeaderGet(resp.Header, h); v != "" {
			md.Code = normaliseCode(v)
			break
		}
	}
	if md.Code == "" {
		md.Code = normaliseCode(firstNonEmpty(vals[:nCode]))
	}
	md.Message = firstNonEmpty(vals[nCode : nCode+nMsg])
	md.RequestID = firstHeader(resp.Header, c.requestIDHeaders)
	if md.RequestID == "" {
		md.RequestID = firstNonEmpty(vals[nCode+nMsg:])
	}
	var e ModeledError
	if op.NewError != nil && md.Code != "" {
		e = op.NewError(md.Code)
	}
	if e == nil && op.NewErrorForStatus != nil {
		e = op.NewErrorForStatus(resp.StatusCode)
	}
	if e != nil {
		if end > 0 {
			_ = exactjson.Unmarshal(body[:end], e) // modeled fields are best effort
		}
		*e.Metadata() = md
		e.Metadata().Body = keptErrorBody(body)
		return md, e
	}
	return md, &APIError{ErrorMetadata: md, Body: keptErrorBody(body)}
}

// keptErrorBody is what an error keeps of its response body: all of it up
// to maxAPIErrorBody, else a copy of that much (not the whole buffer).
func keptErrorBody(body []byte) []byte {
	if len(body) > maxAPIErrorBody {
		return slices.Clone(body[:maxAPIErrorBody])
	}
	return body
}

// maxAPIErrorBody is how much of an error body an *APIError keeps: 64 KiB.
const maxAPIErrorBody = 64 << 10

// firstNonEmpty returns the first non-empty string of vs, or "".
func firstNonEmpty(vs []string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// stringField returns the string (or number) that the dotted path
// ("Error.Code") names in fields, or "".
func stringField(fields map[string]any, path string) string {
	var v any = fields
	for part := range strings.SplitSeq(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = m[part]
	}
	switch s := v.(type) {
	case string:
		return s
	case float64:
		return strconv.FormatFloat(s, 'f', -1, 64)
	}
	return ""
}

// isError reports whether err's tree holds an error of type E
// (errors.AsType, which, unlike errors.As, allocates nothing).
func isError[E error](err error) bool {
	_, ok := errors.AsType[E](err)
	return ok
}
