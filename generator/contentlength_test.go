package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestContentLengthParameterDoc: a Content-Length header parameter (S3
// PutObject's ContentLength) says in its field doc that it is the body's
// length on the wire and what a body of another length does (third
// new-user trial F12: the field looked like any header and did nothing).
func TestContentLengthParameterDoc(t *testing.T) {
	svc, _, err := load(t, `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /{Key}:
    put:
      operationId: PutObject
      parameters:
        - {name: Key, in: path, required: true, schema: {type: string}}
        - {name: Content-Length, in: header, schema: {type: integer}}
      requestBody: {content: {application/octet-stream: {schema: {type: string, format: binary}}}}
      responses: {"200": {description: ok}}
`)
	require.NoError(t, err)
	files, err := Generate(svc, "svc")
	require.NoError(t, err)
	var all strings.Builder
	for _, f := range files {
		all.Write(f.Content)
	}
	require.Contains(t, all.String(), "\t// Sent as the header parameter \"Content-Length\". It is the request body's length on the wire: a\n"+
		"\t// body that cannot seek is sent with it rather than chunked, and a body of another length, over or\n"+
		"\t// under, ends the call with a *runtime.ContentLengthError before the server has a complete\n"+
		"\t// request.\n"+
		"\tContentLength *int64")
}
