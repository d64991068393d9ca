package generator

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

func TestModelSchemas(t *testing.T) {
	svc, diags, err := load(t, specWith("", `    Holder:
      type: object
      required: [Count]
      properties:
        Ref:
          allOf:
            - $ref: '#/components/schemas/Status'
            - description: the field's own text
        Both:
          allOf:
            - $ref: '#/components/schemas/Status'
            - properties: {x: {type: string}}
        Count: {type: integer, format: int32}
        When: {type: string, format: date-time}
        Blob: {type: string, format: byte}
        Tags: {type: object, additionalProperties: {type: string}}
        Value: {$ref: '#/components/schemas/Node'}
    Status: {type: string, enum: [ACTIVE, KEYS_ONLY, in-progress]}
    Node:
      type: object
      properties:
        M: {type: object, additionalProperties: {$ref: '#/components/schemas/Node'}}
        L: {type: array, items: {$ref: '#/components/schemas/Node'}}
        Next: {$ref: '#/components/schemas/Node'}
`))
	require.NoError(t, err)
	holder := typeNamed(svc, "Holder")
	require.NotNil(t, holder)

	node := TypeRef{Kind: RefNamed, Name: "Node", Struct: true}
	status := TypeRef{Kind: RefNamed, Name: "Status"}
	tests := []struct {
		name  string
		typ   *Type
		field string
		want  Field
	}{
		{"allOf of a $ref and a description is the $ref, with the description as field doc", holder, "Ref",
			Field{Name: "Ref", JSONName: "Ref", Doc: "the field's own text", Type: status, Enum: `["ACTIVE","KEYS_ONLY","in-progress"]`}},
		{"allOf of an enum and an object merges into a struct named after the property", holder, "Both",
			Field{Name: "Both", JSONName: "Both", Type: TypeRef{Kind: RefNamed, Name: "HolderBoth", Struct: true}}},
		{"format int32 is int32 and required", holder, "Count",
			Field{Name: "Count", JSONName: "Count", Type: TypeRef{Scalar: ScalarInt32}, Required: true}},
		{"date-time is time.Time by default", holder, "When",
			Field{Name: "When", JSONName: "When", Type: TypeRef{Scalar: ScalarTime}}},
		{"format byte is []byte", holder, "Blob",
			Field{Name: "Blob", JSONName: "Blob", Type: TypeRef{Scalar: ScalarBytes}}},
		{"additionalProperties is map[string]T", holder, "Tags",
			Field{Name: "Tags", JSONName: "Tags", Type: TypeRef{Kind: RefMap, Elem: &TypeRef{Scalar: ScalarString}}}},
		{"recursive map value is the named struct", typeNamed(svc, "Node"), "M",
			Field{Name: "M", JSONName: "M", Type: TypeRef{Kind: RefMap, Elem: &node}}},
		{"recursive slice element is the named struct", typeNamed(svc, "Node"), "L",
			Field{Name: "L", JSONName: "L", Type: TypeRef{Kind: RefSlice, Elem: &node}}},
		{"direct recursion is a named struct (a pointer when emitted)", typeNamed(svc, "Node"), "Next",
			Field{Name: "Next", JSONName: "Next", Type: node}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fieldNamed(tt.typ, tt.field)
			require.NotNil(t, got)
			require.Equal(t, tt.want, *got)
		})
	}
	require.Equal(t, []EnumValue{
		{Name: "StatusActive", Value: "ACTIVE"},
		{Name: "StatusKeysOnly", Value: "KEYS_ONLY"},
		{Name: "StatusInProgress", Value: "in-progress"},
	}, typeNamed(svc, "Status").Values, "enum constants carry the type's name")
	require.Equal(t, []Field{{Name: "X", JSONName: "x", Type: TypeRef{Scalar: ScalarString}}}, typeNamed(svc, "HolderBoth").Fields)
	require.Empty(t, diags)
}

func TestModelOperation(t *testing.T) {
	svc, diags, err := load(t, specWith("", ""))
	require.NoError(t, err)
	require.Len(t, svc.Operations, 1)
	op := svc.Operations[0]
	require.Equal(t, &Operation{
		Name:    "Op",
		Source:  "/paths/~1#X-Amz-Target=Svc.Op/post",
		Method:  "POST",
		Path:    "/",
		Headers: []FixedHeader{{Name: "Accept", Value: "application/json"}, {Name: "X-Amz-Target", Value: "Svc.Op"}},
		Body:    Body{Kind: BodyJSON, ContentType: "application/json"},
		Input:   "OpInput",
		Output:  "OpOutput",
		Errors:  []string{"NotFound"},
		Retry:   runtime.Operation{Name: "Op", FixedHeaders: map[string]string{"Accept": "application/json", "X-Amz-Target": "Svc.Op"}},
	}, op, "path key split, auto header, Accept from the 2xx media type, the signer's X-Amz-Date skipped, error shape by schema name")
	require.Empty(t, diags, "an optional X-Amz-* header is the signer's business, not a warning")
	require.Equal(t, []*ErrorShape{{Name: "NotFound", Code: "NotFound", Source: "/components/schemas/NotFound", Class: engine.ClassNonRetryable}}, svc.Errors)
	require.True(t, typeNamed(svc, "OpOutput").Output)
	require.Nil(t, typeNamed(svc, "NotFound"), "error shapes are not ordinary types")
}

func TestLocalName(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"exported words are lowered", "GetItem", "getItem"},
		{"a leading initialism is lowered up to the next word", "URLPath", "urlPath"},
		{"an all-caps name is lowered", "ID", "id"},
		{"keywords get _", "type", "type_"},
		{"predeclared names get _", "len", "len_"},
		{"names generated code uses get _", "ctx", "ctx_"},
		{"leading digits keep the n prefix", "404", "n404"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { require.Equal(t, tt.want, localName(tt.in)) })
	}
}

