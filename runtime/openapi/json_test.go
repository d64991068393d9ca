package openapi

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// customer and deletedCustomer are shaped like Stripe's Customer and
// DeletedCustomer (spec3.json of stripe-mock v0.203.0), cut down.
type customer struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	Email   *string
}

type deletedCustomer struct {
	Deleted bool   `json:"deleted"`
	ID      string `json:"id"`
	Object  string `json:"object"`
}

var unionCustomer = Union{Name: "CustomerOrDeleted", Variants: []Variant{
	{Name: "Customer", Type: JSONObject, Required: []string{"created", "id", "object"}, Const: []string{"object", `"customer"`},
		Properties: []string{"created", "email", "id", "object"}},
	{Name: "DeletedCustomer", Type: JSONObject, Required: []string{"deleted", "id", "object"}, Const: []string{"deleted", "true", "object", `"customer"`},
		Properties: []string{"deleted", "id", "object"}},
	{Name: "String", Type: JSONString},
}}

func decodeCustomer(b string) (c *customer, d *deletedCustomer, s *string, i int, err error) {
	i, err = unionCustomer.Decode([]byte(b), Into(&c), Into(&d), Into(&s))
	return
}

func TestUnionDecode(t *testing.T) {
	t.Run("required properties choose Customer; an unknown member does not disqualify it", func(t *testing.T) {
		c, d, s, i, err := decodeCustomer(`{"id":"cus_1","object":"customer","created":1,"new_field_2027":{"x":1}}`)
		require.NoError(t, err)
		require.Equal(t, 0, i)
		require.Equal(t, &customer{ID: "cus_1", Object: "customer", Created: 1}, c)
		require.Nil(t, d)
		require.Nil(t, s)
	})
	t.Run("const deleted=true chooses DeletedCustomer", func(t *testing.T) {
		c, d, _, i, err := decodeCustomer(`{"id":"cus_1","object":"customer","deleted":true}`)
		require.NoError(t, err)
		require.Equal(t, 1, i)
		require.Nil(t, c)
		require.Equal(t, &deletedCustomer{Deleted: true, ID: "cus_1", Object: "customer"}, d)
	})
	t.Run("the JSON type chooses String", func(t *testing.T) {
		_, _, s, i, err := decodeCustomer(`"cus_1"`)
		require.NoError(t, err)
		require.Equal(t, 2, i)
		require.Equal(t, "cus_1", *s)
	})
	t.Run("null sets nothing", func(t *testing.T) {
		c, d, s, i, err := decodeCustomer(`null`)
		require.NoError(t, err)
		require.Equal(t, -1, i)
		require.True(t, c == nil && d == nil && s == nil)
	})
	t.Run("no variant fits: a UnionError naming every variant, the JSON kept, nothing set", func(t *testing.T) {
		const body = `{"id":"cus_1","object":"customer","deleted":false}`
		c, d, s, i, err := decodeCustomer(body)
		require.Equal(t, -1, i)
		require.True(t, c == nil && d == nil && s == nil)
		var ue *UnionError
		require.True(t, errors.As(err, &ue))
		require.Equal(t, body, string(ue.Raw))
		require.EqualError(t, err, `no variant of CustomerOrDeleted fits the JSON value: tried Customer: missing required "created"; `+
			`DeletedCustomer: "deleted" is false, must be true; String: JSON object, want string`)
	})
	t.Run("a variant that fits but does not decode is skipped for the next", func(t *testing.T) {
		u := Union{Name: "U", Variants: []Variant{{Name: "A", Type: JSONObject}, {Name: "B", Type: JSONObject, Open: true}}}
		var a *struct{ X int }
		var b *map[string]any
		i, err := u.Decode([]byte(`{"X":"not a number"}`), Into(&a), Into(&b))
		require.NoError(t, err)
		require.Equal(t, 1, i)
		require.Nil(t, a, "a rejected variant leaves no partial value")
		require.Equal(t, map[string]any{"X": "not a number"}, *b)
	})
}

