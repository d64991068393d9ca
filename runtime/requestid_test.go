package runtime

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRequestIDDefaultHeaders: a service that declares neither request-ID
// headers nor fields still finds X-Request-Id, then Request-Id, on errors
// and on success; a service that declares its own looks only there.
func TestRequestIDDefaultHeaders(t *testing.T) {
	tests := []struct {
		name   string
		svc    *Service
		header http.Header
		want   string
	}{
		{"X-Request-Id", &Service{Name: "Bare"}, http.Header{"X-Request-Id": {"req-1"}}, "req-1"},
		{"Request-Id", &Service{Name: "Bare"}, http.Header{"Request-Id": {"req-2"}}, "req-2"},
		{"X-Request-Id wins over Request-Id", &Service{Name: "Bare"}, http.Header{"Request-Id": {"req-2"}, "X-Request-Id": {"req-1"}}, "req-1"},
		{"declared headers replace the defaults", &Service{Name: "AWS", RequestIDHeaders: []string{"x-amzn-RequestId"}}, http.Header{"X-Request-Id": {"req-1"}}, ""},
		{"declared fields replace the defaults", &Service{Name: "Body", RequestIDFields: []string{"requestId"}}, http.Header{"X-Request-Id": {"req-1"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := script(step{status: 404, header: tt.header, body: `{}`}, step{status: 200, header: tt.header, body: `{}`})
			c, err := NewClient(tt.svc, "http://api.test", Options{HTTPClient: sc, Rand: fixedRand(0)})
			require.NoError(t, err)
			_, err = c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
			var api *APIError
			require.ErrorAs(t, err, &api)
			require.Equal(t, tt.want, api.RequestID, "error response")
			md, err := c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
			require.NoError(t, err)
			require.Equal(t, tt.want, md.RequestID, "successful response")
		})
	}
}
