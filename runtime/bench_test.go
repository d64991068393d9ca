package runtime

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// fixedClient answers every request with the same prebuilt response, so a
// benchmark measures the caller, not the transport.
type fixedClient struct{ resp *http.Response }

func (f fixedClient) Do(*http.Request) (*http.Response, error) { return f.resp, nil }

// benchBody is a small AWS JSON request body.
var benchBody = []byte(`{"TableName":"t","Key":{"k":{"S":"v"}}}`)

// benchHeader is the request header generated code would send.
var benchHeader = http.Header{"X-Amz-Target": {"DynamoDB_20120810.GetItem"}}

func ok200() *http.Response {
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: nopBody{}}
}

// BenchmarkDoSuccess is the runtime's success path: one Do, a prebuilt 200
// with an empty body, no retry.
// "plain" is a service without an attempt header; "attempt-header" sends
// amz-sdk-request on every attempt, as AWS services do.
func BenchmarkDoSuccess(b *testing.B) {
	plain := testService()
	plain.AttemptHeader = ""
	for _, bc := range []struct {
		name string
		svc  *Service
	}{{"plain", plain}, {"attempt-header", testService()}} {
		b.Run(bc.name, func(b *testing.B) {
			c, err := NewClient(bc.svc, "http://svc.test", Options{HTTPClient: fixedClient{ok200()}, Rand: fixedRand(1)})
			if err != nil {
				b.Fatal(err)
			}
			req := &Request{Method: "POST", Path: "/", Header: benchHeader.Clone(), Body: benchBody, ContentType: "application/x-amz-json-1.0"}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Do(ctx, opPost, req, nil, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBaselineRawHTTP does what BenchmarkDoSuccess does without the
// runtime: build the request, send it, drain and close the body. The
// difference between the two is the runtime's own cost. "minimal" uses a
// constant URL and a prebuilt header; "same-request" also joins endpoint and
// path and sets Content-Type on every call, as the runtime (and any
// hand-written client) does.
func BenchmarkBaselineRawHTTP(b *testing.B) {
	var hc HTTPClient = fixedClient{ok200()}
	ctx := context.Background()
	endpoint, path := "http://svc.test", "/"
	for _, bc := range []struct {
		name    string
		perCall bool
	}{{"minimal", false}, {"same-request", true}} {
		b.Run(bc.name, func(b *testing.B) {
			hdr := benchHeader.Clone()
			hdr.Set("Content-Type", "application/x-amz-json-1.0")
			b.ReportAllocs()
			for b.Loop() {
				url := "http://svc.test/"
				if bc.perCall {
					url = endpoint + path
					hdr.Set("Content-Type", "application/x-amz-json-1.0")
				}
				hreq, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(benchBody))
				if err != nil {
					b.Fatal(err)
				}
				hreq.Header = hdr
				resp, err := hc.Do(hreq)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
			}
		})
	}
}

// retryThenOK answers 500 and 200 alternately with prebuilt responses.
type retryThenOK struct {
	fail, ok *http.Response
	n        int
}

func (r *retryThenOK) Do(*http.Request) (*http.Response, error) {
	r.n++
	if r.n%2 == 1 {
		return r.fail, nil
	}
	return r.ok, nil
}

// BenchmarkDoOneRetry is a call whose first attempt gets a 500 and whose
// retry succeeds, with a fake clock (no real delay).
func BenchmarkDoOneRetry(b *testing.B) {
	hc := &retryThenOK{fail: &http.Response{StatusCode: 500, Header: http.Header{}, Body: nopBody{}}, ok: ok200()}
	c, err := NewClient(testService(), "http://svc.test", Options{HTTPClient: hc, Clock: clocktest.New(epoch), Rand: fixedRand(0)})
	if err != nil {
		b.Fatal(err)
	}
	req := &Request{Method: "POST", Path: "/", Header: benchHeader.Clone(), Body: benchBody, ContentType: "application/x-amz-json-1.0"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if md, err := c.Do(ctx, opPost, req, nil, nil); err != nil || md.Attempts != 2 {
			b.Fatal(md, err)
		}
	}
}

// BenchmarkDecideSuccess measures the runtime's own work on the success path,
// without HTTP: resolving the call's parameters from per-call options that
// change nothing, classifying a 200, and releasing the retry quota. Target:
// under 100 ns and 0 allocs/op.
func BenchmarkDecideSuccess(b *testing.B) {
	h := newHarness(b, nil, 0.5, script(), nil)
	opts := h.c.Options() // what generated code passes: a copy of the client's options
	res := engine.AttemptResult{StatusCode: 200, Sent: true}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		var cl callMachine
		if err := h.c.initCall(&cl, opGet, &opts); err != nil {
			b.Fatal(err)
		}
		if d := cl.decide(ctx, &res); d.Outcome != engine.OutcomeSuccess {
			b.Fatal(d.Outcome)
		}
	}
}

// throttlingModeled is a modeled error for the error-body benchmark.
type throttlingModeled struct {
	ErrorMetadata `json:"-"`
	Message       string `json:"message"`
}

func (e *throttlingModeled) Error() string { return e.ErrorMetadata.String() }

// retryErrorBodyThenOK answers odd attempts with a 400 whose JSON body
// carries the code (no X-Amzn-ErrorType header), even ones with a 200.
type retryErrorBodyThenOK struct{ n int }

var benchErrorBody = []byte(`{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`)

func (r *retryErrorBodyThenOK) Do(*http.Request) (*http.Response, error) {
	r.n++
	if r.n%2 == 1 {
		return &http.Response{StatusCode: 400, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
			ContentLength: int64(len(benchErrorBody)), Body: io.NopCloser(bytes.NewReader(benchErrorBody))}, nil
	}
	return ok200(), nil
}

// BenchmarkDoOneRetryErrorBody is a call whose first attempt gets a 400
// with a JSON error body (code in __type, decoded into a modeled error) and
// whose retry succeeds: the cost of reading the error body once for the
// code and once into the modeled error.
func BenchmarkDoOneRetryErrorBody(b *testing.B) {
	c, err := NewClient(testService(), "http://svc.test", Options{HTTPClient: &retryErrorBodyThenOK{}, Clock: clocktest.New(epoch), Rand: fixedRand(0)})
	if err != nil {
		b.Fatal(err)
	}
	op := &Operation{Name: "GetItem", RetrySafe: true, NewError: func(code string) ModeledError {
		if code == "ThrottlingException" {
			return &throttlingModeled{}
		}
		return nil
	}}
	req := &Request{Method: "POST", Path: "/", Header: benchHeader.Clone(), Body: benchBody, ContentType: "application/x-amz-json-1.0"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if md, err := c.Do(ctx, op, req, nil, nil); err != nil || md.Attempts != 2 {
			b.Fatal(md, err)
		}
	}
}