func TestUnionDecodeDiscriminator(t *testing.T) {
	type cat struct {
		PetType string `json:"petType"`
		Meows   bool   `json:"meows"`
	}
	type dog struct {
		PetType string `json:"petType"`
		Barks   bool   `json:"barks"`
	}
	u := Union{Name: "Pet", Discriminator: "petType", Variants: []Variant{
		{Name: "Cat", Tags: []string{"Cat", "kitty"}, Type: JSONObject, Properties: []string{"meows", "petType"}},
		{Name: "Dog", Tags: []string{"Dog"}, Type: JSONObject, Properties: []string{"barks", "petType"}},
	}}
	for _, tc := range []struct {
		name, body string
		want       int
	}{
		{"a mapping key selects, whatever the members", `{"petType":"kitty","barks":true}`, 0},
		{"the schema name selects", `{"petType":"Dog","meows":true}`, 1},
		{"an unknown value sets no variant, even one it fits", `{"petType":"x","barks":true}`, -1},
		{"an empty value names no variant either", `{"petType":"","meows":true}`, -1},
		{"no discriminator property: the variant declaring the most members", `{"barks":true}`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c *cat
			var d *dog
			i, err := u.Decode([]byte(tc.body), Into(&c), Into(&d))
			require.NoError(t, err)
			require.Equal(t, tc.want, i)
			require.Equal(t, tc.want == 0, c != nil)
			require.Equal(t, tc.want == 1, d != nil)
		})
	}
	var c *cat
	var d *dog
	_, err := u.Decode([]byte(`{"petType":"Dog","barks":"loud"}`), Into(&c), Into(&d))
	require.EqualError(t, err, `no variant of Pet fits the JSON value: tried Dog (discriminator petType="Dog"): json: cannot unmarshal string into Go struct field dog.barks of type bool`)
}

// A oneOf with a discriminator whose value names no variant sets none and
// keeps the value whole (the generated UnmarshalJSON keeps it in Raw, and
// MarshalUnion writes it back byte for byte), never a wrong variant
// (newuser.md item 3). A member without tags (an inline schema, which no
// discriminator value can name) can still take such a value by its shape.
func TestUnionDecodeUnknownDiscriminatorValue(t *testing.T) {
	type cat struct {
		PetType string `json:"petType"`
		Meow    *bool  `json:"meow,omitempty"`
	}
	type dog struct {
		PetType string `json:"petType"`
		Bark    *bool  `json:"bark,omitempty"`
	}
	type pet struct {
		Cat *cat
		Dog *dog
		Raw json.RawMessage
	}
	u := Union{Name: "Pet", Discriminator: "petType", Variants: []Variant{
		{Name: "Cat", Tags: []string{"Cat", "cat"}, Type: JSONObject, Required: []string{"petType"}, Properties: []string{"meow", "petType"}},
		{Name: "Dog", Tags: []string{"Dog", "dog"}, Type: JSONObject, Required: []string{"petType"}, Properties: []string{"bark", "petType"}},
	}}
	for body, want := range map[string]int{
		`{"petType":"bird","wings":2}`:   -1,
		`{"petType":"bird","meow":true}`: -1,
		`{"petType":"dog","bark":true}`:  1,
		`{"petType":"cat"}`:              0,
	} {
		p := pet{Raw: append(json.RawMessage(nil), body...)}
		i, err := u.DecodeInto([]byte(body), &p.Cat, &p.Dog)
		require.NoError(t, err, body)
		require.Equal(t, want, i, body)
		require.Equal(t, want == 0, p.Cat != nil, body)
		require.Equal(t, want == 1, p.Dog != nil, body)
		out, err := MarshalUnion(p.Raw, p.Cat, p.Dog)
		require.NoError(t, err)
		require.Equal(t, body, string(out), "the value re-encodes byte for byte")
	}

	withInline := Union{Name: "Shape", Discriminator: "kind", Variants: []Variant{
		{Name: "Circle", Tags: []string{"Circle"}, Type: JSONObject, Required: []string{"kind", "r"}, Properties: []string{"kind", "r"}},
		{Name: "ShapeVariant2", Type: JSONObject, Required: []string{"kind", "w"}, Properties: []string{"kind", "w"}},
	}}
	var c, s *map[string]any
	i, err := withInline.DecodeInto([]byte(`{"kind":"square","w":2}`), &c, &s)
	require.NoError(t, err)
	require.Equal(t, 1, i, "an untagged member still takes a value its shape fits")
	c, s = nil, nil
	i, err = withInline.DecodeInto([]byte(`{"kind":"square","r":2}`), &c, &s)
	require.NoError(t, err)
	require.Equal(t, -1, i, "the tagged member is not tried for a value naming another")
	require.Nil(t, c)
	require.Nil(t, s)
	i, err = withInline.DecodeInto([]byte(`{"kind":null,"r":2}`), &c, &s)
	require.NoError(t, err)
	require.Equal(t, 0, i, "a null discriminator names nothing: chosen by shape")
}

