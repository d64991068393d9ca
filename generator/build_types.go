package generator

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
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
// ctxName names an inline struct, enum or union found there. A reference
// to a component schema is that component's type; any other reference
// kin-openapi resolved ($defs, a schema inside another component) is typed
// like an inline schema named after the reference's last segment.
func (b *builder) schemaRef(sr *openapi3.SchemaRef, ptr, ctxName string) TypeRef {
	if sr == nil {
		return b.raw(ptr, "missing schema")
	}
	if sr.Ref != "" {
		if name, ok := strings.CutPrefix(sr.Ref, componentPrefix); ok && b.api.Components.Schemas[name] != nil {
			return b.component(name)
		}
		if sr.Value == nil {
			return b.raw(ptr, fmt.Sprintf("reference %q cannot be resolved", sr.Ref))
		}
		name := refTypeName(sr.Ref)
		if name == "" {
			name = ctxName
		}
		return b.inline(sr.Value, ptr, name)
	}
	return b.inline(sr.Value, ptr, ctxName)
}

// pointerKeywords are the JSON pointer segments that say where a schema sits
// rather than what it means.
var pointerKeywords = map[string]bool{"components": true, "schemas": true, "parameters": true, "responses": true,
	"requestBodies": true, "headers": true, "schema": true, "properties": true, "items": true, "additionalProperties": true,
	"allOf": true, "oneOf": true, "anyOf": true, "not": true, "content": true, "$defs": true, "definitions": true,
	"prefixItems": true, "patternProperties": true}

// refTypeName is the Go type name of a reference to a schema that is not a
// component schema, from the names along its pointer, never from where the
// schema sits: "#/components/parameters/limit/schema" → Limit,
// "#/components/schemas/A/properties/b/oneOf/0" → AB, "#/$defs/Foo" → Foo.
// Media types, array indexes and keywords are left out; "" when nothing
// meaningful is left or the reference is into paths (the caller names it
// after where it is used).
func refTypeName(ref string) string {
	p, ok := strings.CutPrefix(ref, "#/")
	if !ok || strings.HasPrefix(p, "paths/") {
		return ""
	}
	var words []string
	for _, seg := range strings.Split(p, "/") {
		seg = pointerUnescaper.Replace(seg)
		if seg == "" || pointerKeywords[seg] || strings.Contains(seg, "/") || strings.Trim(seg, "0123456789") == "" {
			continue
		}
		words = append(words, goName(seg, false))
	}
	return strings.Join(words, "")
}

// refName is the last segment of a reference, unescaped ("#/a/b~1c" → "b/c").
func refName(ref string) string {
	seg := ref[strings.LastIndexByte(ref, '/')+1:]
	return pointerUnescaper.Replace(seg)
}

// component returns the Go type of components/schemas/name, building its
// named type once.
func (b *builder) component(name string) TypeRef {
	c := b.comps[name]
	ptr := pointer("components", "schemas", name)
	s := b.api.Components.Schemas[name].Value
	switch {
	case s == nil:
		// A $ref chain that never reaches a schema (R → R, R1 → R2 → R1):
		// reported where the chain is found, typed as any JSON here.
		if !c.built {
			c.built = true
			c.ref = b.raw(ptr, "$ref chain never reaches a schema")
		}
		return c.ref
	case b.broken[s]:
		return TypeRef{Kind: RefScalar, Scalar: ScalarRawJSON} // allOf cycle: reported as an error
	case c.named && !c.built:
		c.built = true
		if subs := b.baseSubtypes(name); len(subs) > 0 {
			b.baseUnion(c.ref.Name, s, ptr, subs)
			break
		}
		b.namedType(c.ref.Name, s, ptr)
	case !c.named && !c.built:
		if c.busy {
			return b.raw(ptr, "schema refers to itself without an object in between")
		}
		c.busy = true
		c.ref = b.unnamed(s, ptr, c.ref.Name)
		c.busy, c.built = false, true
	}
	return c.ref
}

