package fidelity

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/openapi"
)

// roundTrip decodes body into a new T, re-marshals it and requires the
// same JSON value, member by member.
func roundTrip[T any](t *testing.T, body string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var want, got map[string]any
	_ = json.Unmarshal([]byte(body), &want)
	_ = json.Unmarshal(out, &got)
	for k, w := range want {
		g, ok := got[k]
		if !ok || !reflect.DeepEqual(w, g) {
			t.Errorf("member %q: sent %v, re-marshalled %v (present %v)", k, w, g, ok)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("member %q added by re-marshalling: %v", k, got[k])
		}
	}
	return v
}

// Nulls in every form stay null; absent stays absent; zero stays zero.
func TestNullsRoundTrip(t *testing.T) {
	v := roundTrip[Todo](t, `{"id":"1","note":null,"owner":null,"labels":null,"kind":7,"due_at":null}`)
	if v.Note != nil || v.Owner != nil || v.Labels != nil || !openapi.IsNull(v.DueAt) {
		t.Fatalf("nulls decoded as values: %+v", v)
	}
	v = roundTrip[Todo](t, `{"id":"1","note":"","owner":{"name":""},"labels":[],"kind":"x","due_at":"2026-12-01T10:00:00Z"}`)
	if v.Note == nil || *v.Note != "" || v.Owner == nil || v.Labels == nil {
		t.Fatalf("zero values decoded as null: %+v", v)
	}
	if d, ok := openapi.ValueOf(v.DueAt); !ok || !d.Equal(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("due_at = %v, %v", d, ok)
	}
	v = roundTrip[Todo](t, `{"id":"1","note":"n","owner":{"name":"a"},"labels":["x"],"kind":{"any":"json"}}`)
	if !reflect.ValueOf(v.DueAt).IsZero() { // absent is the zero value
		t.Fatal("an absent due_at is not absent")
	}
}

// A request clears a member with openapi.Null, leaves it out with the zero
// value, and sends a value with openapi.NullableOf.
func TestRequestSendsExplicitNull(t *testing.T) {
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"1","note":null,"owner":null,"labels":null,"kind":1,"undeclared":{"a":[1]}}`))
	}))
	defer srv.Close()
	c, err := New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, in := range []*UpdateTodoInput{
		{Id: "1"},
		{Id: "1", Note: openapi.Null[string](), DueAt: openapi.Null[time.Time](), Owner: openapi.Null[Owner]()},
		{Id: "1", Note: openapi.NullableOf(""), Owner: openapi.NullableOf(Owner{Name: "a"})},
	} {
		out, err := c.UpdateTodo(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		// A member the spec does not declare stays reachable, as received.
		if got := string(out.ResultMetadata.Body); got != `{"id":"1","note":null,"owner":null,"labels":null,"kind":1,"undeclared":{"a":[1]}}` {
			t.Fatalf("ResultMetadata.Body = %s", got)
		}
	}
	want := []string{`{}`, `{"due_at":null,"note":null,"owner":null}`, `{"note":"","owner":{"name":"a"}}`}
	if !reflect.DeepEqual(want, bodies) {
		t.Fatalf("bodies sent:\n got %q\nwant %q", bodies, want)
	}
}

// oneOf of const is a typed enum with named constants; a value the spec
// does not list still round-trips.
func TestConstEnum(t *testing.T) {
	if PriorityLow != 1 || PriorityHigh != 2 {
		t.Fatal("constants named by title")
	}
	v := roundTrip[Todo](t, `{"id":"1","note":null,"owner":null,"labels":null,"kind":0,"priority":5}`)
	if *v.Priority != 5 {
		t.Fatalf("priority = %v", *v.Priority)
	}
}

// Variants told apart by a multi-value enum decode as the right variant.
func TestEnumDiscriminatedUnion(t *testing.T) {
	for body, klarna := range map[string]bool{
		`{"type":"klarna","account":"k"}`:         true,
		`{"type":"klarna_account","account":"k"}`: true,
		`{"type":"afterpay","account":"a"}`:       false,
	} {
		p := roundTrip[Payment](t, body)
		if (p.Klarna != nil) != klarna || (p.Afterpay != nil) == klarna {
			t.Errorf("%s: decoded as %+v", body, p)
		}
	}
}

// format: date is openapi.Date, exact on the wire.
func TestDate(t *testing.T) {
	v := roundTrip[Todo](t, `{"id":"1","note":null,"owner":null,"labels":null,"kind":0,"born":"2024-02-29"}`)
	if *v.Born != (openapi.Date{Year: 2024, Month: 2, Day: 29}) {
		t.Fatalf("born = %v", v.Born)
	}
	var bad Todo
	if json.Unmarshal([]byte(`{"born":"2024-02-30"}`), &bad) == nil {
		t.Fatal("an impossible date decoded")
	}
}

// Properties beside a oneOf are fields next to the variants: decoded from
// and encoded into the same object.
func TestPropertiesBesideOneOf(t *testing.T) {
	a := roundTrip[SkillAsset](t, `{"textContent":"x","isExecutable":true}`)
	if a.SkillAssetTextContent == nil || a.SkillAssetTextContent.TextContent != "x" || a.IsExecutable == nil || !*a.IsExecutable {
		t.Fatalf("decoded %+v", a)
	}
	yes := false
	b, err := json.Marshal(SkillAsset{SkillAssetRawContent: &SkillAssetRawContent{RawContent: []byte("hi")}, IsExecutable: &yes})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"isExecutable":false,"rawContent":"aGk="}` {
		t.Fatalf("encoded %s", b)
	}
}

