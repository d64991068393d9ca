package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFilePartsThroughAllOfAndUnions: the multipart alternative of a body
// the client sends as JSON is read through allOf (flattened), oneOf and
// anyOf, $refs and all, for the file parts JSON cannot carry: Discord's
// create_message writes it as allOf [$ref MessageCreateRequest,
// {properties: files[0]…}] and create_channel_invite as allOf [anyOf
// […], {properties: target_users_file}], and neither was warned of
// (newuser4 G4: objectSchema sees no properties in an allOf).
func TestFilePartsThroughAllOfAndUnions(t *testing.T) {
	_, diags, err := load(t, `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /messages:
    post:
      operationId: create_message
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/MessageCreateRequest'}
          multipart/form-data:
            schema:
              allOf:
                - {$ref: '#/components/schemas/MessageCreateRequest'}
                - type: object
                  properties:
                    files[0]: {type: string, contentEncoding: binary}
                    files[1]: {type: string, contentEncoding: binary}
      responses: {"204": {description: ok}}
  /invites:
    post:
      operationId: create_channel_invite
      requestBody:
        content:
          application/json:
            schema:
              anyOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/B'}]
          multipart/form-data:
            schema:
              allOf:
                - anyOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/B'}]
                - {type: object, properties: {target_users_file: {type: string, contentEncoding: binary}}}
      responses: {"204": {description: ok}}
  /variants:
    post:
      operationId: variants
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/A'}
          multipart/form-data:
            schema:
              oneOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/WithFile'}]
      responses: {"204": {description: ok}}
  /none:
    post:
      operationId: none
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/A'}
          multipart/form-data:
            schema:
              allOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/Loop'}]
      responses: {"204": {description: ok}}
components:
  schemas:
    MessageCreateRequest: {type: object, properties: {content: {type: string}}}
    A: {type: object, properties: {a: {type: string}}}
    B: {type: object, properties: {b: {type: string}}}
    WithFile:
      type: object
      properties:
        attachments: {type: array, items: {type: string, format: binary}}
    Loop:
      oneOf: [{$ref: '#/components/schemas/B'}, {type: object, properties: {next: {$ref: '#/components/schemas/Loop'}}}, {$ref: '#/components/schemas/Loop2'}]
    Loop2:
      anyOf: [{$ref: '#/components/schemas/Loop'}, {type: string}]
`)
	require.NoError(t, err)
	var files []string
	for _, d := range diags {
		if strings.Contains(d, "file parts") {
			files = append(files, d)
		}
	}
	require.Equal(t, []string{
		"spec.yaml#/paths/~1invites/post/requestBody/content/multipart~1form-data: multipart/form-data body has file parts (target_users_file) that the application/json body this client sends cannot carry; those cannot be uploaded with this operation",
		"spec.yaml#/paths/~1messages/post/requestBody/content/multipart~1form-data: multipart/form-data body has file parts (files[0], files[1]) that the application/json body this client sends cannot carry; those cannot be uploaded with this operation",
		"spec.yaml#/paths/~1variants/post/requestBody/content/multipart~1form-data: multipart/form-data body has file parts (attachments) that the application/json body this client sends cannot carry; those cannot be uploaded with this operation",
	}, files)
}
