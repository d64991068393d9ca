package runtime

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestComplete2xxBodyOfIncompleteJSONIsADecodeError: a body that arrives
// whole (Content-Length 8, 8 bytes) but ends inside a JSON value is the
// server's answer, not a broken transfer: a *DecodeError after 1 attempt on
// a retry-safe operation, no backoff, no retry quota spent (README: a 2xx
// body that does not decode is returned at once). Only a body shorter than
// its Content-Length is a transient I/O failure (TestTruncated2xxRetriedOnRetrySafeOps).
func TestComplete2xxBodyOfIncompleteJSONIsADecodeError(t *testing.T) {
	srv := newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		w.Header().Set("Content-Length", "8")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `{"name":`)
	})
	c, clock := loopbackClient(t, testService(), srv.URL, func(o *Options) { o.Rand = fixedRand(0.5) })
	var out struct{ Name string }
	md, err := c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, DecodeJSON(&out))
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	require.Equal(t, 1, md.Attempts, "%v", err)
	require.False(t, errors.Is(err, io.ErrUnexpectedEOF), "not the transport's truncated body")
	require.Equal(t, "test: GetThing: decoding the HTTP 200 response: the body ends inside a JSON value (unexpected EOF)", err.Error())
	require.Equal(t, 1, md.Attempts)
	require.Empty(t, clock.Sleeps())
	require.Equal(t, 500, c.RetryQuota().Balance())
}
