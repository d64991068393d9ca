package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRefToSchemaIDSaysSo: a $ref naming a schema of the same document by
// its 3.1 $id is refused with a message naming that schema and the $ref to
// write instead (second new-user trial F13: it said only "is a URL", as for
// a remote file).
func TestRefToSchemaIDSaysSo(t *testing.T) {
	_, diags, err := load(t, `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /p:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: 'https://example.com/schemas/pet'}
components:
  schemas:
    Pet:
      $id: https://example.com/schemas/pet
      type: object
      properties: {name: {type: string}}
`)
	require.Error(t, err)
	require.Equal(t, `error: spec.yaml#/paths/~1p/get/responses/200/content/application~1json/schema/$ref: $ref "https://example.com/schemas/pet": names the schema at #/components/schemas/Pet by its $id, which is not resolved; write $ref: '#/components/schemas/Pet'`,
		"error: "+strings.Join(diags, "\n"))
}
