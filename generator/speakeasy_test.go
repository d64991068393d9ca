package generator

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime"
)

// speakeasySpec is a one-operation spec with root and operation-level
// extensions spliced in.
func speakeasySpec(root, op string) string {
	return `openapi: 3.0.3
info: {title: Pets, version: '1'}
` + root + `
paths:
  /pets:
    get:
      operationId: listPets
` + op + `
      responses: {'200': {description: ok}}
`
}

func TestSpeakeasyMapping(t *testing.T) {
	svc, diags, err := load(t, speakeasySpec(`x-speakeasy-retries:
  strategy: backoff
  backoff: {initialInterval: 200, maxInterval: 3000, maxElapsedTime: 9000, exponent: 1.25}
  statusCodes: [5XX, 429, "408"]
  retryConnectionErrors: true`, ""))
	require.NoError(t, err)
	require.Equal(t, []string{"spec.yaml#/x-speakeasy-retries: mapped onto x-retry: max attempts unlimited, backoff.maxElapsedTime (9s) is the call's retry deadline; " +
		"full jitter on min(maxInterval, initialInterval × exponent^n) and the retry quota (500 tokens) apply, which Speakeasy SDKs do not have"}, diags)
	r := svc.Retry
	require.Equal(t, "x-speakeasy-retries", r.Extension)
	require.Equal(t, runtime.ModeDefaults{MaxAttempts: math.MaxInt32, TransientBaseDelay: 200 * time.Millisecond, ThrottlingBaseDelay: 200 * time.Millisecond,
		MaxBackoff: 3 * time.Second, BackoffExponent: 1.25}, r.Defaults)
	require.Equal(t, []runtime.StatusRange{{Min: 500, Max: 599}, {Min: 429, Max: 429}, {Min: 408, Max: 408}}, r.RetryStatuses)
	require.False(t, r.ConnectionErrorsNotRetried)
	require.Equal(t, 9*time.Second, r.MaxElapsed)
	require.Empty(t, r.DefaultMode, "Speakeasy sets no mode: the global default decides")
}

func TestSpeakeasyDefaultsAndXRetryWins(t *testing.T) {
	// Backoff keys left out take Speakeasy's defaults; x-retry's own keys win.
	svc, _, err := load(t, speakeasySpec(`x-retry: {version: 1, maxAttempts: 4, maxBackoffMs: 2000}
x-speakeasy-retries: {strategy: backoff, statusCodes: [503]}`, ""))
	require.NoError(t, err)
	r := svc.Retry
	require.Empty(t, r.Extension, "with x-retry present, sources name x-retry")
	require.Equal(t, runtime.ModeDefaults{MaxAttempts: 4, TransientBaseDelay: 500 * time.Millisecond, ThrottlingBaseDelay: 500 * time.Millisecond,
		MaxBackoff: 2 * time.Second, BackoffExponent: 1.5}, r.Defaults)
	require.Equal(t, time.Hour, r.MaxElapsed)
	require.True(t, r.ConnectionErrorsNotRetried, "retryConnectionErrors absent: Speakeasy's default, false")
}

func TestSpeakeasyOperationLevel(t *testing.T) {
	svc, _, err := load(t, speakeasySpec(`x-speakeasy-retries: {strategy: backoff, statusCodes: [5XX], retryConnectionErrors: false}`,
		`      x-retry: {maxElapsedMs: 700}
      x-speakeasy-retries:
        strategy: backoff
        backoff: {initialInterval: 100, exponent: 2}
        statusCodes: ["4XX"]
        retryConnectionErrors: true`))
	require.NoError(t, err)
	op := svc.Operations[0].Retry
	require.Equal(t, runtime.ModeDefaults{MaxAttempts: math.MaxInt32, TransientBaseDelay: 100 * time.Millisecond, ThrottlingBaseDelay: 100 * time.Millisecond,
		MaxBackoff: time.Minute, BackoffExponent: 2}, op.Backoff)
	require.Equal(t, []runtime.StatusRange{{Min: 400, Max: 499}}, op.RetryStatuses)
	require.Equal(t, 700*time.Millisecond, op.MaxElapsed, "the operation's x-retry wins")

	svc, diags, err := load(t, speakeasySpec(`x-speakeasy-retries: {strategy: backoff, statusCodes: [5XX]}`,
		`      x-speakeasy-retries: {strategy: none}`))
	require.NoError(t, err)
	require.Equal(t, runtime.ModeDefaults{MaxAttempts: 1}, svc.Operations[0].Retry.Backoff)
	require.Len(t, diags, 1, "only the root mapping warns")
}

func TestSpeakeasyErrorsAreLocated(t *testing.T) {
	_, diags, err := load(t, speakeasySpec(`x-speakeasy-retries:
  backoff: {initialInterval: -1, exponent: 0.5, jitter: 1}
  statusCodes: [5XX, "6XX", 99]
  retryConnectionErrors: maybe`, ""))
	require.Error(t, err)
	require.Equal(t, []string{
		`spec.yaml#/x-speakeasy-retries/backoff/initialInterval: must be an integer ≥ 1 (milliseconds), got "-1"`,
		`spec.yaml#/x-speakeasy-retries/backoff/exponent: must be a number from 1 to 10, got "0.5"`,
		`spec.yaml#/x-speakeasy-retries/backoff/jitter: unknown key "jitter" (known: exponent, initialInterval, maxElapsedTime, maxInterval)`,
		`spec.yaml#/x-speakeasy-retries/statusCodes/1: must be an HTTP status 100–599 or a status class 1XX–5XX, got "6XX"`,
		`spec.yaml#/x-speakeasy-retries/statusCodes/2: must be an HTTP status 100–599 or a status class 1XX–5XX, got "99"`,
		`spec.yaml#/x-speakeasy-retries/retryConnectionErrors: must be true or false, got "maybe"`,
		`spec.yaml#/x-speakeasy-retries: strategy is required (backoff or none)`,
	}, diags[:7])
}
