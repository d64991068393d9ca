package schemaoneofplain

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/retrygen/retrygen/runtime/openapi"
)

func TestVariantsAreTriedInOrder(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"a string is String", `"a"`, "String"},
		{"a number is Int64", `7`, "Int64"},
		{"a list is StringList", `["a"]`, "StringList"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Scalar
			if err := json.Unmarshal([]byte(tt.in), &s); err != nil {
				t.Fatal(err)
			}
			got := ""
			switch {
			case s.String != nil:
				got = "String"
			case s.Int64 != nil:
				got = "Int64"
			case s.Bool != nil:
				got = "Bool"
			case s.StringList != nil:
				got = "StringList"
			}
			if got != tt.want || string(s.Raw) != tt.in {
				t.Fatalf("got %q raw %s", got, s.Raw)
			}
			out, err := json.Marshal(s)
			if err != nil || string(out) != tt.in {
				t.Fatalf("round trip: %s, %v", out, err)
			}
		})
	}
}

// TestNothingFitsIsAnError: a value no variant accepts is an
// *openapi.UnionError naming every variant tried and keeping the JSON.
func TestNothingFitsIsAnError(t *testing.T) {
	var s Scalar
	err := json.Unmarshal([]byte(`{"a":1}`), &s)
	var ue *openapi.UnionError
	if !errors.As(err, &ue) {
		t.Fatalf("got %v", err)
	}
	const want = "no variant of Scalar fits the JSON value: tried String: JSON object, want string; Int64: JSON object, want number; Bool: JSON object, want boolean; StringList: JSON object, want array"
	if err.Error() != want || string(ue.Raw) != `{"a":1}` {
		t.Fatalf("got %q raw %s", err, ue.Raw)
	}
}

// TestUnknownMembersNeverDisqualify: a member the spec does not list keeps
// the object that declares the most of its members.
func TestUnknownMembersNeverDisqualify(t *testing.T) {
	var s Shape
	if err := json.Unmarshal([]byte(`{"w":1,"h":2,"depth":3}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.ShapeCircle != nil || s.ShapeVariant2 == nil || *s.ShapeVariant2.H != 2 {
		t.Fatalf("got %+v", s)
	}
}

func TestTheObjectDeclaringTheMembersWins(t *testing.T) {
	var s Shape
	if err := json.Unmarshal([]byte(`{"w":1,"h":2}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.ShapeCircle != nil || s.ShapeVariant2 == nil || *s.ShapeVariant2.H != 2 {
		t.Fatalf("got %+v", s)
	}
}
