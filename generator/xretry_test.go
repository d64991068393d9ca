package generator

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

func TestXRetryParse(t *testing.T) {
	svc, diags, err := load(t, specWith(`x-retry:
  version: 1
  envPrefix: AWS
  mode: standard
  maxAttempts: 4
  transientBaseDelayMs: 25
  throttlingBaseDelayMs: 1000
  maxBackoffMs: 20000
  modes:
    legacy: {maxAttempts: 10, transientBaseDelayMs: 50, throttlingBaseDelayMs: 50, jitter: none}
  errors:
    throttling: [ProvisionedThroughputExceededException]
    nonRetryable: [NotFound]
  bare429: non-retryable
  errorCode: {headers: [X-Amzn-ErrorType], fields: [__type]}
  errorMessage: {fields: [message]}
  requestId: {headers: [x-amzn-RequestId]}
  serverDelayHeaders: [X-Amz-Retry-After]
  retrySafe: true
  attemptHeader: amz-sdk-request
  invocationIdHeader: amz-sdk-invocation-id
  checksumHeader: x-amz-crc32
  throttleControl: {userApiHeader: X-RateLimit-User-API, maxDelayMs: 20000, retryStatuses: [429, 503]}
x-protocol: {jsonContentType: application/x-amz-json-1.0, timestampFormat: epoch-seconds}`, ""))
	require.NoError(t, err)
	require.Empty(t, diags)
	require.Equal(t, runtime.Service{
		Name:        "Test Service",
		EnvPrefix:   "AWS",
		DefaultMode: runtime.ModeStandard,
		Defaults:    runtime.ModeDefaults{MaxAttempts: 4, TransientBaseDelay: 25 * time.Millisecond, ThrottlingBaseDelay: time.Second, MaxBackoff: 20 * time.Second},
		PerMode: map[runtime.Mode]runtime.ModeDefaults{runtime.ModeLegacy: {MaxAttempts: 10, TransientBaseDelay: 50 * time.Millisecond,
			ThrottlingBaseDelay: 50 * time.Millisecond, Jitter: runtime.JitterNone}},
		ThrottlingCodes:    []string{"ProvisionedThroughputExceededException"},
		NonRetryableCodes:  []string{"NotFound"},
		Bare429NotRetried:  true,
		ErrorCodeHeaders:   []string{"X-Amzn-ErrorType"},
		ErrorCodeFields:    []string{"__type"},
		ErrorMessageFields: []string{"message"},
		RequestIDHeaders:   []string{"x-amzn-RequestId"},
		ServerDelayHeaders: []string{"x-amz-retry-after"},
		RetrySafe:          true,
		AttemptHeader:      "amz-sdk-request",
		InvocationIDHeader: "amz-sdk-invocation-id",
		ChecksumHeader:     "x-amz-crc32",
		ThrottleControl:    &runtime.ThrottleControl{UserAPIHeader: "X-RateLimit-User-API", MaxDelay: 20 * time.Second, RetryStatuses: []int{429, 503}},
	}, svc.Retry)
	require.Equal(t, Protocol{JSONContentType: "application/x-amz-json-1.0", TimestampFormat: "epoch-seconds"}, svc.Protocol)
	require.True(t, svc.Operations[0].Retry.RetrySafe, "the service's retrySafe makes POST operations retry-safe")
	require.Equal(t, engine.ClassNonRetryable, svc.Errors[0].Class)
}

