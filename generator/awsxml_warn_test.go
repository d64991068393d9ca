package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// awsOrigin is the info of a spec aws2openapi converted.
const awsOrigin = `info:
  title: t
  version: '1'
  x-origin: [{converter: {url: 'https://github.com/mermade/aws2openapi'}}]
`

// The XML constructs of aws2openapi specs that encoding/xml cannot carry
// as written are located warnings, never silent (new-user trial 3, F13,
// F7): attribute: true on an object property (S3's Grantee), a nullable
// map, and, in a query-protocol spec, list query parameters; its XML
// request body is sent as the protocol's form instead.
func TestAWSXMLWarnings(t *testing.T) {
	rest := `openapi: 3.0.0
` + awsOrigin + `paths:
  /{Bucket}#acl:
    put:
      operationId: PutAcl
      parameters: [{name: Bucket, in: path, required: true, schema: {type: string}}]
      requestBody: {content: {text/xml: {schema: {type: object, properties: {Policy: {$ref: '#/components/schemas/Policy'}}}}}}
      responses: {'200': {description: ok}}
components:
  schemas:
    Policy:
      type: object
      properties:
        Grantee: {$ref: '#/components/schemas/Grantee'}
        Meta: {type: object, nullable: true, additionalProperties: {type: string}}
    Grantee:
      type: object
      properties:
        ID: {type: string}
        Type: {type: string, xml: {name: 'xsi:type'}}
      xml: {namespace: 'http://www.w3.org/2001/XMLSchema-instance', attribute: true}
`
	_, ws, err := load(t, rest)
	require.NoError(t, err)
	got := strings.Join(ws, "\n")
	require.Contains(t, got, `#/components/schemas/Policy: XML: property "Grantee" of Policy has attribute: true, but its value is not a scalar (OpenAPI: attributes are primitive values); it travels as the element <Grantee>, its namespace "http://www.w3.org/2001/XMLSchema-instance" not applied`)
	require.Contains(t, got, `#/components/schemas/Policy: XML: map property "Meta" of Policy is nullable (three-state); it is not written or read as XML`)

	query := `openapi: 3.0.0
` + awsOrigin + `paths:
  /#Action=ReceiveMessage:
    post:
      operationId: POSTReceiveMessage
      requestBody: {content: {text/xml: {schema: {type: object, properties: {QueueUrl: {type: string}}}}}}
      responses: {'200': {description: ok}}
  /q/#Action=ReceiveMessage:
    get:
      operationId: GETReceiveMessage
      parameters: [{name: AttributeNames, in: query, schema: {type: array, items: {type: string}}}]
      responses: {'200': {description: ok}}
`
	svc, ws, err := load(t, query)
	require.NoError(t, err)
	got = strings.Join(ws, "\n")
	require.NotContains(t, got, "requestBody", "the XML body is sent as the protocol's form")
	for _, o := range svc.Operations {
		if o.Name == "POSTReceiveMessage" {
			require.Equal(t, Body{Kind: BodyXML, XMLRoot: o.Body.XMLRoot, AWSQueryAction: "ReceiveMessage", AWSQueryVersion: "1", ContentType: "application/x-www-form-urlencoded"}, o.Body)
		}
	}
	require.Contains(t, got, `#/paths/~1q~1%23Action=ReceiveMessage/get: AWS query protocol: query parameter "AttributeNames" (AttributeNames) is sent by OpenAPI's form rule`)
}
