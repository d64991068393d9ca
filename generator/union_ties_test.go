package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUnionTiesThroughNestedUnions: a variant that is itself a union fits
// a value when one of its own variants does, and is fitted by another
// variant only when every one of its variants is (trial F9 follow-up: a
// union variant fitted everything, so "variants W and Int64 of V fit the
// same values" was said of a W holding no integer).
func TestUnionTiesThroughNestedUnions(t *testing.T) {
	spec := `openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    S:
      type: object
      properties:
        a: {$ref: '#/components/schemas/NoInt'}
        b: {$ref: '#/components/schemas/HasInt'}
        c: {$ref: '#/components/schemas/Wider'}
        d: {$ref: '#/components/schemas/Narrower'}
    BoolOrString: {anyOf: [{type: boolean}, {type: string}]}
    StringOrInt: {anyOf: [{type: string}, {type: integer}]}
    NoInt: {anyOf: [{$ref: '#/components/schemas/BoolOrString'}, {type: integer}]}
    HasInt: {anyOf: [{$ref: '#/components/schemas/StringOrInt'}, {type: integer}]}
    Wider: {anyOf: [{type: string}, {$ref: '#/components/schemas/BoolOrString'}]}
    Narrower: {anyOf: [{$ref: '#/components/schemas/BoolOrString'}, {type: boolean}]}
`
	_, diags, err := load(t, spec)
	require.NoError(t, err)
	require.Equal(t, []string{
		"spec.yaml#/components/schemas/HasInt: variants StringOrInt and Int64 of HasInt fit the same values (no discriminator, const or enum tells them apart); such a value decodes as StringOrInt",
		"spec.yaml#/components/schemas/Narrower: variants BoolOrString and Bool of Narrower fit the same values (no discriminator, const or enum tells them apart); such a value decodes as BoolOrString",
	}, diags)
}
