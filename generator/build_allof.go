package generator

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// aliasMember returns the index of the allOf member a schema stands for, or
// -1 when there is none. A schema without properties of its own stands for
// a member when that member is the only one with a type (the AWS form
// `allOf: [{$ref: X}, {description: …}]`), or when no typed member is an
// object (constraints on a scalar: the first typed member). A member that
// only restates a type or adds value constraints (`{type: object}` or
// `{maxLength: 5}` beside a 3.1 $ref) does not count while another member
// has a type; one that lists required names does (it adds to an object).
func aliasMember(s *openapi3.Schema) int {
	if len(s.AllOf) == 0 || len(s.Properties) > 0 {
		return -1
	}
	for _, skipBare := range []bool{true, false} {
		first, typed, objects := -1, 0, 0
		for i, m := range s.AllOf {
			if m.Ref == "" && m.Value != nil && len(m.Value.Required) == 0 && (annotationOnly(m.Value) || skipBare && bareType(m.Value)) {
				continue
			}
			typed++
			if objectish(m.Value, 0) {
				objects++
			}
			if first < 0 {
				first = i
			}
		}
		switch {
		case typed == 0 && skipBare:
			continue
		case typed == 1 || objects == 0:
			return first
		}
		break
	}
	return -1
}

// bareType reports whether s is a type with no structure: annotationOnly
// but for its type (value constraints such as maxLength are not structure).
func bareType(s *openapi3.Schema) bool {
	t := *s
	t.Type = nil
	return annotationOnly(&t)
}

// objectish reports whether a schema describes an object (properties, type
// object, or an allOf with such a member), looking at most a few allOf
// levels deep (cycles are reported separately).
func objectish(s *openapi3.Schema, depth int) bool {
	if s == nil || depth > 8 {
		return false
	}
	if typ, _ := schemaType(s); typ == "object" {
		return true
	}
	return slices.ContainsFunc(s.AllOf, func(m *openapi3.SchemaRef) bool { return objectish(m.Value, depth+1) })
}

// objectShape is an object schema with its allOf members merged: every
// property of the schema and of its members (a name defined more than once
// gets the definitions merged by mergedProperty, located at the first,
// own properties first), required if any of them requires it, and the
// first additionalProperties found.
type objectShape struct {
	props         map[string]*openapi3.SchemaRef
	defs          map[string][]propDef // every distinct definition of each property
	ptrs          map[string]string    // JSON pointer of each property's first definition
	required      map[string]bool
	requiredPtrs  map[string]string // JSON pointer of each required name's first listing
	additional    *openapi3.SchemaRef
	additionalPtr string
	additionalAny bool
}

// shape merges s and its allOf members (naming rule: see objectShape).
func (b *builder) shape(s *openapi3.Schema, ptr string) *objectShape {
	sh := &objectShape{props: map[string]*openapi3.SchemaRef{}, defs: map[string][]propDef{},
		ptrs: map[string]string{}, required: map[string]bool{}, requiredPtrs: map[string]string{}}
	b.collect(s, ptr, sh, map[*openapi3.Schema]bool{})
	for k, defs := range sh.defs {
		if len(defs) > 1 {
			sh.props[k] = b.mergedProperty(defs)
		}
	}
	return sh
}

// collect adds s and its allOf members to sh; seen guards against visiting
// a schema twice (a diamond of allOf references).
func (b *builder) collect(s *openapi3.Schema, ptr string, sh *objectShape, seen map[*openapi3.Schema]bool) {
	if s == nil || seen[s] || b.broken[s] {
		return
	}
	seen[s] = true
	for _, k := range sortedKeys(s.Properties) {
		p, pptr := s.Properties[k], child(child(ptr, "properties"), k)
		if _, dup := sh.props[k]; !dup {
			sh.props[k], sh.ptrs[k] = p, pptr
		}
		sh.defs[k] = append(sh.defs[k], propDef{p, pptr})
	}
	for i, r := range s.Required {
		if !sh.required[r] {
			sh.required[r], sh.requiredPtrs[r] = true, child(child(ptr, "required"), strconv.Itoa(i))
		}
	}
	if ap := s.AdditionalProperties.Schema; ap != nil && sh.additional == nil {
		sh.additional, sh.additionalPtr = ap, child(ptr, "additionalProperties")
	}
	sh.additionalAny = sh.additionalAny || additionalAny(s)
	for i, m := range s.AllOf {
		mptr := child(child(ptr, "allOf"), strconv.Itoa(i))
		if p, ok := strings.CutPrefix(m.Ref, "#"); ok {
			mptr = p
		} else if ptrs, ok := b.mergedPtrs[s]; ok {
			mptr = ptrs[i] // a merged property's definition, where the spec has it
		}
		if m.Value != nil && len(m.Value.Properties) == 0 && (len(m.Value.OneOf) > 0 || len(m.Value.AnyOf) > 0) {
			b.d.warnf(mptr, "oneOf/anyOf inside allOf is not merged; its members' properties are left out")
		}
		b.collect(m.Value, mptr, sh, seen)
	}
}

// propDef is one definition of a property and its JSON pointer.
type propDef struct {
	ref *openapi3.SchemaRef
	ptr string
}

