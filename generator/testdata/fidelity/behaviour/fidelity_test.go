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
	if v.Note != nil || v.Owner != nil || v.Labels != nil || !v.DueAt.IsNull() {
		t.Fatalf("nulls decoded as values: %+v", v)
	}
	v = roundTrip[Todo](t, `{"id":"1","note":"","owner":{"name":""},"labels":[],"kind":"x","due_at":"2026-12-01T10:00:00Z"}`)
	if v.Note == nil || *v.Note != "" || v.Owner == nil || v.Labels == nil {
		t.Fatalf("zero values decoded as null: %+v", v)
	}
	if d, ok := v.DueAt.Get(); !ok || !d.Equal(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("due_at = %v, %v", d, ok)
	}
	v = roundTrip[Todo](t, `{"id":"1","note":"n","owner":{"name":"a"},"labels":["x"],"kind":{"any":"json"}}`)
	if v.DueAt != (openapi.Nullable[time.Time]{}) { // absent is the zero value
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
