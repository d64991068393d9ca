package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPaginatorSkipsNullableToken: an output token typed openapi.Nullable
// (3.1 `type: [string, 'null']`, as Mistral's cursors are) gets no paginator
// and a located warning, instead of a paginator that does not build (the
// realspecs tier found Mistral's client failing to build).
func TestPaginatorSkipsNullableToken(t *testing.T) {
	svc, diags, err := load(t, `openapi: 3.1.0
info: {title: T, version: '1'}
paths:
  /things:
    get:
      operationId: ListThings
      parameters:
        - {name: page_token, in: query, schema: {type: string}}
      x-pagination: {style: token, inputToken: page_token, outputToken: next, items: data}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  next: {type: [string, 'null']}
                  data: {type: array, items: {type: string}}
`)
	require.NoError(t, err)
	require.Contains(t, diags, "spec.yaml#/paths/~1things/get/x-pagination/outputToken: path next: ListThingsOutput.Next is nullable (openapi.Nullable), which a paginator does not follow yet; the operation gets no paginator")
	require.Len(t, svc.Operations, 1)
	require.Nil(t, svc.Operations[0].Pagination)
}