// A base schema's union (DiscriminatorOnly) decodes by the discriminator
// only: an object naming no member, or none at all, sets no member and is
// no error; a value that is not an object still is.
func TestUnionDecodeDiscriminatorOnly(t *testing.T) {
	type dog struct {
		PetType string `json:"petType"`
		Barks   bool   `json:"barks"`
	}
	u := Union{Name: "Pet", Discriminator: "petType", DiscriminatorOnly: true, Variants: []Variant{
		{Name: "Dog", Tags: []string{"Dog"}, Type: JSONObject, Properties: []string{"barks", "petType"}},
	}}
	for body, want := range map[string]int{
		`{"petType":"Dog","barks":true}`:    0,
		`{"petType":"parrot","barks":true}`: -1, // would fit Dog by its members
		`{"barks":true}`:                    -1,
	} {
		var d *dog
		i, err := u.Decode([]byte(body), Into(&d))
		require.NoError(t, err, body)
		require.Equal(t, want, i, body)
		require.Equal(t, want == 0, d != nil, body)
	}
	var d *dog
	_, err := u.Decode([]byte(`"Dog"`), Into(&d))
	require.EqualError(t, err, `no variant of Pet fits the JSON value: tried Dog: JSON string, want object`)
}

func TestObjectWithAdditionalProperties(t *testing.T) {
	type fixed struct {
		A string `json:"a"`
	}
	var f fixed
	var extra map[string]int
	require.NoError(t, UnmarshalObject([]byte(`{"a":"x","b":2,"c":3}`), &f, &extra, "a"))
	require.Equal(t, fixed{A: "x"}, f)
	require.Equal(t, map[string]int{"b": 2, "c": 3}, extra)
	b, err := MarshalObject(f, extra)
	require.NoError(t, err)
	require.Equal(t, `{"a":"x","b":2,"c":3}`, string(b))
	b, err = MarshalObject(f, map[string]int{"a": 9})
	require.NoError(t, err)
	require.Equal(t, `{"a":"x"}`, string(b), "a fixed field wins over an extra member of the same name")
}

// TestUnionErrorThroughEncodingJSON: a union nested in a struct fails the
// whole decode with the *UnionError itself (encoding/json hands
// UnmarshalJSON's error on), so callers find it with errors.As.
func TestUnionErrorThroughEncodingJSON(t *testing.T) {
	var out struct {
		Customer pet `json:"customer"`
	}
	err := json.Unmarshal([]byte(`{"customer":{"id":"cus_1","object":"customer","deleted":false}}`), &out)
	var ue *UnionError
	require.ErrorAs(t, err, &ue)
	require.Equal(t, `{"id":"cus_1","object":"customer","deleted":false}`, string(ue.Raw))
}

// pet is a union type as generated code declares one.
type pet struct {
	Customer        *customer
	DeletedCustomer *deletedCustomer
	String          *string
	Raw             json.RawMessage
}

