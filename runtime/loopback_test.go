package runtime

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// These tests run over a real 127.0.0.1 socket on purpose (issue 9): the
// faults they pin down — shared header maps, timeouts that look like a
// cancelled context — only show on a real wire. Delays between attempts run
// on a fake clock; only the socket timeouts take real time.

// recordingServer answers with handle and records every request's header.
type recordingServer struct {
	*httptest.Server
	mu      sync.Mutex
	headers []http.Header
}

func newRecordingServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, n int)) *recordingServer {
	t.Helper()
	s := &recordingServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.headers = append(s.headers, r.Header.Clone())
		n := len(s.headers)
		s.mu.Unlock()
		handle(w, r, n)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *recordingServer) seen() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.headers...)
}

// loopbackClient returns a client of svc at s's URL over a fresh transport,
// with a fake clock for the delays between attempts.
func loopbackClient(t *testing.T, svc *Service, url string, edit func(*Options)) (*Client, *clocktest.Clock) {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	clock := clocktest.New(epoch)
	opts := Options{HTTPClient: &http.Client{Transport: tr}, Clock: clock, Rand: fixedRand(0)}
	if edit != nil {
		edit(&opts)
	}
	c, err := NewClient(svc, url, opts)
	require.NoError(t, err)
	return c, clock
}

func TestLoopbackHookHeaderOncePerAttempt(t *testing.T) {
	// Three attempts (500, 500, 200); the hook adds X-Trace: n on attempt
	// n. Each attempt carries exactly one X-Trace value and one attempt
	// header; the caller's request header is never written.
	srv := newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n < 3 {
			w.WriteHeader(500)
		}
	})
	c, _ := loopbackClient(t, testService(), srv.URL, func(o *Options) {
		o.MaxAttempts = 3
		o.BeforeAttempt = func(r *http.Request, attempt int) error {
			r.Header.Add("X-Trace", strconv.Itoa(attempt))
			return nil
		}
	})
	req := &Request{Method: "POST", Path: "/", Header: http.Header{"X-Amz-Target": {"Svc.Op"}}, Body: []byte(`{}`), ContentType: "application/json"}
	md, err := c.Do(context.Background(), opGet, req, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 3, md.Attempts)
	seen := srv.seen()
	require.Len(t, seen, 3)
	for i, h := range seen {
		require.Equal(t, []string{strconv.Itoa(i + 1)}, h.Values("X-Trace"), "attempt %d", i+1)
		require.Equal(t, []string{"attempt=" + strconv.Itoa(i+1) + "; max=3"}, h.Values("Amz-Sdk-Request"))
		require.Equal(t, []string{"Svc.Op"}, h.Values("X-Amz-Target"))
		require.Equal(t, []string{"application/json"}, h.Values("Content-Type"))
	}
	require.Equal(t, http.Header{"X-Amz-Target": {"Svc.Op"}}, req.Header, "the caller's header is unchanged")
}

func TestLoopbackCookieAPIKeyNotRepeated(t *testing.T) {
	// An API key in a cookie, added by a hook as the generated WithAPIKey
	// option does (AddCookie): attempt 3 sends "k=v", not "k=v; k=v; k=v".
	srv := newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n < 3 {
			w.WriteHeader(503)
		}
	})
	c, _ := loopbackClient(t, testService(), srv.URL, func(o *Options) {
		o.MaxAttempts = 3
		o.BeforeAttempt = func(r *http.Request, _ int) error {
			r.AddCookie(&http.Cookie{Name: "k", Value: "v"})
			return nil
		}
	})
	_, err := c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
	require.NoError(t, err)
	seen := srv.seen()
	require.Len(t, seen, 3)
	for i, h := range seen {
		require.Equal(t, []string{"k=v"}, h.Values("Cookie"), "attempt %d", i+1)
	}
}

