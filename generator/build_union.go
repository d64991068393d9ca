package generator

import (
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
// JSON and its JSON methods.
var reservedUnionFields = []string{"Raw", "MarshalJSON", "UnmarshalJSON"}

// union builds the variants of a oneOf/anyOf type t. A variant's field is
// named after its Go type (Cat, String, Int64, CatList); an inline object
// variant is hoisted as <Union><Title> or <Union>Variant<N> (1-based). With
// a discriminator, each variant gets its tags: the mapping keys whose
// reference is the variant's, then the referenced schema's name when no
// mapping key already selects another variant.
func (b *builder) union(t *Type, s *openapi3.Schema, ptr string) {
	members := unionMembers(s)
	if len(s.Properties) > 0 {
		b.d.warnf(child(ptr, "properties"), "properties beside oneOf/anyOf are not modelled; the variants carry them")
	}
	ns := namespace{}
	for _, r := range reservedUnionFields {
		ns[r] = true
	}
	for i, m := range members {
		ctx := t.Name + "Variant" + strconv.Itoa(i+1)
		if m.ref.Value != nil && m.ref.Value.Title != "" {
			ctx = t.Name + goName(m.ref.Value.Title, false)
		}
		ref := b.schemaRef(m.ref, m.ptr(ptr), ctx)
		name, _ := ns.claim(variantName(ref))
		t.Variants = append(t.Variants, Variant{Name: name, Type: ref})
	}
	if s.Discriminator != nil && s.Discriminator.PropertyName != "" {
		t.Discriminator = s.Discriminator.PropertyName
		b.discriminatorTags(t, s, members, ptr)
	}
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
		ScalarFloat32: "Float32", ScalarFloat64: "Float64", ScalarBytes: "Bytes", ScalarTime: "Time",
		ScalarEpochSeconds: "EpochSeconds", ScalarRawJSON: "JSON", ScalarFile: "File",
	}[r.Scalar]
}
