package openapi

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// testUnion has a generated union's shape: one pointer per variant, then
// Raw.
type testUnion struct {
	String *string
	Ints   *[]int64
	Obj    *struct{ A string }
	Raw    json.RawMessage
}

func TestEmptyPathParamAndUnionUnset(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, tc := range []struct {
		name         string
		u            testUnion
		empty, unset bool
	}{
		{"no variant set", testUnion{}, true, true},
		{"an empty string variant", testUnion{String: s("")}, true, false},
		{"a string variant", testUnion{String: s("x")}, false, false},
		{"an empty list variant", testUnion{Ints: &[]int64{}}, true, false},
		{"a list variant", testUnion{Ints: &[]int64{3}}, false, false},
		{"an object variant", testUnion{Obj: &struct{ A string }{"a"}}, false, false},
		{"Raw JSON null", testUnion{Raw: json.RawMessage("null")}, true, true},
		{"Raw empty string", testUnion{Raw: json.RawMessage(`""`)}, true, false},
		{"Raw value", testUnion{Raw: json.RawMessage(`"id"`)}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.empty, EmptyPathParam(&tc.u), "EmptyPathParam")
			require.Equal(t, tc.empty, PathParam("p", &tc.u, StyleSimple, false) == "", "the rule is PathParam's")
			require.Equal(t, tc.unset, UnionUnset(&tc.u), "UnionUnset")
		})
	}
	var nilU *testUnion
	require.True(t, EmptyPathParam(nilU))
	require.True(t, UnionUnset(nilU))
	u := testUnion{String: s("x")}
	require.Zero(t, testing.AllocsPerRun(100, func() { _ = EmptyPathParam(&u) || UnionUnset(&u) }), "a valid input allocates nothing")
}

// MarshalJSON is a generated union's.
func (u testUnion) MarshalJSON() ([]byte, error) { return MarshalUnion(u.Raw, u.String, u.Ints, u.Obj) }
