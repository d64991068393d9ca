package generator

import (
	"fmt"
	"strings"
	"testing"
)

// refChainSpec is a spec whose component S0 is a chain of n $refs
// (S0 → S1 → … → Sn, a string), used by one operation.
func refChainSpec(n int) []byte {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /x:\n    get:\n      operationId: x\n      responses:\n        '200':\n          description: ok\n          content: {application/json: {schema: {$ref: '#/components/schemas/S0'}}}\ncomponents:\n  schemas:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "    S%d: {$ref: '#/components/schemas/S%d'}\n", i, i+1)
	}
	fmt.Fprintf(&b, "    S%d: {type: object, properties: {a: {type: string}}}\n", n)
	return []byte(b.String())
}

// BenchmarkRefChain loads a chain of 1k, 10k and 100k $refs (issue 17 item
// 4): time and memory per hop must stay flat as the chain grows.
func BenchmarkRefChain(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		spec := refChainSpec(n)
		b.Run(fmt.Sprintf("hops=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := loadData("chain.yaml", spec, nil, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
