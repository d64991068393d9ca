package runtime

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/stretchr/testify/require"
)

// TestHTTPOverRealServer runs one call against a real httptest.Server on
// 127.0.0.1: two 500s with 1 KiB error bodies, then a 200. The body is
// replayed byte for byte, the hooks and headers are set per attempt, and the
// drained error bodies let all three attempts reuse one connection.
func TestHTTPOverRealServer(t *testing.T) {
	type seen struct {
		body                        []byte
		contentType, attempt, raddr string
	}
	var (
		mu   sync.Mutex
		reqs []seen
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		reqs = append(reqs, seen{b, r.Header.Get("Content-Type"), r.Header.Get("amz-sdk-request"), r.RemoteAddr})
		n := len(reqs)
		mu.Unlock()
		if n < 3 {
			w.Header().Set("X-Amzn-ErrorType", "InternalError")
			w.WriteHeader(500)
			_, _ = w.Write([]byte(strings.Repeat("x", 1024)))
			return
		}
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()

	var hookAttempts []int
	clock := clocktest.New(epoch)
	c, err := NewClient(testService(), srv.URL, Options{
		HTTPClient: &http.Client{Transport: transport},
		Clock:      clock, Rand: fixedRand(1),
		BeforeAttempt: func(_ *http.Request, attempt int) error {
			hookAttempts = append(hookAttempts, attempt)
			return nil
		},
	})
	require.NoError(t, err)
	body := []byte(`{"TableName":"t","Item":{"k":{"S":"` + strings.Repeat("v", 2000) + `"}}}`)
	var got string
	md, err := c.Do(context.Background(), opPost,
		&Request{Method: "POST", Path: "/", Body: body, ContentType: "application/x-amz-json-1.0"}, nil,
		func(r *http.Response) error {
			b, err := io.ReadAll(r.Body)
			got = string(b)
			return err
		})
	require.NoError(t, err)
	require.Equal(t, `{"ok":true}`, got)
	require.Equal(t, 3, md.Attempts)
	require.Equal(t, []int{1, 2, 3}, hookAttempts)
	require.Len(t, reqs, 3)
	for i, r := range reqs {
		require.Equal(t, body, r.body, "body of attempt %d", i+1)
		require.Equal(t, "application/x-amz-json-1.0", r.contentType)
	}
	require.Equal(t, []string{"attempt=1; max=3", "attempt=2; max=3", "attempt=3; max=3"},
		[]string{reqs[0].attempt, reqs[1].attempt, reqs[2].attempt})
	require.Equal(t, reqs[0].raddr, reqs[1].raddr, "error body drained: connection reused")
	require.Equal(t, reqs[0].raddr, reqs[2].raddr, "error body drained: connection reused")
	require.Equal(t, []int{50e6, 100e6}, []int{int(clock.Sleeps()[0]), int(clock.Sleeps()[1])})
}

// TestBeforeAttemptError: a request hook error ends the call after attempt 1
// with a *RequestHookError, and nothing is sent.
func TestBeforeAttemptError(t *testing.T) {
	hookErr := errors.New("no credentials")
	h := newHarness(t, nil, 1, script(status(200)), func(o *Options) {
		o.BeforeAttempt = func(*http.Request, int) error { return hookErr }
	})
	md, err := h.call(context.Background(), opPost)
	var rhe *RequestHookError
	require.ErrorAs(t, err, &rhe)
	require.Equal(t, 1, rhe.Attempt)
	require.ErrorIs(t, err, hookErr)
	require.Equal(t, 1, md.Attempts)
	require.Empty(t, h.http.requests())
	require.Empty(t, h.clock.Sleeps())
}

// TestRequestShape: URL joining and query merging, Content-Type only with a
// body, the attempt header only when the service names one.
func TestRequestShape(t *testing.T) {
	svc := testService()
	svc.AttemptHeader = ""
	sc := script(status(200), status(200))
	clock := clocktest.New(epoch)
	c, err := NewClient(svc, "http://svc.test/base/?api=1", Options{HTTPClient: sc, Clock: clock, Rand: fixedRand(1)})
	require.NoError(t, err)
	_, err = c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/items/a%2Fb",
		Query: map[string][]string{"limit": {"5"}}, ContentType: "application/json"}, nil, nil)
	require.NoError(t, err)
	_, err = c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/x"}, nil, nil)
	require.NoError(t, err)
	reqs := sc.requests()
	require.Equal(t, "http://svc.test/base/items/a%2Fb?api=1&limit=5", reqs[0].url)
	require.Equal(t, "http://svc.test/base/x?api=1", reqs[1].url)
	require.Empty(t, reqs[0].header.Get("Content-Type"), "no body, no Content-Type")
	require.Empty(t, reqs[0].header.Get("amz-sdk-request"), "service names no attempt header")
	require.Empty(t, reqs[0].body)
}

