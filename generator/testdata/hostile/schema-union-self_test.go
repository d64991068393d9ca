package schemaunionself

import (
	"encoding/json"
	"testing"
)

// TestSelfReachingUnionsDecode: U's variant U and W's variant V lead back
// to their own union with no object or array in between (F9 of the second
// new-user trial: the decoder recursed until the stack overflowed). The
// generator drops those variants, so each value decodes into the variant
// that holds it and re-encodes as received.
func TestSelfReachingUnionsDecode(t *testing.T) {
	for _, body := range []string{`{"u":"x"}`, `{"v":5}`, `{"v":true}`, `{"w":true}`} {
		var s S
		if err := json.Unmarshal([]byte(body), &s); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		b, err := json.Marshal(s)
		if err != nil || string(b) != body {
			t.Fatalf("%s: re-encoded %s, %v", body, b, err)
		}
	}
	var s S
	if err := json.Unmarshal([]byte(`{"u":"x","v":true}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.U == nil || s.U.String == nil || *s.U.String != "x" || s.V == nil || s.V.W == nil || s.V.W.Bool == nil || !*s.V.W.Bool {
		t.Fatalf("decoded %+v", s)
	}
}
