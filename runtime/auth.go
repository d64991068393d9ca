package runtime

import "net/http"

// BeforeAttemptFunc is the type of [Options.BeforeAttempt].
type BeforeAttemptFunc = func(req *http.Request, attempt int) error

// ChainBeforeAttempt returns a hook that calls first and then next (either
// may be nil) and stops at the first error. Generated authentication options
// use it to add credentials without dropping a hook already set:
// `o.BeforeAttempt = ChainBeforeAttempt(o.BeforeAttempt, BasicAuth(u, p))`.
func ChainBeforeAttempt(first, next BeforeAttemptFunc) BeforeAttemptFunc {
	switch {
	case first == nil:
		return next
	case next == nil:
		return first
	}
	return func(req *http.Request, attempt int) error {
		if err := first(req, attempt); err != nil {
			return err
		}
		return next(req, attempt)
	}
}

// BasicAuth returns a hook that sets "Authorization: Basic base64(user:password)"
// on every attempt (RFC 7617; OpenAPI securitySchemes type http, scheme
// basic).
func BasicAuth(user, password string) BeforeAttemptFunc {
	return func(req *http.Request, _ int) error {
		req.SetBasicAuth(user, password)
		return nil
	}
}

// BearerToken returns a hook that sets "Authorization: Bearer TOKEN" on every
// attempt (RFC 6750; OpenAPI securitySchemes type http, scheme bearer, and
// OAuth 2.0 / OpenID Connect access tokens).
func BearerToken(token string) BeforeAttemptFunc {
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

// APIKey returns a hook that sends key as name in the given location on
// every attempt: a header set to key, a query parameter set to key
// (replacing any value), or a cookie "name=key" (url.QueryEscape'd) added to
// the Cookie header. An unknown location sends it as a header.
func APIKey(in, name, key string) BeforeAttemptFunc {
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
