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

// TestRefSiblingAssertionsApply: a 3.1 sibling of a $ref that asserts
// (maxLength, format, type) applies with the $ref through the allOf
// flattener, as JSON Schema 2020-12 says: the field's facts name it, a
// format sets the Go type; a restated type keeps the referenced type;
// annotations and x- extensions stay beside the $ref (review: they were
// dropped, then only warned about).
func TestRefSiblingAssertionsApply(t *testing.T) {
	spec := `openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Name: {type: string, maxLength: 10}
    Base: {type: object, properties: {base: {type: string}}}
    S:
      type: object
      properties:
        short: {$ref: '#/components/schemas/Name', maxLength: 5, format: email}
        when: {$ref: '#/components/schemas/Name', format: date-time}
        obj: {$ref: '#/components/schemas/Base', type: object, minProperties: 1}
        doc: {$ref: '#/components/schemas/Name', description: Just a name., title: N, nullable: true, x-note: kept}
`
	svc, diags, err := load(t, spec)
	require.NoError(t, err)
	require.Empty(t, diags)
	s := typeNamed(svc, "S")
	require.Equal(t, "Format: email. Maximum length: 5.", fieldNamed(s, "Short").Facts)
	require.Equal(t, ScalarString, fieldNamed(s, "Short").Type.Scalar)
	require.Equal(t, ScalarTime, fieldNamed(s, "When").Type.Scalar)
	require.Equal(t, "Base", fieldNamed(s, "Obj").Type.Name)
	require.Equal(t, "Maximum length: 10.", fieldNamed(s, "Doc").Facts)
}
