package generator

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// maxAllOfFields bounds the work of flattening allOf (README "Limits"):
// the properties the builder copies into the types of all schemas with an
// allOf, each counting its own properties and, again, those of every
// member it flattens. An allOf chain of n schemas, each adding one
// property, copies n(n+1)/2: 20,100 at n = 200, 2,001,000 at n = 2,000,
// which ran out of memory. 262,144 admits a chain of 723; real specs copy
// a few thousand (DynamoDB's allOf of a $ref and a description: one level).
const maxAllOfFields = 1 << 18

// checkAllOfBound refuses a spec whose allOf flattening would copy more
// than maxAllOfFields properties, with an error located at the schema
// whose flattening passes the limit. Schemas are visited from the
// components, then the paths, each once.
func checkAllOfBound(api *openapi3.T) error {
	c := &allOfCounter{flat: map[*openapi3.Schema]int{}, seen: map[*openapi3.Schema]bool{}}
	if api.Components != nil {
		for _, name := range sortedKeys(api.Components.Schemas) {
			if err := c.visit(api.Components.Schemas[name], pointer("components", "schemas", name)); err != nil {
				return err
			}
		}
	}
	if api.Paths == nil {
		return nil
	}
	for _, p := range sortedKeys(api.Paths.Map()) {
		item := api.Paths.Value(p)
		for _, method := range sortedKeys(item.Operations()) {
			op := item.Operations()[method]
			optr := pointer("paths", p, method)
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range sortedKeys(op.RequestBody.Value.Content) {
					if m := op.RequestBody.Value.Content[mt]; m != nil {
						if err := c.visit(m.Schema, optr+pointer("requestBody", "content", mt, "schema")); err != nil {
							return err
						}
					}
				}
			}
			if op.Responses == nil {
				continue
			}
			for _, code := range sortedKeys(op.Responses.Map()) {
				r := op.Responses.Value(code)
				if r == nil || r.Value == nil {
					continue
				}
				for _, mt := range sortedKeys(r.Value.Content) {
					if m := r.Value.Content[mt]; m != nil {
						if err := c.visit(m.Schema, optr+pointer("responses", code, "content", mt, "schema")); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// allOfCounter counts, for checkAllOfBound, the properties allOf
// flattening copies.
type allOfCounter struct {
	flat  map[*openapi3.Schema]int // properties of a schema, its allOf flattened
	seen  map[*openapi3.Schema]bool
	total int
}

// flattened returns the properties s has once its allOf members are
// flattened into it (memoized; a cycle counts 0: the builder reports it).
func (c *allOfCounter) flattened(s *openapi3.Schema) int {
	if n, ok := c.flat[s]; ok {
		return n
	}
	c.flat[s] = 0
	n := len(s.Properties)
	for _, m := range s.AllOf {
		if m != nil && m.Value != nil {
			n = min(n+c.flattened(m.Value), maxAllOfFields+1)
		}
	}
	c.flat[s] = n
	return n
}

// visit charges every schema below sr (at ptr) that has an allOf, once.
func (c *allOfCounter) visit(sr *openapi3.SchemaRef, ptr string) error {
	if sr == nil || sr.Value == nil || c.seen[sr.Value] {
		return nil
	}
	s := sr.Value
	c.seen[s] = true
	if p, ok := strings.CutPrefix(sr.Ref, "#"); ok {
		ptr = p // where the schema is written
	}
	if len(s.AllOf) > 0 {
		if c.total += c.flattened(s); c.total > maxAllOfFields {
			return fmt.Errorf("#%s: flattening this schema's allOf takes the spec past the limit of %d properties that allOf flattening may copy (an allOf chain of n schemas copies n(n+1)/2); refusing it", fragment(ptr), maxAllOfFields)
		}
	}
	for _, k := range sortedKeys(s.Properties) {
		if err := c.visit(s.Properties[k], child(child(ptr, "properties"), k)); err != nil {
			return err
		}
	}
	for j, list := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
		for i, m := range list {
			if err := c.visit(m, child(child(ptr, [...]string{"allOf", "oneOf", "anyOf"}[j]), strconv.Itoa(i))); err != nil {
				return err
			}
		}
	}
	if err := c.visit(s.Items, child(ptr, "items")); err != nil {
		return err
	}
	return c.visit(s.AdditionalProperties.Schema, child(ptr, "additionalProperties"))
}
