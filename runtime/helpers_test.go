package runtime

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// TestMain fails the package when any test leaves a goroutine behind
// (transport connections of the httptest tests included).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// step is one scripted answer: a response (status, header, body) or a
// transport error.
type step struct {
	status int
	header http.Header
	body   string
	err    error
}

// status returns a step answering with an empty-bodied response of code,
// with header key/value pairs kv.
func status(code int, kv ...string) step {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return step{status: code, header: h}
}

// coded returns a step answering code with the error code in the JSON body
// field "__type".
func coded(code int, errCode string) step {
	return step{status: code, header: http.Header{}, body: `{"__type":"` + errCode + `"}`}
}

// failure returns a step failing with a transport error.
func failure(err error) step { return step{err: err} }

// sentRequest is what the scripted client saw of one request.
type sentRequest struct {
	method, url string
	header      http.Header
	body        []byte
}

// trackedBody is a response body that records whether it was closed and how
// much of it was read.
type trackedBody struct {
	r      *strings.Reader
	mu     sync.Mutex
	closed bool
}

func (b *trackedBody) Read(p []byte) (int, error) { return b.r.Read(p) }

func (b *trackedBody) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return nil
}

func (b *trackedBody) isClosed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed
}

// scriptedClient is an HTTPClient answering with queued steps in order and
// recording every request it was given. Safe for concurrent use; running past
// the script is an error the test sees.
type scriptedClient struct {
	mu     sync.Mutex
	steps  []step
	sent   []sentRequest
	bodies []*trackedBody
}

func script(steps ...step) *scriptedClient { return &scriptedClient{steps: steps} }

func (s *scriptedClient) Do(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			return nil, err
		}
		_ = r.Body.Close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, sentRequest{method: r.Method, url: r.URL.String(), header: r.Header.Clone(), body: body})
	if len(s.steps) == 0 {
		return nil, errors.New("scriptedClient: script exhausted")
	}
	st := s.steps[0]
	s.steps = s.steps[1:]
	if st.err != nil {
		return nil, st.err
	}
	tb := &trackedBody{r: strings.NewReader(st.body)}
	s.bodies = append(s.bodies, tb)
	h := st.header
	if h == nil {
		h = http.Header{}
	}
	return &http.Response{StatusCode: st.status, Header: h.Clone(), Body: tb, Request: r}, nil
}

// requests returns what was sent so far.
func (s *scriptedClient) requests() []sentRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sentRequest(nil), s.sent...)
}

// requireAllClosed fails unless every response body handed out was closed.
func (s *scriptedClient) requireAllClosed(t *testing.T) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, b := range s.bodies {
		require.True(t, b.isClosed(), "response body %d not closed", i+1)
	}
}

// testService is a generic JSON service: codes in __type or X-Amzn-ErrorType,
// messages in "message", request IDs in x-amzn-RequestId, delays in
// x-amz-retry-after and Retry-After.
func testService() *Service {
	return &Service{
		Name:               "Test",
		PackageName:        "test",
		ErrorCodeHeaders:   []string{"X-Amzn-ErrorType"},
		ErrorCodeFields:    []string{"__type", "code"},
		ErrorMessageFields: []string{"message", "Message"},
		RequestIDHeaders:   []string{"x-amzn-RequestId"},
		ServerDelayHeaders: []string{engine.HeaderAmzRetryAfter, engine.HeaderRetryAfter},
		AttemptHeader:      "amz-sdk-request",
	}
}

// epoch is the fake clock's start.
var epoch = time.Unix(0, 0)

// fixedRand returns a Rand that always answers r.
func fixedRand(r float64) func() float64 { return func() float64 { return r } }

// harness bundles a client with its fake clock and scripted transport.
type harness struct {
	c     *Client
	clock *clocktest.Clock
	http  *scriptedClient
}

// newHarness builds a client for svc (nil: testService) over a scripted
// transport, with a fake clock at epoch and Rand fixed at r. edit, when not
// nil, changes the options before NewClient.
func newHarness(t testing.TB, svc *Service, r float64, sc *scriptedClient, edit func(*Options)) *harness {
	t.Helper()
	return newHarnessAt(t, epoch, svc, r, sc, edit)
}

// future is a fake-clock start an hour ahead of real time, for deadline
// tests: a real context whose deadline is built from the fake clock must
// not expire (in real time) while the test runs.
var future = time.Now().Add(time.Hour).Truncate(time.Second)

// newHarnessAt is newHarness with the fake clock starting at start.
func newHarnessAt(t testing.TB, start time.Time, svc *Service, r float64, sc *scriptedClient, edit func(*Options)) *harness {
	t.Helper()
	if svc == nil {
		svc = testService()
	}
	clock := clocktest.New(start)
	opts := Options{HTTPClient: sc, Clock: clock, Rand: fixedRand(r)}
	if edit != nil {
		edit(&opts)
	}
	c, err := NewClient(svc, "http://svc.test", opts)
	require.NoError(t, err)
	return &harness{c: c, clock: clock, http: sc}
}

// opPost is a POST operation that is not retry-safe; opGet is retry-safe.
var (
	opPost = &Operation{Name: "PutThing"}
	opGet  = &Operation{Name: "GetThing", RetrySafe: true}
)

// call makes one Do call for op with a small JSON body.
func (h *harness) call(ctx context.Context, op *Operation) (ResponseMetadata, error) {
	return h.c.Do(ctx, op, &Request{Method: http.MethodPost, Path: "/", Body: []byte(`{"k":1}`), ContentType: "application/json"}, nil, nil)
}

// ms is a shorthand for milliseconds.
func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

// nopBody is an empty response body that allocates nothing to read or close.
type nopBody struct{}

func (nopBody) Read([]byte) (int, error) { return 0, io.EOF }
func (nopBody) Close() error             { return nil }

// deadline returns a context whose deadline is d after the fake clock's
// now (the runtime compares ctx.Deadline() with Clock.Now()). The harness
// must start at future, so the real context does not expire meanwhile.
func (h *harness) deadline(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	require.True(t, h.clock.Now().After(time.Now()), "deadline tests need a harness started at future")
	ctx, cancel := context.WithDeadline(context.Background(), h.clock.Now().Add(d))
	t.Cleanup(cancel)
	return ctx
}
