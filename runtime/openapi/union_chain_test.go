package openapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/retrygen/retrygen/runtime/internal/exactjson"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// chainUnion is what retrygen generates for newuser4's G6 chain, level by
// level: `S(i): oneOf: [$ref S(i-1), {type: object, properties: {a: S(i-1),
// b: S(i-1)}}]` with S0 a string (/tmp/newuser4/hostile/oneof.yaml, 41
// schemas, no recursion): the first variant untyped (a union), the second
// an object.
type chainUnion[T any] struct {
	Prev *T
	Obj  *chainObj[T]
	Raw  json.RawMessage
}

type chainObj[T any] struct {
	A *T `json:"a,omitzero"`
	B *T `json:"b,omitzero"`
}

var unionChain = Union{Name: "S", Variants: []Variant{{Name: "Prev"}, {Name: "Obj", Type: JSONObject}}}

func (u *chainUnion[T]) UnmarshalJSON(b []byte) error {
	return unionChain.Unmarshal(b, &u.Raw, &u.Prev, &u.Obj)
}

type (
	c1  = chainUnion[string]
	c2  = chainUnion[c1]
	c3  = chainUnion[c2]
	c4  = chainUnion[c3]
	c5  = chainUnion[c4]
	c6  = chainUnion[c5]
	c7  = chainUnion[c6]
	c8  = chainUnion[c7]
	c9  = chainUnion[c8]
	c10 = chainUnion[c9]
	c11 = chainUnion[c10]
	c12 = chainUnion[c11]
	c13 = chainUnion[c12]
	c14 = chainUnion[c13]
	c15 = chainUnion[c14]
	c16 = chainUnion[c15]
	c17 = chainUnion[c16]
	c18 = chainUnion[c17]
	c19 = chainUnion[c18]
	c20 = chainUnion[c19]
	c21 = chainUnion[c20]
	c22 = chainUnion[c21]
	c23 = chainUnion[c22]
	c24 = chainUnion[c23]
	c25 = chainUnion[c24]
	c26 = chainUnion[c25]
	c27 = chainUnion[c26]
	c28 = chainUnion[c27]
	c29 = chainUnion[c28]
	c30 = chainUnion[c29]
	c31 = chainUnion[c30]
	c32 = chainUnion[c31]
	c33 = chainUnion[c32]
	c34 = chainUnion[c33]
	c35 = chainUnion[c34]
	c36 = chainUnion[c35]
	c37 = chainUnion[c36]
	c38 = chainUnion[c37]
	c39 = chainUnion[c38]
	c40 = chainUnion[c39]
)

// chainValue is `{"a":` k times around leaf.
func chainValue(k int, leaf string) []byte {
	return []byte(strings.Repeat(`{"a":`, k) + leaf + strings.Repeat(`}`, k))
}

// countVariantDecodes returns how many variant decodes f makes.
func countVariantDecodes(t *testing.T, f func()) int {
	n := 0
	variantDecoded = func() { n++ }
	defer func() { variantDecoded = nil }()
	f()
	return n
}

// TestUnionChainDecodeIsLinear: newuser4's G6 chain (40 unions, each
// holding the one below twice) decoded at depth 40 took 2^depth variant
// decodes (depth 21, 129 bytes: 39 s). Each (union, JSON value) pair is
// now tried once per decode, so the variant decodes are at most variants ×
// unions × values: 2 × 40 × 41.
func TestUnionChainDecodeIsLinear(t *testing.T) {
	for _, k := range []int{10, 20, 40} {
		var v c40
		n := countVariantDecodes(t, func() {
			require.NoError(t, json.Unmarshal(chainValue(k, `"x"`), &v))
		})
		require.LessOrEqual(t, n, 2*40*(k+1), "depth %d", k)
		// S40 takes a value nested at most 39 deep as S39 (its first
		// variant) and one 40 deep only as its object variant.
		require.Equal(t, k < 40, v.Prev != nil, "depth %d", k)
		require.Equal(t, k == 40, v.Obj != nil, "depth %d", k)
	}
	// A value no variant fits (a number at the bottom) is refused, as
	// fast, with an error whose text is bounded.
	var v c40
	var err error
	n := countVariantDecodes(t, func() { err = json.Unmarshal(chainValue(20, "5"), &v) })
	require.LessOrEqual(t, n, 2*40*21)
	require.Error(t, err)
	require.LessOrEqual(t, len(err.Error()), 3*maxReasonText)
	require.True(t, strings.HasPrefix(err.Error(), "no variant of S fits the JSON value: tried Prev: no variant of S fits the JSON value: tried Prev: "), err.Error()[:200])
}

