package generator

import (
	"math"
	"reflect"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"
)

// TestAllOfKeepsScalarConstraints: an allOf whose members are not objects
// stands for one value that must satisfy every member (JSON Schema
// 2020-12 §10.2.1.1), so every member's format, bounds, pattern and enum
// apply; where two members both give one, the tighter bound wins, and
// where they cannot be combined (two patterns, enums with no value in
// common, two formats) a warning names the place (review: the flattener
// kept the first typed member alone, `allOf [$ref string, {maxLength: 5}]`
// lost the 5, an enum member gave a plain string, a format member was
// dropped).
func TestAllOfKeepsScalarConstraints(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Name: {type: string, maxLength: 10, minLength: 1}
    Short: {allOf: [{$ref: '#/components/schemas/Name'}, {maxLength: 5, minLength: 0}]}
    S:
      type: object
      properties:
        short: {allOf: [{$ref: '#/components/schemas/Name'}, {maxLength: 5, minLength: 2}]}
        viaRef: {$ref: '#/components/schemas/Short'}
        color: {allOf: [{type: string}, {enum: [red, blue, green]}, {enum: [blue, red]}]}
        when: {allOf: [{type: string}, {format: date-time}]}
        n: {allOf: [{type: integer, minimum: 1, maximum: 10}, {minimum: 3, maximum: 10, exclusiveMaximum: true}]}
        own: {allOf: [{$ref: '#/components/schemas/Name'}], maxLength: 4, pattern: '^[a-z]+$'}
        pat: {allOf: [{type: string, pattern: '^a'}, {pattern: 'b$'}]}
        none: {allOf: [{type: string, enum: [a]}, {enum: [b]}]}
        fmt: {allOf: [{type: string, format: email}, {format: uri}]}
        tags: {allOf: [{type: array, items: {type: string}, maxItems: 9}, {maxItems: 3, minItems: 1}]}
        lcm: {allOf: [{type: integer, multipleOf: 4}, {multipleOf: 6}]}
        half: {allOf: [{type: number, multipleOf: 0.5}, {multipleOf: 2}]}
        tenth: {allOf: [{type: number, multipleOf: 0.1}, {multipleOf: 0.3}]}
        empty: {allOf: [{type: integer, minimum: 5}, {maximum: 3}]}
        point: {allOf: [{type: integer, minimum: 3}, {maximum: 3, exclusiveMaximum: true}]}
        long: {allOf: [{type: string, minLength: 4}, {maxLength: 2}]}
        few: {allOf: [{type: array, items: {type: string}, minItems: 3}, {maxItems: 1}, {maxItems: 0}]}
`
	svc, diags, err := load(t, spec)
	require.NoError(t, err)
	require.Equal(t, []string{
		`spec.yaml#/components/schemas/S/properties/empty/allOf/1/maximum: maximum 3 with minimum 5 (allOf member 0) leaves no value; a request with this field cannot be valid`,
		`spec.yaml#/components/schemas/S/properties/few/allOf/1/maxItems: maxItems 1 with minItems 3 (allOf member 0) leaves no value; a request with this field cannot be valid`,
		`spec.yaml#/components/schemas/S/properties/fmt/allOf/1/format: format "uri" and format "email" (allOf member 0) cannot both apply; the type follows "email"`,
		`spec.yaml#/components/schemas/S/properties/long/allOf/1/maxLength: maxLength 2 with minLength 4 (allOf member 0) leaves no value; a request with this field cannot be valid`,
		`spec.yaml#/components/schemas/S/properties/none/allOf/1/enum: enum has no value in common with the other allOf members'; the type keeps [a]`,
		`spec.yaml#/components/schemas/S/properties/pat/allOf/1/pattern: pattern "b$" is not combined with pattern "^a" (one RE2 pattern cannot require both); the doc names the first`,
		`spec.yaml#/components/schemas/S/properties/point/allOf/1/maximum: maximum 3 (exclusive) with minimum 3 (allOf member 0) leaves no value; a request with this field cannot be valid`,
		`spec.yaml#/components/schemas/S/properties/tenth/allOf/1/multipleOf: multipleOf 0.3 and multipleOf 0.1 (allOf member 0) are kept as the first: neither is a multiple of the other in floating point, and they are not both integers`,
	}, diags)
	s := typeNamed(svc, "S")
	facts := map[string]string{}
	for _, f := range s.Fields {
		facts[f.JSONName] = f.Facts
	}
	require.Equal(t, map[string]string{
		"short":  "Minimum length: 2. Maximum length: 5.",
		"viaRef": "Minimum length: 1. Maximum length: 5.",
		"color":  "",
		"when":   "",
		"n":      "Minimum: 3. Maximum: 10 (exclusive).",
		"own":    "Minimum length: 1. Maximum length: 4. Pattern: \"^[a-z]+$\".",
		"pat":    "Pattern: \"^a\".",
		"none":   "",
		"fmt":    "Format: email.",
		"tags":   "Minimum items: 1. Maximum items: 3.",
		"lcm":    "",
		"half":   "",
		"tenth":  "",
		"empty":  "Minimum: 5. Maximum: 3.",
		"point":  "Minimum: 3. Maximum: 3 (exclusive).",
		"long":   "Minimum length: 4. Maximum length: 2.",
		"few":    "Minimum items: 3. Maximum items: 0.",
	}, facts)
	color := typeNamed(svc, fieldNamed(s, "Color").Type.Name)
	require.NotNil(t, color, "the enum members make a Go enum")
	var values []string
	for _, v := range color.Values {
		values = append(values, v.Value)
	}
	require.Equal(t, []string{"red", "blue"}, values, "the values every member allows, in the first enum's order")
	require.Equal(t, ScalarTime, fieldNamed(s, "When").Type.Scalar, "the format member makes the field a time")
}

