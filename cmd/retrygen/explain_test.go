package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func runExplainCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"explain"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

var dynamoArgs = []string{"-spec", "../../specs/aws-dynamodb-2012-08-10.openapi.yaml", "-overlay", "../../specs/dynamodb.overlay.yaml"}

func TestExplainNamesEverySource(t *testing.T) {
	// Environment over config file over spec (retry-behavior.md §2).
	cfg := filepath.Join(t.TempDir(), "config")
	require.NoError(t, os.WriteFile(cfg, []byte("[profile dev]\nretry_mode = legacy\nmax_attempts = 7\n"), 0o644))
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_PROFILE", "dev")
	t.Setenv("AWS_RETRY_MODE", "adaptive")
	t.Setenv("AWS_MAX_ATTEMPTS", "")
	code, out, errOut := runExplainCmd(t, dynamoArgs...)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, `service:               Amazon DynamoDB  (env prefix AWS)
retry mode:            adaptive  (AWS_RETRY_MODE (environment))
max attempts:          7  (max_attempts (config file `+cfg+` [profile dev]))
transient base delay:  25ms
throttling base delay: 1s
max backoff:           20s
jitter:                full
retry quota:           500 tokens  (retry quota capacity (global default))
retry cost transient:  14 tokens  (retry cost of a transient error (global default))
retry cost throttling: 5 tokens  (retry cost of a throttling error (global default))
retry cost timeout:    14 tokens  (retry cost of a timeout (global default))
success increment:     1 token  (first-attempt success increment (global default))
rate limiter:          on  (adaptive mode)
throttle windows:      off
server delays:         x-amz-retry-after  (max 20s)
`, out)
}

func TestExplainClientOptionsWinAndSpecDefaultsShow(t *testing.T) {
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_RETRY_MODE", "adaptive")
	t.Setenv("AWS_MAX_ATTEMPTS", "")
	code, out, _ := runExplainCmd(t, append(dynamoArgs, "-mode", "legacy")...)
	require.Equal(t, 0, code)
	require.Contains(t, out, "retry mode:            legacy  (RetryMode (client option))\n")
	require.Contains(t, out, "max attempts:          10  (modes.legacy.maxAttempts (service default x-retry of Amazon DynamoDB))\n")
	require.Contains(t, out, "throttling base delay: 50ms\n")
	require.Contains(t, out, "jitter:                none\n")
	require.Contains(t, out, "retry quota:           off\n")
	require.Contains(t, out, "rate limiter:          off  (only adaptive mode uses the CUBIC rate limiter)\n")
}

func TestExplainMissingSelectedProfileIsAnError(t *testing.T) {
	// AWS_PROFILE naming a profile the config file lacks fails as
	// aws-sdk-go-v2 does; a missing default profile is no error.
	home := t.TempDir()
	cfg := filepath.Join(home, "config")
	require.NoError(t, os.WriteFile(cfg, []byte("[profile dev]\nretry_mode = legacy\n"), 0o644))
	t.Setenv("HOME", home)
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_RETRY_MODE", "")
	t.Setenv("AWS_MAX_ATTEMPTS", "")
	t.Setenv("AWS_PROFILE", "nope")
	code, out, errOut := runExplainCmd(t, dynamoArgs...)
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Equal(t, `retrygen explain: AWS_PROFILE="nope" (environment): no [profile nope] section in `+cfg+"\n", errOut)

	t.Setenv("AWS_PROFILE", "")
	code, out, errOut = runExplainCmd(t, dynamoArgs...)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "retry mode:            standard  (mode (service default x-retry of Amazon DynamoDB))\n")
}

func TestHelpEndsWithNewline(t *testing.T) {
	for _, cmd := range []string{"explain", "generate", "vectors"} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, run([]string{cmd, "-h"}, &stdout, &stderr), cmd)
		require.Empty(t, stdout.String(), cmd)
		require.True(t, strings.HasSuffix(stderr.String(), "\n"), "%s -h ends %q", cmd, stderr.String()[max(0, stderr.Len()-40):])
	}
}

