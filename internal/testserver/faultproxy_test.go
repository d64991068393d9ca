package testserver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
)

// TestFaultProxyRecordsEveryRequest sends two requests through a proxy with
// one injected fault: the first gets the fault, the second reaches the
// upstream, and the proxy records both bodies and headers in order.
func TestFaultProxyRecordsEveryRequest(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "upstream")
	}))
	t.Cleanup(upstream.Close)
	proxy := testserver.StartFaultProxy(t, upstream.URL)
	proxy.Inject(testserver.Fault{Status: http.StatusServiceUnavailable, Header: http.Header{"X-Fault": {"1"}}, Body: "fault"})

	type answer struct {
		status    int
		body, hdr string
	}
	var got []answer
	for i, body := range []string{"first", "second"} {
		req, err := http.NewRequest(http.MethodPost, proxy.URL+"/", strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("X-Attempt", string(rune('1'+i)))
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, resp.Body.Close())
		require.NoError(t, err)
		got = append(got, answer{resp.StatusCode, string(b), resp.Header.Get("X-Fault")})
	}
	require.Equal(t, []answer{{http.StatusServiceUnavailable, "fault", "1"}, {http.StatusOK, "upstream", ""}}, got)
	require.Equal(t, [][]byte{[]byte("first"), []byte("second")}, proxy.Bodies())
	require.Equal(t, [][]byte{[]byte("second")}, proxy.Forwarded())

	headers := proxy.Headers()
	require.Len(t, headers, 2)
	require.Equal(t, "1", headers[0].Get("X-Attempt"))
	require.Equal(t, "2", headers[1].Get("X-Attempt"))
	headers[0].Set("X-Attempt", "changed")
	require.Equal(t, "1", proxy.Headers()[0].Get("X-Attempt"), "Headers returns copies")
}

// TestFaultProxyDropsTheConnection: a Drop fault reads the whole request,
// records it, and closes the connection without an answer (the client sees
// EOF); the next request reaches the upstream.
func TestFaultProxyDropsTheConnection(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "upstream")
	}))
	t.Cleanup(upstream.Close)
	proxy := testserver.StartFaultProxy(t, upstream.URL)
	proxy.Inject(testserver.Fault{Drop: true})
	// A POST on a fresh connection: net/http does not retry it itself.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	_, err := client.Post(proxy.URL+"/", "text/plain", strings.NewReader("dropped"))
	require.ErrorIs(t, err, io.EOF)
	resp, err := client.Post(proxy.URL+"/", "text/plain", strings.NewReader("forwarded"))
	require.NoError(t, err)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, resp.Body.Close())
	require.NoError(t, err)
	require.Equal(t, "upstream", string(b))
	require.Equal(t, [][]byte{[]byte("dropped"), []byte("forwarded")}, proxy.Bodies())
	require.Equal(t, [][]byte{[]byte("forwarded")}, proxy.Forwarded())
}
