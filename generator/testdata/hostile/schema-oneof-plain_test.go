package schemaoneofplain

import (
	"encoding/json"
	"testing"
)

func TestVariantsAreTriedInOrder(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"a string is String", `"a"`, "String"},
		{"a number is Int64", `7`, "Int64"},
		{"a list is StringList", `["a"]`, "StringList"},
		{"nothing fits: only Raw", `{"a":1}`, ""},
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

func TestStrictDecodingPicksTheObjectThatFits(t *testing.T) {
	var s Shape
	if err := json.Unmarshal([]byte(`{"w":1,"h":2}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.ShapeCircle != nil || s.ShapeVariant2 == nil || *s.ShapeVariant2.H != 2 {
		t.Fatalf("got %+v", s)
	}
}