// mergedProperty returns one schema for a property that allOf members
// define more than once (JSON Schema: a value must match every definition),
// the same *SchemaRef for the same definitions every time so the property
// gets one Go type:
//   - two or more objects (Box's MetadataTemplate field options, defined
//     with `key` in one member and `key` plus `id` in another) merge as
//     allOf of every definition, into one struct with every property;
//   - two or more arrays: an array (the first definition's other keywords)
//     of the items merged the same way;
//   - anything else: the first definition with a type (the others only add
//     constraints or annotations, which the Go type does not carry).
func (b *builder) mergedProperty(defs []propDef) *openapi3.SchemaRef {
	var typed []propDef
	key := ""
	for _, d := range defs {
		dup := slices.ContainsFunc(typed, func(t propDef) bool { return t.ref.Value == d.ref.Value })
		if d.ref.Value == nil || dup || (d.ref.Ref == "" && annotationOnly(d.ref.Value)) {
			continue
		}
		typed = append(typed, d)
		key += fmt.Sprintf("%p,", d.ref.Value)
	}
	switch {
	case len(typed) == 0:
		return defs[0].ref
	case len(typed) == 1:
		return typed[0].ref
	}
	if m, ok := b.merged[key]; ok {
		return m
	}
	if b.merged == nil {
		b.merged, b.mergedPtrs = map[string]*openapi3.SchemaRef{}, map[*openapi3.Schema][]string{}
	}
	merged := typed[0].ref
	switch {
	case all(typed, func(s *openapi3.Schema) bool { typ, _ := schemaType(s); return typ == "array" && s.Items != nil }):
		arr := *typed[0].ref.Value
		merged = &openapi3.SchemaRef{Value: &arr}
		b.merged[key] = merged
		items := make([]propDef, len(typed))
		for i, d := range typed {
			items[i] = propDef{d.ref.Value.Items, child(d.ptr, "items")}
		}
		arr.Items = b.mergedProperty(items)
	case all(typed, func(s *openapi3.Schema) bool { return objectish(s, 0) }):
		s := &openapi3.Schema{Description: typed[0].ref.Value.Description}
		for _, d := range typed {
			s.AllOf = append(s.AllOf, d.ref)
			b.mergedPtrs[s] = append(b.mergedPtrs[s], d.ptr)
		}
		merged = &openapi3.SchemaRef{Value: s}
	}
	b.merged[key] = merged
	return merged
}

// all reports whether every definition's schema satisfies f.
func all(defs []propDef, f func(*openapi3.Schema) bool) bool {
	return !slices.ContainsFunc(defs, func(d propDef) bool { return !f(d.ref.Value) })
}

// checkAllOfCycles reports every cycle of allOf references (A allOf [A];
// A allOf [B], B allOf [A]) as an error at the first schema of the cycle,
// "allOf cycle A → B → A", and marks the schemas on it broken so building
// them stops there. Such a schema would have to contain itself.
func (b *builder) checkAllOfCycles() {
	if b.broken == nil {
		b.broken = map[*openapi3.Schema]bool{}
	}
	done := map[*openapi3.Schema]bool{}
	for _, name := range sortedKeys(b.api.Components.Schemas) {
		v := allOfVisit{b: b, done: done}
		v.visit(b.api.Components.Schemas[name].Value, name, pointer("components", "schemas", name))
	}
}

// allOfVisit is one depth-first walk of allOf references.
type allOfVisit struct {
	b     *builder
	done  map[*openapi3.Schema]bool
	stack []allOfStep
}

// allOfStep is a schema on the walk's path: its name (the reference's last
// segment; "" for an inline member) and JSON pointer.
type allOfStep struct {
	s         *openapi3.Schema
	name, ptr string
}

func (v *allOfVisit) visit(s *openapi3.Schema, name, ptr string) {
	if s == nil || v.done[s] {
		return
	}
	if i := slices.IndexFunc(v.stack, func(st allOfStep) bool { return st.s == s }); i >= 0 {
		v.report(v.stack[i:], name)
		return
	}
	v.stack = append(v.stack, allOfStep{s, name, ptr})
	for i, m := range s.AllOf {
		if m.Ref != "" {
			v.visit(m.Value, refName(m.Ref), strings.TrimPrefix(m.Ref, "#"))
			continue
		}
		v.visit(m.Value, "", child(child(ptr, "allOf"), strconv.Itoa(i)))
	}
	v.stack = v.stack[:len(v.stack)-1]
	v.done[s] = true
}

// report adds the error for the cycle made of steps, closed by name.
func (v *allOfVisit) report(steps []allOfStep, name string) {
	var names []string
	for _, st := range steps {
		v.b.broken[st.s] = true
		if st.name != "" {
			names = append(names, st.name)
		}
	}
	v.b.d.errorf(steps[0].ptr, "allOf cycle %s", strings.Join(append(names, name), " → "))
}

// countTyped counts the allOf members that are not annotation only.
func countTyped(s *openapi3.Schema) int {
	n := 0
	for _, m := range s.AllOf {
		if m.Ref != "" || !annotationOnly(m.Value) {
			n++
		}
	}
	return n
}
