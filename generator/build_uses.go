package generator

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// componentUses counts, once per spec, the references to each component
// schema (by name) made anywhere other than as the whole schema of a 2xx
// response: from other schemas (properties, items, allOf/oneOf/anyOf, not,
// additionalProperties, at any depth), parameters, request bodies, response
// headers and non-2xx responses. A component with no such use is an output
// shape dedicated to its operations (AWS's GetItemOutput); one with uses is
// a shared type (a REST resource such as Pet) and is embedded in an
// operation's own output struct instead (see builder.output). Callbacks and
// webhooks are not scanned.
func componentUses(api *openapi3.T) map[string]int {
	u := usesCounter{uses: map[string]int{}, seen: map[*openapi3.Schema]bool{}}
	if api.Components != nil {
		for _, name := range sortedKeys(api.Components.Schemas) {
			if sr := api.Components.Schemas[name]; sr != nil {
				u.schema(sr.Value)
			}
		}
	}
	if api.Paths == nil {
		return u.uses
	}
	for _, item := range api.Paths.Map() {
		u.params(item.Parameters)
		for _, op := range item.Operations() {
			u.operation(op)
		}
	}
	return u.uses
}

// usesCounter walks a spec counting component references; seen stops it
// from walking an inline schema twice (kin-openapi shares resolved values).
type usesCounter struct {
	uses map[string]int
	seen map[*openapi3.Schema]bool
}

// operation counts the references of op's parameters, request body and
// responses; a 2xx response's schema counts only when it is inline (the
// components inside it are uses).
func (u *usesCounter) operation(op *openapi3.Operation) {
	u.params(op.Parameters)
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		u.content(op.RequestBody.Value.Content)
	}
	if op.Responses == nil {
		return
	}
	for code, r := range op.Responses.Map() {
		if r == nil || r.Value == nil {
			continue
		}
		for _, h := range r.Value.Headers {
			if h != nil && h.Value != nil {
				u.ref(h.Value.Schema)
				u.content(h.Value.Content)
			}
		}
		if !is2xx(code) {
			u.content(r.Value.Content)
			continue
		}
		for _, mt := range r.Value.Content {
			if mt != nil && mt.Schema != nil && !strings.HasPrefix(mt.Schema.Ref, componentPrefix) {
				u.schema(mt.Schema.Value)
			}
		}
	}
}

func (u *usesCounter) params(ps openapi3.Parameters) {
	for _, p := range ps {
		if p != nil && p.Value != nil {
			u.ref(p.Value.Schema)
			u.content(p.Value.Content)
		}
	}
}

func (u *usesCounter) content(c openapi3.Content) {
	for _, mt := range c {
		if mt != nil {
			u.ref(mt.Schema)
		}
	}
}

// ref counts sr when it references a component, else walks its schema.
func (u *usesCounter) ref(sr *openapi3.SchemaRef) {
	if sr == nil {
		return
	}
	if name, ok := strings.CutPrefix(sr.Ref, componentPrefix); ok {
		u.uses[name]++
		return
	}
	u.schema(sr.Value)
}

// schema counts the references made inside s.
func (u *usesCounter) schema(s *openapi3.Schema) {
	if s == nil || u.seen[s] {
		return
	}
	u.seen[s] = true
	subschemas(s, u.ref)
}

// subschemas calls f with each schema the builder reads inside s:
// properties, items, not, additionalProperties, allOf, oneOf, anyOf and
// prefixItems (f gets nil for those absent).
func subschemas(s *openapi3.Schema, f func(*openapi3.SchemaRef)) {
	for _, p := range s.Properties {
		f(p)
	}
	f(s.Items)
	f(s.Not)
	f(s.AdditionalProperties.Schema)
	for _, list := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf, s.PrefixItems} {
		for _, m := range list {
			f(m)
		}
	}
}
