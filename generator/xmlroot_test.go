package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestXMLOutputRootIsChecked: an XML response whose schema's XML Object
// names its element is decoded by openapi.DecodeXMLNamed with that name, so
// a body with another root (a proxy's <html>) is a decode error (new-user
// trial item 1); a schema naming no element keeps openapi.DecodeXML, which
// checks no root name (S3 names its roots after operations).
func TestXMLOutputRootIsChecked(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /doc:
    get:
      operationId: GetDoc
      responses:
        "200": {description: ok, content: {application/xml: {schema: {$ref: "#/components/schemas/Doc"}}}}
  /any:
    get:
      operationId: GetAny
      responses:
        "200": {description: ok, content: {application/xml: {schema: {$ref: "#/components/schemas/Any"}}}}
components:
  schemas:
    Doc: {type: object, xml: {name: Document}, required: [title], properties: {title: {type: string}}}
    Any: {type: object, properties: {title: {type: string}}}
`
	svc, _, err := loadData("t.yaml", []byte(spec), nil, nil)
	require.NoError(t, err)
	files, err := Generate(svc, "t")
	require.NoError(t, err)
	require.NoError(t, checkGenerated(files))
	var ops string
	for _, f := range files {
		if f.Name == "operations.go" {
			ops = string(f.Content)
		}
	}
	for _, want := range []string{
		`openapi.DecodeXMLNamed(out, &out.ResultMetadata.Body, "Document")`,
		`openapi.DecodeXML(out, &out.ResultMetadata.Body)`,
	} {
		require.True(t, strings.Contains(ops, want), "operations.go lacks %q:\n%s", want, ops)
	}
}