// TestEveryResponseBodyClosed: error bodies are drained and closed by the
// runtime, the 2xx body after decode returns, also when decode fails.
func TestEveryResponseBodyClosed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		steps  []step
		decode func(*http.Response) error
	}{
		{"error bodies and the decoded body", []step{
			{status: 500, body: strings.Repeat("e", 100<<10)}, coded(429, "SlowDown"), {status: 200, body: "{}"}},
			func(r *http.Response) error { _, err := io.ReadAll(r.Body); return err }},
		{"decode that reads nothing", []step{{status: 200, body: "{}"}}, func(*http.Response) error { return nil }},
		{"decode that fails", []step{{status: 200, body: "{"}}, func(*http.Response) error { return io.ErrUnexpectedEOF }},
		{"non-retryable error", []step{coded(400, "ValidationException")}, nil},
		{"max attempts", []step{status(503), status(503), status(503)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil, 1, script(tc.steps...), nil)
			md, _ := h.c.Do(context.Background(), opPost, &Request{Method: "POST", Path: "/"}, nil, tc.decode)
			require.Equal(t, len(tc.steps), md.Attempts)
			h.http.requireAllClosed(t)
		})
	}
}

// resourceNotFound is a modeled error as generated code declares it.
type resourceNotFound struct {
	ErrorMetadata `json:"-"`
	Message       string `json:"message"`
	TableName     string `json:"TableName"`
}

func (e *resourceNotFound) Error() string { return e.ErrorMetadata.String() }

var opModeled = &Operation{Name: "GetItem", NewError: func(code string) ModeledError {
	if code == "ResourceNotFoundException" {
		return &resourceNotFound{}
	}
	return nil
}}

// TestErrorDecoding: a modeled code gives the operation's error type with
// its metadata and modeled fields filled; an unmodeled code gives an
// *APIError with the body.
func TestErrorDecoding(t *testing.T) {
	const body = `{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"Requested resource not found","TableName":"t1"}`
	h := newHarness(t, nil, 1, script(
		step{status: 400, header: http.Header{"X-Amzn-Requestid": {"REQ1"}}, body: body},
		step{status: 400, header: http.Header{"X-Amzn-Requestid": {"REQ2"}}, body: `{"__type":"ns#ValidationException","Message":"bad key"}`},
	), nil)
	md, err := h.call(context.Background(), opModeled)
	var rnf *resourceNotFound
	require.ErrorAs(t, err, &rnf)
	require.Equal(t, ErrorMetadata{HTTPStatusCode: 400, Code: "ResourceNotFoundException",
		Message: "Requested resource not found", RequestID: "REQ1", Body: []byte(body)}, rnf.ErrorMetadata)
	require.Equal(t, "t1", rnf.TableName)
	require.Equal(t, "test: GetItem: api error ResourceNotFoundException (HTTP 400, request ID REQ1): Requested resource not found", err.Error())
	require.Equal(t, 1, md.Attempts)
	require.Equal(t, "REQ1", md.RequestID, "ResponseMetadata.RequestID is the last response's")

	md, err = h.call(context.Background(), opModeled)
	var api *APIError
	require.ErrorAs(t, err, &api)
	require.Equal(t, ErrorMetadata{HTTPStatusCode: 400, Code: "ValidationException",
		Message: "bad key", RequestID: "REQ2"}, api.ErrorMetadata)
	require.Equal(t, `{"__type":"ns#ValidationException","Message":"bad key"}`, string(api.Body))
	require.False(t, errors.As(err, &rnf))
	require.Equal(t, "REQ2", md.RequestID)
}

// TestSuccessRequestID: a successful call reports its response's request ID
// in ResponseMetadata.
func TestSuccessRequestID(t *testing.T) {
	h := newHarness(t, nil, 1, script(status(500, "x-amzn-RequestId", "R1"), status(200, "x-amzn-RequestId", "R2")), nil)
	md, err := h.call(context.Background(), opPost)
	require.NoError(t, err)
	require.Equal(t, "R2", md.Header.Get("x-amzn-RequestId"), "the last response's headers")
	md.Header = nil
	require.Equal(t, ResponseMetadata{Attempts: 2, RequestID: "R2"}, md)
}
