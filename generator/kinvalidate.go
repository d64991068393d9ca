package generator

import (
	"github.com/getkin/kin-openapi/openapi3"
)

// schemaStubs makes kin-openapi's document validation visit every schema
// once. Its Validate memoizes schemas only within one top-level schema, so
// every operation's responses revalidate the whole graph their $refs reach:
// on Stripe's spec (594 operations, deeply shared schemas) that was 43% of
// generation time. While stubbed, a $ref to a component schema points at an
// empty schema; each component is still validated once, where it is
// declared. restore puts every reference back.
type schemaStubs struct {
	components map[*openapi3.Schema]bool // the component schemas, validated where declared
	seen       map[*openapi3.Schema]bool // schemas whose children were stubbed
	saved      []stubbed
}

type stubbed struct {
	ref   *openapi3.SchemaRef
	value *openapi3.Schema
}

// emptySchema stands in for a component schema during validation.
var emptySchema = &openapi3.Schema{}

// stubSchemaRefs stubs the $refs to component schemas in api.
func stubSchemaRefs(api *openapi3.T) *schemaStubs {
	s := &schemaStubs{components: map[*openapi3.Schema]bool{}, seen: map[*openapi3.Schema]bool{}}
	c := api.Components
	if c == nil {
		return s
	}
	for _, r := range c.Schemas {
		if r != nil && r.Value != nil && r.Ref == "" {
			s.components[r.Value] = true
		}
	}
	for _, r := range c.Schemas {
		if r != nil && r.Ref == "" {
			s.schema(r.Value)
		} else {
			s.ref(r)
		}
	}
	for _, p := range c.Parameters {
		s.parameter(p)
	}
	for _, h := range c.Headers {
		s.header(h)
	}
	for _, b := range c.RequestBodies {
		if b != nil && b.Value != nil {
			s.content(b.Value.Content)
		}
	}
	for _, r := range c.Responses {
		s.response(r)
	}
	if api.Paths != nil {
		for _, item := range api.Paths.Map() {
			for _, p := range item.Parameters {
				s.parameter(p)
			}
			for _, op := range item.Operations() {
				for _, p := range op.Parameters {
					s.parameter(p)
				}
				if op.RequestBody != nil && op.RequestBody.Value != nil {
					s.content(op.RequestBody.Value.Content)
				}
				if op.Responses != nil {
					for _, r := range op.Responses.Map() {
						s.response(r)
					}
				}
			}
		}
	}
	return s
}

// restore undoes every stub.
func (s *schemaStubs) restore() {
	for _, st := range s.saved {
		st.ref.Value = st.value
	}
}

// ref stubs r when it refers to a component schema, else descends into it.
func (s *schemaStubs) ref(r *openapi3.SchemaRef) {
	if r == nil || r.Value == nil {
		return
	}
	if r.Ref != "" && s.components[r.Value] {
		s.saved = append(s.saved, stubbed{r, r.Value})
		r.Value = emptySchema
		return
	}
	s.schema(r.Value)
}

func (s *schemaStubs) schema(x *openapi3.Schema) {
	if x == nil || x == emptySchema || s.seen[x] {
		return
	}
	s.seen[x] = true
	for _, list := range []openapi3.SchemaRefs{x.OneOf, x.AnyOf, x.AllOf, x.PrefixItems} {
		for _, r := range list {
			s.ref(r)
		}
	}
	for _, r := range []*openapi3.SchemaRef{x.Not, x.Items, x.Contains, x.PropertyNames, x.If, x.Then, x.Else,
		x.ContentSchema, x.AdditionalProperties.Schema} {
		s.ref(r)
	}
	for _, m := range []openapi3.Schemas{x.Properties, x.PatternProperties, x.DependentSchemas, x.Defs} {
		for _, r := range m {
			s.ref(r)
		}
	}
}

func (s *schemaStubs) parameter(p *openapi3.ParameterRef) {
	if p != nil && p.Value != nil {
		s.ref(p.Value.Schema)
		s.content(p.Value.Content)
	}
}

func (s *schemaStubs) header(h *openapi3.HeaderRef) {
	if h != nil && h.Value != nil {
		s.ref(h.Value.Schema)
		s.content(h.Value.Content)
	}
}

func (s *schemaStubs) response(r *openapi3.ResponseRef) {
	if r == nil || r.Value == nil {
		return
	}
	s.content(r.Value.Content)
	for _, h := range r.Value.Headers {
		s.header(h)
	}
}

func (s *schemaStubs) content(c openapi3.Content) {
	for _, mt := range c {
		if mt == nil {
			continue
		}
		s.ref(mt.Schema)
		for _, e := range mt.Encoding {
			if e != nil {
				for _, h := range e.Headers {
					s.header(h)
				}
			}
		}
	}
}
