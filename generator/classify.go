package generator

import "slices"

// builtinThrottlingCodes are the 14 throttling codes of retry-behavior.md §4.
// The runtime holds the same list; the generator may not import it, and
// uses this copy only to count error shapes for the summary line.
var builtinThrottlingCodes = []string{
	"Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
	"TooManyRequestsException", "ProvisionedThroughputExceededException",
	"TransactionInProgressException", "LimitExceededException", "PriorRequestNotComplete",
	"RequestThrottled", "EC2ThrottledException", "RequestLimitExceeded", "SlowDown",
	"BandwidthLimitExceeded",
}

// builtinTransientCodes are the 4 transient codes of retry-behavior.md §4.
var builtinTransientCodes = []string{"RequestTimeout", "RequestTimeoutException", "InternalError", "IDPCommunicationError"}

// The retry classes of error shapes.
const (
	ClassTransient    = "transient"
	ClassThrottling   = "throttling"
	ClassNonRetryable = "non-retryable"
)

// classifyCode returns the retry class of an error code by the code rules of
// retry-behavior.md §4, in order: the spec's non-retryable codes, then
// throttling codes (built-in and the spec's), then transient codes; anything
// else is non-retryable by code (the HTTP status decides at run time).
func classifyCode(code string, r RetrySettings) string {
	switch {
	case slices.Contains(r.NonRetryableCodes, code):
		return ClassNonRetryable
	case slices.Contains(builtinThrottlingCodes, code) || slices.Contains(r.ThrottlingCodes, code):
		return ClassThrottling
	case slices.Contains(builtinTransientCodes, code) || slices.Contains(r.TransientCodes, code):
		return ClassTransient
	}
	return ClassNonRetryable
}

// classifyErrors sets the Class of every error shape of svc.
func classifyErrors(svc *Service) {
	for _, e := range svc.Errors {
		e.Class = classifyCode(e.Code, svc.Retry)
	}
}
