// Package vectors reads the cross-SDK retry conformance vector files
// (runtime/testdata/vectors/*.yaml; format: shared/vectors/README.md): a YAML
// mapping of scenario names to scenarios, each told apart by its keys.
//
// It is test infrastructure, the one parser of those files: `retrygen
// vectors` runs every kind of scenario against the runtime, and the runtime's
// own tests (from the external runtime_test package, so that no import cycle
// arises) check the CUBIC and sending-rate vectors with it. It reads only;
// running a scenario is its caller's business.
package vectors

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/retrygen/retrygen/internal/yamlfields"
	"gopkg.in/yaml.v3"
)

// File is one parsed vector file.
type File struct {
	// Path is the file's path as given to [ReadFile] or [Parse].
	Path string
	// Scenarios are the file's scenarios in the file's order.
	Scenarios []Scenario
}

// Scenario is one named scenario of any kind. Its kind is told apart by its
// keys: Kind "throttle_control" (Steps), Responses, Threads, or Cases with
// Given.LastMaxRate (CUBIC) or without it (sending rate).
type Scenario struct {
	// Name is the scenario's key in the file; Line is that key's line.
	Name string `yaml:"-"`
	Line int    `yaml:"-"`
	// Kind is "" for the AWS kinds, "throttle_control" for Alibaba-style
	// throttle windows (retry-behavior.md §8).
	Kind string `yaml:"kind"`
	// Given holds every kind's settings.
	Given Given `yaml:"given"`
	// Responses are the responses of one client's calls, in order.
	Responses []Step `yaml:"responses"`
	// Threads are responses per concurrent thread, all on one client.
	Threads [][]Step `yaml:"threads"`
	// ExpectedFinalQuota is the retry quota after all threads, in tokens.
	ExpectedFinalQuota *int `yaml:"expected_final_quota"`
	// Cases are the CUBIC or sending-rate cases.
	Cases []RateCase `yaml:"cases"`
	// Steps are a throttle_control scenario's steps.
	Steps []ThrottleStep `yaml:"steps"`
}

// Given holds a scenario's settings; nil and zero mean "not given" (the
// runner's default applies).
type Given struct {
	// MaxAttempts counts the first attempt.
	MaxAttempts *int `yaml:"max_attempts"`
	// InitialRetryTokens is the retry quota's capacity, in tokens.
	InitialRetryTokens *int `yaml:"initial_retry_tokens"`
	// ExponentialBase is the fixed random value in [0,1] jitter uses.
	ExponentialBase *float64 `yaml:"exponential_base"`
	// MaxBackoffTime is the max backoff, in seconds.
	MaxBackoffTime *float64 `yaml:"max_backoff_time"`
	// Service names a project service whose x-retry defaults apply.
	Service string `yaml:"service"`
	// LongPolling marks the operation as long polling (§7).
	LongPolling bool `yaml:"long_polling"`
	// Mode is the retry mode ("standard", "adaptive", …).
	Mode string `yaml:"mode"`
	// LastMaxRate (tokens/s) and LastThrottleTime (s) start a CUBIC
	// scenario.
	LastMaxRate      *float64 `yaml:"last_max_rate"`
	LastThrottleTime *float64 `yaml:"last_throttle_time"`
	// MaxRetries, MaxDelayMs (ms) and Random configure a throttle_control
	// scenario.
	MaxRetries *int     `yaml:"max_retries"`
	MaxDelayMs *int64   `yaml:"max_delay_ms"`
	Random     *float64 `yaml:"random"`
}

// Step is one response of a Responses or Threads scenario and the decision
// expected after it.
type Step struct {
	// Response is the scripted response.
	Response Response `yaml:"response"`
	// Expected is the decision after it.
	Expected struct {
		// Outcome is the runtime's outcome name ("retry_request",
		// "success", "max_attempts_exceeded", …).
		Outcome string `yaml:"outcome"`
		// RetryQuota is the quota balance after the attempt, in tokens.
		RetryQuota *int `yaml:"retry_quota"`
		// Delay is the delay before the next attempt, in seconds.
		Delay *float64 `yaml:"delay"`
	} `yaml:"expected"`
}