// namedKind reports whether a schema becomes a named type: an object with
// properties or an allOf that merges objects (a struct); a oneOf/anyOf of
// two or more non-null members (a union); a string or integer enum or
// const; or — for a component schema — an object with neither properties
// nor additionalProperties (an empty struct, as AWS shapes without members
// are).
func namedKind(s *openapi3.Schema, component bool) (TypeKind, bool) {
	if s == nil {
		return 0, false
	}
	if len(s.AllOf) > 0 {
		return KindStruct, aliasMember(s) < 0 && (countTyped(s) > 0 || len(s.Properties) > 0)
	}
	if constMembers(s) == nil {
		if n := len(unionMembers(s)); n > 1 {
			return KindUnion, true
		} else if n == 1 {
			return 0, false
		}
	}
	typ, _ := schemaType(s)
	switch {
	case len(s.Properties) > 0 && typ == "object":
		return KindStruct, true
	case component && typ == "object" && s.AdditionalProperties.Schema == nil && !additionalAny(s):
		return KindStruct, true
	case len(enumOf(s)) > 0 && (typ == "string" || typ == "integer" && intEnumOverflow(s) == ""):
		return KindEnum, true
	}
	return 0, false
}

// inline returns the Go type of a schema that is not a component, once per
// schema: a schema reached again (a shared response or request body, a
// $defs entry referenced twice) gets the same type.
func (b *builder) inline(s *openapi3.Schema, ptr, ctxName string) TypeRef {
	if s == nil {
		return b.raw(ptr, "missing schema")
	}
	if b.memo == nil {
		b.memo = map[*openapi3.Schema]*component{}
	}
	if c, ok := b.memo[s]; ok {
		if c.busy {
			return b.raw(ptr, "schema refers to itself without an object in between")
		}
		return c.ref
	}
	if kind, ok := namedKind(s, false); ok && !b.broken[s] {
		name := b.claim(ctxName, ptr)
		ref := TypeRef{Kind: RefNamed, Name: name, Struct: kind != KindEnum}
		b.memo[s] = &component{ref: ref}
		b.namedType(name, s, ptr)
		return ref
	}
	c := &component{busy: true}
	b.memo[s] = c
	c.ref = b.unnamed(s, ptr, ctxName)
	c.busy = false
	return c.ref
}

// maxFlatDepth bounds how many flattened allOf schemas unnamed types
// inside one another; a spec's own nesting of retyping allOfs is one or two
// deep, a $ref cycle endless.
const maxFlatDepth = 16

