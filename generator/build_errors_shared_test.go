package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A components.responses error shared by many operations is one error type
// named after its component and located there; an inline allOf that merges
// into one object is a typed error with the merged fields (issue 19).
func TestSharedResponseIsOneErrorShape(t *testing.T) {
	svc, diags, err := load(t, `openapi: 3.0.0
info: {title: T, version: '1'}
paths:
  /a:
    get:
      operationId: GetA
      responses:
        '200': {description: ok}
        '404': {$ref: '#/components/responses/NotFound'}
  /b:
    get:
      operationId: GetB
      responses:
        '200': {description: ok}
        '404': {$ref: '#/components/responses/NotFound'}
        '409':
          description: conflict
          content:
            application/json:
              schema:
                allOf:
                  - {$ref: '#/components/schemas/Base'}
                  - {type: object, properties: {detail: {type: string}}}
components:
  responses:
    NotFound:
      description: not found
      content:
        application/json:
          schema:
            allOf:
              - {$ref: '#/components/schemas/Base'}
              - {description: The thing is not there.}
  schemas:
    Base:
      type: object
      required: [message]
      properties:
        message: {type: string}
`)
	require.NoError(t, err)
	require.Empty(t, diags)
	var got []string
	for _, e := range svc.Errors {
		var fs []string
		for _, f := range e.Fields {
			fs = append(fs, f.JSONName)
		}
		got = append(got, e.Name+" "+e.Source+" "+strings.Join(fs, ","))
	}
	require.Equal(t, []string{
		"GetB409Error /paths/~1b/get/responses/409/content/application~1json/schema detail,message",
		"NotFoundError /components/responses/NotFound/content/application~1json/schema message",
	}, got)
	for _, op := range svc.Operations {
		require.Equal(t, "NotFoundError", op.StatusErrors[0].Name, op.Name)
	}
}
