package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUntaggableNamesAreFields: a property whose JSON name no struct tag can
// hold ("a,b", `q"`, "", a backquote, a backslash, a control character) is
// a field of a named object type or a request body's input, tagged
// `json:"-"` and moved by the generated MarshalJSON/UnmarshalJSON
// (openapi.Member): in a named object type, a request body's input, the
// fields beside a oneOf and an error shape; no warning. A type that travels
// as XML leaves it out of XML with a located warning (unless its XML Object
// names the element). The
// output passes the fuzz oracle (checkGenerated). golden's
// TestMemberNamesRoundTrip runs the generated code.
func TestUntaggableNamesAreFields(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /o:
    post:
      operationId: PostO
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {"x,y": {type: string}, "MarshalJSON": {type: string}}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/O"}}}}
        "400": {description: bad, content: {application/json: {schema: {$ref: "#/components/schemas/E"}}}}
  /x:
    get:
      operationId: GetX
      responses:
        "200": {description: ok, content: {application/xml: {schema: {$ref: "#/components/schemas/X"}}}}
components:
  schemas:
    X:
      type: object
      properties:
        "a,b": {type: string}
        "n,m": {type: string, xml: {name: nm}}
    O:
      type: object
      required: ["a,b"]
      properties:
        "a,b": {type: integer}
        "q\"": {type: string}
        "": {type: boolean}
        "back` + "`" + `tick": {type: string}
        "back\\slash": {type: string}
        "bell\a": {type: string}
        ok: {type: string}
        u: {$ref: "#/components/schemas/U"}
    U:
      oneOf: [{type: string}, {type: integer}]
      properties: {"u,v": {type: string}}
    E:
      type: object
      properties: {"e,f": {type: string}, message: {type: string}}
`
	svc, diags, err := loadData("t.yaml", []byte(spec), nil, nil)
	require.NoError(t, err)
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	require.Equal(t, []string{
		`t.yaml#/paths/~1o/post/requestBody/content/application~1json/schema/properties/MarshalJSON: Go field name MarshalJSON is taken; using MarshalJSON2`,
		`t.yaml#/components/schemas/X: XML: property "a,b" of X has a name no xml struct tag can hold; it is not written or read as XML`,
	}, got)
	fields := map[string][]string{}
	for _, ty := range svc.Types {
		for _, f := range ty.Fields {
			fields[ty.Name] = append(fields[ty.Name], f.Name+"="+f.JSONName)
		}
	}
	require.Equal(t, []string{"X=", "AB=a,b", "BackSlash=back\\slash", "BackTick=back`tick", "Bell=bell\a", "Ok=ok", "Q=q\"", "U=u"}, fields["O"])
	require.Equal(t, []string{"MarshalJSON2=MarshalJSON", "XY=x,y"}, fields["PostOInput"])
	require.Equal(t, []string{"UV=u,v"}, fields["U"])
	require.Len(t, svc.Errors, 1)
	require.Equal(t, "EF", svc.Errors[0].Fields[0].Name)
	files, err := Generate(svc, "t")
	require.NoError(t, err)
	require.NoError(t, checkGenerated(files))
	var types string
	for _, f := range files {
		if f.Name == "types.go" {
			types = string(f.Content)
		}
	}
	for _, want := range []string{
		"\tAB             *string                  `json:\"-\" xml:\"-\"`\n",
		"\tNM             *string                  `json:\"-\" xml:\"nm,omitempty\"`\n",
		"\tAB             int64                    `json:\"-\"` // Required.\n",
		"\t\topenapi.Member{Name: \"a,b\", Field: &v.AB, OmitZero: false},\n",
		"\t\topenapi.Member{Name: \"bell\\a\", Field: &v.Bell, OmitZero: true},\n",
		"\treturn openapi.DecodeMembers(b, openapi.Unmarshal(b, (*plain)(v)),\n",
		"\t\topenapi.Member{Name: \"x,y\", Field: &v.XY, OmitZero: true})\n",
		"\tif err := openapi.DecodeMembers(b, nil,\n\t\topenapi.Member{Name: \"u,v\", Field: &u.UV, OmitZero: true}); err != nil {\n",
	} {
		require.True(t, strings.Contains(types, want), "types.go lacks %q:\n%s", want, types)
	}
}