// unnamed returns the Go type of a schema that is written where it is used:
// scalars, arrays, maps, the member an allOf or a one-member oneOf stands
// for, and json.RawMessage for what cannot be typed.
func (b *builder) unnamed(s *openapi3.Schema, ptr, ctxName string) TypeRef {
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err != nil {
			b.d.warnf(child(ptr, "pattern"), "pattern '%s' is not RE2 syntax (Go's regexp cannot compile it); the generated client checks no pattern, this one or any other", s.Pattern)
		}
	}
	if b.broken[s] {
		return TypeRef{Kind: RefScalar, Scalar: ScalarRawJSON}
	}
	if i := aliasMember(s); i >= 0 {
		if f := flattenAllOf(s, ptr); f != nil {
			for _, c := range f.conflicts {
				b.d.warnf(c.ptr, "%s", c.msg)
			}
			if f.retyped {
				// merged is a new schema each time: a $ref cycle whose
				// members each retype the value would build one per turn
				// without end (review: stack overflow).
				if b.flatDepth >= maxFlatDepth {
					return b.raw(ptr, "allOf leads back to itself through its members, each adding a format, enum or type")
				}
				b.flatDepth++
				defer func() { b.flatDepth-- }()
				return b.inline(f.merged, ptr, ctxName) // every member's format and enum
			}
		}
		return b.schemaRef(s.AllOf[i], child(child(ptr, "allOf"), strconv.Itoa(i)), ctxName)
	}
	if (len(s.OneOf) > 0 || len(s.AnyOf) > 0) && constMembers(s) == nil {
		if m := unionMembers(s); len(m) == 1 {
			return b.schemaRef(m[0].ref, m[0].ptr(ptr), ctxName)
		} else if len(m) == 0 && len(s.Properties) == 0 {
			return b.raw(ptr, "oneOf/anyOf has no member with a type")
		}
	}
	typ, multi := schemaType(s)
	switch typ {
	case "":
		if multi {
			return b.raw(ptr, fmt.Sprintf("type %v is not supported", s.Type.Slice()))
		}
		if annotationOnly(s) {
			return TypeRef{Kind: RefScalar, Scalar: ScalarRawJSON} // any JSON value
		}
		if s.Type.Is("null") {
			return b.raw(ptr, "schema's only type is null (the value is always null)")
		}
		if cm := constMembers(s); cm != nil {
			var kinds []string
			for _, m := range cm {
				kinds = append(kinds, jsonTypeOf(m.value))
			}
			slices.Sort(kinds)
			return b.raw(ptr, "oneOf/anyOf of const values of several JSON types ("+strings.Join(slices.Compact(kinds), ", ")+") is not an enum")
		}
		return b.raw(ptr, "schema has no type")
	case "object":
		if ap := s.AdditionalProperties.Schema; ap != nil {
			elem := b.schemaRef(ap, child(ptr, "additionalProperties"), ctxName+"Value")
			elem.Nullable = nullElem(ap, elem)
			return TypeRef{Kind: RefMap, Elem: &elem}
		}
		// additionalProperties: true, or an object with no properties: any members
		return TypeRef{Kind: RefMap, Elem: &TypeRef{Kind: RefScalar, Scalar: ScalarRawJSON}}
	case "array":
		if len(s.PrefixItems) > 0 {
			// A tuple's positions have different types: each element is
			// kept raw, so every valid tuple decodes (trial F5).
			b.d.warnf(child(ptr, "prefixItems"), "prefixItems (a tuple) is not modelled; elements typed as json.RawMessage")
			return TypeRef{Kind: RefSlice, Elem: &TypeRef{Kind: RefScalar, Scalar: ScalarRawJSON}}
		}
		if s.Items == nil {
			return b.raw(ptr, "array without items")
		}
		elem := b.schemaRef(s.Items, child(ptr, "items"), ctxName+"Item")
		elem.Nullable = nullElem(s.Items, elem)
		return TypeRef{Kind: RefSlice, Elem: &elem}
	case "string":
		return TypeRef{Kind: RefScalar, Scalar: b.stringScalar(s.Format)}
	case "integer":
		if v := intEnumOverflow(s); v != "" {
			// int64 cannot carry the value: a response holding it would
			// fail to decode (trial F8).
			return b.raw(ptr, "enum value "+v+" does not fit int64")
		}
		if s.Format == "int32" {
			return TypeRef{Kind: RefScalar, Scalar: ScalarInt32}
		}
		return TypeRef{Kind: RefScalar, Scalar: ScalarInt64}
	case "number", "boolean":
		if len(s.Enum) > 1 {
			// A one-value enum is a constant, which unions read
			// (variantEvidence); several values have no Go enum type.
			values, _ := json.Marshal(s.Enum)
			b.d.warnf(child(ptr, "enum"), "enum of %s values %s has no Go constants and is not checked before sending; the field is a plain %s", typ, values, typ)
		}
		if typ == "boolean" {
			return TypeRef{Kind: RefScalar, Scalar: ScalarBool}
		}
		if s.Format == "float" {
			return TypeRef{Kind: RefScalar, Scalar: ScalarFloat32}
		}
		return TypeRef{Kind: RefScalar, Scalar: ScalarFloat64}
	}
	return b.raw(ptr, fmt.Sprintf("type %q is not supported", typ))
}

// schemaType returns a schema's one JSON type without "null" (3.1 type
// lists), inferred when the spec gives none: "object" from properties or
// additionalProperties, "array" from items, "string" from an all-string
// enum or const. multi reports a list of several non-null types ("").
func schemaType(s *openapi3.Schema) (typ string, multi bool) {
	if s.Type != nil {
		var types []string
		for _, t := range *s.Type {
			if t != "null" {
				types = append(types, t)
			}
		}
		switch len(types) {
		case 1:
			return types[0], false
		case 0:
		default:
			return "", true
		}
	}
	switch {
	case len(s.Properties) > 0 || s.AdditionalProperties.Schema != nil:
		return "object", false
	case s.Items != nil:
		return "array", false
	}
	e := enumOf(s)
	switch {
	case len(e) == 0:
	case !slices.ContainsFunc(e, func(v any) bool { _, ok := v.(string); return !ok && v != nil }):
		return "string", false
	case !slices.ContainsFunc(e, func(v any) bool { f, ok := v.(float64); return !ok && v != nil || ok && f != math.Trunc(f) }):
		return "integer", false
	}
	return "", false
}

