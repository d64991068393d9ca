package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// awsPrefixSpec is an aws2openapi REST-XML spec whose GetThing response has
// a prefix-header map (x-amz-meta-) beside other XML members, in a
// component used only there, and whose ListThings response does the same
// in a component also used as a request body.
const awsPrefixSpec = `openapi: 3.0.0
info:
  title: P
  version: '1'
  x-origin: [{converter: {url: 'https://github.com/mermade/aws2openapi'}}]
paths:
  /things/{Key}:
    get:
      operationId: GetThing
      parameters: [{name: Key, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: ok, content: {text/xml: {schema: {$ref: '#/components/schemas/GetThingOutput'}}}}
  /things:
    get:
      operationId: ListThings
      responses:
        '200': {description: ok, content: {text/xml: {schema: {$ref: '#/components/schemas/Shared'}}}}
    put:
      operationId: PutThings
      requestBody: {content: {text/xml: {schema: {$ref: '#/components/schemas/Shared'}}}}
      responses:
        '200': {description: ok}
  /blobs/{Key}:
    get:
      operationId: GetBlob
      parameters: [{name: Key, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: ok
          content:
            text/xml:
              schema:
                description: The blob.
                type: object
                properties:
                  Body: {type: string, description: Its bytes.}
                  Meta: {type: object, additionalProperties: {type: string}, xml: {name: x-amz-meta-}}
components:
  schemas:
    GetThingOutput:
      type: object
      properties:
        Count: {type: integer}
        Metadata: {type: object, additionalProperties: {type: string}, xml: {name: x-amz-meta-}}
    Shared:
      type: object
      properties:
        Count: {type: integer}
        Metadata: {type: object, additionalProperties: {type: string}, xml: {name: x-amz-meta-}}
`

// On the response side, an aws2openapi prefix-header map beside other XML
// members is read from the response headers (it was left to the XML
// decoder, which skips maps: the field stayed nil, with no warning); where
// the type is shared and cannot take the headers, a located warning says
// the map is not read.
func TestAWSOutputPrefixHeadersBesideXMLMembers(t *testing.T) {
	svc, diags, err := load(t, awsPrefixSpec)
	require.NoError(t, err)
	ops := map[string]*Operation{}
	for _, op := range svc.Operations {
		ops[op.Name] = op
	}
	get := ops["GetThing"]
	require.Equal(t, OutputXML, get.OutputBody)
	require.Equal(t, []Param{{Field: "Metadata", Name: "x-amz-meta-", In: "headerPrefix"}}, get.OutputHeaderMaps)
	var meta Field
	for _, f := range typeNamed(svc, get.Output).Fields {
		if f.JSONName == "Metadata" {
			meta = f
		}
	}
	require.Equal(t, "header", meta.In)
	require.Equal(t, "Read from every response header named x-amz-meta-<key>, keyed by <key> in lower case (nil when there is none).", meta.Doc)
	require.Contains(t, diags, `spec.yaml#/paths/~1things/get/responses/200/content/text~1xml: the prefix-header map Metadata (response headers x-amz-meta-<key>) is in a schema used elsewhere too, so it is not read from the response; read out.ResultMetadata.Header`)
	files := emitFiles(t, svc)
	require.Contains(t, files["operations.go"], `out.Metadata = openapi.HeaderMap(r.Header, "x-amz-meta-")`)
	requireBuilds(t, svc)
}

// An inline payload output is made as an empty struct with the schema's
// doc and place, then given its Body and header-map fields (it was built
// from the schema, fields and all, and its fields dropped).
func TestAWSInlinePayloadOutput(t *testing.T) {
	svc, _, err := load(t, awsPrefixSpec)
	require.NoError(t, err)
	out := typeNamed(svc, "GetBlobOutput")
	require.NotNil(t, out)
	require.Equal(t, "The blob.", out.Doc)
	require.Equal(t, "/paths/~1blobs~1{Key}/get/responses/200/content/text~1xml/schema", out.Source)
	var fields []string
	for _, f := range out.Fields {
		fields = append(fields, f.Name+" "+f.In)
	}
	require.Equal(t, []string{"Body body", "Meta header"}, fields)
}
