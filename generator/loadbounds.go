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
// components, then the paths (parameters, request bodies, responses and
// their headers), each once.
func checkAllOfBound(api *openapi3.T) error {
	c := &allOfCounter{flat: map[*openapi3.Schema]int{}, seen: map[*openapi3.Schema]bool{}}
	if api.Components != nil {
		for _, name := range sortedKeys(api.Components.Schemas) {
			if err := c.visit(api.Components.Schemas[name], "", []string{"components", "schemas", name}); err != nil {
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
			optr := pointer("paths", p, strings.ToLower(method)) // Operations() keys are upper case
			if err := c.visitParams(item.Parameters, pointer("paths", p)); err != nil {
				return err
			}
			if err := c.visitParams(op.Parameters, optr); err != nil {
				return err
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range sortedKeys(op.RequestBody.Value.Content) {
					if m := op.RequestBody.Value.Content[mt]; m != nil {
						if err := c.visit(m.Schema, optr, []string{"requestBody", "content", mt, "schema"}); err != nil {
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
						if err := c.visit(m.Schema, optr, []string{"responses", code, "content", mt, "schema"}); err != nil {
							return err
						}
					}
				}
				for _, h := range sortedKeys(r.Value.Headers) {
					if hr := r.Value.Headers[h]; hr != nil && hr.Value != nil {
						if err := c.visit(hr.Value.Schema, optr, []string{"responses", code, "headers", h, "schema"}); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// visitParams visits the schemas of params, written at base/parameters.
func (c *allOfCounter) visitParams(params openapi3.Parameters, base string) error {
	for i, pr := range params {
		if pr != nil && pr.Value != nil {
			if err := c.visit(pr.Value.Schema, base, []string{"parameters", strconv.Itoa(i), "schema"}); err != nil {
				return err
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

// visit charges every schema below sr, at the pointer base followed by the
// tokens toks, that has an allOf, once. The pointer is built only for an
// error (issue 24: one string per schema was most of this walk's time);
// a child's tokens are appended to toks, whose backing array siblings share.
func (c *allOfCounter) visit(sr *openapi3.SchemaRef, base string, toks []string) error {
	if sr == nil || sr.Value == nil || c.seen[sr.Value] {
		return nil
	}
	s := sr.Value
	c.seen[s] = true
	if p, ok := strings.CutPrefix(sr.Ref, "#"); ok {
		base, toks = p, nil // where the schema is written
	}
	if len(s.AllOf) > 0 {
		if c.total += c.flattened(s); c.total > maxAllOfFields {
			return fmt.Errorf("#%s: flattening this schema's allOf takes the spec past the limit of %d properties that allOf flattening may copy (an allOf chain of n schemas copies n(n+1)/2); refusing it", fragment(base+pointer(toks...)), maxAllOfFields)
		}
	}
	for _, k := range sortedKeys(s.Properties) {
		if err := c.visit(s.Properties[k], base, append(toks, "properties", k)); err != nil {
			return err
		}
	}
	for j, list := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
		for i, m := range list {
			if err := c.visit(m, base, append(toks, [...]string{"allOf", "oneOf", "anyOf"}[j], strconv.Itoa(i))); err != nil {
				return err
			}
		}
	}
	if err := c.visit(s.Items, base, append(toks, "items")); err != nil {
		return err
	}
	return c.visit(s.AdditionalProperties.Schema, base, append(toks, "additionalProperties"))
}

// Bounds on what grows with the nesting of inline schemas (README
// "Limits"): an inline type is named after its ancestors and its doc
// comment ends with its JSON pointer, so 204 KB of nested inline objects
// gave 191 MB of Go. The longest of the real specs are Stripe's: a
// 191-byte name and a 331-byte pointer (GitHub 109 and 226).
const (
	// maxTypeNameLen bounds a generated type's name, in bytes.
	maxTypeNameLen = 512
	// maxSourceLen bounds the JSON pointer a type is generated from (its
	// Source: line), in bytes.
	maxSourceLen = 4096
)

// checkNameBounds returns an error located at the first type whose name
// or source pointer is longer than its bound; a pointer in the message is
// cut to its first 200 bytes.
func checkNameBounds(types []*Type) error {
	short := func(p string) string {
		if len(p) > 200 {
			return fragment(p[:200]) + "…"
		}
		return fragment(p)
	}
	for _, t := range types {
		switch {
		case len(t.Source) > maxSourceLen:
			return fmt.Errorf("#%s: the JSON pointer of this schema is %d bytes, past the limit of %d for a generated type's source (inline schemas nested too deep); refusing it", short(t.Source), len(t.Source), maxSourceLen)
		case len(t.Name) > maxTypeNameLen:
			return fmt.Errorf("#%s: the type generated here would be named with %d bytes (%s…), past the limit of %d (inline schemas nested too deep; give the schema a title or make it a component); refusing it", short(t.Source), len(t.Name), t.Name[:40], maxTypeNameLen)
		}
	}
	return nil
}