func TestExplainRetryCostOptions(t *testing.T) {
	// Each retry quota setting shows its source: a flag standing for a
	// client option, else the global default.
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_RETRY_MODE", "")
	t.Setenv("AWS_MAX_ATTEMPTS", "")
	code, out, errOut := runExplainCmd(t, append(dynamoArgs, "-retry-cost-timeout", "10", "-retry-quota-capacity", "100", "-no-retry-increment", "0")...)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "retry quota:           100 tokens  (RetryQuotaCapacity (client option))\n")
	require.Contains(t, out, "retry cost transient:  14 tokens  (retry cost of a transient error (global default))\n")
	require.Contains(t, out, "retry cost timeout:    10 tokens  (RetryCostTimeout (client option))\n")
	require.Contains(t, out, "success increment:     0 tokens  (NoRetryIncrement (client option))\n")
	code, _, errOut = runExplainCmd(t, append(dynamoArgs, "-retry-cost-transient", "-1")...)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, `invalid value "-1" for flag -retry-cost-transient: must be an integer ≥ 0, got "-1"`)
}

func TestExplainInvalidEnvironmentNamesItsSource(t *testing.T) {
	t.Setenv("AWS_MAX_ATTEMPTS", "-1")
	code, out, errOut := runExplainCmd(t, dynamoArgs...)
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Equal(t, "retrygen explain: AWS_MAX_ATTEMPTS=\"-1\" (environment): must be an integer ≥ 1\n", errOut)
}

func TestExplainUsage(t *testing.T) {
	code, _, errOut := runExplainCmd(t)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "usage: retrygen explain [-config FILE] -spec FILE")
}

func TestExplainBadXRetryIsLocated(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "spec.yaml")
	require.NoError(t, os.WriteFile(spec, []byte("openapi: 3.0.0\ninfo: {title: T, version: '1'}\nx-retry: {version: 1, mode: fast}\npaths: {}\n"), 0o644))
	code, out, errOut := runExplainCmd(t, "-spec", spec)
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Equal(t, spec+`#/x-retry/mode: must be one of standard, adaptive, legacy, aliyun, got "fast"`+"\n"+
		"retrygen explain: "+spec+": 1 error(s) in the spec\n", errOut)
}

