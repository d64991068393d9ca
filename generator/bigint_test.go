package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIntegerEnumBeyondInt64 (new-user trial 3, F8): enum values beyond
// int64 were dropped as "not an integer", the type stayed int64 (a
// response carrying the value failed to decode) and the enum, down to one
// constant, was filled in when left unset (Big(0) went out as 1). A value
// that does not fit int64 keeps the schema raw (json.RawMessage carries
// any number) with a located warning saying so; an enum left with one
// constant of several spec values is not filled in.
func TestIntegerEnumBeyondInt64(t *testing.T) {
	svc, ds, err := load(t, `openapi: 3.0.3
info: {title: N, version: "1"}
paths:
  /a:
    post:
      operationId: postA
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/T'}}}}
      responses: {"200": {description: ok}}
components:
  schemas:
    Big: {type: integer, enum: [1, 18446744073709551616, -9223372036854775809]}
    Half: {type: integer, enum: [1, 1.5]}
    T:
      type: object
      required: [c, h]
      properties:
        a: {$ref: '#/components/schemas/Big'}
        c: {type: integer, const: 18446744073709551616}
        h: {$ref: '#/components/schemas/Half'}
`)
	require.NoError(t, err)
	require.Contains(t, ds, `spec.yaml#/components/schemas/Big: enum value 18446744073709551616 does not fit int64; typed as json.RawMessage`)
	require.Contains(t, ds, `spec.yaml#/components/schemas/T/properties/c: enum value 18446744073709551616 does not fit int64; typed as json.RawMessage`)
	require.Contains(t, ds, `spec.yaml#/components/schemas/Half/enum/1: enum value 1.5 is not an integer; no constant`)
	for _, d := range ds {
		require.NotContains(t, d, "e+19")
	}
	tt := typeNamed(svc, "T")
	require.NotNil(t, tt)
	for _, f := range tt.Fields {
		switch f.JSONName {
		case "a", "c":
			require.Equal(t, ScalarRawJSON, f.Type.Scalar, f.JSONName)
			require.Empty(t, f.Const, f.JSONName)
		}
	}
	require.Nil(t, typeNamed(svc, "Big"))
	files, err := Generate(svc, "n")
	require.NoError(t, err)
	for _, f := range files {
		if f.Name == "types.go" {
			require.Contains(t, string(f.Content), "type Half int64")
			require.False(t, strings.Contains(string(f.Content), "func (v Half) MarshalJSON"), "Half has two spec values: never filled in")
		}
	}
}

// TestJSONSpecIntegerBeyondUint64 (F8): in a JSON spec, an integer
// literal beyond uint64 failed the whole generation with an unlocated
// "cannot construct !!float … as a !!int"; it is read as a YAML spec reads
// it (a float), and the enum degrades as above.
func TestJSONSpecIntegerBeyondUint64(t *testing.T) {
	_, ds, err := loadSpecText(t, "spec.json", `{"openapi": "3.0.3", "info": {"title": "N", "version": "1"}, "paths": {}, "components": {"schemas": {"Big": {"type": "integer", "enum": [1, 18446744073709551616, 2]}}}}`)
	require.NoError(t, err)
	require.Contains(t, ds, `spec.json#/components/schemas/Big: enum value 18446744073709551616 does not fit int64; typed as json.RawMessage`)
}
