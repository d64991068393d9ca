package runtime

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// An endpoint whose own path holds a dot segment is refused where the
// endpoint is checked — NewClient for the client's, before the first
// attempt for a call's Options.Endpoint — as a request path with one is
// (new-user trial item 11: New(srv.URL+"/../x") sent GET /../x/items/i).
func TestEndpointWithADotSegmentIsRefused(t *testing.T) {
	for _, ep := range []string{"http://svc.test/../x", "http://svc.test/a/./b", "http://svc.test/%2e%2E/x", "http://svc.test/.."} {
		_, err := NewClient(testService(), ep, Options{})
		require.EqualError(t, err, `endpoint "`+ep+`": its path holds a dot segment ("." or ".."), which a server or proxy may resolve to another resource`)
	}
	for _, ep := range []string{"http://svc.test/v1.2/x", "http://svc.test/...", "http://svc.test/.well-known"} {
		_, err := NewClient(testService(), ep, Options{})
		require.NoError(t, err, ep)
	}
	h := newHarness(t, nil, 0.5, script(), nil)
	_, err := h.c.Do(t.Context(), opGet, &Request{Method: "GET", Path: "/x"}, &Options{Endpoint: "http://svc.test/../y"}, nil)
	require.EqualError(t, err, `test: GetThing: 1 validation error(s) found. - endpoint "http://svc.test/../y": its path holds a dot segment ("." or ".."), which a server or proxy may resolve to another resource, Options.Endpoint.`)
	require.Empty(t, h.http.requests())
}