func (u *pet) UnmarshalJSON(b []byte) error {
	*u = pet{Raw: append(json.RawMessage(nil), b...)}
	_, err := unionCustomer.Decode(b, Into(&u.Customer), Into(&u.DeletedCustomer), Into(&u.String))
	return err
}

func TestUnionDecodeWrongDecoderCount(t *testing.T) {
	u := &Union{Name: "Pet", Variants: []Variant{{Name: "Cat"}, {Name: "Dog"}}}
	var cat *map[string]any
	i, err := u.Decode([]byte(`{"a":1}`), Into(&cat))
	require.Equal(t, -1, i)
	require.EqualError(t, err, "openapi: union Pet: 1 decoders for 2 variants")
	require.Nil(t, cat)
}

// Variants told apart by a multi-value enum of one property (issue 19):
// {"type":"klarna"} is Klarna, never the first variant that fits its JSON
// type; a value neither enum holds fits no variant.
func TestUnionDecodeEnumMembership(t *testing.T) {
	type klarna struct {
		Type string `json:"type"`
	}
	type afterpay struct {
		Type string `json:"type"`
	}
	u := Union{Name: "Payment", Variants: []Variant{
		{Name: "Afterpay", Type: JSONObject, Required: []string{"type"}, Enum: []string{"type", `["afterpay"]`}, Properties: []string{"type"}},
		{Name: "Klarna", Type: JSONObject, Required: []string{"type"}, Enum: []string{"type", `["klarna","klarna_account"]`}, Properties: []string{"type"}},
	}}
	for body, want := range map[string]int{`{"type":"klarna"}`: 1, `{"type":"klarna_account"}`: 1, `{"type":"afterpay"}`: 0} {
		var a *afterpay
		var k *klarna
		i, err := u.Decode([]byte(body), Into(&a), Into(&k))
		require.NoError(t, err, body)
		require.Equal(t, want, i, body)
	}
	var a *afterpay
	var k *klarna
	_, err := u.Decode([]byte(`{"type":"card"}`), Into(&a), Into(&k))
	var ue *UnionError
	require.ErrorAs(t, err, &ue)
	require.Equal(t, []string{`Afterpay: "type" is "card", must be one of ["afterpay"]`, `Klarna: "type" is "card", must be one of ["klarna","klarna_account"]`}, ue.Tried)
}

// Properties beside a oneOf travel with the chosen variant (issue 19).
func TestMergeFields(t *testing.T) {
	type fields struct {
		IsExecutable *bool `json:"isExecutable,omitzero"`
	}
	yes := true
	b, err := MergeFields([]byte(`{"textContent":"x"}`), fields{IsExecutable: &yes})
	require.NoError(t, err)
	require.Equal(t, `{"isExecutable":true,"textContent":"x"}`, string(b))
	b, err = MergeFields([]byte(`null`), fields{IsExecutable: &yes})
	require.NoError(t, err)
	require.Equal(t, `{"isExecutable":true}`, string(b))
	b, err = MergeFields([]byte(`"s"`), fields{IsExecutable: &yes})
	require.NoError(t, err)
	require.Equal(t, `"s"`, string(b))

	var f fields
	require.NoError(t, DecodeFields([]byte(` {"isExecutable":true,"textContent":"x"}`), &f))
	require.True(t, *f.IsExecutable)
	f = fields{}
	require.NoError(t, DecodeFields([]byte(`"s"`), &f))
	require.Nil(t, f.IsExecutable)
}