// nullable reports whether a schema admits null: nullable: true (3.0),
// "null" in its type list (3.1), a oneOf/anyOf member that only admits null
// (`anyOf: [{$ref: X}, {type: 'null'}]`), or null among its enum values.
func nullable(s *openapi3.Schema) bool {
	if s == nil {
		return false
	}
	if s.Nullable || s.Type != nil && slices.Contains(*s.Type, "null") || slices.Contains(s.Enum, nil) {
		return true
	}
	for _, list := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		for _, m := range list {
			if m != nil && m.Value != nil && (onlyNull(m.Value) || m.Value.Nullable && annotationOnly(m.Value)) {
				return true
			}
		}
	}
	return false
}

// nullElem reports whether an array element or map value of schema sr,
// typed r, must be a pointer so that null round-trips (TypeRef.Nullable):
// the schema admits null and r has no nil of its own.
func nullElem(sr *openapi3.SchemaRef, r TypeRef) bool {
	if sr == nil || !nullable(sr.Value) {
		return false
	}
	switch r.Kind {
	case RefSlice, RefMap:
		return false
	case RefScalar:
		return r.Scalar != ScalarBytes && r.Scalar != ScalarRawJSON && r.Scalar != ScalarReader && r.Scalar != ScalarReadCloser && r.Scalar != ScalarFile && r.Scalar != ScalarPart
	}
	return true
}

// nonNull returns r without element nullability (TypeRef.Nullable), at
// every level: parameters and headers carry no null elements.
func nonNull(r TypeRef) TypeRef {
	r.Nullable = false
	if r.Elem != nil {
		e := nonNull(*r.Elem)
		r.Elem = &e
	}
	return r
}

// additionalAny reports additionalProperties: true.
func additionalAny(s *openapi3.Schema) bool {
	return s.AdditionalProperties.Has != nil && *s.AdditionalProperties.Has && s.AdditionalProperties.Schema == nil
}

// enumOf returns a schema's enum values, or its const as a one-value enum
// (3.1).
func enumOf(s *openapi3.Schema) []any {
	if len(s.Enum) == 0 && s.Const != nil {
		return []any{s.Const}
	}
	if len(s.Enum) == 0 {
		if cm := constMembers(s); cm != nil {
			out := make([]any, len(cm))
			for i, m := range cm {
				out[i] = m.value
			}
			return out
		}
	}
	return s.Enum
}

// intEnumOverflow returns the first value of s's enum or const (enumOf)
// that is an integer int64 cannot hold (|v| ≥ 2^63; -2^63 itself too, as
// a float64 it may be a rounded -2^63-1), written out in full, or "".
func intEnumOverflow(s *openapi3.Schema) string {
	for _, v := range enumOf(s) {
		if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) >= 1<<63 {
			return new(big.Float).SetFloat64(f).Text('f', 0)
		}
	}
	return ""
}

// inexactNumbers reports an enum or const holding a number beyond ±2^53,
// whose digits the float64 it was read as may not keep: such a value is
// never written as a field's constant.
func inexactNumbers(vs []any) bool {
	return slices.ContainsFunc(vs, func(v any) bool {
		f, ok := v.(float64)
		return ok && math.Abs(f) > 1<<53
	})
}

// constMember is one member of a oneOf/anyOf of const values: the value,
// the member's title (the constant's name) and description, and the
// member's JSON pointer below the schema's.
type constMember struct {
	value      any
	title, doc string
	rel        string
}

// constMembers returns the members of a oneOf/anyOf whose every member
// that is not null-only holds one value (const, or an enum of one value) and
// nothing else a value could be checked against — the 3.1 way of writing an
// enum with a name and description per value (Discord's
// `type: integer, oneOf: [{title: PRIMARY, const: 1}, …]`) — or nil.
func constMembers(s *openapi3.Schema) []constMember {
	if s == nil || len(s.OneOf)+len(s.AnyOf) == 0 || len(s.Properties) > 0 {
		return nil
	}
	var out []constMember
	for _, list := range []struct {
		key  string
		refs openapi3.SchemaRefs
	}{{"oneOf", s.OneOf}, {"anyOf", s.AnyOf}} {
		for i, m := range list.refs {
			if m == nil || m.Value == nil {
				return nil
			}
			v := m.Value
			if onlyNull(v) {
				continue
			}
			one := v.Const
			if one == nil && len(v.Enum) == 1 {
				one = v.Enum[0]
			}
			if one == nil || len(v.Properties) > 0 || v.Items != nil || len(v.AllOf)+len(v.OneOf)+len(v.AnyOf) > 0 || v.Not != nil {
				return nil
			}
			out = append(out, constMember{value: one, title: v.Title, doc: v.Description, rel: list.key + "/" + strconv.Itoa(i)})
		}
	}
	return out
}

