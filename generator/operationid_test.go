package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOperationIDWarnings: a missing or duplicate operationId is a warning
// located at the operation (or its operationId) that names the method chosen.
func TestOperationIDWarnings(t *testing.T) {
	svc, diags, err := load(t, `openapi: 3.0.0
info: {title: Ids, version: '1'}
paths:
  /a:
    get:
      operationId: listThings
      responses: {'200': {description: ok}}
  /b:
    get:
      operationId: listThings
      responses: {'200': {description: ok}}
  /c/{id}:
    delete:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'204': {description: ok}}
`)
	require.NoError(t, err)
	require.Equal(t, []string{
		"spec.yaml#: spec validation (ignored): invalid paths: operations \"GET /a\" and \"GET /b\" have the same operation id \"listThings\"",
		"spec.yaml#/paths/~1b/get/operationId: operationId \"listThings\" is also used by #/paths/~1a/get; this method is named ListThings2",
		"spec.yaml#/paths/~1c~1%7Bid%7D/delete: no operationId; the method is named DELETECId (from DELETE /c/{id})",
	}, diags)
	var names []string
	for _, op := range svc.Operations {
		names = append(names, op.Name)
	}
	require.Equal(t, []string{"DELETECId", "ListThings", "ListThings2"}, names)
}
