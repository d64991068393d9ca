package openapi

import (
	"encoding/json"
	"testing"
	"time"

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

// Types with generated shapes for TestUnsetUnions: structs with json tags
// (a required union member has no omitzero), a union (untagged pointer
// variants and Raw) whose object variant holds a required union, lists,
// maps and a Nullable.
type (
	uwItem struct {
		Content testUnion  `json:"content"`
		Note    *testUnion `json:"note,omitzero"`
		Opt     testUnion  `json:"opt,omitzero"`
	}
	uwVariant struct {
		Inner testUnion `json:"inner"`
	}
	uwOuter struct {
		Item *uwVariant
		Raw  json.RawMessage
	}
	uwBody struct {
		Top    testUnion            `json:"top"`
		Items  []uwItem             `json:"items,omitzero"`
		ByKey  map[string]uwItem    `json:"by_key,omitzero"`
		List   []testUnion          `json:"list,omitzero"`
		Choice uwOuter              `json:"choice"`
		Maybe  Nullable[uwVariant]  `json:"maybe,omitzero"`
		Param  string               `json:"-"`
		Body   []uwItem             `json:"-"`
		Nested map[string][]uwOuter `json:"nested,omitzero"`
	}
)

// TestUnsetUnions: every required union member below the input's own
// members that has no variant set (it would go out as null, which a
// validating server refuses) is named by its JSON path, in field, index
// and sorted-key order; optional members (omitzero), set variants' insides,
// a null Nullable and the input's own members (checked by UnionUnset) are
// not; a valid input allocates nothing (review: only top-level members were
// checked, Prism rejected the nested null).
func TestUnsetUnions(t *testing.T) {
	s := func(v string) *string { return &v }
	set := testUnion{String: s("x")}
	in := &uwBody{
		Items:  []uwItem{{Content: set}, {}, {Content: testUnion{Raw: json.RawMessage("null")}, Note: &testUnion{}}},
		ByKey:  map[string]uwItem{"b": {}, "a": {Content: set}, "c": {}},
		List:   []testUnion{set, {}},
		Choice: uwOuter{Item: &uwVariant{}},
		Maybe:  Null[uwVariant](),
		Body:   []uwItem{{}},
		Nested: map[string][]uwOuter{"k": {{Item: &uwVariant{Inner: set}}, {}, {Item: &uwVariant{}}}},
	}
	require.Equal(t, []string{
		"In.Items[1].content",
		"In.Items[2].content",
		`In.ByKey["b"].content`,
		`In.ByKey["c"].content`,
		"In.List[1]",
		"In.Choice.inner",
		"In.Body[0].content",
		`In.Nested["k"][1]`,
		`In.Nested["k"][2].inner`,
	}, UnsetUnions(in, "In"))
	in.Maybe = NullableOf(uwVariant{})
	require.Contains(t, UnsetUnions(in, "In"), "In.Maybe.inner", "a Nullable's value is walked")

	valid := &uwBody{Items: []uwItem{{Content: set}}, List: []testUnion{set}, Choice: uwOuter{Item: &uwVariant{Inner: set}}, Maybe: NullableOf(uwVariant{Inner: set})}
	require.Empty(t, UnsetUnions(valid, "In"))
	require.Empty(t, UnsetUnions((*uwBody)(nil), "In"))
	require.Zero(t, testing.AllocsPerRun(100, func() { _ = UnsetUnions(valid, "In") }), "a valid input without maps allocates nothing")
	valid.ByKey = map[string]uwItem{"a": {Content: set}}
	require.Empty(t, UnsetUnions(valid, "In"))
}

// uwTree is a recursive generated shape (a tree node with two children).
type uwTree struct {
	Left  *uwTree `json:"left,omitzero"`
	Right *uwTree `json:"right,omitzero"`
}

// TestUnsetUnionsStopsAtACycle: a value that refers to itself through two
// members (a caller's mistake json.Marshal reports as a cycle) is walked
// at most maxWalkDepth levels in all, not maxWalkDepth levels down each
// branch (2^1000 steps: the call hung before json.Marshal could refuse
// it; review).
func TestUnsetUnionsStopsAtACycle(t *testing.T) {
	n := &uwTree{}
	n.Left, n.Right = n, n
	done := make(chan []string, 1)
	go func() { done <- UnsetUnions(n, "Input") }()
	select {
	case got := <-done:
		require.Nil(t, got)
	case <-time.After(10 * time.Second):
		t.Fatal("UnsetUnions did not return in 10 s")
	}
	_, err := json.Marshal(n)
	require.ErrorContains(t, err, "encountered a cycle")
}

// uwSelfUnion is a union one of whose variants is the union itself (a
// hostile spec's oneOf that refers to its own schema).
type uwSelfUnion struct {
	Self *uwSelfUnion
	Raw  json.RawMessage
}

// TestUnsetUnionsStopsAtAUnionCycle: a union whose variant is itself
// counts a level per variant, so a union set to itself ends at
// maxWalkDepth instead of recursing until the stack overflows (a fatal
// error no recover catches; review).
func TestUnsetUnionsStopsAtAUnionCycle(t *testing.T) {
	u := &uwSelfUnion{}
	u.Self = u
	require.Nil(t, UnsetUnions(&struct{ U *uwSelfUnion }{u}, "Input"))
}

// TestEmptyPathParamStopsAtAUnionCycle: a path parameter union set to
// itself is empty (refused before sending), not a stack overflow (review).
func TestEmptyPathParamStopsAtAUnionCycle(t *testing.T) {
	u := &uwSelfUnion{}
	u.Self = u
	require.True(t, EmptyPathParam(u))
}
