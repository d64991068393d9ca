package generator

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/stretchr/testify/require"
)

// outputsSpec has a dedicated output shape (GetItemOutput, an AWS-style
// component used only as a 2xx response), a shared resource (Pet: GetPet's
// response and the items of ListPets' array) and an allOf response.
const outputsSpec = `openapi: 3.0.3
info: {title: Outputs, version: '1'}
components:
  schemas:
    GetItemOutput:
      type: object
      properties: {Item: {type: string}}
    Pet:
      type: object
      properties: {name: {type: string}}
paths:
  /item:
    get:
      operationId: GetItem
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/GetItemOutput'}}}}
  /pets/{id}:
    get:
      operationId: GetPet
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
  /pets:
    get:
      operationId: ListPets
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}}}}
  /dogs/{id}:
    get:
      operationId: GetDog
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                allOf:
                  - {$ref: '#/components/schemas/Pet'}
                  - {type: object, properties: {breed: {type: string}}}
`

func TestOutputTypes(t *testing.T) {
	svc, _, err := load(t, outputsSpec)
	require.NoError(t, err)
	ops := map[string]*Operation{}
	for _, op := range svc.Operations {
		ops[op.Name] = op
	}
	fieldNames := func(ty *Type) []string {
		var names []string
		for _, f := range ty.Fields {
			names = append(names, f.Name)
		}
		return names
	}
	for _, tc := range []struct {
		rule, op, output, decode, embed string
		fields                          []string
	}{
		{"a component used only as a 2xx response is the output itself", "GetItem", "GetItemOutput", OutputSelf, "", []string{"Item"}},
		{"a shared component is embedded in the operation's own output", "GetPet", "GetPetOutput", OutputSelf, "Pet", nil},
		{"an array response goes in Body", "ListPets", "ListPetsOutput", OutputJSONField, "", []string{"Body"}},
		{"an allOf response is embedded like a shared component", "GetDog", "GetDogOutput", OutputSelf, "GetDogOutputBody", nil},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			op := ops[tc.op]
			require.Equal(t, tc.output, op.Output)
			require.Equal(t, tc.decode, op.OutputBody)
			out := typeNamed(svc, tc.output)
			require.True(t, out.Output, "the output carries ResultMetadata")
			require.Equal(t, tc.embed, out.Embed)
			require.Equal(t, tc.fields, fieldNames(out))
		})
	}
	pet := typeNamed(svc, "Pet")
	require.False(t, pet.Output, "the shared resource has no ResultMetadata")
	require.Equal(t, []string{"Name"}, fieldNames(pet))
	require.Equal(t, TypeRef{Kind: RefSlice, Elem: &TypeRef{Kind: RefNamed, Name: "Pet", Struct: true}}, typeNamed(svc, "ListPetsOutput").Fields[0].Type)
	require.Equal(t, []string{"Breed", "Name"}, fieldNames(typeNamed(svc, "GetDogOutputBody")), "the allOf members merged")
}

func TestComponentUses(t *testing.T) {
	api, err := openapi3.NewLoader().LoadFromData([]byte(outputsSpec))
	require.NoError(t, err)
	require.Equal(t, map[string]int{"Pet": 2}, componentUses(api),
		"ListPets' items and GetDog's allOf use Pet; whole 2xx responses (GetItem, GetPet) are not uses")
}

// TestEmbeddedOutputEmitted checks the Go source of an output embedding a
// shared type, and that the shared type itself has no ResultMetadata.
func TestEmbeddedOutputEmitted(t *testing.T) {
	svc, _, err := load(t, outputsSpec)
	require.NoError(t, err)
	files, err := Generate(svc, "svc")
	require.NoError(t, err)
	var types string
	for _, f := range files {
		if f.Name == "types.go" {
			types = string(f.Content)
		}
	}
	require.Contains(t, types, "type GetPetOutput struct {\n"+
		"\t// ResultMetadata describes how the call went: attempts made, request ID.\n"+
		"\tResultMetadata runtime.ResponseMetadata `json:\"-\"`\n"+
		"\t// Pet is the decoded response body; its fields and JSON methods are promoted.\n"+
		"\tPet\n}")
	require.Contains(t, types, "type Pet struct {\n\t_    [0]func() // not comparable: no equality function to compile\n\tName *string   `json:\"name,omitzero\"`\n}")
}
