package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNoOperationLeftIsAnError: a spec that declares operations but leaves
// none to generate — every one skipped for a defect of its own, or an
// overlay removing them — is an error at /paths saying where they went,
// and nothing is written (newuser4 G8: an empty client was written with
// exit 0, so a CI golden check passed on it). A spec that declares none
// gets its client (types only) as before.
func TestNoOperationLeftIsAnError(t *testing.T) {
	skipped := `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a/{id}:
    get:
      operationId: getA
      responses: {"204": {description: ok}}
`
	_, diags, err := load(t, skipped)
	require.ErrorContains(t, err, "spec.yaml: 1 error(s) in the spec")
	require.Contains(t, diags, "spec.yaml#/paths: none of the spec's 1 operation is left to generate (1 skipped for a defect of its own, warned of above); a client without operations is not written")

	_, diags, err = loadWithOverlay(t, overlaySpec, "overlay: 1.0.0\ninfo: {title: o, version: '1'}\nactions:\n  - {target: '$.paths', remove: true}\n")
	require.EqualError(t, err, "spec.yaml: 1 error(s) in the spec")
	require.Contains(t, diags, "spec.yaml#/paths: none of the spec's 1 operation is left to generate (1 removed by overlay overlay.yaml); a client without operations is not written (in the spec after overlay overlay.yaml)")

	svc, diags, err := load(t, "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\ncomponents: {schemas: {A: {type: object, properties: {a: {type: string}}}}}\n")
	require.NoError(t, err)
	require.Empty(t, diags)
	require.Empty(t, svc.Operations)
}
