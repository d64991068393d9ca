package openapi

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAuthHooks(t *testing.T) {
	for _, tc := range []struct {
		name       string
		hook       func(*http.Request, int) error
		wantHeader http.Header
		wantURL    string
	}{
		{"basic auth sets Authorization: Basic base64(user:password)", BasicAuth("AC123", "secret"),
			http.Header{"Authorization": {"Basic QUMxMjM6c2VjcmV0"}}, "http://svc.test/?a=1"},
		{"bearer token sets Authorization: Bearer", BearerToken("tok"),
			http.Header{"Authorization": {"Bearer tok"}}, "http://svc.test/?a=1"},
		{"API key in a header", APIKey(APIKeyInHeader, "X-Api-Key", "k1"),
			http.Header{"X-Api-Key": {"k1"}}, "http://svc.test/?a=1"},
		{"API key in the query replaces any value", APIKey(APIKeyInQuery, "api_key", "k 1"),
			http.Header{}, "http://svc.test/?a=1&api_key=k+1"},
		{"API key in a cookie", APIKey(APIKeyInCookie, "key", "k;1"),
			http.Header{"Cookie": {"key=k%3B1"}}, "http://svc.test/?a=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, "http://svc.test/?a=1", nil)
			require.NoError(t, err)
			require.NoError(t, tc.hook(req, 1))
			require.Equal(t, tc.wantHeader, req.Header)
			require.Equal(t, tc.wantURL, req.URL.String())
		})
	}
}