// Response is one scripted HTTP response.
type Response struct {
	// StatusCode is the HTTP status.
	StatusCode int `yaml:"status_code"`
	// ErrorCode is the service's error code, "" for none.
	ErrorCode string `yaml:"error_code"`
	// Headers are response headers, one value each.
	Headers map[string]string `yaml:"headers"`
}

// RateCase is one case of a CUBIC or sending-rate scenario (retry-behavior.md
// §6); rates are in tokens/s, the timestamp in seconds.
type RateCase struct {
	// Response is "success" or "throttle".
	Response  string  `yaml:"response"`
	Timestamp float64 `yaml:"timestamp"`
	// CalculatedRate is the CUBIC rate expected after the response;
	// MeasuredTxRate and NewTokenBucketRate the limiter's measured send
	// rate and fill rate.
	CalculatedRate     *float64 `yaml:"calculated_rate"`
	MeasuredTxRate     *float64 `yaml:"measured_tx_rate"`
	NewTokenBucketRate *float64 `yaml:"new_token_bucket_rate"`
}

// ThrottleStep is one step of a throttle_control scenario: a new call (Call
// set) or the response to a call's latest attempt (Response set), at AtMs
// on a fake clock starting at 0.
type ThrottleStep struct {
	// Call names a new call of Operation.
	Call      string `yaml:"call"`
	Operation string `yaml:"operation"`
	// Response names the call whose latest attempt this response answers,
	// with StatusCode, ErrorCode and Headers.
	Response   string            `yaml:"response"`
	StatusCode int               `yaml:"status_code"`
	ErrorCode  string            `yaml:"error_code"`
	Headers    map[string]string `yaml:"headers"`
	// AtMs is the step's time on the fake clock, in ms from 0.
	AtMs     int64 `yaml:"at_ms"`
	Expected struct {
		// Outcome is "send" or "throttle_window_exceeded" for a call,
		// the runtime's outcome name for a response.
		Outcome string `yaml:"outcome"`
		// WaitMs is the wait before a call's first attempt, in ms.
		WaitMs *int64 `yaml:"wait_ms"`
		// DelayMs is the delay before the next attempt, in ms.
		DelayMs *int64 `yaml:"delay_ms"`
		// BlockedUntilMs is each dimension's window end ("user",
		// "api_user"), in ms; an omitted dimension has no window.
		BlockedUntilMs map[string]int64 `yaml:"blocked_until_ms"`
	} `yaml:"expected"`
}

// ReadFile reads and parses the vector file at path. Its errors name the
// path (and, for a scenario that does not decode, the line of its name).
func ReadFile(path string) (File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return File{}, err
	}
	return Parse(path, data)
}

// Parse parses a vector file's content; path only names it in errors. It
// returns an error naming path and line when data is not YAML, is not a
// mapping of scenario names to scenarios, or a scenario does not decode,
// and one line "PATH:LINE:COL: unknown key "retry_qouta" (scenario …;
// known: …)" per key that names no field, in the file's order: a misspelt
// expectation would otherwise pass unchecked (newuser4 G7).
func Parse(path string, data []byte) (File, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return File{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return File{}, fmt.Errorf("%s: want a mapping of scenario names to scenarios", path)
	}
	m := doc.Content[0]
	f := File{Path: path}
	var unknown []error
	for i := 0; i+1 < len(m.Content); i += 2 {
		yamlfields.Unknown(m.Content[i+1], reflect.TypeFor[Scenario](), "", func(k *yaml.Node, _ string, known []string) bool {
			unknown = append(unknown, fmt.Errorf("%s:%d:%d: unknown key %q (scenario %q; known: %s)", path, k.Line, k.Column, k.Value, m.Content[i].Value, strings.Join(known, ", ")))
			return true
		})
	}
	if len(unknown) > 0 {
		return File{}, errors.Join(unknown...)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		key := m.Content[i]
		var sc Scenario
		if err := m.Content[i+1].Decode(&sc); err != nil {
			return File{}, fmt.Errorf("%s:%d: scenario %q: %w", path, key.Line, key.Value, err)
		}
		sc.Name, sc.Line = key.Value, key.Line
		f.Scenarios = append(f.Scenarios, sc)
	}
	return f, nil
}