// stringScalar maps a string format to its Go type: date-time → time.Time
// (or openapi.EpochSeconds when x-protocol says timestamps are epoch
// seconds), byte/binary → []byte (base64 in JSON, by encoding/json),
// date → openapi.Date (YYYY-MM-DD exactly), anything else → string.
func (b *builder) stringScalar(format string) string {
	switch format {
	case "date-time":
		if b.protocol.TimestampFormat == "epoch-seconds" {
			return ScalarEpochSeconds
		}
		return ScalarTime
	case "date":
		return ScalarDate
	case "byte", "binary":
		return ScalarBytes
	}
	return ScalarString
}

// annotationOnly reports whether a schema only annotates (description,
// title, examples, …) and adds no type, properties, items or composition.
func annotationOnly(s *openapi3.Schema) bool {
	return s != nil && (s.Type == nil || s.Type.IsEmpty()) && len(s.Properties) == 0 && s.Items == nil &&
		s.AdditionalProperties.Schema == nil && len(s.Enum) == 0 && s.Const == nil && len(s.AllOf) == 0 &&
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

// namedType builds the struct, enum or union called name from s and adds it
// to the model.
func (b *builder) namedType(name string, s *openapi3.Schema, ptr string) {
	t := &Type{Name: name, Doc: withDeprecated(s.Description, s.Deprecated, "schema"), Source: ptr}
	b.types = append(b.types, t)
	kind, _ := namedKind(s, true)
	switch kind {
	case KindEnum:
		t.Kind = KindEnum
		b.enumValues(t, s, ptr)
	case KindUnion:
		t.Kind = KindUnion
		b.union(t, s, ptr)
	default:
		sh := b.shape(s, ptr)
		reserved := reservedTypeFields
		if sh.additional != nil {
			reserved = append(slices.Clip(reserved), reservedAdditionalFields...)
			v := b.schemaRef(sh.additional, sh.additionalPtr, name+"Value")
			v.Nullable = nullElem(sh.additional, v)
			t.Additional = &v
		} else if sh.additionalAny || len(s.PatternProperties) > 0 {
			if !sh.additionalAny {
				// Members a pattern matches would be dropped from the typed
				// value (trial F13): kept raw instead.
				b.d.warnf(child(ptr, "patternProperties"), "patternProperties is not modelled; members matching it are kept in AdditionalProperties as raw JSON")
			}
			t.Additional = &TypeRef{Kind: RefScalar, Scalar: ScalarRawJSON}
			reserved = append(slices.Clip(reserved), reservedAdditionalFields...)
		}
		t.Fields = b.shapeFields(name, sh, memberReserved(sh, reserved))
	}
}

// enumValues names one constant per value of an enum type: string values
// for a string enum (numbers are written as strings, with a warning),
// integers for an integer enum. null (a nullable enum) gets no constant.
func (b *builder) enumValues(t *Type, s *openapi3.Schema, ptr string) {
	typ, _ := schemaType(s)
	t.IntEnum = typ == "integer"
	var members []constMember
	if len(s.Enum) == 0 && s.Const == nil {
		members = constMembers(s)
	}
	for i, v := range enumOf(s) {
		vptr := child(child(ptr, "enum"), strconv.Itoa(i))
		if members != nil {
			vptr = ptr + "/" + members[i].rel
		}
		if v == nil {
			continue
		}
		ev, ok := b.enumValue(v, t.IntEnum, vptr)
		if !ok {
			t.Partial = true
			continue
		}
		text := ev.Value
		if t.IntEnum {
			text = strconv.FormatInt(ev.Int, 10)
		}
		if members != nil {
			ev.Doc = members[i].doc
			if members[i].title != "" {
				text = members[i].title // the title names the value (JSON Schema 2020-12 §9.1)
			}
		}
		ev.Name = b.claim(enumConstName(t.Name, text), vptr)
		t.Values = append(t.Values, ev)
	}
}

// enumValue converts one enum value, warning at ptr when it cannot be one.
func (b *builder) enumValue(v any, integer bool, ptr string) (EnumValue, bool) {
	if integer {
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) {
			b.d.warnf(ptr, "enum value %v is not an integer; no constant", v)
			return EnumValue{}, false
		}
		if math.Abs(f) > 1<<53 {
			b.d.warnf(ptr, "enum value %s is beyond ±2^53: read as a float64, its last digits may differ from the spec's; no constant", new(big.Float).SetFloat64(f).Text('f', 0))
			return EnumValue{}, false
		}
		return EnumValue{Int: int64(f)}, true
	}
	switch x := v.(type) {
	case string:
		return EnumValue{Value: x}, true
	case float64, bool:
		s := fmt.Sprint(x)
		b.d.warnf(ptr, "enum value %v is not a string; using %q", v, s)
		return EnumValue{Value: s}, true
	}
	b.d.warnf(ptr, "enum value %v is not a string; no constant", v)
	return EnumValue{}, false
}

