package generator

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestUnionTiesDAGLinear: the "fit the same values" check follows nested
// unions; over a union whose variants are unions sharing variants (a DAG
// 8 deep, 10 wide) it compared every path, 10^8 of them (22 s on the
// generator's CLI). Each pair of types at each depth is compared once
// (review).
func TestUnionTiesDAGLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString(`openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /x:
    get:
      operationId: G
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Top'}}}}
components:
  schemas:
    Top: {oneOf: [{$ref: '#/components/schemas/U1_0'}, {$ref: '#/components/schemas/P'}]}
    P: {type: object, required: [zz], properties: {zz: {type: integer}}}
`)
	const width, depth = 10, 10
	for d := 1; d < depth; d++ {
		for w := range width {
			if d == depth-1 {
				fmt.Fprintf(&b, "    U%d_%d: {type: object, required: [p%d], properties: {p%d: {type: string}}}\n", d, w, w, w)
				continue
			}
			var refs []string
			for k := range width {
				refs = append(refs, fmt.Sprintf("{$ref: '#/components/schemas/U%d_%d'}", d+1, k))
			}
			fmt.Fprintf(&b, "    U%d_%d: {oneOf: [%s]}\n", d, w, strings.Join(refs, ", "))
		}
	}
	start := time.Now()
	_, _, err := load(t, b.String())
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("loading took %v", d)
	}
}
