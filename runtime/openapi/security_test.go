package openapi

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCredentialsApplyOnlyTheRequirementsSchemes(t *testing.T) {
	var none Credentials
	creds := none.With("basic", Credential{Kind: CredentialBasic, User: "AC123", Password: "secret"}).
		With("key", Credential{Kind: CredentialAPIKey, In: APIKeyInQuery, Name: "api_key", Token: "k 1"}).
		With("cookie", Credential{Kind: CredentialAPIKey, In: APIKeyInCookie, Name: "c", Token: "v;1"})
	require.Nil(t, none, "With never changes its receiver")
	for _, tc := range []struct {
		name     string
		security [][]string
		header   http.Header
		query    url.Values
	}{
		{"no requirement sends nothing", nil, nil, nil},
		{"security: [] sends nothing", [][]string{}, nil, nil},
		{"anonymous first still prefers nothing over unnamed schemes", [][]string{{}, {"bearer"}}, nil, nil},
		{"the first alternative the client was given", [][]string{{"bearer"}, {"basic"}, {"key"}},
			http.Header{"Authorization": {"Basic QUMxMjM6c2VjcmV0"}}, nil},
		{"all schemes of an alternative", [][]string{{"cookie", "key"}},
			http.Header{"Cookie": {"c=v%3B1"}}, url.Values{"api_key": {"k 1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var h http.Header
			var q url.Values
			creds.Apply(&h, &q, tc.security)
			require.Equal(t, tc.header, h)
			require.Equal(t, tc.query, q)
		})
	}
}