// TestExplainWithoutXRetrySaysGlobalDefault: a spec without x-retry has no
// service default, so explain names the global default as the source.
func TestExplainWithoutXRetrySaysGlobalDefault(t *testing.T) {
	spec, _ := setup(t)
	t.Setenv("TINY_RETRY_MODE", "")
	t.Setenv("TINY_MAX_ATTEMPTS", "")
	t.Setenv("TINY_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	code, out, errOut := runExplainCmd(t, "-spec", spec)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "retry mode:            standard  (retry mode (global default))\n")
	require.Contains(t, out, "max attempts:          3  (max attempts in standard mode (global default))\n")
	require.NotContains(t, out, "x-retry of")
}

// TestExplainSpeakeasy: a spec with only x-speakeasy-retries names it as the
// source of its service defaults and shows what it maps onto.
func TestExplainSpeakeasy(t *testing.T) {
	t.Setenv("SWAGGER_PETSTORE_RETRY_MODE", "")
	t.Setenv("SWAGGER_PETSTORE_MAX_ATTEMPTS", "")
	t.Setenv("SWAGGER_PETSTORE_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	code, out, errOut := runExplainCmd(t, "-spec", "../../specs/petstore-speakeasy.openapi.yaml")
	require.Equal(t, 0, code, errOut)
	for _, line := range []string{
		"retry mode:            standard  (retry mode (global default))\n",
		"max attempts:          2147483647  (maxAttempts (service default x-speakeasy-retries of Swagger Petstore))\n",
		"transient base delay:  500ms\n",
		"throttling base delay: 500ms\n",
		"max backoff:           1m0s\n",
		"jitter:                full\n",
		"backoff exponent:      1.5  (base × exponent^n)\n",
		"retry statuses:        5XX, 429  (429 throttling, others transient; the rest not retried)\n",
		"connection errors:     not retried\n",
		"retry deadline:        5s  (from the call's start)\n",
	} {
		require.Contains(t, out, line)
	}
}

// TestExplainReadsTheGenerateConfig checks that explain -config takes spec
// and overlays from the file generate -config reads (paths relative to the
// file), prints what the same flags would, and lets -spec override it.
func TestExplainReadsTheGenerateConfig(t *testing.T) {
	t.Setenv("AWS_RETRY_MODE", "")
	t.Setenv("AWS_MAX_ATTEMPTS", "")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_PROFILE", "")
	code, want, errOut := runExplainCmd(t, dynamoArgs...)
	require.Equal(t, 0, code, errOut)

	specs, err := filepath.Abs("../../specs")
	require.NoError(t, err)
	cfg := filepath.Join(t.TempDir(), "retrygen.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("spec: "+specs+"/aws-dynamodb-2012-08-10.openapi.yaml\n"+
		"overlays: ["+specs+"/dynamodb.overlay.yaml]\noutput: dynamodb\npackage: dynamodb\n"), 0o644))
	code, got, errOut := runExplainCmd(t, "-config", cfg)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, want, got)
	require.Contains(t, got, "retry quota:           500 tokens")

	code, _, errOut = runExplainCmd(t, "-config", cfg, "-spec", "nonexistent.yaml")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "nonexistent.yaml")
}

// An operation's own x-retry is shown: -operation NAME (the Go method name)
// (any letter case) resolves that operation's settings, with the source of its max attempts,
// and without it the settings end with the operations that override them
// (newuser4 G10: explain printed 3 attempts where GetA makes 7).
func TestExplainOperationOverrides(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "api.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(`openapi: 3.0.3
info: {title: opx, version: "1"}
x-retry: {version: 1, maxAttempts: 3}
paths:
  /a:
    get:
      operationId: getA
      x-retry: {maxAttempts: 7, transientBaseDelayMs: 1, longPolling: true}
      responses: {"200": {description: ok}}
  /b:
    post:
      operationId: postB
      responses: {"200": {description: ok}}
`), 0o644))
	code, out, errOut := runExplainCmd(t, "-spec", spec)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "max attempts:          3  (maxAttempts (service default x-retry of opx))\n")
	require.True(t, strings.HasSuffix(out, "operations with their own x-retry: GetA  (retrygen explain -operation NAME)\n"), out)

	code, out, errOut = runExplainCmd(t, "-spec", spec, "-operation", "GetA")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "operation:             GetA\n")
	require.Contains(t, out, "max attempts:          7  (")
	require.Contains(t, out, "transient base delay:  1ms\n")
	require.Contains(t, out, "long polling:          on\n")
	require.Contains(t, out, "retry-safe:            yes\n")
	require.NotContains(t, out, "operations with their own x-retry")

	code, out, _ = runExplainCmd(t, "-spec", spec, "-operation", "PostB")
	require.Equal(t, 0, code)
	require.Contains(t, out, "max attempts:          3  (maxAttempts (service default x-retry of opx))\n")
	require.Contains(t, out, "retry-safe:            no\n")

	code, out, _ = runExplainCmd(t, "-spec", spec, "-operation", "geta")
	require.Equal(t, 0, code, "any letter case, as an operationId is often written")
	require.Contains(t, out, "operation:             GetA\n")

	code, _, errOut = runExplainCmd(t, "-spec", spec, "-operation", "Nope")
	require.Equal(t, 1, code)
	require.Equal(t, "retrygen explain: -operation Nope: no such operation; the spec's are GetA, PostB\n", errOut)
}
