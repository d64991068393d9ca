package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMultipartSpecNamesCannotInjectPartHeaders: a multipart property whose
// name holds a control byte, an Encoding Object contentType or part header
// that is not a MIME header line are skipped at generation with a located
// warning, never written raw into a part header (third new-user trial F1,
// /tmp/newuser3/hostile/mp.yaml).
func TestMultipartSpecNamesCannotInjectPartHeaders(t *testing.T) {
	svc, diags, err := load(t, `openapi: 3.0.3
info: {title: M, version: "1"}
paths:
  /up:
    post:
      operationId: upload
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              properties:
                "na\"me\r\nX-Injected: 1": {type: string}
                "file": {type: string, format: binary}
                "meta": {type: object, properties: {a: {type: string}}}
            encoding:
              meta: {contentType: "application/json\r\nX-Evil: 1"}
              file:
                headers:
                  "X-Part\r\nX-Evil": {schema: {type: string, default: "1"}}
                  X-Fine: {schema: {type: string, default: "a\r\nX-Evil: 1"}}
      responses: {"200": {description: ok}}
`)
	require.NoError(t, err)
	require.Equal(t, []string{
		`spec.yaml#: spec validation (ignored): invalid paths: invalid path /up: invalid operation POST: encoding file: identifier "X-Part\r\nX-Evil" is not supported by OpenAPIv3 standard (charset: ["a-zA-Z0-9._-"])`,
		`spec.yaml#/paths/~1up/post/requestBody/content/multipart~1form-data/encoding/file/headers/X-Fine: multipart part header "X-Fine" value "a\r\nX-Evil: 1" holds a control byte and cannot be written in a part header; not sent`,
		`spec.yaml#/paths/~1up/post/requestBody/content/multipart~1form-data/encoding/file/headers/X-Part%0D%0AX-Evil: multipart part header name "X-Part\r\nX-Evil" is not an RFC 9110 token; not sent`,
		`spec.yaml#/paths/~1up/post/requestBody/content/multipart~1form-data/encoding/meta/contentType: contentType "application/json\r\nX-Evil: 1" holds a control byte and cannot be written in a part header; the part's default media type is sent`,
		`spec.yaml#/paths/~1up/post/requestBody/content/multipart~1form-data/schema/properties/na%22me%0D%0AX-Injected:%201: multipart part name "na\"me\r\nX-Injected: 1" holds a control byte; the property is skipped`,
	}, diags)
	op := svc.Operations[0]
	var names []string
	for _, p := range op.Body.Parts {
		names = append(names, p.Name)
	}
	require.Equal(t, []string{"file", "meta"}, names)
	require.Equal(t, "", op.Body.Encoding["meta"].ContentType)
	require.Empty(t, op.Body.Encoding["file"].Headers)
}
