package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPrefixItemsAndPatternPropertiesKeepTheData: a 3.1 tuple (prefixItems,
// with or without items) is []json.RawMessage, so every valid tuple decodes
// (second new-user trial F5: it was []bool for prefixItems [string,
// integer] + items boolean, and ["x",5,true] failed the call); an object's
// patternProperties keep their members in AdditionalProperties as raw JSON
// (F13: they were dropped from the typed value). Both with a located
// warning.
func TestPrefixItemsAndPatternPropertiesKeepTheData(t *testing.T) {
	svc, diags, err := load(t, `openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    S:
      type: object
      properties:
        tup: {type: array, prefixItems: [{type: string}, {type: integer}], items: {type: boolean}}
        plain: {type: array, items: {type: boolean}}
    P:
      type: object
      properties: {x: {type: string}}
      patternProperties: {'^p_': {type: integer}}
`)
	require.NoError(t, err)
	require.Equal(t, []string{
		"spec.yaml#/components/schemas/P/patternProperties: patternProperties is not modelled; members matching it are kept in AdditionalProperties as raw JSON",
		"spec.yaml#/components/schemas/S/properties/tup/prefixItems: prefixItems (a tuple) is not modelled; elements typed as json.RawMessage",
	}, diags)
	s := typeNamed(svc, "S")
	tup := fieldNamed(s, "Tup").Type
	require.Equal(t, RefSlice, tup.Kind)
	require.Equal(t, ScalarRawJSON, tup.Elem.Scalar)
	require.Equal(t, ScalarBool, fieldNamed(s, "Plain").Type.Elem.Scalar)
	p := typeNamed(svc, "P")
	require.NotNil(t, p.Additional)
	require.Equal(t, ScalarRawJSON, p.Additional.Scalar)
}
