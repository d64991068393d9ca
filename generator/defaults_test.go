package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestXRetryKeepsDefaultsForKeysLeftOut: an x-retry that sets only max
// attempts keeps the defaults of a spec without x-retry for where error
// codes and messages are and for Retry-After; a key it sets replaces only
// its own default. The environment is read only with envPrefix (a spec
// without x-retry derives one from its title). (Before, any x-retry block turned all four off: a new user
// found ErrorCode() empty and Retry-After ignored.)
func TestXRetryKeepsDefaultsForKeysLeftOut(t *testing.T) {
	svc, diags, err := load(t, specWith("x-retry: {version: 1, maxAttempts: 5}", ""))
	require.NoError(t, err, "%v", diags)
	r := svc.Retry
	require.Empty(t, r.EnvPrefix, "an x-retry without envPrefix reads no environment")
	require.Equal(t, []string{"X-Amzn-ErrorType"}, r.ErrorCodeHeaders)
	require.Equal(t, []string{"code", "error.code", "__type", "Code"}, r.ErrorCodeFields)
	require.Equal(t, []string{"message", "error.message", "Message"}, r.ErrorMessageFields)
	require.Equal(t, []string{"Retry-After"}, r.ServerDelayHeaders)
	require.Equal(t, 5, r.Defaults.MaxAttempts)

	svc, diags, err = load(t, specWith(`x-retry:
  version: 1
  envPrefix: TS
  errorCode: {fields: [err]}
  serverDelayHeaders: [x-amz-retry-after]`, ""))
	require.NoError(t, err, "%v", diags)
	r = svc.Retry
	require.Equal(t, "TS", r.EnvPrefix)
	require.Equal(t, []string{"err"}, r.ErrorCodeFields)
	require.Empty(t, r.ErrorCodeHeaders, "errorCode given: its headers are what it lists")
	require.Equal(t, []string{"message", "error.message", "Message"}, r.ErrorMessageFields, "errorMessage left out: the default")
	require.Equal(t, []string{"x-amz-retry-after"}, r.ServerDelayHeaders)
}