func TestXRetryErrors(t *testing.T) {
	tests := []struct {
		name, ext, want string
	}{
		{"max attempts must be at least 1", "x-retry: {version: 1, maxAttempts: 0}",
			`spec.yaml#/x-retry/maxAttempts: must be an integer ≥ 1, got "0"`},
		{"max attempts must be an integer", "x-retry: {version: 1, maxAttempts: three}",
			`spec.yaml#/x-retry/maxAttempts: must be an integer ≥ 1, got "three"`},
		{"base delay must be positive milliseconds", "x-retry: {version: 1, transientBaseDelayMs: -5}",
			`spec.yaml#/x-retry/transientBaseDelayMs: must be an integer ≥ 1 (milliseconds), got "-5"`},
		{"mode must be known", "x-retry: {version: 1, mode: fast}",
			`spec.yaml#/x-retry/mode: must be one of standard, adaptive, legacy, aliyun, got "fast"`},
		{"per-mode jitter must be known", "x-retry: {version: 1, modes: {legacy: {jitter: half}}}",
			`spec.yaml#/x-retry/modes/legacy/jitter: must be one of full, equal, none, got "half"`},
		{"per-mode key must be a mode", "x-retry: {version: 1, modes: {turbo: {}}}",
			`spec.yaml#/x-retry/modes/turbo: unknown key "turbo" (known: adaptive, aliyun, legacy, standard)`},
		{"version must be 1", "x-retry: {version: 2}",
			`spec.yaml#/x-retry/version: must be 1, got "2"`},
		{"version is required", "x-retry: {maxAttempts: 3}",
			`spec.yaml#/x-retry: version is required (this generator reads x-retry version 1)`},
		{"bare429 takes two values", "x-retry: {version: 1, bare429: retry}",
			`spec.yaml#/x-retry/bare429: must be one of throttling, non-retryable, got "retry"`},
		{"retrySafe is a boolean", "x-retry: {version: 1, retrySafe: 'yes'}",
			`spec.yaml#/x-retry/retrySafe: must be true or false, got "yes"`},
		{"server delay headers are the known three", "x-retry: {version: 1, serverDelayHeaders: [X-Wait]}",
			`spec.yaml#/x-retry/serverDelayHeaders/0: must be one of x-amz-retry-after, Retry-After, x-acs-retry-after, got "X-Wait"`},
		{"error lists are lists", "x-retry: {version: 1, errors: {throttling: Slow}}",
			`spec.yaml#/x-retry/errors/throttling: must be a list of strings, got "Slow"`},
		{"unknown keys are errors", "x-retry: {version: 1, maxAttempt: 3}",
			`spec.yaml#/x-retry/maxAttempt: unknown key "maxAttempt" (known: attemptHeader, backoffExponent, bare429, checksumHeader, envPrefix, errorCode, errorMessage, errors, idempotencyKey, invocationIdHeader, maxAttempts, maxBackoffMs, maxElapsedMs, mode, modes, requestId, retryConnectionErrors, retrySafe, retryStatuses, serverDelayHeaders, throttleControl, throttlingBaseDelayMs, transientBaseDelayMs, version)`},
		{"a delay that overflows a duration is refused", "x-retry: {version: 1, maxBackoffMs: 9999999999999}",
			`spec.yaml#/x-retry/maxBackoffMs: must be at most 9223372036854 (milliseconds), got "9999999999999"`},
		{"a delay beyond int64 is refused, not wrapped", "x-retry: {version: 1, throttlingBaseDelayMs: 99999999999999999999}",
			`spec.yaml#/x-retry/throttlingBaseDelayMs: must be at most 9223372036854 (milliseconds), got "99999999999999999999"`},
		{"max attempts fits an int32", "x-retry: {version: 1, maxAttempts: 3000000000}",
			`spec.yaml#/x-retry/maxAttempts: must be at most 2147483647, got "3000000000"`},
		{"attempt header is a header name", "x-retry: {version: 1, attemptHeader: 'bad header:'}",
			"spec.yaml#/x-retry/attemptHeader: must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~), got \"bad header:\""},
		{"error-code headers are header names", "x-retry: {version: 1, errorCode: {headers: ['a b']}}",
			"spec.yaml#/x-retry/errorCode/headers/0: must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~), got \"a b\""},
		{"env prefix names variables", "x-retry: {version: 1, envPrefix: 'my prefix'}",
			`spec.yaml#/x-retry/envPrefix: must be letters, digits and _ not starting with a digit (it names environment variables), got "my prefix"`},
		{"a code has one class", "x-retry: {version: 1, errors: {throttling: [Slow], transient: [Slow]}}",
			`spec.yaml#/x-retry/errors/transient/0: code "Slow" is already listed as throttling; a code has one class`},
		{"retry statuses are HTTP statuses", "x-retry: {version: 1, throttleControl: {retryStatuses: [503, 999]}}",
			`spec.yaml#/x-retry/throttleControl/retryStatuses/1: must be at most 599 (an HTTP status), got "999"`},
		{"x-protocol timestamp format is known", "x-protocol: {timestampFormat: iso}",
			`spec.yaml#/x-protocol/timestampFormat: must be one of date-time, epoch-seconds, got "iso"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags, err := load(t, specWith(tt.ext, ""))
			require.ErrorContains(t, err, "spec.yaml: 1 error(s) in the spec")
			require.Equal(t, []string{tt.want}, diags)
		})
	}
}

func TestOperationXRetry(t *testing.T) {
	spec := strings.Replace(specWith("", ""), "      operationId: Op\n",
		"      operationId: Op\n      x-retry: {longPolling: true, errors: {transient: [Busy]}, retrySafe: maybe}\n", 1)
	_, diags, err := load(t, spec)
	require.Error(t, err)
	require.Equal(t, []string{`spec.yaml#/paths/~1%23X-Amz-Target=Svc.Op/post/x-retry/retrySafe: must be true or false, got "maybe"`}, diags)

	spec = strings.Replace(spec, "retrySafe: maybe", "retrySafe: false", 1)
	svc, _, err := load(t, spec)
	require.NoError(t, err)
	require.Equal(t, runtime.Operation{Name: "Op", LongPolling: true, TransientCodes: []string{"Busy"},
		FixedHeaders: map[string]string{"Accept": "application/json", "X-Amz-Target": "Svc.Op"}}, svc.Operations[0].Retry,
		"POST without the service's retrySafe is not retry-safe")
}

// TestXProtocolOfAnotherTool: an x-protocol value with none of our keys (a
// string, a list, another tool's mapping) is a located warning and ignored:
// the defaults apply and generation goes on (issue 17 item 9).
func TestXProtocolOfAnotherTool(t *testing.T) {
	tests := []struct{ ext, want string }{
		{"x-protocol: https", `spec.yaml#/x-protocol: is "https", not retrygen's x-protocol (a mapping of jsonContentType, timestampFormat, xmlResultWrapper); ignored, using the defaults`},
		{"x-protocol: [grpc]", `spec.yaml#/x-protocol: is a list, not retrygen's x-protocol (a mapping of jsonContentType, timestampFormat, xmlResultWrapper); ignored, using the defaults`},
		{"x-protocol: {scheme: grpc}", `spec.yaml#/x-protocol: is a mapping, not retrygen's x-protocol (a mapping of jsonContentType, timestampFormat, xmlResultWrapper); ignored, using the defaults`},
	}
	for _, tt := range tests {
		t.Run(tt.ext, func(t *testing.T) {
			svc, diags, err := load(t, specWith(tt.ext, ""))
			require.NoError(t, err)
			require.Equal(t, []string{tt.want}, diags)
			require.Equal(t, Protocol{JSONContentType: "application/json", TimestampFormat: "date-time"}, svc.Protocol)
		})
	}
}
