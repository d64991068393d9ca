package openapi

import (
	"encoding/base64"
	"net/http"
	"net/url"
)

// Credential kinds (Credential.Kind), after the security scheme they serve
// (OpenAPI 3.0 §4.7.27, Security Scheme Object).
const (
	// CredentialBasic is HTTP basic authentication (RFC 7617).
	CredentialBasic = "basic"
	// CredentialBearer is a bearer token (RFC 6750): HTTP bearer, OAuth 2.0
	// and OpenID Connect schemes.
	CredentialBearer = "bearer"
	// CredentialAPIKey is an API key in a header, the query or a cookie.
	CredentialAPIKey = "apiKey"
)

// Credential is what a client option gives for one security scheme.
type Credential struct {
	// Kind is CredentialBasic, CredentialBearer or CredentialAPIKey.
	Kind string
	// In (APIKeyInHeader, APIKeyInQuery, APIKeyInCookie) and Name locate an
	// API key ("header", "X-Api-Key").
	In, Name string
	// User and Password are basic credentials; Token is a bearer token or an
	// API key.
	User, Password, Token string
}

// Credentials are a client's credentials keyed by security scheme name (the
// key under components/securitySchemes). A generated operation sends only
// the ones its security requirement names (Credentials.Apply).
type Credentials map[string]Credential

// With returns a copy of c holding cr for scheme. c itself is never
// changed, so a per-call option cannot alter the client's credentials.
func (c Credentials) With(scheme string, cr Credential) Credentials {
	out := make(Credentials, len(c)+1)
	for k, v := range c {
		out[k] = v
	}
	out[scheme] = cr
	return out
}

// Apply adds to *h and *q (each allocated when nil and written to) the
// credentials of one alternative of an operation's security requirement
// (OpenAPI 3.0 §4.7.30, Security Requirement Object; the operation's own,
// else the root's): the first non-empty alternative, in spec order, whose
// schemes all have a credential in c. An empty alternative ({}: anonymous
// access) or an empty requirement (security: []) sends nothing; no
// credential of a scheme the chosen alternative does not name is ever sent.
// It reports whether credentials were added.
func (c Credentials) Apply(h *http.Header, q *url.Values, security [][]string) bool {
	for _, alt := range security {
		if len(alt) == 0 || !c.hasAll(alt) {
			continue
		}
		for _, scheme := range alt {
			c[scheme].add(h, q)
		}
		return true
	}
	return false
}

func (c Credentials) hasAll(schemes []string) bool {
	for _, s := range schemes {
		if _, ok := c[s]; !ok {
			return false
		}
	}
	return true
}

// add sends cr as its Kind says.
func (cr Credential) add(h *http.Header, q *url.Values) {
	if *h == nil {
		*h = http.Header{}
	}
	switch cr.Kind {
	case CredentialBasic:
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(cr.User+":"+cr.Password)))
	case CredentialBearer:
		h.Set("Authorization", "Bearer "+cr.Token)
	default:
		switch cr.In {
		case APIKeyInQuery:
			if *q == nil {
				*q = url.Values{}
			}
			q.Set(QuoteSeparatorMarks(cr.Name), QuoteSeparatorMarks(cr.Token))
		case APIKeyInCookie:
			AddCookie(*h, cr.Name, cr.Token, false)
		default:
			h.Set(cr.Name, cr.Token)
		}
	}
}