func TestEnumConstName(t *testing.T) {
	require.Equal(t, "Arch32bit", enumConstName("Arch", "32bit"), "no digit prefix after the type name")
	require.Equal(t, "ArchEmpty", enumConstName("Arch", ""), "the empty value")
	require.Equal(t, "ArchKeysOnly", enumConstName("Arch", "KEYS_ONLY"), "upper snake case is title-cased")
	// A value with no letter or digit is spelled character by character
	// (new-user trial: "-" was ArchEmpty2, the empty value's name
	// numbered, and "\\", "\u0000", "\u2028" all ArchEmpty*).
	for value, want := range map[string]string{
		"-": "ArchMinus", "\\": "ArchBackslash", "\u0000": "ArchU0000", "\u2028": "ArchU2028",
		"*": "ArchAsterisk", "--": "ArchMinusMinus", " ": "ArchSpace", "_": "ArchUnderscore", "+": "ArchPlus", "%": "ArchPercent",
	} {
		require.Equal(t, want, enumConstName("Arch", value), "%q", value)
	}
}

func TestGoName(t *testing.T) {
	tests := []struct {
		name, in   string
		titleUpper bool
		want       string
	}{
		{"CamelCase is kept", "GetItemInput", false, "GetItemInput"},
		{"upper-case words are kept in type names", "SSEType", false, "SSEType"},
		{"dashes, dots and spaces separate words", "x-amz-date.value now", false, "XAmzDateValueNow"},
		{"leading digit gets N", "3DSecure", false, "N3DSecure"},
		{"trailing < is Lt", "StartTime<", false, "StartTimeLt"},
		{"trailing >= is Gte", "StartTime>=", false, "StartTimeGte"},
		{"> closing a < separates", "Page<User>", false, "PageUser"},
		{"+ is Plus and a leading - before a digit Minus", "+1 -1", true, "Plus1Minus1"},
		{"combining marks are dropped without splitting", "cafe\u0301s", false, "Cafes"},
		{"emoji separate words", "a😀b", false, "AB"},
		{"slashes separate words", "a/b.c d-e", false, "ABCDE"},
		{"lower-case keyword becomes exported", "type", false, "Type"},
		{"predeclared name becomes exported", "string", false, "String"},
		{"empty is X", "--", false, "X"},
		{"enum value in upper snake case is title-cased", "PAY_PER_REQUEST", true, "PayPerRequest"},
		{"single upper letter stays", "S", true, "S"},
		{"uncased first letter gets X", "名前", false, "X名前"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { require.Equal(t, tt.want, goName(tt.in, tt.titleUpper)) })
	}
}

// TestModelAllOfSameProperty: a property that several allOf members define
// must match every definition (JSON Schema), so its Go type has what each
// definition declares — Box's MetadataTemplate.fields[].options, whose
// items have `key` in one member and `key` plus `id` in the other.
func TestModelAllOfSameProperty(t *testing.T) {
	svc, diags, err := load(t, specWith("", `    Option: {type: object, required: [key], properties: {key: {type: string}}}
    Template:
      type: object
      allOf:
        - type: object
          properties:
            options: {type: array, items: {$ref: '#/components/schemas/Option'}}
            owner: {type: object, properties: {id: {type: string}}}
            size: {type: integer, format: int32}
            same: {$ref: '#/components/schemas/Option'}
            late: {description: only an annotation here}
        - properties:
            options:
              description: options with their IDs
              type: array
              items:
                allOf:
                  - $ref: '#/components/schemas/Option'
                  - properties: {id: {type: string}}
            owner: {type: object, properties: {login: {type: string}}}
            size: {type: integer, maximum: 10}
            same: {$ref: '#/components/schemas/Option'}
            late: {type: string}
`))
	require.NoError(t, err)
	require.Empty(t, diags)
	tmpl := typeNamed(svc, "Template")
	require.NotNil(t, tmpl)
	option := TypeRef{Kind: RefNamed, Name: "Option", Struct: true}
	optionsItem := TypeRef{Kind: RefNamed, Name: "TemplateOptionsItem", Struct: true}
	tests := []struct {
		name  string
		field string
		want  Field
	}{
		{"arrays defined twice are an array of the merged items", "Options",
			Field{Name: "Options", JSONName: "options", Type: TypeRef{Kind: RefSlice, Elem: &optionsItem}}},
		{"objects defined twice merge into one struct named after the property", "Owner",
			Field{Name: "Owner", JSONName: "owner", Type: TypeRef{Kind: RefNamed, Name: "TemplateOwner", Struct: true}}},
		{"scalars defined twice are the first definition", "Size",
			Field{Name: "Size", JSONName: "size", Type: TypeRef{Scalar: ScalarInt32}}},
		{"the same schema referenced twice is that schema", "Same",
			Field{Name: "Same", JSONName: "same", Type: option}},
		{"an annotation-only definition gives way to the typed one", "Late",
			Field{Name: "Late", JSONName: "late", Type: TypeRef{Scalar: ScalarString}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fieldNamed(tmpl, tt.field)
			require.NotNil(t, got)
			require.Equal(t, tt.want, *got)
		})
	}
	str := TypeRef{Scalar: ScalarString}
	require.Equal(t, []Field{
		{Name: "Id", JSONName: "id", Type: str},
		{Name: "Key", JSONName: "key", Type: str, Required: true},
	}, typeNamed(svc, "TemplateOptionsItem").Fields, "the items have the properties of both definitions")
	require.Equal(t, []Field{
		{Name: "Id", JSONName: "id", Type: str},
		{Name: "Login", JSONName: "login", Type: str},
	}, typeNamed(svc, "TemplateOwner").Fields)
}
