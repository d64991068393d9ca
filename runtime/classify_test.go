package runtime

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// classRow is one classification case: the first response of a call and
// the class and code attempt 1 must be given.
type classRow struct {
	name  string
	first step
	svc   func(*Service)
	op    *Operation
	opts  func(*Options)
	class engine.Class
	code  string
}

// TestClassification checks retry-behavior.md §4 through Do, in its stated
// order. With r=1 the class also fixes the sleep exactly: 50 ms for
// transient, 1,000 ms for throttling, none for non-retryable.
func TestClassification(t *testing.T) {
	rows := []classRow{
		{name: "2xx is success", first: status(204), class: engine.ClassSuccess},
		{name: "declared non-retryable code on a 503 is non-retryable",
			first: coded(503, "QuotaGone"), svc: func(s *Service) { s.NonRetryableCodes = []string{"QuotaGone"} },
			class: engine.ClassNonRetryable, code: "QuotaGone"},
		{name: "throttling code on a 500 is throttling", first: coded(500, "ThrottlingException"),
			class: engine.ClassThrottling, code: "ThrottlingException"},
		{name: "transient code on a 400 is transient", first: coded(400, "RequestTimeout"),
			class: engine.ClassTransient, code: "RequestTimeout"},
		{name: "unlisted code on a 500 is transient", first: coded(500, "WeirdFailure"),
			class: engine.ClassTransient, code: "WeirdFailure"},
		{name: "bare 429 is throttling", first: status(429), class: engine.ClassThrottling},
		{name: "bare 429 is non-retryable with Bare429NotRetried", first: status(429),
			svc: func(s *Service) { s.Bare429NotRetried = true }, class: engine.ClassNonRetryable},
		{name: "429 with a throttling code is throttling even with Bare429NotRetried",
			first: coded(429, "TooManyRequestsException"), svc: func(s *Service) { s.Bare429NotRetried = true },
			class: engine.ClassThrottling, code: "TooManyRequestsException"},
		{name: "400 without a code is non-retryable", first: status(400), class: engine.ClassNonRetryable},
		{name: "404 without a code is non-retryable", first: status(404), class: engine.ClassNonRetryable},
		{name: "408 is non-retryable in standard mode", first: status(408), class: engine.ClassNonRetryable},
		{name: "501 without a code is non-retryable", first: status(501), class: engine.ClassNonRetryable},
		{name: "unlisted code on a 400 is non-retryable", first: coded(400, "AccessDeniedException"),
			class: engine.ClassNonRetryable, code: "AccessDeniedException"},
		// Its value is also the delay (§5; acsdelay_test.go): 1000 ms, the
		// throttling sleep the table expects.
		{name: "positive x-acs-retry-after makes a 400 throttling",
			first: status(400, engine.HeaderACSRetryAfter, "1000"), class: engine.ClassThrottling},
		{name: "zero x-acs-retry-after is absent", first: status(400, engine.HeaderACSRetryAfter, "0"), class: engine.ClassNonRetryable},
		{name: "service ThrottlingCodes moves a transient code", first: coded(400, "InternalError"),
			svc: func(s *Service) { s.ThrottlingCodes = []string{"InternalError"} }, class: engine.ClassThrottling, code: "InternalError"},
		{name: "operation TransientCodes adds a code", first: coded(400, "Busy"),
			op: &Operation{Name: "Op", TransientCodes: []string{"Busy"}}, class: engine.ClassTransient, code: "Busy"},
		{name: "Options.ThrottlingCodes moves a transient code", first: coded(500, "InternalError"),
			opts: func(o *Options) { o.ThrottlingCodes = []string{"InternalError"} }, class: engine.ClassThrottling, code: "InternalError"},
		{name: "Options.NonRetryableCodes moves a throttling code", first: coded(400, "SlowDown"),
			opts: func(o *Options) { o.NonRetryableCodes = []string{"SlowDown"} }, class: engine.ClassNonRetryable, code: "SlowDown"},
		{name: "Options level wins over the service level", first: coded(400, "Busy"),
			svc:  func(s *Service) { s.NonRetryableCodes = []string{"Busy"} },
			opts: func(o *Options) { o.TransientCodes = []string{"Busy"} }, class: engine.ClassTransient, code: "Busy"},
		{name: "Options.Classify decides first (transient for a 400)", first: coded(400, "AccessDeniedException"),
			opts: func(o *Options) {
				o.Classify = func(*engine.AttemptResult) (engine.Class, bool) { return engine.ClassTransient, true }
			},
			class: engine.ClassTransient, code: "AccessDeniedException"},
		{name: "Options.Classify decides first (non-retryable for a throttling code)", first: coded(503, "SlowDown"),
			opts: func(o *Options) {
				o.Classify = func(*engine.AttemptResult) (engine.Class, bool) { return engine.ClassNonRetryable, true }
			},
			class: engine.ClassNonRetryable, code: "SlowDown"},
		{name: "Options.Classify falling through leaves the rules", first: coded(503, "SlowDown"),
			opts: func(o *Options) {
				o.Classify = func(*engine.AttemptResult) (engine.Class, bool) { return engine.ClassTransient, false }
			},
			class: engine.ClassThrottling, code: "SlowDown"},
		{name: "code from X-Amzn-ErrorType is the part before ':'",
			first: status(400, "X-Amzn-ErrorType", "ThrottlingException:http://internal.amazon.com/coral/com.amazon.coral.availability/"),
			class: engine.ClassThrottling, code: "ThrottlingException"},
		{name: "code from __type is the part after '#'",
			first: coded(400, "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException"),
			class: engine.ClassThrottling, code: "ProvisionedThroughputExceededException"},
		{name: "error-code header is looked at before the body",
			first: step{status: 400, header: http.Header{"X-Amzn-Errortype": {"ValidationException"}}, body: `{"__type":"ThrottlingException"}`},
			class: engine.ClassNonRetryable, code: "ValidationException"},
		{name: "non-JSON error body has no code", first: step{status: 400, body: "<html>ThrottlingException</html>"},
			class: engine.ClassNonRetryable},
		{name: "InternalError is not a built-in transient code (aws-sdk-go-v2's list)", first: coded(400, "InternalError"),
			class: engine.ClassNonRetryable, code: "InternalError"},
		{name: "429 with a code the operation models is that code's class (aws-sdk-go-v2)", first: coded(429, "NotThere"),
			op: opModeling("NotThere"), class: engine.ClassNonRetryable, code: "NotThere"},
		{name: "429 with a code the operation does not model is throttling", first: coded(429, "NotThere"),
			class: engine.ClassThrottling, code: "NotThere"},
		{name: "429 whose error is modeled only by status (4XX) is throttling", first: coded(429, "insufficient_scope"),
			op:    &Operation{Name: "ByStatus", NewErrorForStatus: func(int) ModeledError { return &modeledErr{} }},
			class: engine.ClassThrottling, code: "insufficient_scope"},
		{name: "429 with a modeled throttling code is throttling", first: coded(429, "SlowDown"),
			op: opModeling("SlowDown"), class: engine.ClassThrottling, code: "SlowDown"},
		{name: "an attempt's timeout while the call's context is alive is transient",
			first: failure(context.DeadlineExceeded), op: opGet, class: engine.ClassTransient},
	}
	for _, code := range builtinThrottlingCodes {
		rows = append(rows, classRow{name: "built-in throttling code " + code + " on a 400",
			first: coded(400, code), class: engine.ClassThrottling, code: code})
	}
	for _, code := range builtinTransientCodes {
		rows = append(rows, classRow{name: "built-in transient code " + code + " on a 400",
			first: coded(400, code), class: engine.ClassTransient, code: code})
	}
	for _, s := range []int{500, 502, 503, 504} {
		rows = append(rows, classRow{name: "bare " + strconv.Itoa(s) + " is transient", first: status(s), class: engine.ClassTransient})
	}
	require.Len(t, builtinThrottlingCodes, 14)
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			svc := testService()
			if tc.svc != nil {
				tc.svc(svc)
			}
			var infos []AttemptInfo
			h := newHarness(t, svc, 1, script(tc.first, status(200)), func(o *Options) {
				o.OnAttempt = func(a AttemptInfo) { infos = append(infos, a) }
				if tc.opts != nil {
					tc.opts(o)
				}
			})
			op := tc.op
			if op == nil {
				op = opPost
			}
			_, _ = h.call(context.Background(), op)
			require.NotEmpty(t, infos)
			require.Equal(t, tc.class, infos[0].Class)
			require.Equal(t, tc.code, infos[0].Code)
			var want []time.Duration
			switch tc.class {
			case engine.ClassTransient:
				want = []time.Duration{ms(50)}
			case engine.ClassThrottling:
				want = []time.Duration{ms(1000)}
			}
			require.Equal(t, want, h.clock.Sleeps())
		})
	}
}