// reservedTypeFields are field names a struct may not use: output types
// carry ResultMetadata.
var reservedTypeFields = []string{"ResultMetadata"}

// reservedAdditionalFields are field names a struct with additional
// properties may not use: its map and its JSON methods.
var reservedAdditionalFields = []string{"AdditionalProperties", "MarshalJSON", "UnmarshalJSON"}

// reservedErrorFields are field names an error type may not use: its
// embedded ErrorMetadata, that type's fields and methods, and Error.
var reservedErrorFields = []string{"ErrorMetadata", "Error", "Metadata", "String",
	"HTTPStatusCode", "ErrorCode", "ErrorMessage", "RequestID"}

// memberFields builds a struct's fields from s's properties (allOf members
// merged), sorted by JSON name (shapeFields), MarshalJSON and UnmarshalJSON
// reserved when a property's name needs them (memberReserved).
func (b *builder) memberFields(typeName string, s *openapi3.Schema, ptr string, reserved []string) []Field {
	sh := b.shape(s, ptr)
	return b.shapeFields(typeName, sh, memberReserved(sh, reserved))
}

// memberReserved adds MarshalJSON and UnmarshalJSON to reserved when sh has
// a property name no struct tag can hold: its type gets those methods
// (emitMemberMethods).
func memberReserved(sh *objectShape, reserved []string) []string {
	if slices.ContainsFunc(append(sortedKeys(sh.props), sortedKeys(sh.required)...), func(k string) bool { return !validJSONName(k) }) {
		return append(slices.Clip(reserved), "MarshalJSON", "UnmarshalJSON")
	}
	return reserved
}

// shapeFields builds the fields of an object shape, sorted by JSON name.
// Each property's Go name is decided here, once. A property whose name a
// json struct tag cannot hold (validJSONName) is a field too: its type's
// generated MarshalJSON/UnmarshalJSON move it by its exact name
// (emitMemberMethods, emitUnion).
func (b *builder) shapeFields(typeName string, sh *objectShape, reserved []string) []Field {
	ns := namespace{}
	for _, r := range reserved {
		ns[r] = true
	}
	var out []Field
	for _, k := range sortedKeys(sh.required) {
		if _, ok := sh.props[k]; !ok {
			// A required name no property defines: the member must be sent, so
			// it is a field that can hold any JSON value.
			sh.props[k], sh.ptrs[k] = nil, sh.requiredPtrs[k]
		}
	}
	for _, k := range sortedKeys(sh.props) {
		pptr := sh.ptrs[k]
		want := b.renameField(typeName, goName(k, false))
		name, renamed := ns.claim(want)
		if renamed {
			b.d.warnf(pptr, "Go field name %s is taken; using %s", want, name)
		}
		prop := sh.props[k]
		if prop == nil {
			b.d.warnf(pptr, "required property %q has no definition; field %s is json.RawMessage", k, name)
			out = append(out, Field{Name: name, JSONName: k, Type: TypeRef{Kind: RefScalar, Scalar: ScalarRawJSON}, Required: true})
			continue
		}
		out = append(out, Field{
			Name:     name,
			JSONName: k,
			Doc:      description(prop),
			Facts:    factsDoc(prop),
			Type:     b.schemaRef(prop, pptr, typeName+want),
			// readOnly: required of responses only, never sent.
			Required:  sh.required[k] && !readOnly(prop),
			Nullable:  prop != nil && nullable(prop.Value),
			ReadOnly:  readOnly(prop),
			Const:     constOf(prop),
			Enum:      enumListOf(prop),
			WriteOnly: prop != nil && prop.Value != nil && prop.Value.WriteOnly,
			XML:       xmlObjectOf(prop), // issue 20: used when the type travels as XML
		})
	}
	return out
}

