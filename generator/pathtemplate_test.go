package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUnfilledPathPlaceholderSkipsTheOperation: /d/{id} with no id
// parameter would be sent as /d/%7Bid%7D; it is a located warning and the
// operation is skipped (counted in Service.Skipped), the others stay.
func TestUnfilledPathPlaceholderSkipsTheOperation(t *testing.T) {
	svc, ds, err := load(t, `openapi: 3.0.0
info: {title: T, version: '1'}
paths:
  /d/{id}:
    get:
      operationId: GetD
      responses: {'200': {description: ok}}
  /e/{id}:
    get:
      operationId: GetE
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
`)
	require.NoError(t, err)
	require.Contains(t, ds, `spec.yaml#/paths/~1d~1%7Bid%7D/get: path template placeholder {id} has no path parameter; operation GET /d/{id} skipped`)
	for _, d := range ds {
		require.NotContains(t, d, "spec validation", "reported once, located")
	}
	require.Len(t, svc.Operations, 1)
	require.Equal(t, "GetE", svc.Operations[0].Name)
	require.Equal(t, []string{"GET /d/{id}"}, svc.Skipped)
	require.NotContains(t, typeNames(svc), "GetDInput")
}

func typeNames(svc *Service) []string {
	var out []string
	for _, t := range svc.Types {
		out = append(out, t.Name)
	}
	return out
}
