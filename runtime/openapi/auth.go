package openapi

import (
	"net/http"
	"net/url"
	"strings"
)

// BasicAuth returns a runtime.Options.BeforeAttempt hook that sets "Authorization: Basic base64(user:password)"
// on every attempt (RFC 7617; OpenAPI securitySchemes type http, scheme
// basic).
func BasicAuth(user, password string) func(*http.Request, int) error {
	return func(req *http.Request, _ int) error {
		req.SetBasicAuth(user, password)
		return nil
	}
}

// BearerToken returns a runtime.Options.BeforeAttempt hook that sets "Authorization: Bearer TOKEN" on every
// attempt (RFC 6750; OpenAPI securitySchemes type http, scheme bearer, and
// OAuth 2.0 / OpenID Connect access tokens).
func BearerToken(token string) func(*http.Request, int) error {
	return func(req *http.Request, _ int) error {
		req.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

// API key locations (OpenAPI securitySchemes type apiKey, field "in").
const (
	APIKeyInHeader = "header"
	APIKeyInQuery  = "query"
	APIKeyInCookie = "cookie"
)

// APIKey returns a runtime.Options.BeforeAttempt hook that sends key as name in the given location on
// every attempt: a header set to key, a query parameter set to key
// (replacing any value; the rest of the query is kept as it was built, its
// pairs' order and a style's literal separators included), or a cookie "name=key" (url.QueryEscape'd) added to
// the Cookie header. An unknown location sends it as a header.
func APIKey(in, name, key string) func(*http.Request, int) error {
	return func(req *http.Request, _ int) error {
		switch in {
		case APIKeyInQuery:
			req.URL.RawQuery = setRawQuery(req.URL.RawQuery, name, key)
		case APIKeyInCookie:
			AddCookie(req.Header, name, key, false)
		default:
			req.Header.Set(name, key)
		}
		return nil
	}
}

// setRawQuery returns the encoded query raw without the pairs whose
// (unescaped) key is name, then "name=value" query-escaped at its end. The
// other pairs are kept byte for byte: re-encoding them with url.Values
// would escape the separators a style keeps literal ("a%2Cb,c") and sort
// them.
func setRawQuery(raw, name, value string) string {
	var b strings.Builder
	for pair := range strings.SplitSeq(raw, "&") {
		k, _, _ := strings.Cut(pair, "=")
		if uk, err := url.QueryUnescape(k); pair == "" || err == nil && uk == name || err != nil && k == name {
			continue
		}
		b.WriteString(pair)
		b.WriteByte('&')
	}
	b.WriteString(url.QueryEscape(name))
	b.WriteByte('=')
	b.WriteString(url.QueryEscape(value))
	return b.String()
}