// propertyEnum returns the values a property may hold: its own enum or
// const, narrowed by those of its allOf members (Discord's
// `{type: integer, enum: [1], allOf: [{$ref: AutomodActionType}]}` may hold
// 1 only; `allOf: [{$ref: T}, {const: 1}]` too), or nil when nothing
// limits it.
func propertyEnum(s *openapi3.Schema) []any {
	if objectish(s, 0) {
		return enumOf(s) // an object (allOf of an enum and an object merges into a struct): no enum of its own
	}
	if f := flattenAllOf(s, ""); f != nil {
		return enumOf(f.merged) // one rule: the allOf flattener's
	}
	return enumOf(s)
}

// constOf returns the JSON text of the only value a property may hold (an
// enum of one value or a const, its own or its allOf members'), or "".
func constOf(p *openapi3.SchemaRef) string {
	if p == nil || p.Value == nil {
		return ""
	}
	if e := propertyEnum(p.Value); len(e) == 1 && e[0] != nil && !inexactNumbers(e) {
		if b, err := json.Marshal(e[0]); err == nil {
			return string(b)
		}
	}
	return ""
}

// enumListOf returns the JSON array of a property's enum values (its own
// or its allOf members', see propertyEnum) when it has two or more, or "".
func enumListOf(p *openapi3.SchemaRef) string {
	if p == nil || p.Value == nil {
		return ""
	}
	if e := propertyEnum(p.Value); len(e) > 1 && !inexactNumbers(e) {
		if b, err := json.Marshal(e); err == nil {
			return string(b)
		}
	}
	return ""
}

// readOnly reports a property marked readOnly: true.
func readOnly(p *openapi3.SchemaRef) bool {
	return p != nil && p.Value != nil && p.Value.ReadOnly
}

// claim reserves a package-level Go name, warning at ptr when it had to be
// changed.
func (b *builder) claim(name, ptr string) string {
	if n, ok := b.sel.Rename.Types[name]; ok {
		b.renamed["types/"+name] = true
		name = n
	}
	got, renamed := b.names.claim(name)
	if renamed {
		b.d.warnf(ptr, "Go name %s is taken; using %s", name, got)
	}
	return got
}

// validJSONName reports whether encoding/json accepts name in a struct tag:
// letters, digits and !#$%&()*+-./:;<=>?@[]^_{|}~ and space (encoding/json's
// isValidTag). A name with a quote, backslash, backquote, comma or control
// character, and the empty name, is not: its field is tagged `json:"-"` and
// moved by openapi.Member (see shapeFields).
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

// sharedResponse reports whether the 2xx response respRef (a reference to
// components/responses, "" for an inline response) with the inline schema
// sr in media type mt answers more than one operation. Such a schema is
// typed once, named after the response (#/components/responses/Playlist
// → Playlist) and located there, and each operation's output type embeds
// it, so no operation's output is named after another operation.
func (b *builder) sharedResponse(respRef string, sr *openapi3.SchemaRef, mt string) (shared bool, name, ptr string) {
	rn, ok := strings.CutPrefix(respRef, "#/components/responses/")
	if !ok || sr == nil || sr.Ref != "" || objectSchema(sr) == nil {
		return false, "", ""
	}
	if b.responseUses == nil {
		b.responseUses = map[string]int{}
		for _, path := range b.api.Paths.InMatchingOrder() {
			for _, op := range b.api.Paths.Value(path).Operations() {
				if op.Responses == nil {
					continue
				}
				m := op.Responses.Map()
				for _, code := range sortedKeys(m) {
					if r := m[code].Value; is2xx(code) && r != nil && len(r.Content) > 0 {
						b.responseUses[m[code].Ref]++
						break
					}
				}
			}
		}
	}
	if b.responseUses[respRef] < 2 {
		return false, "", ""
	}
	rn = pointerUnescaper.Replace(rn)
	return true, goName(rn, false), pointer("components", "responses", rn, "content", mt, "schema")
}

// jsonTypeOf names the JSON type of a decoded JSON value ("string",
// "number", "boolean", "null", "array", "object").
func jsonTypeOf(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64, int, int64, json.Number:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case []any:
		return "array"
	}
	return "object"
}
