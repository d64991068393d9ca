package generator

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// unionMember is one member of a oneOf or anyOf, with where it was found.
type unionMember struct {
	ref   *openapi3.SchemaRef
	key   string // "oneOf" or "anyOf"
	index int
}

// ptr is the member's JSON pointer below the union's.
func (m unionMember) ptr(union string) string {
	return child(child(union, m.key), strconv.Itoa(m.index))
}

// unionMembers returns the oneOf then anyOf members that carry a type: a
// member that only admits null (`type: 'null'`, which makes the union
// nullable) or only constrains (`{required: [a]}`) is left out.
func unionMembers(s *openapi3.Schema) []unionMember {
	var out []unionMember
	for key, list := range map[string]openapi3.SchemaRefs{"anyOf": s.AnyOf, "oneOf": s.OneOf} {
		for i, m := range list {
			if m == nil || m.Ref == "" && (m.Value == nil || onlyNull(m.Value) || annotationOnly(m.Value)) {
				continue
			}
			out = append(out, unionMember{ref: m, key: key, index: i})
		}
	}
	slices.SortFunc(out, func(x, y unionMember) int {
		if c := strings.Compare(y.key, x.key); c != 0 { // oneOf first
			return c
		}
		return x.index - y.index
	})
	return out
}

// onlyNull reports a schema whose only type is null.
func onlyNull(s *openapi3.Schema) bool {
	return s.Type != nil && len(*s.Type) > 0 && !slices.ContainsFunc(*s.Type, func(t string) bool { return t != "null" })
}

// reservedUnionFields are the field names a union may not use: its raw
// JSON and its JSON methods (and, for its fields beside the variants, the
// variants' names).
var reservedUnionFields = []string{"Raw", "MarshalJSON", "UnmarshalJSON"}

// union builds the variants of a oneOf/anyOf type t. A variant's field is
// named after its Go type (Cat, String, Int64, CatList); an inline object
// variant is hoisted as <Union><Title> or <Union>Variant<N> (1-based). With
// a discriminator, each variant gets its tags: the mapping keys whose
// reference is the variant's, then the referenced schema's name when no
// mapping key already selects another variant.
func (b *builder) union(t *Type, s *openapi3.Schema, ptr string) {
	members := unionMembers(s)
	ns := namespace{}
	for _, r := range reservedUnionFields {
		ns[r] = true
	}
	for i, m := range members {
		ctx := t.Name + "Variant" + strconv.Itoa(i+1)
		if m.ref.Value != nil && m.ref.Value.Title != "" {
			ctx = t.Name + goName(m.ref.Value.Title, false)
		} else if tag := constTag(m.ref.Value); tag != "" {
			ctx = t.Name + goName(tag, false) // {type: {const: text}, …} → <Union>Text
		}
		ref := b.schemaRef(m.ref, m.ptr(ptr), ctx)
		name, _ := ns.claim(variantName(ref))
		t.Variants = append(t.Variants, Variant{Name: name, Type: ref})
	}
	if s.Discriminator != nil && s.Discriminator.PropertyName != "" {
		t.Discriminator = s.Discriminator.PropertyName
		b.discriminatorTags(t, s, members, ptr)
	}
	if len(s.Properties) > 0 {
		// Properties beside the oneOf/anyOf are fields next to the variants,
		// decoded from and encoded into the same object.
		t.Fields = b.memberFields(t.Name, s, ptr, t.fieldsReserved())
	}
}

// fieldsReserved are the names a union's fields beside its variants may not
// use: the variants' and the union's own.
func (t *Type) fieldsReserved() []string {
	reserved := append([]string{"fields"}, reservedUnionFields...)
	for _, v := range t.Variants {
		reserved = append(reserved, v.Name)
	}
	return reserved
}