// A variant's property limited to one value of a referenced enum (an enum
// beside allOf, or a const or enum inside it: Discord's automod actions and
// scheduled events) tells the variants apart: each value decodes as its
// variant and round-trips, adding nothing (no "location": "" for a stage
// event).
func TestEnumBesideOrInsideAllOf(t *testing.T) {
	for body, want := range map[string]string{
		`{"type":1,"metadata":{"custom_message":"m"}}`: "block",
		`{"type":2,"metadata":{"channel_id":"c"}}`:     "flag",
		`{"type":4,"metadata":{}}`:                     "quarantine",
	} {
		a := roundTrip[Action](t, body)
		got := map[bool]string{true: "block"}[a.BlockAction != nil] + map[bool]string{true: "flag"}[a.FlagAction != nil] + map[bool]string{true: "quarantine"}[a.QuarantineAction != nil]
		if got != want {
			t.Errorf("%s decoded as %q, want %q", body, got, want)
		}
	}
	for body, stage := range map[string]bool{
		`{"entity_type":1,"entity_metadata":{}}`:                  true,
		`{"entity_type":3,"entity_metadata":{"location":"here"}}`: false,
	} {
		e := roundTrip[Event](t, body)
		if (e.StageEvent != nil) != stage || (e.ExternalEvent != nil) == stage {
			t.Errorf("%s: decoded as %+v", body, e)
		}
	}
}

