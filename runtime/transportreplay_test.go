package runtime

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// net/http itself sends a request again, on a new connection, when a
// reused keep-alive connection dies before the response and the request is
// replayable (http.Request.isReplayable: GET, HEAD, OPTIONS, TRACE, or a
// header Idempotency-Key or X-Idempotency-Key, with no body or a GetBody).
// The engine sees one attempt; the server sees two requests with the same
// attempt header (new-user trial item 13). This test pins that behaviour,
// which README documents ("Transport replays"): no clean way to turn it
// off exists (see the report), so a change in Go shows here. Over a real
// socket on purpose: the replay is net/http's.
func TestTransportReplaysARequestOnADeadReusedConnection(t *testing.T) {
	srv := newRecordingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		_, _ = io.Copy(io.Discard, r.Body)
		if n == 2 { // the second call's request, on the kept-alive connection
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close()
			}
		}
	})
	svc := testService()
	c, _ := loopbackClient(t, svc, srv.URL, func(o *Options) { o.MaxAttempts = 3 })
	_, err := c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/warm"}, nil, nil)
	require.NoError(t, err)
	op := &Operation{Name: "CreateThing", RetrySafe: true, IdempotencyHeader: "Idempotency-Key"}
	md, err := c.Do(context.Background(), op, &Request{Method: "POST", Path: "/things", Body: []byte(`{}`), Header: http.Header{"Idempotency-Key": {"mine"}}}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 1, md.Attempts, "the engine saw one attempt")
	seen := srv.seen()
	require.Len(t, seen, 3, "the server saw two requests for it")
	for _, h := range seen[1:] {
		require.Equal(t, "mine", h.Get("Idempotency-Key"))
		require.Equal(t, "attempt=1; max=3", h.Get("Amz-Sdk-Request"))
	}
}
