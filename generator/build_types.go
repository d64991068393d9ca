package generator

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"
)

const componentPrefix = "#/components/schemas/"

// component is what a component schema became: a named model type, or a
// type written inline wherever it is referenced (scalars, arrays, maps).
type component struct {
	ref   TypeRef
	named bool
	built bool // named: its Type is built or being built; inline: ref is final
	busy  bool // inline: being resolved (a reference cycle)
}

// schemaRef returns the Go type of a schema or reference found at ptr.
// ctxName names an inline struct or enum found there.
func (b *builder) schemaRef(sr *openapi3.SchemaRef, ptr, ctxName string) TypeRef {
	if sr == nil {
		return b.raw(ptr, "missing schema")
	}
	if sr.Ref != "" {
		name, ok := strings.CutPrefix(sr.Ref, componentPrefix)
		if !ok || b.api.Components.Schemas[name] == nil {
			return b.raw(ptr, fmt.Sprintf("reference %q is not a component schema", sr.Ref))
		}
		return b.component(name)
	}
	return b.inline(sr.Value, ptr, ctxName)
}

// component returns the Go type of components/schemas/name, building its
// named type once.
func (b *builder) component(name string) TypeRef {
	c := b.comps[name]
	ptr := pointer("components", "schemas", name)
	s := b.api.Components.Schemas[name].Value
	switch {
	case c.named && !c.built:
		c.built = true
		b.namedType(c.ref.Name, s, ptr, "schema "+componentPrefix+name)
	case !c.named && !c.built:
		if c.busy {
			return b.raw(ptr, "schema refers to itself without an object in between")
		}
		c.busy = true
		c.ref = b.inline(s, ptr, c.ref.Name)
		c.busy, c.built = false, true
	}
	return c.ref
}

// namedKind reports whether a schema becomes a named type: an object with
// properties (a struct), a string enum, or — for a component schema — an
// object with neither properties nor additionalProperties (an empty struct,
// as AWS shapes without members are).
func namedKind(s *openapi3.Schema, component bool) (TypeKind, bool) {
	switch {
	case s == nil:
		return 0, false
	case len(s.Properties) > 0 && (s.Type == nil || s.Type.Is("object")):
		return KindStruct, true
	case component && s.Type != nil && s.Type.Is("object") && s.AdditionalProperties.Schema == nil:
		return KindStruct, true
	case len(s.Enum) > 0 && s.Type != nil && s.Type.Is("string"):
		return KindEnum, true
	}
	return 0, false
}

// inline returns the Go type of a schema that is not a reference.
func (b *builder) inline(s *openapi3.Schema, ptr, ctxName string) TypeRef {
	if s == nil {
		return b.raw(ptr, "missing schema")
	}
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err != nil {
			b.d.warnf(child(ptr, "pattern"), "pattern '%s' is not RE2 syntax; the client does not check it", s.Pattern)
		}
	}
	if len(s.AllOf) > 0 {
		return b.allOf(s, ptr, ctxName)
	}
	if len(s.OneOf) > 0 || len(s.AnyOf) > 0 {
		return b.raw(ptr, "oneOf/anyOf is not supported yet")
	}
	if kind, ok := namedKind(s, false); ok {
		name := b.claim(ctxName, ptr)
		b.namedType(name, s, ptr, "the inline schema at "+ptr)
		return TypeRef{Kind: RefNamed, Name: name, Struct: kind == KindStruct}
	}
	switch {
	case s.Type == nil || s.Type.IsEmpty():
		return b.raw(ptr, "schema has no type")
	case s.Type.Is("object"):
		if ap := s.AdditionalProperties.Schema; ap != nil {
			elem := b.schemaRef(ap, child(ptr, "additionalProperties"), ctxName+"Value")
			return TypeRef{Kind: RefMap, Elem: &elem}
		}
		return b.raw(ptr, "object without properties")
	case s.Type.Is("array"):
		elem := b.schemaRef(s.Items, child(ptr, "items"), ctxName+"Item")
		return TypeRef{Kind: RefSlice, Elem: &elem}
	case s.Type.Is("string"):
		return TypeRef{Kind: RefScalar, Scalar: b.stringScalar(s.Format)}
	case s.Type.Is("integer"):
		if s.Format == "int32" {
			return TypeRef{Kind: RefScalar, Scalar: ScalarInt32}
		}
		return TypeRef{Kind: RefScalar, Scalar: ScalarInt64}
	case s.Type.Is("number"):
		return TypeRef{Kind: RefScalar, Scalar: ScalarFloat64}
	case s.Type.Is("boolean"):
		return TypeRef{Kind: RefScalar, Scalar: ScalarBool}
	}
	return b.raw(ptr, fmt.Sprintf("type %v is not supported", s.Type.Slice()))
}

// stringScalar maps a string format to its Go type: date-time → time.Time
// (or runtime.EpochSeconds when x-protocol says timestamps are epoch
// seconds), byte/binary → []byte, anything else → string.
func (b *builder) stringScalar(format string) string {
	switch format {
	case "date-time":
		if b.protocol.TimestampFormat == "epoch-seconds" {
			return ScalarEpochSeconds
		}
		return ScalarTime
	case "byte", "binary":
		return ScalarBytes
	}
	return ScalarString
}

