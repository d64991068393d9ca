package openapi

import (
	"encoding/json"
	"errors"
	"testing"
)

// odd is what the generator writes for a schema with properties "id",
// "a,b" (required), `q"` and "" (optional).
type odd struct {
	ID    string  `json:"id"`
	AB    int     `json:"-"`
	Q     *string `json:"-"`
	Empty *bool   `json:"-"`
}

func (v odd) MarshalJSON() ([]byte, error) {
	type plain odd
	b, err := json.Marshal(plain(v))
	return AddMembers(b, err, Member{"a,b", &v.AB, false}, Member{`q"`, &v.Q, true}, Member{"", &v.Empty, true})
}

func (v *odd) UnmarshalJSON(b []byte) error {
	type plain odd
	return DecodeMembers(b, json.Unmarshal(b, (*plain)(v)), Member{"a,b", &v.AB, false}, Member{`q"`, &v.Q, true}, Member{"", &v.Empty, true})
}

// TestMembersRoundTripExactly: members no struct tag can hold decode into
// their fields by their exact names and encode back byte for byte; an
// optional one that is nil is left out, a required one is always written.
func TestMembersRoundTripExactly(t *testing.T) {
	for _, body := range []string{
		`{"":true,"a,b":7,"id":"x","q\"":"y"}`,
		`{"a,b":0,"id":"x"}`,
	} {
		var v odd
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != body {
			t.Errorf("round trip of %s: got %s", body, got)
		}
	}
	var v odd
	if err := json.Unmarshal([]byte(`{"a,b":7,"id":"x","q\"":"y"}`), &v); err != nil || v.AB != 7 || *v.Q != "y" || v.Empty != nil || v.ID != "x" {
		t.Fatalf("decoded %+v, %v", v, err)
	}
	if got, _ := json.Marshal(odd{}); string(got) != `{"a,b":0,"id":""}` {
		t.Errorf("zero value: got %s", got)
	}
	if err := json.Unmarshal([]byte(`{"a,b":"seven"}`), &v); err == nil || err.Error() != "json: cannot unmarshal string into Go value of type int" {
		t.Errorf("wrong type: got %v", err)
	}
	if err := json.Unmarshal([]byte(`null`), &v); err != nil || v.AB != 7 {
		t.Errorf("null: got %v, %+v", err, v)
	}
	if err := json.Unmarshal([]byte(`[1]`), &v); err == nil {
		t.Error("an array decoded into a struct")
	}
}

// TestAddMembersLeavesNonObjects: a union's variant that is not an object
// (a string, an array) is returned unchanged; an error passed in is
// returned before anything is read.
func TestAddMembersLeavesNonObjects(t *testing.T) {
	x := "x"
	for _, in := range []string{`"s"`, `[1]`, ` 3`} {
		got, err := AddMembers([]byte(in), nil, Member{Name: "a,b", Field: &x})
		if err != nil || string(got) != in {
			t.Errorf("AddMembers(%s): %s, %v", in, got, err)
		}
	}
	want := errors.New("boom")
	if got, err := AddMembers([]byte(`{}`), want, Member{Name: "a,b", Field: &x}); got != nil || err != want {
		t.Errorf("error passed in: %s, %v", got, err)
	}
	if err := DecodeMembers([]byte(`{"a,b":"y"}`), want, Member{Name: "a,b", Field: &x}); err != want || x != "x" {
		t.Errorf("DecodeMembers with an error: %v, %q", err, x)
	}
}

// TestUnmarshalMatchesNamesExactly: openapi.Unmarshal, which a generated
// type's UnmarshalJSON calls for its plain fields, fills a field only from
// the member spelled as its name (trial F16).
func TestUnmarshalMatchesNamesExactly(t *testing.T) {
	var v struct {
		V string `json:"v"`
	}
	if err := Unmarshal([]byte(`{"V":"undeclared"}`), &v); err != nil || v.V != "" {
		t.Fatalf("%q, %v", v.V, err)
	}
	if err := Unmarshal([]byte(`{"v":"real","V":"undeclared"}`), &v); err != nil || v.V != "real" {
		t.Fatalf("%q, %v", v.V, err)
	}
}
