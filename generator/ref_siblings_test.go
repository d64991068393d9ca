package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRefSiblingsAreAllOf: in OpenAPI 3.1 (JSON Schema 2020-12) a $ref
// applies beside its sibling keywords, like allOf [$ref, siblings] (second
// new-user trial F4: the siblings were dropped without a warning, the
// field was *Base and "extra" could be neither decoded nor sent).
// Annotations beside a $ref (description) keep the $ref's type; in 3.0
// siblings stay ignored, as that version says.
func TestRefSiblingsAreAllOf(t *testing.T) {
	spec := `openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Base: {type: object, required: [base], properties: {base: {type: string}}}
    S:
      type: object
      properties:
        sib: {$ref: '#/components/schemas/Base', properties: {extra: {type: string}}, required: [extra]}
        doc: {$ref: '#/components/schemas/Base', description: Just a description.}
`
	svc, diags, err := load(t, spec)
	require.NoError(t, err)
	require.Empty(t, diags)
	s := typeNamed(svc, "S")
	require.Equal(t, "Base", fieldNamed(s, "Doc").Type.Name)
	sib := typeNamed(svc, fieldNamed(s, "Sib").Type.Name)
	require.NotNil(t, sib)
	var got []string
	for _, f := range sib.Fields {
		got = append(got, f.JSONName)
		require.True(t, f.Required, f.JSONName)
	}
	require.Equal(t, []string{"base", "extra"}, got)

	svc, _, err = load(t, "openapi: 3.0.3"+spec[len("openapi: 3.1.0"):])
	require.NoError(t, err)
	require.Equal(t, "Base", fieldNamed(typeNamed(svc, "S"), "Sib").Type.Name)
}

// TestRefSiblingAssertionsAreNamed: a 3.1 sibling of a $ref that the
// generated client does not apply (maxLength, format, type) gets a warning
// at its own place; annotations, x- extensions and the keywords moved into
// the allOf get none (review: they were dropped without a word).
func TestRefSiblingAssertionsAreNamed(t *testing.T) {
	spec := `openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Name: {type: string}
    S:
      type: object
      properties:
        short: {$ref: '#/components/schemas/Name', maxLength: 5, format: email}
        doc: {$ref: '#/components/schemas/Name', description: Just a name., title: N, nullable: true, x-note: kept}
`
	_, diags, err := load(t, spec)
	require.NoError(t, err)
	var got []string
	for _, d := range diags {
		got = append(got, d)
	}
	require.Equal(t, []string{
		`spec.yaml#/components/schemas/S/properties/short/maxLength: "maxLength" beside a $ref is not applied: the generated client uses the referenced schema alone (it models properties, items, enum, const and the other object and list keywords beside a $ref)`,
		`spec.yaml#/components/schemas/S/properties/short/format: "format" beside a $ref is not applied: the generated client uses the referenced schema alone (it models properties, items, enum, const and the other object and list keywords beside a $ref)`,
	}, got)
}
