package openapi

import "net/http"

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
// (replacing any value), or a cookie "name=key" (url.QueryEscape'd) added to
// the Cookie header. An unknown location sends it as a header.
func APIKey(in, name, key string) func(*http.Request, int) error {
	return func(req *http.Request, _ int) error {
		switch in {
		case APIKeyInQuery:
			q := req.URL.Query()
			q.Set(name, key)
			req.URL.RawQuery = q.Encode()
		case APIKeyInCookie:
			AddCookie(req.Header, name, key, false)
		default:
			req.Header.Set(name, key)
		}
		return nil
	}
}
