package openapi

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// jsonValue is what retrygen generates for the usual "any JSON value"
// schema (`J: anyOf: [string, number, boolean, array of J, object of J]`,
// second new-user trial F10).
type jsonValue struct {
	String  *string
	Float64 *float64
	Bool    *bool
	List    *[]jsonValue
	Map     *map[string]jsonValue
	Raw     json.RawMessage
}

var unionJSONValue = Union{Name: "J", Variants: []Variant{
	{Name: "String", Type: JSONString}, {Name: "Float64", Type: JSONNumber}, {Name: "Bool", Type: JSONBoolean},
	{Name: "List", Type: JSONArray}, {Name: "Map", Type: JSONObject, Open: true},
}}

func (j *jsonValue) UnmarshalJSON(b []byte) error {
	return unionJSONValue.Unmarshal(b, &j.Raw, &j.String, &j.Float64, &j.Bool, &j.List, &j.Map)
}

func (j jsonValue) MarshalJSON() ([]byte, error) {
	return MarshalUnion(j.Raw, j.String, j.Float64, j.Bool, j.List, j.Map)
}

// nested returns a JSON array nested depth levels deep around 1.
func nested(depth int) string {
	return strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth)
}

// TestUnionDecodeDepthBound: a value nested deeper than MaxUnionDepth is
// refused by the outermost union with a *UnionError (a *runtime.DecodeError
// for the call), before any level below is decoded; before, every level
// decoded its whole subtree again (16 KB took 13 s and 586 MB) and a deep
// enough body overflowed the stack. At the bound it decodes and round-trips.
func TestUnionDecodeDepthBound(t *testing.T) {
	ok := nested(MaxUnionDepth)
	var j jsonValue
	require.NoError(t, json.Unmarshal([]byte(ok), &j))
	b, err := json.Marshal(j)
	require.NoError(t, err)
	require.Equal(t, ok, string(b))

	for _, depth := range []int{MaxUnionDepth + 1, 9_000} {
		var j jsonValue
		err := json.Unmarshal([]byte(nested(depth)), &j)
		var ue *UnionError
		require.True(t, errors.As(err, &ue), "%v", err)
		require.Equal(t, "no variant of J fits the JSON value: tried nested more than 64 arrays and objects deep (openapi.MaxUnionDepth)", ue.Error())
		require.Nil(t, j.List)
	}
	// Strings holding brackets do not count.
	s := `["` + strings.Repeat("[{", 1000) + `"]`
	require.NoError(t, json.Unmarshal([]byte(s), &j))
	require.Len(t, *j.List, 1)
}

// TestUnionDecodeWorkIsBounded: refusing a body nested far too deep costs
// a few allocations (encoding/json's syntax check) whatever its depth (no level below the first is
// decoded), and the allocations of decoding many trees at the depth bound
// grow with the number of trees, not faster.
func TestUnionDecodeWorkIsBounded(t *testing.T) {
	allocs := func(body string) float64 {
		return testing.AllocsPerRun(3, func() {
			var j jsonValue
			_ = json.Unmarshal([]byte(body), &j)
		})
	}
	deep1, deep2 := allocs(nested(1_000)), allocs(nested(9_000))
	require.Less(t, deep1, 40.0)
	require.Less(t, deep2, 40.0)

	trees := func(n int) string {
		return "[" + strings.Repeat(nested(MaxUnionDepth-1)+",", n-1) + nested(MaxUnionDepth-1) + "]"
	}
	one, two := allocs(trees(10)), allocs(trees(20))
	require.InDelta(t, 2*one, two, 0.02*two)
}

// BenchmarkUnionDecodeNested decodes 20 trees nested to the depth bound
// (the trial's wide20.json shape, cut to the bound).
func BenchmarkUnionDecodeNested(b *testing.B) {
	body := []byte("[" + strings.Repeat(nested(MaxUnionDepth-1)+",", 19) + nested(MaxUnionDepth-1) + "]")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var j jsonValue
		if err := json.Unmarshal(body, &j); err != nil {
			b.Fatal(err)
		}
	}
}