// allOf collapses `allOf: [{$ref: X}, {description: …}]` — one member that
// carries the type and any number that only annotate it — to X. Other
// combinations degrade to json.RawMessage.
func (b *builder) allOf(s *openapi3.Schema, ptr, ctxName string) TypeRef {
	typed := -1
	for i, m := range s.AllOf {
		if m.Ref == "" && annotationOnly(m.Value) {
			continue
		}
		if typed >= 0 {
			return b.raw(ptr, "allOf with more than one typed member is not supported")
		}
		typed = i
	}
	if typed < 0 || len(s.Properties) > 0 || (s.Type != nil && !s.Type.IsEmpty()) {
		return b.raw(ptr, "allOf that adds its own type or properties is not supported")
	}
	return b.schemaRef(s.AllOf[typed], child(child(ptr, "allOf"), strconv.Itoa(typed)), ctxName)
}

// annotationOnly reports whether a schema only annotates (description,
// title, examples, …) and adds no type, properties, items or composition.
func annotationOnly(s *openapi3.Schema) bool {
	return s != nil && (s.Type == nil || s.Type.IsEmpty()) && len(s.Properties) == 0 && s.Items == nil &&
		s.AdditionalProperties.Schema == nil && len(s.Enum) == 0 && len(s.AllOf) == 0 &&
		len(s.OneOf) == 0 && len(s.AnyOf) == 0 && s.Not == nil
}

// description returns a property's own description: its annotating allOf
// members' descriptions, or its own when it is not a reference (a
// reference's description belongs to the referenced type).
func description(sr *openapi3.SchemaRef) string {
	if sr == nil || sr.Ref != "" || sr.Value == nil {
		return ""
	}
	if sr.Value.Description != "" {
		return sr.Value.Description
	}
	for _, m := range sr.Value.AllOf {
		if m.Ref == "" && m.Value != nil && m.Value.Description != "" {
			return m.Value.Description
		}
	}
	return ""
}

// raw degrades a schema to json.RawMessage with a located warning.
func (b *builder) raw(ptr, why string) TypeRef {
	b.d.warnf(ptr, "%s; typed as json.RawMessage", why)
	return TypeRef{Kind: RefScalar, Scalar: ScalarRawJSON}
}

// namedType builds the struct or enum called name from s and adds it to the
// model.
func (b *builder) namedType(name string, s *openapi3.Schema, ptr, source string) {
	t := &Type{Name: name, Doc: s.Description, Source: source}
	b.types = append(b.types, t)
	if len(s.Enum) > 0 {
		t.Kind = KindEnum
		t.Values = b.enumValues(name, s, ptr)
		return
	}
	t.Fields = b.fields(name, s, ptr, reservedTypeFields)
}

// enumValues names one constant per string value of an enum type.
func (b *builder) enumValues(typeName string, s *openapi3.Schema, ptr string) []EnumValue {
	var out []EnumValue
	for i, v := range s.Enum {
		str, ok := v.(string)
		if !ok {
			b.d.warnf(child(child(ptr, "enum"), strconv.Itoa(i)), "enum value %v is not a string; no constant", v)
			continue
		}
		out = append(out, EnumValue{Name: b.claim(typeName+goName(str, true), child(child(ptr, "enum"), strconv.Itoa(i))), Value: str})
	}
	return out
}

// reservedTypeFields are field names a struct may not use: output types
// carry ResultMetadata.
var reservedTypeFields = []string{"ResultMetadata"}

// reservedErrorFields are field names an error type may not use: its
// embedded ErrorMetadata, that type's fields and methods, and Error.
var reservedErrorFields = []string{"ErrorMetadata", "Error", "Metadata", "String",
	"HTTPStatusCode", "ErrorCode", "ErrorMessage", "RequestID"}

// fields builds a struct's fields from s's properties, sorted by JSON name.
func (b *builder) fields(typeName string, s *openapi3.Schema, ptr string, reserved []string) []Field {
	ns := namespace{}
	for _, r := range reserved {
		ns[r] = true
	}
	keys := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []Field
	for _, k := range keys {
		pptr := child(child(ptr, "properties"), k)
		if !validJSONName(k) {
			b.d.warnf(pptr, "property name %q cannot be written in a Go json struct tag; field skipped", k)
			continue
		}
		name, renamed := ns.claim(goName(k, false))
		if renamed {
			b.d.warnf(pptr, "Go field name %s is taken; using %s", goName(k, false), name)
		}
		prop := s.Properties[k]
		out = append(out, Field{
			Name:     name,
			JSONName: k,
			Doc:      description(prop),
			Type:     b.schemaRef(prop, pptr, typeName+goName(k, false)),
			Required: slices.Contains(s.Required, k),
		})
	}
	return out
}

// claim reserves a package-level Go name, warning at ptr when it had to be
// changed.
func (b *builder) claim(name, ptr string) string {
	got, renamed := b.names.claim(name)
	if renamed {
		b.d.warnf(ptr, "Go name %s is taken; using %s", name, got)
	}
	return got
}

// validJSONName reports whether encoding/json accepts name in a struct tag:
// letters, digits and !#$%&()*+-./:;<=>?@[]^_{|}~ and space.
func validJSONName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", r) {
			return false
		}
	}
	return true
}
