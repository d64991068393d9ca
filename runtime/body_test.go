package runtime

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// onceReader is a reader that fails the test when read after EOF was
// reached (a reader body cannot be rewound).
type onceReader struct {
	r    io.Reader
	done bool
	t    *testing.T
}

func (o *onceReader) Read(p []byte) (int, error) {
	if o.done {
		o.t.Error("reader body read again after EOF")
	}
	n, err := o.r.Read(p)
	if errors.Is(err, io.EOF) {
		o.done = true
	}
	return n, err
}

func TestBodyReader(t *testing.T) {
	small := strings.Repeat("a", 100)
	big := strings.Repeat("b", MaxReplayBody+1)
	for _, tc := range []struct {
		name         string
		body         string
		wantAttempts int
		wantErr      bool
	}{
		{"a reader body up to MaxReplayBody is buffered and replayed on retries", small, 2, false},
		{"a reader body of exactly MaxReplayBody is still replayed", big[:MaxReplayBody], 2, false},
		{"a reader body above MaxReplayBody is sent once and not retried", big, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil, 0, script(status(503), status(200)), nil)
			req := &Request{Method: http.MethodPut, Path: "/f", BodyReader: &onceReader{r: strings.NewReader(tc.body), t: t}, ContentType: "application/octet-stream"}
			md, err := h.c.Do(context.Background(), opGet, req, nil, nil)
			require.Equal(t, tc.wantAttempts, md.Attempts)
			if tc.wantErr {
				var apiErr *APIError
				require.ErrorAs(t, err, &apiErr)
				require.Equal(t, 503, apiErr.HTTPStatusCode)
				// Not "max attempts": the body cannot be replayed.
				var nrs *NotRetrySafeError
				require.ErrorAs(t, err, &nrs)
				require.Equal(t, "not retried after 1 attempt: the request body is longer than MaxReplayBody (8 MiB) and cannot be replayed: api error (HTTP 503)", nrs.Error())
				var mae *MaxAttemptsError
				require.False(t, errors.As(err, &mae))
			} else {
				require.NoError(t, err)
			}
			sent := h.http.requests()
			require.Len(t, sent, tc.wantAttempts)
			for _, s := range sent {
				require.True(t, bytes.Equal([]byte(tc.body), s.body), "every attempt sends the whole body")
				require.Equal(t, "application/octet-stream", s.header.Get("Content-Type"))
			}
		})
	}
}

func TestDecodeBytes(t *testing.T) {
	var got []byte
	require.NoError(t, DecodeBytes(&got)(&http.Response{Body: io.NopCloser(strings.NewReader("raw\x00"))}))
	require.Equal(t, []byte("raw\x00"), got)
}

func TestDecodeJSON(t *testing.T) {
	resp := func(body string) *http.Response { return &http.Response{Body: io.NopCloser(strings.NewReader(body))} }
	var v struct{ A int }
	require.NoError(t, DecodeJSON(&v)(resp(`{"A":7}`)))
	require.Equal(t, 7, v.A)
	require.NoError(t, DecodeJSON(&v)(resp("")), "an empty body leaves v as it is")
	require.Equal(t, 7, v.A)
	require.EqualError(t, DecodeJSON(&v)(resp(`{"A":`)), "unexpected EOF")
}

// stalledReader returns prefix, then blocks until Close (or the test's end).
type stalledReader struct {
	prefix io.Reader
	closed chan struct{}
	once   sync.Once
}

func newStalledReader(t *testing.T, prefix int) *stalledReader {
	r := &stalledReader{prefix: io.LimitReader(zeros{}, int64(prefix)), closed: make(chan struct{})}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

func (r *stalledReader) Read(p []byte) (int, error) {
	if n, err := r.prefix.Read(p); err != io.EOF {
		return n, err
	}
	<-r.closed
	return 0, errors.New("stalled reader closed")
}

func (r *stalledReader) Close() error { r.once.Do(func() { close(r.closed) }); return nil }

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestStalledRequestBody: a request body reader that blocks ends the
// attempt at its deadline (Options.AttemptTimeout) or the call's context,
// whether it stalls before MaxReplayBody (while the runtime buffers it) or
// after (while the transport streams it). Over a real socket, with real
// time: the call returns within AttemptTimeout + 100 ms.
func TestStalledRequestBody(t *testing.T) {
	const timeout = 200 * time.Millisecond
	for _, tt := range []struct {
		name    string
		prefix  int
		attempt bool // the attempt timeout, else the call's context
	}{
		{"stalls at once, attempt timeout", 0, true},
		{"stalls at once, call deadline", 0, false},
		{"stalls after MaxReplayBody, attempt timeout", MaxReplayBody + 1, true},
		{"stalls after MaxReplayBody, call deadline", MaxReplayBody + 1, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecordingServer(t, func(w http.ResponseWriter, r *http.Request, _ int) { _, _ = io.Copy(io.Discard, r.Body) })
			c, _ := loopbackClient(t, testService(), srv.URL, func(o *Options) {
				o.Clock = nil // the attempt deadline is a real one
				if tt.attempt {
					o.AttemptTimeout = timeout
				}
			})
			ctx := context.Background()
			if !tt.attempt {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, timeout)
				defer cancel()
			}
			start := time.Now()
			_, err := c.Do(ctx, opGet, &Request{Method: http.MethodPut, Path: "/f", BodyReader: newStalledReader(t, tt.prefix)}, nil, nil)
			took := time.Since(start)
			require.Error(t, err)
			require.ErrorIs(t, err, context.DeadlineExceeded)
			require.Less(t, took, timeout+100*time.Millisecond, "returned after %v", took)
		})
	}
}