// modeledErr is a generated-style modeled error.
type modeledErr struct{ ErrorMetadata }

func (e *modeledErr) Error() string { return e.ErrorMetadata.String() }

// opModeling is an operation that models the error code code.
func opModeling(code string) *Operation {
	return &Operation{Name: "Modeling", NewError: func(c string) ModeledError {
		if c == code {
			return &modeledErr{}
		}
		return nil
	}}
}

// TestClassifyCancelledContext: a cancelled context is never retried, even
// for a response that would be (§4 rule 1), unless Options.Classify decides.
func TestClassifyCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pol := resolvePolicy(Settings{}, testService(), opPost, &Options{}, nil)
	k := classifier{p: &pol, op: opPost}
	require.Equal(t, engine.ClassNonRetryable, k.classify(ctx, &engine.AttemptResult{StatusCode: 503, Err: &APIError{}}, false))
	require.Equal(t, engine.ClassNonRetryable, k.classify(context.Background(), &engine.AttemptResult{Err: context.Canceled}, false))
	require.Equal(t, engine.ClassNonRetryable, k.classify(ctx, &engine.AttemptResult{Err: context.Canceled, Sent: true}, false))
	dl, cancelDl := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancelDl()
	require.Equal(t, engine.ClassNonRetryable, k.classify(dl, &engine.AttemptResult{Err: context.DeadlineExceeded, Sent: true}, false),
		"the call's own deadline")
	require.Equal(t, engine.ClassTransient, k.classify(context.Background(), &engine.AttemptResult{Err: context.DeadlineExceeded, Sent: true}, false),
		"an attempt's deadline under a live call context")
	require.Equal(t, engine.ClassTransient, k.classify(context.Background(), &engine.AttemptResult{StatusCode: 503, Err: &APIError{}}, false))
}

