package generator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSelectionBadPathPatternIsLocated checks that an include path that is
// not a path.Match pattern ("/pets/[") is a warning at its key instead of
// silently matching nothing, while a valid pattern selects its operations.
func TestSelectionBadPathPatternIsLocated(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "spec.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(`openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses: {"200": {description: ok}}
  /stores:
    get:
      operationId: listStores
      responses: {"200": {description: ok}}
`), 0o600))
	sel := &Selection{File: "retrygen.yaml", Include: Selector{Paths: []string{"/pets/[", "/p*"}}}
	svc, diags, err := LoadSelected(spec, nil, sel)
	require.NoError(t, err)
	require.Equal(t, []string{`retrygen.yaml#/include/paths/0: "/pets/[" is not a path pattern (syntax error in pattern); it matches nothing`}, diagLines(diags))
	require.Len(t, svc.Operations, 1)
	require.Equal(t, "ListPets", svc.Operations[0].Name)
}