// discriminatorTags fills the variants' Tags from the discriminator's
// mapping and the referenced schemas' names.
func (b *builder) discriminatorTags(t *Type, s *openapi3.Schema, members []unionMember, ptr string) {
	taken := map[string]bool{}
	mapping := s.Discriminator.Mapping
	for _, key := range sortedKeys(mapping) {
		target := mapping[key].Ref
		if !strings.HasPrefix(target, "#") {
			target = componentPrefix + target // a bare schema name
		}
		i := slices.IndexFunc(members, func(m unionMember) bool { return m.ref.Ref == target })
		if i < 0 && t.DiscriminatorOnly {
			b.d.warnf(child(child(child(ptr, "discriminator"), "mapping"), key),
				"discriminator mapping %q names %s, which adds no member to the base schema; such a value sets no field of %s but stays whole in its Raw", key, target, t.Name)
			continue
		}
		if i < 0 {
			b.d.warnf(child(child(child(ptr, "discriminator"), "mapping"), key),
				"discriminator mapping %q names %s, which is not a member; ignored", key, target)
			continue
		}
		t.Variants[i].Tags = append(t.Variants[i].Tags, key)
		taken[key] = true
	}
	for i, m := range members {
		if m.ref.Ref == "" {
			continue
		}
		if name := refName(m.ref.Ref); !taken[name] {
			t.Variants[i].Tags = append(t.Variants[i].Tags, name)
			taken[name] = true
		}
		slices.Sort(t.Variants[i].Tags)
	}
}

// variantName is a union field's name, from its Go type.
func variantName(r TypeRef) string {
	switch r.Kind {
	case RefNamed:
		return r.Name
	case RefSlice:
		return variantName(*r.Elem) + "List"
	case RefMap:
		return variantName(*r.Elem) + "Map"
	}
	return map[string]string{
		ScalarString: "String", ScalarBool: "Bool", ScalarInt32: "Int32", ScalarInt64: "Int64",
		ScalarFloat32: "Float32", ScalarFloat64: "Float64", ScalarBytes: "Bytes", ScalarTime: "Time", ScalarDate: "Date",
		ScalarEpochSeconds: "EpochSeconds", ScalarRawJSON: "JSON", ScalarFile: "File",
	}[r.Scalar]
}

// breakUnionCycles drops, with a located warning, every union variant that
// leads back to a union it is decoding with no object or array in between
// (`U: oneOf: [$ref U, string]`, or V's variant W whose variant is V): its
// decoder would call itself on the same bytes until the stack overflowed
// (second new-user trial, F9). The unions are walked in name order, depth
// first; the variant that closes a cycle (the back edge) is the one
// dropped, so V (W → bool, int) still accepts every value and only W loses
// the way back (to int). A union left with no variant keeps every value in
// its Raw.
func (b *builder) breakUnionCycles() {
	unions := map[string]*Type{}
	var names []string
	for _, t := range b.types {
		if t.Kind == KindUnion {
			unions[t.Name] = t
			names = append(names, t.Name)
		}
	}
	slices.Sort(names)
	const (
		visiting = 1
		done     = 2
	)
	state := map[string]int{}
	var visit func(t *Type)
	visit = func(t *Type) {
		state[t.Name] = visiting
		kept := t.Variants[:0:0]
		for _, v := range t.Variants {
			next := unions[v.Type.Name]
			if v.Type.Kind != RefNamed || next == nil {
				kept = append(kept, v)
				continue
			}
			switch state[next.Name] {
			case visiting:
				b.d.warnf(t.Source, "variant %s of %s leads back to %s with no object or array in between (its decoder would never end); dropped",
					v.Name, t.Name, next.Name)
				continue
			case 0:
				visit(next)
			}
			kept = append(kept, v)
		}
		t.Variants = kept
		state[t.Name] = done
	}
	for _, name := range names {
		if state[name] == 0 {
			visit(unions[name])
		}
	}
}

// warnUnionTies reports, at each union without a discriminator that tells
// its variants apart, every variant that a value shaped as it (every
// property it declares, holding its const and enum values) would not reach:
// an earlier variant of the same JSON type accepts that value at least as
// well (openapi.Union.Decode's ranking), so it decodes as the earlier one.
func (b *builder) warnUnionTies() {
	types := map[string]*Type{}
	for _, t := range b.types {
		types[t.Name] = t
	}
	memo := shadowMemo{}
	for _, t := range b.types {
		if t.Kind != KindUnion || t.Discriminator != "" && hasTags(t) {
			continue
		}
		for j := 1; j < len(t.Variants); j++ {
			for i := 0; i < j; i++ {
				if shadows(t.Variants[i].Type, t.Variants[j].Type, types, memo) {
					b.d.warnf(t.Source, "variants %s and %s of %s fit the same values (no discriminator, const or enum tells them apart); such a value decodes as %s",
						t.Variants[i].Name, t.Variants[j].Name, t.Name, t.Variants[i].Name)
					break
				}
			}
		}
	}
}

