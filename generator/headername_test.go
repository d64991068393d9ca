package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInvalidHeaderNamesRefused: a header parameter or apiKey scheme whose
// name no HTTP request can carry (not an RFC 9110 token) is refused at
// generation with a located error (second new-user trial F14: the client
// generated and every call failed at run time).
func TestInvalidHeaderNamesRefused(t *testing.T) {
	_, diags, err := load(t, `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      security: [{K: []}]
      parameters:
        - {name: "X-Evil\r\nInjected: 1", in: header, schema: {type: string}}
        - {name: X-Fine, in: header, schema: {type: string}}
      responses: {"204": {description: ok}}
components:
  securitySchemes:
    K: {type: apiKey, in: header, name: "X-Key\"`+"`"+`"}
`)
	require.Error(t, err)
	require.Equal(t, []string{
		`spec.yaml#/paths/~1a/get/parameters/0: header name "X-Evil\r\nInjected: 1" is not an HTTP header name (RFC 9110 token); no request could carry it`,
		"spec.yaml#/components/securitySchemes/K: header name \"X-Key\\\"`\" is not an HTTP header name (RFC 9110 token); no request could carry it",
	}, diags)
}