// DecodeInto (what generated code calls) chooses, fills and rejects exactly
// as Decode with one Into per variant: same index, same error text, same
// values, and a member that failed part-way (a type mismatch after other
// members were decoded) is left nil, not partly filled.
func TestUnionDecodeIntoIsDecodeWithInto(t *testing.T) {
	type cat struct {
		Name  string `json:"name"`
		Lives int    `json:"lives"`
	}
	type dog struct {
		Name  string `json:"name"`
		Barks bool   `json:"barks"`
	}
	u := Union{Name: "Pet", Variants: []Variant{
		{Name: "Cat", Type: JSONObject, Properties: []string{"name", "lives"}},
		{Name: "Dog", Type: JSONObject, Properties: []string{"name", "barks"}},
		{Name: "Names", Type: JSONArray},
		{Name: "String", Type: JSONString},
	}}
	for _, body := range []string{
		`{"name":"tom","lives":9}`, `{"name":"rex","barks":true}`, `{"name":"tom","lives":"nine"}`,
		`{"name":"x","lives":"nine","barks":"loud"}`, `["a","b"]`, `[1]`, `"s"`, ` null `, `12`, `{`,
	} {
		var c1, c2 *cat
		var d1, d2 *dog
		var n1, n2 *[]string
		var s1, s2 *string
		i1, err1 := u.Decode([]byte(body), Into(&c1), Into(&d1), Into(&n1), Into(&s1))
		i2, err2 := u.DecodeInto([]byte(body), &c2, &d2, &n2, &s2)
		require.Equal(t, i1, i2, body)
		if err1 == nil {
			require.NoError(t, err2, body)
		} else {
			require.EqualError(t, err2, err1.Error(), body)
		}
		require.Equal(t, c1, c2, body)
		require.Equal(t, d1, d2, body)
		require.Equal(t, n1, n2, body)
		require.Equal(t, s1, s2, body)
	}
	var c *cat
	var d *dog
	i, err := u.DecodeInto([]byte(`{"name":"tom","lives":"nine"}`), &c, &d, new(*[]string), new(*string))
	require.NoError(t, err)
	require.Equal(t, 1, i, "Cat fails on lives, Dog takes it")
	require.Nil(t, c, "a rejected member leaves no partial value (Cat had its name decoded)")
	require.Equal(t, &dog{Name: "tom"}, d)
}

// TestMarshalUnionWritesFirstSetVariant: the first non-nil variant is
// encoded (a later one is ignored), else Raw, else null — the bytes the
// per-union switch it replaces wrote.
func TestMarshalUnionWritesFirstSetVariant(t *testing.T) {
	s, n := "a", int64(7)
	type obj struct {
		X int `json:"x"`
	}
	for _, tc := range []struct {
		raw      json.RawMessage
		variants []any
		want     string
	}{
		{nil, []any{(*string)(nil), &n}, `7`},
		{nil, []any{&s, &n}, `"a"`},
		{nil, []any{(*string)(nil), &obj{X: 1}}, `{"x":1}`},
		{json.RawMessage(`{"k":true}`), []any{(*string)(nil), (*obj)(nil)}, `{"k":true}`},
		{nil, []any{(*string)(nil), (*obj)(nil)}, `null`},
	} {
		got, err := MarshalUnion(tc.raw, tc.variants...)
		if err != nil || string(got) != tc.want {
			t.Errorf("MarshalUnion(%s, %v) = %s, %v; want %s", tc.raw, tc.variants, got, err, tc.want)
		}
	}
}

// TestUnionUnmarshalResetsAndKeepsRaw: Unmarshal is the generated
// UnmarshalJSON's `*u = T{Raw: copy of b}` then DecodeInto: a variant set
// before is cleared, Raw holds a copy of b (not b itself), and the error
// is DecodeInto's.
func TestUnionUnmarshalResetsAndKeepsRaw(t *testing.T) {
	u := Union{Name: "U", Variants: []Variant{{Name: "String", Type: JSONString}, {Name: "Int", Type: JSONNumber}}}
	old := "old"
	s, n := &old, (*int64)(nil)
	var raw json.RawMessage
	b := []byte(`12`)
	require.NoError(t, u.Unmarshal(b, &raw, &s, &n))
	require.Nil(t, s, "the variant set before is cleared")
	require.Equal(t, int64(12), *n)
	require.Equal(t, `12`, string(raw))
	b[0] = '9'
	require.Equal(t, `12`, string(raw), "Raw is a copy")
	err := u.Unmarshal([]byte(`true`), &raw, &s, &n)
	_, want := u.DecodeInto([]byte(`true`), new(*string), new(*int64))
	require.EqualError(t, err, want.Error())
	require.Nil(t, s)
	require.Nil(t, n, "a value no variant fits leaves every variant nil")
	require.Equal(t, `true`, string(raw))
}