// shadows reports whether every value shaped as variant y (all its
// properties, with its const and enum values) is accepted by variant x at
// least as well as by y.
// A union fits what one of its variants fits; it is fitted when each of
// its variants is (nested unions followed at most 8 deep).
// memo holds the answers already found, so that unions sharing variants
// (a DAG) cost one comparison per pair and depth, not one per path.
func shadows(x, y TypeRef, types map[string]*Type, memo shadowMemo) bool {
	return shadowsAt(x, y, types, 0, memo)
}

// shadowMemo holds shadowsAt's answers by its arguments.
type shadowMemo map[shadowKey]bool

// shadowKey is one shadowsAt question.
type shadowKey struct {
	x, y  TypeRef
	depth int
}

// shadowsAt is shadows at nesting depth.
func shadowsAt(x, y TypeRef, types map[string]*Type, depth int, memo shadowMemo) bool {
	if depth > 8 {
		return false
	}
	uy, ux := types[y.Name], types[x.Name]
	nestedY := y.Kind == RefNamed && uy != nil && uy.Kind == KindUnion
	nestedX := x.Kind == RefNamed && ux != nil && ux.Kind == KindUnion
	if !nestedX && !nestedY {
		return shadowsLeaf(x, y, types)
	}
	key := shadowKey{x, y, depth}
	if v, ok := memo[key]; ok {
		return v
	}
	var v bool
	if nestedY {
		v = len(uy.Variants) > 0 && !slices.ContainsFunc(uy.Variants, func(w Variant) bool { return !shadowsAt(x, w.Type, types, depth+1, memo) })
	} else {
		v = slices.ContainsFunc(ux.Variants, func(w Variant) bool { return shadowsAt(w.Type, y, types, depth+1, memo) })
	}
	memo[key] = v
	return v
}

// shadowsLeaf is shadows for two types neither of which is a union.
func shadowsLeaf(x, y TypeRef, types map[string]*Type) bool {
	kx, ky := jsonType(x, types), jsonType(y, types)
	if kx != "" && kx != ky {
		return false
	}
	sx, sy := types[x.Name], types[y.Name]
	structX := x.Kind == RefNamed && sx != nil && sx.Kind == KindStruct
	structY := y.Kind == RefNamed && sy != nil && sy.Kind == KindStruct
	if !structX || !structY {
		// Scalars, lists and maps of one JSON type: the first always fits.
		// An enum never shadows a wider type (its values are checked on
		// decode only when it is a property).
		intX := x.Kind == RefScalar && (x.Scalar == ScalarInt32 || x.Scalar == ScalarInt64)
		floatY := y.Kind == RefScalar && (y.Scalar == ScalarFloat32 || y.Scalar == ScalarFloat64)
		return !structX && !structY && !(intX && floatY) // 1.5 fails to decode as an integer
	}
	props := map[string]Field{}
	for _, fl := range sy.Fields {
		if fl.In == "" {
			props[fl.JSONName] = fl
		}
	}
	ex, ey := 0, 0
	declared := 0
	for _, fl := range sx.Fields {
		if fl.In != "" {
			continue
		}
		p, has := props[fl.JSONName]
		if has {
			declared++
		}
		if fl.Required && !fl.WriteOnly {
			if !has {
				return false // y's value lacks it: x rejects
			}
			ex++
		}
		if fl.Const != "" {
			if !has || p.Const != fl.Const {
				return false
			}
			ex++
		}
		if fl.Enum != "" && has {
			if p.Const == "" && p.Enum != fl.Enum && !subsetJSON(p.Enum, fl.Enum) {
				return false
			}
			if p.Const != "" && !subsetJSON("["+p.Const+"]", fl.Enum) {
				return false
			}
			ex++
		}
	}
	if sx.Additional == nil && declared < len(props) {
		return false // x would drop members y keeps
	}
	for _, fl := range sy.Fields {
		if fl.In != "" {
			continue
		}
		if fl.Required && !fl.WriteOnly || fl.Const != "" {
			ey++
		}
		if fl.Enum != "" {
			ey++
		}
	}
	return ex >= ey
}

// subsetJSON reports whether every value of the JSON array a is in the JSON
// array b.
func subsetJSON(a, b string) bool {
	var xs, ys []any
	if json.Unmarshal([]byte(a), &xs) != nil || json.Unmarshal([]byte(b), &ys) != nil {
		return false
	}
	for _, x := range xs {
		if !slices.ContainsFunc(ys, func(y any) bool { return reflect.DeepEqual(x, y) }) {
			return false
		}
	}
	return true
}