// TestFoldMultipleOf: a value an allOf of two multipleOf members allows is
// a multiple of both (JSON Schema validation §6.2.1), so the flattened
// schema names their least common multiple: the larger where one divides
// the other, the integers' LCM otherwise; two that are neither are kept as
// the first, with a warning (review: the flattener kept the larger, 6 for
// 4 and 6, which lets 6 through).
func TestFoldMultipleOf(t *testing.T) {
	for _, c := range []struct {
		a, b, want float64
		conflict   bool
	}{
		{4, 6, 12, false},
		{6, 4, 12, false},
		{3, 6, 6, false},
		{6, 3, 6, false},
		{0.5, 2, 2, false},
		{2, 0.5, 2, false},
		{0.25, 0.75, 0.75, false},
		{0.1, 0.3, 0.1, true},
		{1e300, 3e300, 3e300, false},
		{4e15, 6e15, 4e15, true}, // the LCM (1.2e16) is past 2^53: not named
		{0, 0, 0, true},          // not a multipleOf (must be > 0): nothing to combine (review: divided by zero)
		{0, 3, 0, true},
		{-3, -2, -3, true}, // negative: not a multipleOf either
		{math.Inf(1), 2, math.Inf(1), true},
	} {
		dst := &openapi3.Schema{MultipleOf: &c.a}
		b := c.b
		out := foldConstraints(dst, &openapi3.Schema{MultipleOf: &b}, "#/m", 0)
		require.Equal(t, c.want, *dst.MultipleOf, "%v and %v", c.a, c.b)
		require.Equal(t, c.conflict, len(out) == 1, "%v and %v: %v", c.a, c.b, out)
	}
}

// TestNumText: integer bounds read as the spec wrote them (newuser4 G8:
// Discord's maximum 16777215 read "1.6777215e+07").
func TestNumText(t *testing.T) {
	for f, want := range map[float64]string{
		16777215: "16777215", 0: "0", -3: "-3", 0.5: "0.5", 0.1: "0.1", 9007199254740993: "9007199254740992",
		1e20: "100000000000000000000", 1e21: "1e+21", 1e300: "1e+300", -2.5e-7: "-2.5e-07",
	} {
		require.Equal(t, want, numText(f), "%v", f)
	}
}

// TestFoldsNothingMatchesFold: for every field of openapi3.Schema set
// alone on a member, constraintFree says "nothing to fold" only when
// foldConstraints indeed changes nothing and reports nothing, so the fast
// path of flattenAllOf cannot drift from the fold (a keyword the fold
// learns to read must be added to constraintFree, or this fails).
func TestFoldsNothingMatchesFold(t *testing.T) {
	lo, hi, ml := 1.0, 9.0, uint64(7)
	dsts := []openapi3.Schema{
		{},
		{Type: &openapi3.Types{"string"}, Format: "email", Min: &lo, Max: &hi, MaxLength: &ml, MinLength: 2, Pattern: "^a", Enum: []any{"a"}},
	}
	st := reflect.TypeOf(openapi3.Schema{})
	for k := 0; k < st.NumField(); k++ {
		sf := st.Field(k)
		if !sf.IsExported() {
			continue
		}
		var m openapi3.Schema
		v := reflect.ValueOf(&m).Elem().Field(k)
		if !setSchemaField(v) {
			t.Fatalf("no non-zero value for Schema.%s (%s): teach setSchemaField", sf.Name, sf.Type)
		}
		if !constraintFree(&m) {
			continue
		}
		for _, d := range dsts {
			dst := d
			out := foldConstraints(&dst, &m, "#/m", 0)
			require.Empty(t, out, "Schema.%s", sf.Name)
			require.True(t, reflect.DeepEqual(d, dst), "Schema.%s alone changed the fold, but constraintFree says it gives nothing", sf.Name)
		}
	}
}

// setSchemaField sets v to a value other than its zero value; false when its
// kind is not handled.
func setSchemaField(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(2)
	case reflect.Uint64, reflect.Uint:
		v.SetUint(2)
	case reflect.Float64:
		v.SetFloat(2)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		setSchemaField(p.Elem())
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		setSchemaField(s.Index(0))
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		key, val := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		setSchemaField(key)
		setSchemaField(val)
		m.SetMapIndex(key, val)
		v.Set(m)
	case reflect.Interface:
		v.Set(reflect.ValueOf("v"))
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && setSchemaField(v.Field(i)) {
				return true
			}
		}
		return false
	default:
		return false
	}
	return true
}

// TestFactsIntegerBound: a field's doc reads an integer bound in digits
// (newuser4 G8: Discord's `maximum: 16777215` read "Maximum: 1.6777215e+07").
func TestFactsIntegerBound(t *testing.T) {
	svc, _, err := load(t, `openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    S:
      type: object
      properties:
        color: {type: integer, minimum: 0, maximum: 16777215}
`)
	require.NoError(t, err)
	require.Equal(t, "Minimum: 0. Maximum: 16777215.", fieldNamed(typeNamed(svc, "S"), "Color").Facts)
}
