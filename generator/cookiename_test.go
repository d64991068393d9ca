package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInvalidCookieNamesSkipped: an apiKey scheme in a cookie, or a cookie
// parameter, whose name is not an RFC 6265 cookie-name (an RFC 9110
// token) is skipped with a located warning, never sent raw: `tok;en=v`
// is two cookies to the server (third new-user trial F6).
func TestInvalidCookieNamesSkipped(t *testing.T) {
	svc, diags, err := load(t, `openapi: 3.0.3
info: {title: T, version: "1"}
security: [{ckey: []}, {fine: []}]
paths:
  /a:
    get:
      operationId: getA
      parameters:
        - {name: "sess;id", in: cookie, schema: {type: string}}
        - {name: "a b", in: cookie, schema: {type: string}}
        - {name: sess_ok, in: cookie, schema: {type: string}}
      responses: {"204": {description: ok}}
components:
  securitySchemes:
    ckey: {type: apiKey, in: cookie, name: "tok;en"}
    fine: {type: apiKey, in: cookie, name: tok}
`)
	require.NoError(t, err)
	require.Equal(t, []string{
		`spec.yaml#/paths/~1a/get/parameters/0: cookie name "sess;id" is not an RFC 6265 cookie-name (a token: no ; = , space or quote); the parameter is skipped`,
		`spec.yaml#/paths/~1a/get/parameters/1: cookie name "a b" is not an RFC 6265 cookie-name (a token: no ; = , space or quote); the parameter is skipped`,
		`spec.yaml#/components/securitySchemes/ckey: cookie name "tok;en" is not an RFC 6265 cookie-name (a token: no ; = , space or quote); the scheme has no option`,
	}, diags)
	var names []string
	for _, p := range svc.Operations[0].Params {
		names = append(names, p.Name)
	}
	require.Equal(t, []string{"sess_ok"}, names)
	var schemes []string
	for _, a := range svc.Auth {
		schemes = append(schemes, a.Scheme)
	}
	require.Equal(t, []string{"fine"}, schemes)
}