// TestServiceCodeClass checks CodeClass's rule order (the generator's doc
// comments and summary rely on it): the
// service's lists before the built-in ones, non-retryable before throttling
// before transient, aliyun throttling codes only in aliyun mode.
func TestServiceCodeClass(t *testing.T) {
	tests := []struct {
		name string
		svc  Service
		code string
		want engine.Class
	}{
		{"built-in throttling code", Service{}, "ThrottlingException", engine.ClassThrottling},
		{"built-in transient code", Service{}, "RequestTimeout", engine.ClassTransient},
		{"unlisted code is non-retryable by code", Service{}, "NotFound", engine.ClassNonRetryable},
		{"no code is non-retryable by code", Service{}, "", engine.ClassNonRetryable},
		{"service moves a built-in code", Service{TransientCodes: []string{"ThrottlingException"}}, "ThrottlingException", engine.ClassTransient},
		{"service non-retryable wins over its throttling", Service{ThrottlingCodes: []string{"X"}, NonRetryableCodes: []string{"X"}}, "X", engine.ClassNonRetryable},
		{"aliyun code in aliyun mode", Service{DefaultMode: ModeAliyun}, "Throttling.User", engine.ClassThrottling},
		{"aliyun code in standard mode", Service{}, "Throttling.User", engine.ClassNonRetryable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.svc.CodeClass(tt.code))
		})
	}
}

// The doc comments of builtinThrottlingCodes and Service.CodeClass count the
// built-in lists; this keeps the counts true.
func TestBuiltinCodeCounts(t *testing.T) {
	require.Len(t, builtinThrottlingCodes, 14)
	require.Equal(t, []string{"RequestTimeout", "RequestTimeoutException"}, builtinTransientCodes)
}