// constTag returns the string an inline variant is told apart by: its own
// value when it may hold one string only, else the value of its one property
// that may hold a single string (const or an enum of one); "" when it has
// none or several.
func constTag(s *openapi3.Schema) string {
	if s == nil {
		return ""
	}
	if e := enumOf(s); len(e) == 1 {
		v, _ := e[0].(string)
		return v // a string variant of one value: named by it
	}
	tag := ""
	for _, k := range sortedKeys(s.Properties) {
		p := s.Properties[k]
		if p == nil || p.Value == nil {
			continue
		}
		if e := enumOf(p.Value); len(e) == 1 {
			if v, ok := e[0].(string); ok && v != "" {
				if tag != "" {
					return ""
				}
				tag = v
			}
		}
	}
	return tag
}

// baseSubtypes returns the component schemas a discriminator on the
// component schema name (a base schema: a discriminator and no
// oneOf/anyOf, OpenAPI 3.0 §4.7.25) tells apart: its mapping's targets,
// then every component that allOf-references it, directly or through
// other components (the implicit mapping: its name is its tag). A target
// that is the base itself, or that adds nothing to it (an allOf of the base
// alone), is left out: a value naming it keeps only the base's members. nil
// when name is not such a base.
func (b *builder) baseSubtypes(name string) []string {
	schemas := b.api.Components.Schemas
	s := schemas[name].Value
	if s == nil || s.Discriminator == nil || s.Discriminator.PropertyName == "" || len(s.OneOf)+len(s.AnyOf) > 0 || b.errors[name] != nil {
		return nil
	}
	var out []string
	add := func(sub string) {
		sr := schemas[sub]
		if sub == name || sr == nil || sr.Value == nil || slices.Contains(out, sub) || b.errors[sub] != nil {
			return
		}
		if kind, named := namedKind(sr.Value, true); !named || kind != KindStruct || aliasMember(sr.Value) >= 0 {
			return
		}
		out = append(out, sub)
	}
	for _, key := range sortedKeys(s.Discriminator.Mapping) {
		target := s.Discriminator.Mapping[key].Ref
		if sub, ok := strings.CutPrefix(target, componentPrefix); ok {
			add(pointerUnescaper.Replace(sub))
		} else if !strings.Contains(target, "/") {
			add(target) // a bare schema name
		}
	}
	for _, sub := range sortedKeys(schemas) {
		if inherits(schemas[sub].Value, componentPrefix+name, 0) {
			add(sub)
		}
	}
	return out
}

// inherits reports whether s allOf-references ref, directly or through
// the allOf members of what it references (at most 8 levels; allOf cycles
// are reported elsewhere).
func inherits(s *openapi3.Schema, ref string, depth int) bool {
	if s == nil || depth > 8 {
		return false
	}
	for _, m := range s.AllOf {
		if m == nil {
			continue
		}
		if m.Ref == ref || inherits(m.Value, ref, depth+1) {
			return true
		}
	}
	return false
}

// baseUnion builds the type of a base schema with a discriminator (see
// baseSubtypes): a union whose variants are the subtypes, chosen by the
// discriminator alone (openapi.Union.DiscriminatorOnly), with the base's
// own properties as fields beside them, so every value's base members —
// the discriminator among them — are readable, and a value whose
// discriminator names no subtype is kept whole in Raw.
func (b *builder) baseUnion(name string, s *openapi3.Schema, ptr string, subs []string) {
	t := &Type{Name: name, Kind: KindUnion, Doc: withDeprecated(s.Description, s.Deprecated, "schema"), Source: ptr, DiscriminatorOnly: true}
	b.types = append(b.types, t)
	u := *s // the members are the subtypes; the rest is the base's
	u.OneOf, u.AnyOf = nil, nil
	for _, sub := range subs {
		u.OneOf = append(u.OneOf, &openapi3.SchemaRef{Ref: componentPrefix + sub, Value: b.api.Components.Schemas[sub].Value})
	}
	b.union(t, &u, ptr)
	if len(s.Properties) == 0 && len(s.AllOf) > 0 {
		t.Fields = b.memberFields(t.Name, s, ptr, t.fieldsReserved())
	}
}
