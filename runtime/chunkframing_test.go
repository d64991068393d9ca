package runtime

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// brokenChunkServer answers its first request 200 with a chunked body
// whose first chunk-size line is "zz" (not hex) and closes the connection;
// later requests get {"ok":true}.
func brokenChunkServer(t *testing.T) *recordingServer {
	return newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n > 1 {
			_, _ = io.WriteString(w, `{"ok":true}`)
			return
		}
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
		_ = buf.Flush()
		_ = conn.Close()
	})
}

// TestBrokenChunkFraming2xxRetriedOnRetrySafeOps: a 2xx body whose chunked
// framing breaks ("invalid byte in chunk length") is the connection failing
// mid-body, like a truncated body: a transient I/O failure (§4 rule 5),
// retried after 25 ms (full jitter, Rand 0.5) on a retry-safe operation
// (third new-user trial F4: it was non-retryable), and a
// *NotRetrySafeError on one that is not.
func TestBrokenChunkFraming2xxRetriedOnRetrySafeOps(t *testing.T) {
	srv := brokenChunkServer(t)
	c, clock := loopbackClient(t, testService(), srv.URL, func(o *Options) { o.Rand = fixedRand(0.5) })
	var out struct{ OK bool }
	md, err := c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, DecodeJSON(&out))
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
	require.True(t, out.OK)
	require.Equal(t, []time.Duration{25 * time.Millisecond}, clock.Sleeps())

	srv = brokenChunkServer(t)
	c, clock = loopbackClient(t, testService(), srv.URL, nil)
	md, err = c.Do(context.Background(), opPost, &Request{Method: "POST", Path: "/", Body: []byte(`{}`)}, nil, DecodeJSON(&out))
	var nrs *NotRetrySafeError
	require.ErrorAs(t, err, &nrs)
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	require.ErrorContains(t, err, "invalid byte in chunk length")
	require.Equal(t, 1, md.Attempts)
	require.Empty(t, clock.Sleeps())
}
