package runtime

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// A request path that would leave the endpoint (another host or port) or
// name a parent resource is refused before the first attempt: the
// endpoint's listener sees nothing.
func TestDoRefusesPathsLeavingTheEndpoint(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	c, err := NewClient(&Service{Name: "svc"}, srv.URL, Options{})
	require.NoError(t, err)
	for path, reason := range map[string]string{
		"@evil.example/steal": `path must start with "/"`,
		":1/x":                `path must start with "/"`,
		".evil.example/x":     `path must start with "/"`,
		"/pets/..":            DotSegmentPathParameter,
		"/pets/../admin":      DotSegmentPathParameter,
		"/pets/./x":           DotSegmentPathParameter,
		"/pets/%2e%2E":        DotSegmentPathParameter,
		"/pets/%2E":           DotSegmentPathParameter,
	} {
		_, err := c.Do(context.Background(), &Operation{Name: "Op"}, &Request{Method: "GET", Path: path}, nil, nil)
		var ipe *InvalidParamsError
		require.True(t, errors.As(err, &ipe), "%s: %v", path, err)
		require.Equal(t, "svc: Op: 1 validation error(s) found. - "+reason+", Request.Path.", err.Error(), path)
	}
	require.Zero(t, hits.Load())
	for _, path := range []string{"", "/", "/pets/.x", "/pets/a..b", "/v1.2/x", "/%2e%2e%2e", "/a%2Fb"} {
		_, err := c.Do(context.Background(), &Operation{Name: "Op"}, &Request{Method: "GET", Path: path}, nil, nil)
		require.NoError(t, err, path)
	}
	require.EqualValues(t, 7, hits.Load())
}