// TestConstTextSendsTheOnlyValueWhenEmpty: empty becomes the const, any
// other value is written as it is (decoding may have stored another).
func TestConstTextSendsTheOnlyValueWhenEmpty(t *testing.T) {
	for v, want := range map[string]string{"": "thing", "thing": "thing", "other": "other"} {
		got, err := ConstText(v, "thing")
		if err != nil || string(got) != want {
			t.Errorf("ConstText(%q) = %q, %v; want %q", v, got, err, want)
		}
	}
}

// TestUnionDecodeNoVariants: a union whose every variant the generator
// dropped (each led back to the union itself) keeps any value in Raw and
// sets no variant: no error, no recursion.
func TestUnionDecodeNoVariants(t *testing.T) {
	u := &Union{Name: "U"}
	for _, b := range []string{`"x"`, `5`, `{"a":1}`, `null`} {
		i, err := u.Decode([]byte(b))
		require.NoError(t, err, b)
		require.Equal(t, -1, i, b)
	}
}

// TestUnionMarshalWritesTags: Union.Marshal writes the set variant as
// MarshalUnion does, then gives it the tags it must carry that the value
// left out or at its zero value: each Const pair, and the discriminator
// value naming the variant (a mapping key before the schema's own name).
// A tag the caller set to another value is kept (trial F11).
func TestUnionMarshalWritesTags(t *testing.T) {
	u := &Union{Name: "Msg", Discriminator: "role", Variants: []Variant{
		{Name: "User", Tags: []string{"User", "user"}, Const: []string{"role", `"user"`}},
		{Name: "Tool", Tags: []string{"Tool", "tool"}},
		{Name: "Row", Const: []string{"type", "1", "kind", `"row"`}},
		{Name: "Text"},
	}}
	type user struct {
		Content string `json:"content"`
		Role    string `json:"role,omitempty"`
	}
	type row struct {
		Kind string `json:"kind"`
		Type int    `json:"type"`
		ID   int    `json:"id,omitempty"`
	}
	text := "plain"
	for _, c := range []struct {
		variants []any
		want     string
	}{
		{[]any{&user{Content: "hi"}, (*user)(nil), (*row)(nil), (*string)(nil)}, `{"role":"user","content":"hi"}`},
		{[]any{(*user)(nil), &user{Content: "x"}, (*row)(nil), (*string)(nil)}, `{"role":"tool","content":"x"}`},
		{[]any{(*user)(nil), &user{Content: "x", Role: "mine"}, (*row)(nil), (*string)(nil)}, `{"content":"x","role":"mine"}`},
		{[]any{(*user)(nil), (*user)(nil), &row{}, (*string)(nil)}, `{"kind":"row","type":1}`},
		{[]any{(*user)(nil), (*user)(nil), &row{ID: 7}, (*string)(nil)}, `{"kind":"row","type":1,"id":7}`},
		{[]any{(*user)(nil), (*user)(nil), (*row)(nil), &text}, `"plain"`},
		{[]any{(*user)(nil), (*user)(nil), (*row)(nil), (*string)(nil)}, `null`},
	} {
		b, err := u.Marshal(nil, c.variants...)
		require.NoError(t, err)
		require.Equal(t, c.want, string(b))
	}
	b, err := (&Union{Name: "E"}).Marshal(json.RawMessage(`{"a":1}`))
	require.NoError(t, err)
	require.Equal(t, `{"a":1}`, string(b))
}