// TestUnionChainSameAsBefore: at depths today's decoder finishes in
// milliseconds, the chain decodes to the same value and error text with
// and without the per-decode memo (the old decoder is the oracle).
func TestUnionChainSameAsBefore(t *testing.T) {
	for _, k := range []int{0, 1, 3, 6} {
		for _, leaf := range []string{`"x"`, "5", `{}`, `{"b":"y"}`} {
			body := chainValue(k, leaf)
			var v1, v2 c8
			err1 := json.Unmarshal(body, &v1)
			unionMemoOff = true
			err2 := json.Unmarshal(body, &v2)
			unionMemoOff = false
			require.Equal(t, fmt.Sprint(err2), fmt.Sprint(err1), "%s", body)
			require.Equal(t, v2, v1, "%s", body)
		}
	}
}

// fieldsChain is what retrygen generates for `F(i): {properties: {a:
// F(i-1)}, oneOf: [{type: object, properties: {a: F(i-1), z: string}},
// {type: string}]}`: a union with fields beside its oneOf, decoded twice
// (DecodeFields, then DecodeInto), so the value decoded from a chain d deep
// holds 2^d values.
type fieldsChain[T any] struct {
	A      *T
	V1     *fieldsChainObj[T]
	String *string
	Raw    json.RawMessage
}

type fieldsChainObj[T any] struct {
	A *T      `json:"a,omitzero"`
	Z *string `json:"z,omitzero"`
}

var unionFieldsChain = Union{Name: "F", Variants: []Variant{{Name: "V1", Type: JSONObject}, {Name: "String", Type: JSONString}}}

func (u *fieldsChain[T]) UnmarshalJSON(b []byte) error {
	type fields struct {
		A *T `json:"a,omitzero"`
	}
	var f fields
	if err := DecodeFields(b, &f); err != nil {
		return err
	}
	*u = fieldsChain[T]{A: f.A, Raw: append(json.RawMessage(nil), b...)}
	_, err := unionFieldsChain.DecodeInto(b, &u.V1, &u.String)
	return err
}

type (
	f1  = fieldsChain[string]
	f2  = fieldsChain[f1]
	f3  = fieldsChain[f2]
	f4  = fieldsChain[f3]
	f5  = fieldsChain[f4]
	f6  = fieldsChain[f5]
	f7  = fieldsChain[f6]
	f8  = fieldsChain[f7]
	f9  = fieldsChain[f8]
	f10 = fieldsChain[f9]
	f11 = fieldsChain[f10]
	f12 = fieldsChain[f11]
	f13 = fieldsChain[f12]
	f14 = fieldsChain[f13]
	f15 = fieldsChain[f14]
	f16 = fieldsChain[f15]
	f17 = fieldsChain[f16]
	f18 = fieldsChain[f17]
	f19 = fieldsChain[f18]
	f20 = fieldsChain[f19]
	f21 = fieldsChain[f20]
	f22 = fieldsChain[f21]
	f23 = fieldsChain[f22]
	f24 = fieldsChain[f23]
	f25 = fieldsChain[f24]
	f26 = fieldsChain[f25]
	f27 = fieldsChain[f26]
	f28 = fieldsChain[f27]
	f29 = fieldsChain[f28]
	f30 = fieldsChain[f29]
)

// TestUnionFieldsChainWorkIsBounded: the fields chain's decoded value
// doubles with each level, so no memo makes it linear; a body needing more
// than MaxUnionWork variant decodes per byte (plus 4,096) is refused with
// a *UnionError saying so, after that many. Shallow ones decode as before.
func TestUnionFieldsChainWorkIsBounded(t *testing.T) {
	for _, k := range []int{0, 1, 4, 8} {
		for _, leaf := range []string{`"x"`, "5"} {
			body := chainValue(k, leaf)
			var v1, v2 f8
			err1 := json.Unmarshal(body, &v1)
			unionMemoOff = true
			err2 := json.Unmarshal(body, &v2)
			unionMemoOff = false
			require.Equal(t, fmt.Sprint(err2), fmt.Sprint(err1), "%s", body)
			require.Equal(t, v2, v1, "%s", body)
		}
	}
	body := chainValue(30, `"x"`)
	var v f30
	var err error
	n := countVariantDecodes(t, func() { err = json.Unmarshal(body, &v) })
	var ue *UnionError
	require.True(t, errors.As(err, &ue), "%v", err)
	require.Equal(t, "no variant of (fields beside a oneOf/anyOf) fits the JSON value: tried decoding took more than openapi.MaxUnionWork variant decodes per byte of the value", ue.Error())
	require.LessOrEqual(t, n, 2*(MaxUnionWork*len(body)+4096))
}

