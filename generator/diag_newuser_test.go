package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Diagnostics that said the wrong thing, or nothing (newuser.md item 15).
func TestDiagnosticsSayWhatIsWrong(t *testing.T) {
	doc := `openapi: 3.1.0
info: {title: d, version: "1"}
paths:
  /a/{type}:
    get:
      operationId: type
      parameters: [{name: type, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: x, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}}
components:
  schemas:
    TypeInput: {type: object, properties: {a: {type: string}}}
    Thing:
      type: object
      properties:
        premium: {type: "null"}
        ratio: {type: number, enum: [1.5, 2]}
        flag: {type: boolean, enum: [true, false]}
        deleted: {type: boolean, enum: [true]}
        color:
          oneOf: [{const: red}, {const: green}, {const: 3}]
`
	_, ws, err := load(t, doc)
	require.NoError(t, err)
	got := strings.Join(ws, "\n")
	for _, want := range []string{
		`#/components/schemas/Thing/properties/premium: schema's only type is null (the value is always null); typed as json.RawMessage`,
		`#/components/schemas/Thing/properties/color: oneOf/anyOf of const values of several JSON types (number, string) is not an enum; typed as json.RawMessage`,
		`#/components/schemas/Thing/properties/ratio/enum: enum of number values [1.5,2] has no Go constants and is not checked before sending; the field is a plain number`,
		`#/components/schemas/Thing/properties/flag/enum: enum of boolean values [true,false] has no Go constants and is not checked before sending; the field is a plain boolean`,
		`#/paths/~1a~1%7Btype%7D/get: Go name TypeInput is taken; using TypeInput2`,
	} {
		require.Contains(t, got, want)
	}
	require.NotContains(t, got, "schema has no type")
	require.NotContains(t, got, "requestBody", "the operation has no request body to point at")
	require.NotContains(t, got, "deleted", "a one-value enum is a constant (unions tell variants apart by it)")
}

// kin-openapi's validation findings are one line each: the schema and value
// dumps after the first line (escaped as \x0a) are left out.
func TestSpecValidationFindingsAreOneLine(t *testing.T) {
	_, ws, err := load(t, "openapi: 3.0.3\ninfo: {title: d, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    X: {type: integer, default: \"x\"}\n")
	require.NoError(t, err)
	require.Equal(t, []string{`spec.yaml#: spec validation (ignored): invalid components: schema "X": invalid default: value must be an integer`}, ws)
}
