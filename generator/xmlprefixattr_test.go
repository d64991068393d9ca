package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Two prefixed attributes that name the same attribute (one namespace,
// one local name) would be written twice on one start tag (malformed XML)
// and each read back with the other's value; a prefix that XML reserves
// (xml, xmlns) cannot be declared. Each is skipped with a located warning,
// the first of a pair kept (review).
func TestXMLPrefixedAttrClashes(t *testing.T) {
	spec := `openapi: 3.0.0
` + awsOrigin + `paths:
  /{Bucket}#acl:
    put:
      operationId: PutAcl
      parameters: [{name: Bucket, in: path, required: true, schema: {type: string}}]
      requestBody: {content: {text/xml: {schema: {type: object, properties: {Grantee: {$ref: '#/components/schemas/Grantee'}}}}}}
      responses: {'200': {description: ok}}
components:
  schemas:
    Grantee:
      type: object
      properties:
        Type: {type: string, xml: {name: 'xsi:type'}}
        Again: {type: string, xml: {name: 'b:type'}}
        Decl: {type: string, xml: {name: 'xmlns:x'}}
        Res: {type: string, xml: {name: 'XML:lang'}}
      xml: {namespace: 'http://www.w3.org/2001/XMLSchema-instance', attribute: true}
`
	svc, ws, err := load(t, spec)
	require.NoError(t, err)
	got := strings.Join(ws, "\n")
	require.Contains(t, got, `#/components/schemas/Grantee: XML: property "Again" of Grantee is the attribute "type" in namespace "http://www.w3.org/2001/XMLSchema-instance", as "Type" is; it is not written or read as XML`)
	require.Contains(t, got, `#/components/schemas/Grantee: XML: property "Decl" of Grantee is named "xmlns:x", whose prefix XML reserves; it is not written or read as XML`)
	require.Contains(t, got, `#/components/schemas/Grantee: XML: property "Res" of Grantee is named "XML:lang", whose prefix XML reserves; it is not written or read as XML`)
	var g *Type
	for _, ty := range svc.Types {
		if ty.Name == "Grantee" {
			g = ty
		}
	}
	require.NotNil(t, g)
	var prefixed, skipped []string
	for _, f := range g.Fields {
		if f.XML.PrefixedAttr {
			prefixed = append(prefixed, f.Name)
		}
		if f.XML.Skip {
			skipped = append(skipped, f.Name)
		}
	}
	require.Equal(t, []string{"Type"}, prefixed)
	require.Equal(t, []string{"Again", "Decl", "Res"}, skipped)
}
