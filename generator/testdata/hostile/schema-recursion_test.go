package schemarecursion

import (
	"encoding/json"
	"testing"
)

// TestRequiredStructsAreValuesExceptTheCycleEdge: A requires B requires C
// requires D requires A. Required $ref objects are plain values; the one
// field that closes the cycle (D.A, visited last) stays a pointer. The
// composite literal only compiles with exactly those types.
func TestRequiredStructsAreValuesExceptTheCycleEdge(t *testing.T) {
	a := A{B: B{C: C{D: D{A: &A{}}}}}
	b, err := json.Marshal(a)
	if err != nil || string(b) != `{"b":{"c":{"d":{"a":{"b":{"c":{"d":{"a":null}}}}}}}}` {
		t.Fatalf("got %s, %v", b, err)
	}
	var n Node
	n.Next = &Node{} // optional: a pointer
	_ = n
}
