package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestXMLObjectOfSelfArray: an array schema whose items are the array
// itself (FuzzGenerate's crasher 700f72b67c83fd73, `items: {$recursiveRef:
// '#'}`) used to recurse in xmlObjectOf until the stack overflowed (a fatal
// error, not a recoverable panic); the item's XML name is read one level
// down only.
func TestXMLObjectOfSelfArray(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Tree: {type: array, items: {$ref: "#/components/schemas/Tree"}, xml: {name: tree}}
    Plain:
      type: object
      properties:
        tree: {$ref: "#/components/schemas/Tree"}
`
	svc, _, err := loadData("t.yaml", []byte(spec), nil, nil)
	require.NoError(t, err)
	files, err := Generate(svc, "t")
	require.NoError(t, err)
	require.NoError(t, checkGenerated(files))
	for _, ty := range svc.Types {
		if ty.Name == "Plain" {
			require.Equal(t, XMLObject{Name: "tree", ItemName: "tree", Declared: true}, ty.Fields[0].XML)
		}
	}
}
