package vectors

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadFilePublishedVectors parses every committed vector file: each
// scenario has its name and line, and each kind's fields decode.
func TestReadFilePublishedVectors(t *testing.T) {
	paths, err := filepath.Glob("../../runtime/testdata/vectors/*.yaml")
	require.NoError(t, err)
	require.Len(t, paths, 6)
	total := 0
	for _, p := range paths {
		f, err := ReadFile(p)
		require.NoError(t, err)
		require.Equal(t, p, f.Path)
		for _, sc := range f.Scenarios {
			require.NotEmpty(t, sc.Name, p)
			require.Positive(t, sc.Line, p)
		}
		total += len(f.Scenarios)
	}
	require.Equal(t, 35, total)

	f, err := ReadFile("../../runtime/testdata/vectors/throttle-control.yaml")
	require.NoError(t, err)
	sc := f.Scenarios[1]
	require.Equal(t, "API + User window: delay is the time left, and blocks the same operation only", sc.Name)
	require.Equal(t, 11, sc.Line)
	require.Equal(t, "throttle_control", sc.Kind)
	require.Equal(t, 3, *sc.Given.MaxRetries)
	st := sc.Steps[1]
	require.Equal(t, "a", st.Response)
	require.Equal(t, 400, st.StatusCode)
	require.Equal(t, "Throttling.User", st.ErrorCode)
	require.Equal(t, map[string]string{"X-RateLimit-User-API": "Remain:0,Limit:2,Time:1000,TimeLeft:2000,Reset:1700000002000"}, st.Headers)
	require.Equal(t, "retry_request", st.Expected.Outcome)
	require.Equal(t, int64(2000), *st.Expected.DelayMs)
	require.Equal(t, map[string]int64{"api_user": 2000}, st.Expected.BlockedUntilMs)
}

// TestParseErrorsNameThePlace: bad input gives an error naming the file and,
// for a scenario that does not decode, the line of its name.
func TestParseErrorsNameThePlace(t *testing.T) {
	for _, tt := range []struct {
		name, data, want string
	}{
		{"not YAML", "a: [", "v.yaml: yaml: line 1: did not find expected node content"},
		{"a list", "- just\n- a list\n", "v.yaml: want a mapping of scenario names to scenarios"},
		{"empty", "", "v.yaml: want a mapping of scenario names to scenarios"},
		{"bad scenario", "\"ok\":\n  given: {max_attempts: 3}\n\"bad\":\n  given: {max_attempts: many}\n",
			"v.yaml:3: scenario \"bad\": yaml: unmarshal errors:\n  line 4: cannot unmarshal !!str `many` into int"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("v.yaml", []byte(tt.data))
			require.EqualError(t, err, tt.want)
		})
	}
}

// TestParseRefusesUnknownKeys: a misspelt key anywhere in a scenario is an
// error at its line and column, each one, in the file's order (newuser4 G7:
// "retry_qouta" and "dealy" in an expectation, "heders" in a response and
// "max_atempts" in given were ignored, so the vector passed without
// checking them). Keys of maps (headers, blocked_until_ms) are free.
func TestParseRefusesUnknownKeys(t *testing.T) {
	data := `"typo in given":
  given: {exponential_bse: 1, max_attempts: 9}
  responses:
    - {response: {status_code: 500, headers: {x-any: y}}, expected: {outcome: retry_request, retry_quota: 486}}
"typo in expected":
  given: {exponential_base: 1}
  responses:
    - {response: {status_code: 500}, expected: {outcome: retry_request, retry_qouta: 1, dealy: 9}}
    - {response: {status_code: 200, heders: {x: y}}, expected: {outcome: success}}
"throttle":
  kind: throttle_control
  steps:
    - {call: a, operation: Op, at_ms: 0, expected: {outcome: send, blocked_until_ms: {user: 1}, wait: 1}}
`
	_, err := Parse("v2.yaml", []byte(data))
	require.EqualError(t, err, `v2.yaml:2:11: unknown key "exponential_bse" (scenario "typo in given"; known: max_attempts, initial_retry_tokens, exponential_base, max_backoff_time, service, long_polling, mode, last_max_rate, last_throttle_time, max_retries, max_delay_ms, random)
v2.yaml:8:73: unknown key "retry_qouta" (scenario "typo in expected"; known: outcome, retry_quota, delay)
v2.yaml:8:89: unknown key "dealy" (scenario "typo in expected"; known: outcome, retry_quota, delay)
v2.yaml:9:37: unknown key "heders" (scenario "typo in expected"; known: status_code, error_code, headers)
v2.yaml:13:97: unknown key "wait" (scenario "throttle"; known: outcome, wait_ms, delay_ms, blocked_until_ms)`)
	_, err = Parse("v.yaml", []byte("\"s\":\n  givn: {}\n"))
	require.EqualError(t, err, `v.yaml:2:3: unknown key "givn" (scenario "s"; known: kind, given, responses, threads, expected_final_quota, cases, steps)`)
}
