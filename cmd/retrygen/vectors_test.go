package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const vectorsDir = "../../runtime/testdata/vectors"

func runVectorsCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"vectors", "-specs", "../../specs"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestVectorsPublishedFilesPass(t *testing.T) {
	files := []string{"standard.yaml", "multi-thread.yaml", "cubic.yaml", "sending-rate.yaml", "throttle-control.yaml"}
	for i := range files {
		files[i] = filepath.Join(vectorsDir, files[i])
	}
	code, out, errOut := runVectorsCmd(t, files...)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Equal(t, "15 passed, 0 failed", lines[len(lines)-1])
	for _, name := range []string{
		"DynamoDB base backoff and increased retries",
		"Shared multi-threaded scenarios",
		"Cubic success #1",
		"End-to-end test for client sending rates",
	} {
		require.Contains(t, out, "PASS "+name+"\n")
	}
}

func TestVectorsCubicFailureNamesTheRate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cubic.yaml")
	require.NoError(t, os.WriteFile(path, []byte(`"Off by a little":
  given: {last_max_rate: 10, last_throttle_time: 5}
  cases:
    - {response: success, timestamp: 5, calculated_rate: 7.00001}
`), 0o644))
	code, out, _ := runVectorsCmd(t, path)
	require.Equal(t, 1, code)
	require.Equal(t, "FAIL Off by a little: step 1: want calculated_rate 7.00001, got 7\n0 passed, 1 failed\n", out)
}

func TestVectorsThrottleControlPass(t *testing.T) {
	code, out, errOut := runVectorsCmd(t, filepath.Join(vectorsDir, "throttle-control.yaml"), filepath.Join(vectorsDir, "throttle-control-extra.yaml"))
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Equal(t, "23 passed, 0 failed", lines[len(lines)-1])
	for _, name := range []string{
		"API + User window: delay is the time left, and blocks the same operation only",
		"Window longer than max delay fails at once",
		"x-acs-retry-after above max delay fails at once and sets no window",
	} {
		require.Contains(t, out, "PASS "+name+"\n")
	}
}

func TestVectorsReportsFailureWithStep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wrong.yaml")
	require.NoError(t, os.WriteFile(path, []byte(`"Wrong delay":
  given: {exponential_base: 1}
  responses:
    - {response: {status_code: 500}, expected: {outcome: retry_request, retry_quota: 486, delay: 0.05}}
    - {response: {status_code: 500}, expected: {outcome: retry_request, retry_quota: 472, delay: 0.3}}
    - {response: {status_code: 200}, expected: {outcome: success, retry_quota: 486}}
`), 0o644))
	code, out, _ := runVectorsCmd(t, path)
	require.Equal(t, 1, code)
	require.Equal(t, "FAIL Wrong delay: step 2: want delay 0.3s, got 0.1s\n0 passed, 1 failed\n", out)
}

func TestVectorsUnreadableFileExits2(t *testing.T) {
	code, out, errOut := runVectorsCmd(t, filepath.Join(t.TempDir(), "missing.yaml"))
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "missing.yaml")

	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("- just\n- a list\n"), 0o644))
	code, _, errOut = runVectorsCmd(t, bad)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "want a mapping of scenario names to scenarios")
}

func TestVectorsNoFilesIsUsageError(t *testing.T) {
	code, _, errOut := runVectorsCmd(t)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "usage: retrygen vectors")
}
