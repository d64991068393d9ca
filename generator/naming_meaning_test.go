package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Types are named after what holds them, never after a JSON pointer
// segment (issue 19): a schema reached through a reference into another
// component is named by the names along the pointer; an inline union
// variant by the one value that tells it apart.
func TestNamesFromMeaning(t *testing.T) {
	for ref, want := range map[string]string{
		"#/components/parameters/limit/schema":        "Limit",
		"#/components/schemas/A/properties/b/oneOf/0": "AB",
		"#/$defs/Foo": "Foo",
		"#/components/responses/Err/content/application~1json/schema": "Err",
		"#/paths/~1x/get/parameters/0/schema":                         "",
	} {
		require.Equal(t, want, refTypeName(ref), ref)
	}

	svc, diags, err := load(t, `openapi: 3.1.0
info: {title: T, version: '1'}
paths:
  /a:
    get:
      operationId: GetA
      parameters:
        - name: mode
          in: query
          schema: {$ref: '#/components/parameters/mode/schema'}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Block'}
components:
  parameters:
    mode:
      name: mode
      in: query
      schema: {type: string, enum: [fast, slow]}
  schemas:
    Block:
      oneOf:
        - {type: object, required: [type], properties: {type: {const: text}, text: {type: string}}}
        - {type: object, required: [type], properties: {type: {const: image}, url: {type: string}}}
        - {type: string, enum: [dynamic]}
`)
	require.NoError(t, err)
	require.Empty(t, diags)
	var names []string
	for _, ty := range svc.Types {
		names = append(names, ty.Name)
	}
	require.Subset(t, names, []string{"Mode", "BlockText", "BlockImage", "BlockDynamic"})
	for _, n := range names {
		require.NotRegexp(t, `^(Schema|N)[0-9]*$|Variant[0-9]+$`, n)
	}
}