// TestUnionMemoSameAsBeforeRapid: random JSON values (objects of a, b, z,
// strings, numbers, arrays, null) decode into the chain, the fields chain
// and the "any JSON value" union to the same value and error text with
// and without decode sessions.
func TestUnionMemoSameAsBeforeRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var gen func(depth int) string
		gen = func(depth int) string {
			switch k := rapid.IntRange(0, 5).Draw(t, "kind"); {
			case k == 0 || depth > 5:
				return rapid.SampledFrom([]string{`"x"`, `"a"`, "5", "null", "true", `""`}).Draw(t, "leaf")
			case k == 1:
				n := rapid.IntRange(0, 3).Draw(t, "n")
				items := make([]string, n)
				for i := range items {
					items[i] = gen(depth + 1)
				}
				return "[" + strings.Join(items, ",") + "]"
			default:
				keys := rapid.SliceOfDistinct(rapid.SampledFrom([]string{"a", "b", "z", "A"}), func(s string) string { return s }).Draw(t, "keys")
				var members []string
				for _, k := range keys {
					members = append(members, `"`+k+`":`+gen(depth+1))
				}
				return "{" + strings.Join(members, ",") + "}"
			}
		}
		body := []byte(gen(0))
		check := func(newV func() any) {
			v1, v2 := newV(), newV()
			err1 := json.Unmarshal(body, v1)
			unionMemoOff = true
			err2 := json.Unmarshal(body, v2)
			unionMemoOff = false
			if fmt.Sprint(err1) != fmt.Sprint(err2) {
				t.Fatalf("%s: error %v, before %v", body, err1, err2)
			}
			if !reflect.DeepEqual(v1, v2) {
				t.Fatalf("%s: %#v, before %#v", body, v1, v2)
			}
		}
		check(func() any { return new(c6) })
		check(func() any { return new(f6) })
		check(func() any { return new(jsonValue) })
	})
}

// objChain is a union whose object variant has properties and
// additionalProperties (openapi.UnmarshalObject, which decodes the extra
// members from copies): `O(i): oneOf: [$ref O(i-1), {type: object,
// properties: {z: string}, additionalProperties: O(i-1)}]`.
type objChain[T any] struct {
	Prev *T
	Obj  *objChainObj[T]
	Raw  json.RawMessage
}

type objChainObj[T any] struct {
	Z                    *string `json:"z,omitzero"`
	AdditionalProperties map[string]T
}

func (o *objChainObj[T]) UnmarshalJSON(b []byte) error {
	type plain objChainObj[T]
	return UnmarshalObject(b, (*plain)(o), &o.AdditionalProperties, "z")
}

var unionObjChain = Union{Name: "O", Variants: []Variant{{Name: "Prev"}, {Name: "Obj", Type: JSONObject, Open: true}}}

func (u *objChain[T]) UnmarshalJSON(b []byte) error {
	return unionObjChain.Unmarshal(b, &u.Raw, &u.Prev, &u.Obj)
}

// TestUnionChainThroughAdditionalProperties: the extra members an object
// decodes from copies stay in the decode session, so the chain is linear
// there too (2^depth variant decodes before).
func TestUnionChainThroughAdditionalProperties(t *testing.T) {
	type (
		o1  = objChain[string]
		o2  = objChain[o1]
		o3  = objChain[o2]
		o4  = objChain[o3]
		o5  = objChain[o4]
		o6  = objChain[o5]
		o7  = objChain[o6]
		o8  = objChain[o7]
		o9  = objChain[o8]
		o10 = objChain[o9]
		o11 = objChain[o10]
		o12 = objChain[o11]
		o13 = objChain[o12]
		o14 = objChain[o13]
		o15 = objChain[o14]
		o16 = objChain[o15]
	)
	body := chainValue(15, `"x"`)
	var v o16
	n := countVariantDecodes(t, func() { require.NoError(t, json.Unmarshal(body, &v)) })
	require.LessOrEqual(t, n, 2*16*16)
	var before o8
	unionMemoOff = true
	err := json.Unmarshal(chainValue(6, `"x"`), &before)
	unionMemoOff = false
	require.NoError(t, err)
	var after o8
	require.NoError(t, json.Unmarshal(chainValue(6, `"x"`), &after))
	require.Equal(t, before, after)
}

// TestUnionSessionsConcurrent: goroutines decoding the same buffer at once
// each get their own session (a union opens it on its own copy of the
// value), so the results are the same and -race sees nothing shared.
func TestUnionSessionsConcurrent(t *testing.T) {
	body := chainValue(12, `"x"`)
	var want c20
	require.NoError(t, json.Unmarshal(body, &want))
	results := make([]c20, 8)
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() { errs[i] = json.Unmarshal(body, &results[i]) })
	}
	wg.Wait()
	for i := range results {
		require.NoError(t, errs[i])
		require.Equal(t, want, results[i])
	}
	require.Zero(t, exactjsonTracked(), "every session ended")
}

func exactjsonTracked() int64 { return exactjson.Tracked() }
