package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAllOfKeepsScalarConstraints: an allOf whose members are not objects
// stands for one value that must satisfy every member (JSON Schema
// 2020-12 §10.2.1.1), so every member's format, bounds, pattern and enum
// apply; where two members both give one, the tighter bound wins, and
// where they cannot be combined (two patterns, enums with no value in
// common, two formats) a warning names the place (review: the flattener
// kept the first typed member alone, `allOf [$ref string, {maxLength: 5}]`
// lost the 5, an enum member gave a plain string, a format member was
// dropped).
func TestAllOfKeepsScalarConstraints(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Name: {type: string, maxLength: 10, minLength: 1}
    Short: {allOf: [{$ref: '#/components/schemas/Name'}, {maxLength: 5, minLength: 0}]}
    S:
      type: object
      properties:
        short: {allOf: [{$ref: '#/components/schemas/Name'}, {maxLength: 5, minLength: 2}]}
        viaRef: {$ref: '#/components/schemas/Short'}
        color: {allOf: [{type: string}, {enum: [red, blue, green]}, {enum: [blue, red]}]}
        when: {allOf: [{type: string}, {format: date-time}]}
        n: {allOf: [{type: integer, minimum: 1, maximum: 10}, {minimum: 3, maximum: 10, exclusiveMaximum: true}]}
        own: {allOf: [{$ref: '#/components/schemas/Name'}], maxLength: 4, pattern: '^[a-z]+$'}
        pat: {allOf: [{type: string, pattern: '^a'}, {pattern: 'b$'}]}
        none: {allOf: [{type: string, enum: [a]}, {enum: [b]}]}
        fmt: {allOf: [{type: string, format: email}, {format: uri}]}
        tags: {allOf: [{type: array, items: {type: string}, maxItems: 9}, {maxItems: 3, minItems: 1}]}
`
	svc, diags, err := load(t, spec)
	require.NoError(t, err)
	require.Equal(t, []string{
		`spec.yaml#/components/schemas/S/properties/fmt/allOf/1/format: format "uri" and format "email" (allOf member 0) cannot both apply; the type follows "email"`,
		`spec.yaml#/components/schemas/S/properties/none/allOf/1/enum: enum has no value in common with the other allOf members'; the type keeps [a]`,
		`spec.yaml#/components/schemas/S/properties/pat/allOf/1/pattern: pattern "b$" is not combined with pattern "^a" (one RE2 pattern cannot require both); the doc names the first`,
	}, diags)
	s := typeNamed(svc, "S")
	facts := map[string]string{}
	for _, f := range s.Fields {
		facts[f.JSONName] = f.Facts
	}
	require.Equal(t, map[string]string{
		"short":  "Minimum length: 2. Maximum length: 5.",
		"viaRef": "Minimum length: 1. Maximum length: 5.",
		"color":  "",
		"when":   "",
		"n":      "Minimum: 3. Maximum: 10 (exclusive).",
		"own":    "Minimum length: 1. Maximum length: 4. Pattern: \"^[a-z]+$\".",
		"pat":    "Pattern: \"^a\".",
		"none":   "",
		"fmt":    "Format: email.",
		"tags":   "Minimum items: 1. Maximum items: 3.",
	}, facts)
	color := typeNamed(svc, fieldNamed(s, "Color").Type.Name)
	require.NotNil(t, color, "the enum members make a Go enum")
	var values []string
	for _, v := range color.Values {
		values = append(values, v.Value)
	}
	require.Equal(t, []string{"red", "blue"}, values, "the values every member allows, in the first enum's order")
	require.Equal(t, ScalarTime, fieldNamed(s, "When").Type.Scalar, "the format member makes the field a time")
}
