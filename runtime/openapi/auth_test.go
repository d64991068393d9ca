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

// The query API key hook keeps the query as the request was built (a
// style's literal separators, the order of its pairs) and only drops the
// key's earlier values and adds its own; it used to re-encode the whole
// query with url.Values.Encode, which escaped the separators
// ("tags=a%2Cb,c" went out as "tags=a%2Cb%2Cc") and sorted the pairs.
func TestAPIKeyInQueryKeepsTheQueryAsBuilt(t *testing.T) {
	req, err := http.NewRequest(http.MethodGet, "http://svc.test/x?tags=a%2Cb,c&api_key=old&ids=1%202&pipes=p%7Cq|r&api%5Fkey=old2", nil)
	require.NoError(t, err)
	hook := APIKey(APIKeyInQuery, "api_key", "k 1/\uFDD0")
	require.NoError(t, hook(req, 1))
	require.Equal(t, "tags=a%2Cb,c&ids=1%202&pipes=p%7Cq|r&api_key=k+1%2F%EF%B7%90", req.URL.RawQuery)
	require.NoError(t, hook(req, 2)) // a second attempt's hook replaces, never repeats
	require.Equal(t, "tags=a%2Cb,c&ids=1%202&pipes=p%7Cq|r&api_key=k+1%2F%EF%B7%90", req.URL.RawQuery)
	req, err = http.NewRequest(http.MethodGet, "http://svc.test/x", nil)
	require.NoError(t, err)
	require.NoError(t, hook(req, 1))
	require.Equal(t, "http://svc.test/x?api_key=k+1%2F%EF%B7%90", req.URL.String())
}