// slowHandler answers after d, or when the client goes away.
func slowHandler(d time.Duration) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, r *http.Request, _ int) {
		_, _ = io.Copy(io.Discard, r.Body) // so the server notices the client leave
		select {
		case <-time.After(d):
		case <-r.Context().Done():
		}
	}
}

func TestLoopbackAttemptTimeoutRetries(t *testing.T) {
	// A server slower than AttemptTimeout (100 ms) under a 5 s call
	// context: every attempt times out and is a transient I/O failure
	// (retry cost 14 each), so the call makes 3 attempts and returns a
	// *MaxAttemptsError, not a context error.
	srv := newRecordingServer(t, slowHandler(2*time.Second))
	c, clock := loopbackClient(t, testService(), srv.URL, func(o *Options) {
		o.MaxAttempts = 3
		o.AttemptTimeout = 100 * time.Millisecond
		o.Rand = fixedRand(0.5)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	md, err := c.Do(ctx, opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
	var maxErr *MaxAttemptsError
	require.ErrorAs(t, err, &maxErr)
	require.Equal(t, 3, maxErr.Attempts)
	require.Equal(t, 3, md.Attempts)
	require.Len(t, srv.seen(), 3)
	require.ErrorIs(t, err, context.DeadlineExceeded, "the attempt's own deadline, inside")
	require.NoError(t, ctx.Err())
	require.Equal(t, 500-2*engine.RetryCostTimeout, c.RetryQuota().Balance())
	require.Equal(t, []time.Duration{25 * time.Millisecond, 50 * time.Millisecond}, clock.Sleeps(), "full jitter of 50 ms × 2^n with Rand 0.5")
}

func TestLoopbackHTTPClientTimeoutRetries(t *testing.T) {
	// http.Client.Timeout (150 ms) and a Transport's ResponseHeaderTimeout
	// (150 ms) on a slow response: retried like any timeout (aws-sdk-go-v2
	// makes 2 attempts of 2 here too), each paying the timeout cost 14.
	for name, hc := range map[string]func(*http.Transport) *http.Client{
		"http.Client.Timeout": func(tr *http.Transport) *http.Client {
			return &http.Client{Timeout: 150 * time.Millisecond, Transport: tr}
		},
		"ResponseHeaderTimeout": func(tr *http.Transport) *http.Client {
			tr.ResponseHeaderTimeout = 150 * time.Millisecond
			return &http.Client{Transport: tr}
		},
	} {
		t.Run(name, func(t *testing.T) {
			srv := newRecordingServer(t, slowHandler(2*time.Second))
			tr := &http.Transport{}
			t.Cleanup(tr.CloseIdleConnections)
			c, _ := loopbackClient(t, testService(), srv.URL, func(o *Options) {
				o.MaxAttempts = 2
				o.HTTPClient = hc(tr)
			})
			md, err := c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
			var maxErr *MaxAttemptsError
			require.ErrorAs(t, err, &maxErr)
			require.Equal(t, 2, md.Attempts)
			require.Len(t, srv.seen(), 2)
			require.Equal(t, 500-engine.RetryCostTimeout, c.RetryQuota().Balance())
		})
	}
}

func TestLoopbackTimeoutOnNonRetrySafeOperationSaysWhy(t *testing.T) {
	// The same timeout on a POST that is not retry-safe: the request was
	// written, so it is returned after 1 attempt, saying why.
	srv := newRecordingServer(t, slowHandler(2*time.Second))
	c, _ := loopbackClient(t, testService(), srv.URL, func(o *Options) { o.AttemptTimeout = 100 * time.Millisecond })
	md, err := c.Do(context.Background(), opPost, &Request{Method: "POST", Path: "/", Body: []byte(`{}`)}, nil, nil)
	var nrs *NotRetrySafeError
	require.ErrorAs(t, err, &nrs)
	require.Equal(t, 1, md.Attempts)
	require.Contains(t, err.Error(), "not retry-safe")
}

func TestLoopbackCallContextEndingIsNotRetried(t *testing.T) {
	// The call's own context ends (200 ms) while the attempt waits: no
	// retry, whatever AttemptTimeout says.
	srv := newRecordingServer(t, slowHandler(2*time.Second))
	c, _ := loopbackClient(t, testService(), srv.URL, func(o *Options) { o.AttemptTimeout = time.Second })
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	md, err := c.Do(ctx, opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	var maxErr *MaxAttemptsError
	require.False(t, errors.As(err, &maxErr))
	require.Equal(t, 1, md.Attempts)
}

func TestLoopbackBrickHeaderWindowIsCapped(t *testing.T) {
	// The same whatever the overflow: TimeLeft at the last ms a Duration
	// holds, one ms past it (9,223,372,036,855 ms), past int64, and on the
	// second line of a repeated header.
	for _, lines := range [][]string{
		{"Remain:0,Limit:1,Time:1000,TimeLeft:9223372036854"},
		{"Remain:0,Limit:1,Time:1000,TimeLeft:9223372036855"},
		{"Remain:0,Limit:1,Time:1000,TimeLeft:99999999999999999999"},
		{"Remain:0,Limit:1", "Time:1000,TimeLeft:9223372036855"},
	} {
		t.Run(strings.Join(lines, "|"), func(t *testing.T) { testBrickHeaderWindowIsCapped(t, lines) })
	}
}

func testBrickHeaderWindowIsCapped(t *testing.T, lines []string) {
	// One "TimeLeft:9223372036854" (292 years) header: the window is
	// clamped to MaxThrottleWindow (10 min by default), not discarded and
	// not kept until the year 2318. A call 7 min later is still refused
	// without sending (3 min left, above the max delay of 120 s); a call
	// at 9 min waits the 60 s left, then is sent.
	srv := newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n == 1 {
			for _, l := range lines {
				w.Header().Add(engine.DefaultUserHeader, l)
			}
			w.Header().Set("X-Amzn-ErrorType", "Throttling.User")
			w.WriteHeader(400)
		}
	})
	svc := aliyunService()
	c, clock := loopbackClient(t, svc, srv.URL, nil)
	clock.Set(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	start := clock.Now()
	_, err := c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
	var twe *ThrottleWindowError
	require.ErrorAs(t, err, &twe)
	require.Equal(t, start.Add(engine.DefaultMaxThrottleWindow), twe.Until)
	clock.Advance(7 * time.Minute)
	_, err = c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
	require.ErrorAs(t, err, &twe)
	require.Equal(t, start.Add(10*time.Minute), twe.Until)
	clock.Advance(2 * time.Minute)
	_, err = c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, []time.Duration{time.Minute}, clock.Sleeps())
	seen := srv.seen()
	require.Len(t, seen, 2)
	require.Equal(t, "enable", seen[0].Get("x-sdk-throttling-control"), "sent while throttle control is on")
}

func TestInvocationIDOnePerCall(t *testing.T) {
	// amz-sdk-invocation-id: one UUID v4 per call, the same on every
	// attempt of that call, a new one for the next call.
	srv := newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n%2 == 1 {
			w.WriteHeader(503)
		}
	})
	svc := testService()
	svc.InvocationIDHeader = "amz-sdk-invocation-id"
	c, _ := loopbackClient(t, svc, srv.URL, nil)
	for range 2 {
		_, err := c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
		require.NoError(t, err)
	}
	seen := srv.seen()
	require.Len(t, seen, 4)
	ids := make([]string, len(seen))
	for i, h := range seen {
		require.Len(t, h.Values("Amz-Sdk-Invocation-Id"), 1)
		ids[i] = h.Get("Amz-Sdk-Invocation-Id")
		require.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, ids[i])
	}
	require.Equal(t, ids[0], ids[1], "call 1: one id on both attempts")
	require.Equal(t, ids[2], ids[3], "call 2: one id on both attempts")
	require.NotEqual(t, ids[0], ids[2], "a new id per call")
}