// A base schema with a discriminator is a union of the schemas that allOf
// it, chosen by the discriminator (its mapping, else the schema's name);
// the base's members are readable whatever the variant, and a value naming
// no subtype is kept whole with its discriminator readable.
func TestBaseDiscriminator(t *testing.T) {
	d := roundTrip[Pet](t, `{"petType":"dog","name":"rex","bark":true}`)
	if d.Dog == nil || d.Dog.Bark == nil || !*d.Dog.Bark || d.Name != "rex" || d.PetType != "dog" || d.Cat != nil {
		t.Fatalf("dog decoded as %+v", d)
	}
	c := roundTrip[Pet](t, `{"petType":"Cat","name":"tom","lives":9}`)
	if c.Cat == nil || c.Cat.Lives != 9 || c.Dog != nil {
		t.Fatalf("cat decoded as %+v", c)
	}
	k := roundTrip[Pet](t, `{"petType":"Kitten","name":"kit","lives":9,"mother":{"petType":"Cat","name":"tom","lives":3}}`)
	if k.Kitten == nil || k.Kitten.Mother == nil || k.Kitten.Mother.Cat == nil || k.Kitten.Mother.Cat.Lives != 3 {
		t.Fatalf("kitten decoded as %+v", k)
	}
	for _, body := range []string{
		`{"petType":"parrot","name":"polly","words":12}`, // a subtype the spec does not know
		`{"petType":"pet","name":"any"}`,                 // the base itself
	} {
		u := roundTrip[Pet](t, body)
		if u.Dog != nil || u.Cat != nil || u.Kitten != nil || u.Name == "" {
			t.Fatalf("%s decoded as %+v", body, u)
		}
	}
	if u := roundTrip[Pet](t, `{"petType":"parrot","name":"polly"}`); u.PetType != "parrot" {
		t.Fatalf("discriminator unreadable: %+v", u)
	}
	b, err := json.Marshal(Pet{Dog: &Dog{PetType: "dog", Name: "rex"}})
	if err != nil || string(b) != `{"name":"rex","petType":"dog"}` {
		t.Fatalf("encoded %s, %v", b, err)
	}
	v := roundTrip[Todo](t, `{"id":"1","note":null,"owner":null,"labels":null,"kind":0,"pets":[{"petType":"dog","name":"a"},{"petType":"Cat","name":"b","lives":1}]}`)
	if len(v.Pets) != 2 || v.Pets[0].Dog == nil || v.Pets[1].Cat == nil {
		t.Fatalf("pets decoded as %+v", v.Pets)
	}
}

// Array items and map values that may be null are pointers (slices and
// maps are nil already): null elements round-trip as null, zero values as
// zero values.
func TestNullElements(t *testing.T) {
	v := roundTrip[Todo](t, `{"id":"1","note":null,"owner":null,"labels":null,"kind":0,
		"scores":[1,null,0],"owners":[null,{"name":"a"}],"names":["",null],"kinds":[2,null],
		"grid":[null,[null,"x"],[]],"ratings":{"a":null,"b":0.5},
		"meta":{"a":"x","o":null,"p":{"name":"b"}}}`)
	if v.Scores[1] != nil || *v.Scores[2] != 0 || v.Owners[0] != nil || v.Owners[1].Name != "a" ||
		v.Names[1] != nil || *v.Names[0] != "" || v.Kinds[1] != nil || *v.Kinds[0] != PriorityHigh ||
		v.Grid[0] != nil || v.Grid[1][0] != nil || v.Grid[2] == nil || v.Ratings["a"] != nil || *v.Ratings["b"] != 0.5 {
		t.Fatalf("decoded %+v", v)
	}
	if m := v.Meta; m == nil || m.AdditionalProperties["o"] != nil || m.AdditionalProperties["p"].Name != "b" {
		t.Fatalf("meta decoded as %+v", v.Meta)
	}
	if m, err := json.Marshal(Meta{AdditionalProperties: map[string]*Owner{"o": nil}}); err != nil || string(m) != `{"o":null}` {
		t.Fatalf("meta encoded %s, %v", m, err)
	}
}

// A base schema's union travels as a request body and back.
func TestBaseDiscriminatorRequest(t *testing.T) {
	var sent string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		sent = string(b)
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	defer srv.Close()
	c, err := New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	in := Pet{Cat: &Cat{PetType: "Cat", Name: "tom", Lives: 9}}
	out, err := c.AddPet(context.Background(), &in)
	if err != nil {
		t.Fatal(err)
	}
	if sent != `{"lives":9,"name":"tom","petType":"Cat"}` || out.Cat == nil || out.Cat.Lives != 9 || out.Name != "tom" {
		t.Fatalf("sent %s, got %+v", sent, out.Pet)
	}
}
