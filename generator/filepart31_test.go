package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFileParts31: OpenAPI 3.1 writes a file as a string with
// contentEncoding: binary or a non-text contentMediaType (§4.8.14.3); in a
// multipart body such a property is an *openapi.File (filename, content
// type, a reader), as format: binary is in 3.0 (second new-user trial F15:
// Discord's uploads got File string, sent as a text part). A body that
// also accepts multipart with file parts, where the client sends JSON, gets
// a warning naming the parts it cannot send.
func TestFileParts31(t *testing.T) {
	svc, diags, err := load(t, `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /upload:
    post:
      operationId: upload
      requestBody:
        content:
          multipart/form-data:
            schema:
              type: object
              required: [file]
              properties:
                file: {type: string, contentEncoding: binary}
                image: {type: string, contentMediaType: image/png}
                note: {type: string, contentMediaType: text/plain}
      responses: {"204": {description: ok}}
  /message:
    post:
      operationId: message
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {content: {type: string}}}
          multipart/form-data:
            schema:
              type: object
              properties:
                content: {type: string}
                files[0]: {type: string, contentEncoding: binary}
      responses: {"204": {description: ok}}
`)
	require.NoError(t, err)
	require.Equal(t, []string{
		"spec.yaml#/paths/~1message/post/requestBody/content/multipart~1form-data: multipart/form-data body has file parts (files[0]) that the application/json body this client sends cannot carry; those cannot be uploaded with this operation",
	}, diags)
	in := typeNamed(svc, "UploadInput")
	require.Equal(t, ScalarFile, fieldNamed(in, "File").Type.Scalar)
	require.Equal(t, ScalarFile, fieldNamed(in, "Image").Type.Scalar)
	require.Equal(t, ScalarString, fieldNamed(in, "Note").Type.Scalar)
}
