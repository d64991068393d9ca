package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/retrygen/retrygen/runtime/internal/exactjson"
)

// MarshalObject encodes fixed (a struct) and adds the members of extra that
// fixed does not have, as one JSON object with sorted keys: the encoding of
// a schema with both properties and additionalProperties (OpenAPI 3.0
// §4.7.24, Schema Object). It returns encoding/json's error.
func MarshalObject[T any](fixed any, extra map[string]T) ([]byte, error) {
	b, err := json.Marshal(fixed)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, v := range extra {
		if _, ok := m[k]; ok {
			continue
		}
		if m[k], err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	return json.Marshal(m)
}

// Unmarshal is json.Unmarshal with member names matched exactly: a member
// whose name equals a field's only ignoring case fills nothing (encoding/json
// alone would fill the field with it). A generated type's UnmarshalJSON
// decodes its plain fields with it. It returns encoding/json's error.
func Unmarshal(b []byte, v any) error {
	return exactjson.Unmarshal(b, v)
}

// UnmarshalObject decodes the JSON object b into fixed (a pointer to a
// struct) and every member whose name is not in known into *extra (nil when
// there is none). Names are compared exactly, in both (exactjson: a member
// spelled in another case than a field is kept in *extra only). It returns
// encoding/json's error.
func UnmarshalObject[T any](b []byte, fixed any, extra *map[string]T, known ...string) error {
	if err := exactjson.Unmarshal(b, fixed); err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	for _, k := range known {
		delete(m, k)
	}
	*extra = nil
	for k, raw := range m {
		var v T
		if err := exactjson.Unmarshal(raw, &v); err != nil {
			return err
		}
		if *extra == nil {
			*extra = map[string]T{}
		}
		(*extra)[k] = v
	}
	return nil
}

// JSON types a union [Variant] accepts (the JSON Schema "type" keyword;
// integers are numbers). "" accepts any JSON value.
const (
	JSONObject  = "object"
	JSONArray   = "array"
	JSONString  = "string"
	JSONNumber  = "number"
	JSONBoolean = "boolean"
)

// Variant describes one member of a oneOf/anyOf union to [Union.Decode]:
// what a JSON value must show to be that member.
type Variant struct {
	// Name is the member's Go field name, used in errors.
	Name string
	// Tags are the discriminator values that select this member (the
	// Discriminator Object's mapping keys or the schema's name, OpenAPI 3.0
	// §4.7.25).
	Tags []string
	// Type is the JSON type the member accepts (JSONObject, …; "" for any).
	Type string
	// Required are the properties an object must have (the schema's
	// "required", writeOnly properties left out).
	Required []string
	// Const are property/value pairs: the property must be present and hold
	// exactly that value, written as JSON (a property whose enum has one
	// value, or "const"). Stripe's DeletedCustomer: "deleted", "true".
	Const []string
	// Enum are property/values pairs: when the property is present it must
	// hold one of the values, written as a JSON array (a property whose enum
	// has several values: `"type", ["klarna","klarna_account"]`).
	Enum []string
	// Properties are all the properties the member declares; Open says it
	// also keeps any other (additionalProperties). Among the members that
	// fit, the one that would drop the fewest of the object's members wins.
	Properties []string
	Open       bool
}

// Union describes a oneOf/anyOf type to its UnmarshalJSON method.
type Union struct {
	// Name is the union's Go type name, used in errors.
	Name string
	// Discriminator is the discriminator's property name ("" for none).
	Discriminator string
	// Variants are the members, in spec order (oneOf before anyOf).
	Variants []Variant
	// DiscriminatorOnly says the discriminator alone chooses the member: the
	// union is a base schema's, with a discriminator, whose members are the
	// schemas that allOf it (OpenAPI 3.0 §4.7.25, "allOf" inheritance). A
	// JSON object whose discriminator property is absent or names no member
	// decodes into no member and is no error: Decode returns -1, nil, and the
	// value stays whole in the union's Raw.
	DiscriminatorOnly bool
}

// UnionError is returned when no member of a union accepts a JSON value.
// The call that decoded it returns it wrapped in a *runtime.DecodeError
// (errors.As finds it), so the body is never lost: Raw holds it.
type UnionError struct {
	// Union is the union's Go type name.
	Union string
	// Tried lists each member tried with why it was rejected
	// (`Customer: missing required "created"`), in the order tried.
	Tried []string
	// Raw is the JSON value as received.
	Raw json.RawMessage
}

// Error says which union no variant of fits and why each was rejected.
func (e *UnionError) Error() string {
	return "no variant of " + e.Union + " fits the JSON value: tried " + strings.Join(e.Tried, "; ")
}

// Into returns a decoder for [Union.Decode] that decodes a JSON value into
// a new T and stores it in *dst only when that succeeds, so a rejected
// member leaves no partial value. It returns encoding/json's error.
func Into[T any](dst **T) func([]byte) error {
	return func(b []byte) error {
		v := new(T)
		if err := exactjson.Unmarshal(b, v); err != nil {
			return err
		}
		*dst = v
		return nil
	}
}

// DecodeInto is [Union.Decode] for generated code: dsts[i] is a pointer to
// the union's field for u.Variants[i] (a **T: every variant field is a
// pointer), decoded with encoding/json. A member that fails to decode is
// set back to nil (JSON null into a pointer), so, as with [Into], a rejected
// member leaves no partial value. One shared, non-generic decoder instead of
// an [Into] per variant type keeps the compiled size of a client with
// thousands of unions down (issue 24). It returns what Decode returns.
func (u *Union) DecodeInto(b []byte, dsts ...any) (int, error) {
	decoders := make([]func([]byte) error, len(dsts))
	for i, dst := range dsts {
		decoders[i] = func(b []byte) error {
			err := exactjson.Unmarshal(b, dst)
			if err != nil {
				_ = json.Unmarshal(jsonNull, dst) // null into a pointer: nil
			}
			return err
		}
	}
	return u.Decode(b, decoders...)
}

// MarshalUnion encodes a union for generated code: the first of variants
// (the union's variant fields, each a pointer) that is not nil, else raw
// (the value as received; JSON null when empty), with encoding/json. One
// shared encoder instead of a switch per union keeps a client with
// thousands of unions small (issue 24). It returns encoding/json's error.
// Generated unions call [Union.Marshal], which writes the same and adds the
// variant's tags; MarshalUnion is that without a Union (no tags to add).
func MarshalUnion(raw json.RawMessage, variants ...any) ([]byte, error) {
	var none Union
	return none.Marshal(raw, variants...)
}

// Marshal is a generated union's MarshalJSON: it writes what
// [MarshalUnion] writes and then, when the variant written (variants[i] is
// the field of u.Variants[i]) is a JSON object, fills in the tags that tell
// the server which variant it is, where the value leaves them out or at a
// zero value ("", 0, false, null): each of the variant's Const pairs, and
// u.Discriminator with the variant's tag (a mapping key before the
// schema's own name, OpenAPI 3.0 §4.7.25). A member left out is written
// first; one the caller set to another value is kept. Without it a
// variant's optional const tag (Mistral's UserMessage "role") was not
// sent, or a one-value enum tag went out as 0 (Discord's components), and
// the server could not tell the variants apart (second new-user trial
// F11). It returns encoding/json's error.
func (u *Union) Marshal(raw json.RawMessage, variants ...any) ([]byte, error) {
	for i, v := range variants {
		if rv := reflect.ValueOf(v); v == nil || rv.Kind() == reflect.Pointer && rv.IsNil() {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil || i >= len(u.Variants) || len(b) == 0 || b[0] != '{' {
			return b, err
		}
		vr := &u.Variants[i]
		for j := 0; j+1 < len(vr.Const); j += 2 {
			b = fillMember(b, vr.Const[j], vr.Const[j+1])
		}
		if tag, ok := vr.tag(); ok && u.Discriminator != "" {
			q, _ := json.Marshal(tag) // a string always encodes
			b = fillMember(b, u.Discriminator, string(q))
		}
		return b, nil
	}
	return json.Marshal(raw)
}

// tag returns the discriminator value that names v: its first tag other
// than its own name (a mapping key), else its name when that is a tag.
func (v *Variant) tag() (string, bool) {
	for _, t := range v.Tags {
		if t != v.Name {
			return t, true
		}
	}
	return v.Name, len(v.Tags) > 0
}

// fillMember returns the compact JSON object b with member name set to
// value (JSON text) when b leaves it out (written first) or holds a zero
// value ("", 0, false, null) there; else b unchanged.
func fillMember(b []byte, name, value string) []byte {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return b
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return b
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return b
		}
		if k != name {
			continue
		}
		switch string(v) {
		case `""`, "0", "false", "null":
			end := int(dec.InputOffset())
			return slices.Concat(b[:end-len(v)], []byte(value), b[end:])
		}
		return b
	}
	key, _ := json.Marshal(name) // a string always encodes
	member := string(key) + ":" + value
	if len(b) > 2 {
		member += ","
	}
	return slices.Concat(b[:1], []byte(member), b[1:])
}

// Unmarshal is a generated union's UnmarshalJSON: it sets *raw to a copy of
// b and every variant field dsts[i] (a **T, as for [Union.DecodeInto]) to
// nil, then decodes b into the one variant DecodeInto chooses. One shared
// body instead of three statements per union (issue 24). It returns what
// DecodeInto returns: a *UnionError naming every variant tried when none
// fits.
func (u *Union) Unmarshal(b []byte, raw *json.RawMessage, dsts ...any) error {
	*raw = append(json.RawMessage(nil), b...)
	for _, dst := range dsts {
		if rv := reflect.ValueOf(dst); rv.Kind() == reflect.Pointer && !rv.IsNil() {
			rv.Elem().SetZero()
		}
	}
	_, err := u.DecodeInto(b, dsts...)
	return err
}

// jsonNull is the JSON null literal.
var jsonNull = []byte("null")

// Decode decodes the JSON value b into exactly one member of u, calling
// decoders[i] (built with [Into]) for u.Variants[i], and reports which
// (-1 for JSON null, which sets nothing). The member is chosen:
//
//  1. by the discriminator, when u has one and b's discriminator property
//     names a member's tag (OpenAPI 3.0 §4.7.25). An object whose
//     discriminator property is a string naming no member's tag (a variant
//     the client does not know yet) is decoded into no member (-1, nil; the
//     generated union keeps it whole in Raw), never into a member the
//     value names otherwise; only members with no tags (inline schemas,
//     which no discriminator value can name) are tried for it, by step 2.
//     With DiscriminatorOnly, an object whose discriminator property is
//     absent also decodes into no member;
//  2. else among the members whose JSON type matches, whose required
//     properties are all present and whose const properties hold their
//     values and whose enum properties, when present, hold one of theirs:
//     the one that declares the most of the object's members (so the
//     fewest are dropped), then the one with the most required, const and
//     present enum properties (the most specific), then the first in spec order,
//     provided it decodes; if it does not, the next.
//
// Members the object has that a member does not declare never disqualify
// it (APIs add fields). When no member fits, Decode returns a *UnionError
// naming every member tried and keeping b. A union with no members (the
// generator dropped every one that led back to the union itself) decodes
// every value into none: -1, nil. A decoder count other than
// len(u.Variants) is an error naming the union (never an index panic).
func (u *Union) Decode(b []byte, decoders ...func([]byte) error) (int, error) {
	if len(decoders) != len(u.Variants) {
		return -1, fmt.Errorf("openapi: union %s: %d decoders for %d variants", u.Name, len(decoders), len(u.Variants))
	}
	b = bytes.TrimSpace(b)
	if string(b) == "null" || len(u.Variants) == 0 {
		return -1, nil
	}
	if deeperThan(b, MaxUnionDepth) {
		return -1, &UnionError{Union: u.Name, Raw: append(json.RawMessage(nil), b...),
			Tried: []string{"nested more than " + strconv.Itoa(MaxUnionDepth) + " arrays and objects deep (openapi.MaxUnionDepth)"}}
	}
	kind := jsonKind(b)
	var obj map[string]json.RawMessage
	if kind == JSONObject {
		if err := json.Unmarshal(b, &obj); err != nil {
			return -1, err
		}
	}
	// fail.Raw is copied only when fail is returned: a union that decodes
	// copies nothing here.
	fail := &UnionError{Union: u.Name}
	// named: the object names a discriminator value no member is tagged
	// with; only untagged members (inline schemas, which no value can name)
	// may still take it, and if none does it sets no member.
	named := false
	if u.Discriminator != "" && obj != nil {
		var tag string
		if raw, ok := obj[u.Discriminator]; ok && json.Unmarshal(raw, &tag) == nil && string(bytes.TrimSpace(raw)) != "null" {
			named = true
			for i, v := range u.Variants {
				for _, t := range v.Tags {
					if t != tag {
						continue
					}
					if err := decoders[i](b); err != nil {
						fail.Tried = append(fail.Tried, fmt.Sprintf("%s (discriminator %s=%q): %v", v.Name, u.Discriminator, tag, err))
						fail.Raw = append(json.RawMessage(nil), b...)
						return -1, fail
					}
					return i, nil
				}
			}
		}
	}
	if u.DiscriminatorOnly && obj != nil {
		return -1, nil
	}
	type fit struct{ index, dropped, evidence int }
	var fits []fit
	for i, v := range u.Variants {
		if named && len(v.Tags) > 0 {
			continue
		}
		if reason := v.reject(kind, obj); reason != "" {
			fail.Tried = append(fail.Tried, v.Name+": "+reason)
			continue
		}
		f := fit{index: i, evidence: len(v.Required) + len(v.Const)/2 + v.enumEvidence(obj)}
		if !v.Open && (len(v.Properties) > 0 || v.Type == JSONObject) {
			for k := range obj {
				if !slices.Contains(v.Properties, k) {
					f.dropped++
				}
			}
		}
		fits = append(fits, f)
	}
	slices.SortStableFunc(fits, func(a, b fit) int {
		if a.dropped != b.dropped {
			return a.dropped - b.dropped
		}
		return b.evidence - a.evidence
	})
	for _, f := range fits {
		if err := decoders[f.index](b); err != nil {
			fail.Tried = append(fail.Tried, u.Variants[f.index].Name+": "+err.Error())
			continue
		}
		return f.index, nil
	}
	if named {
		return -1, nil
	}
	fail.Raw = append(json.RawMessage(nil), b...)
	return -1, fail
}

// deeperThan reports whether the JSON value b nests arrays and objects
// more than limit deep (brackets inside strings do not count). One pass,
// no allocation.
func deeperThan(b []byte, limit int) bool {
	depth, inString := 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > limit {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}

// reject returns why v cannot be the JSON value of the given kind (obj is
// its members when it is an object), or "".
func (v *Variant) reject(kind string, obj map[string]json.RawMessage) string {
	if v.Type != "" && v.Type != kind {
		return "JSON " + kind + ", want " + v.Type
	}
	for _, r := range v.Required {
		if _, ok := obj[r]; !ok {
			return fmt.Sprintf("missing required %q", r)
		}
	}
	for i := 0; i+1 < len(v.Const); i += 2 {
		raw, ok := obj[v.Const[i]]
		if !ok {
			return fmt.Sprintf("missing %q (must be %s)", v.Const[i], v.Const[i+1])
		}
		if !jsonEqual(raw, v.Const[i+1]) {
			return fmt.Sprintf("%q is %s, must be %s", v.Const[i], raw, v.Const[i+1])
		}
	}
	for i := 0; i+1 < len(v.Enum); i += 2 {
		raw, ok := obj[v.Enum[i]]
		if ok && !jsonMember(raw, v.Enum[i+1]) {
			return fmt.Sprintf("%q is %s, must be one of %s", v.Enum[i], raw, v.Enum[i+1])
		}
	}
	return ""
}

// enumEvidence counts v's enum properties that obj has (each holds one of
// its values, or reject would have refused v).
func (v *Variant) enumEvidence(obj map[string]json.RawMessage) int {
	n := 0
	for i := 0; i+1 < len(v.Enum); i += 2 {
		if _, ok := obj[v.Enum[i]]; ok {
			n++
		}
	}
	return n
}

// jsonMember reports whether the JSON value a is one of the values of the
// JSON array list.
func jsonMember(a json.RawMessage, list string) bool {
	var x any
	var ys []any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal([]byte(list), &ys) != nil {
		return false
	}
	return slices.ContainsFunc(ys, func(y any) bool { return reflect.DeepEqual(x, y) })
}

// jsonKind returns the JSON type of the value b starts with.
func jsonKind(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	switch b[0] {
	case '{':
		return JSONObject
	case '[':
		return JSONArray
	case '"':
		return JSONString
	case 't', 'f':
		return JSONBoolean
	case 'n':
		return "null"
	}
	return JSONNumber
}

// jsonEqual reports whether the JSON texts a and b hold the same value.
func jsonEqual(a json.RawMessage, b string) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// MergeFields adds to the JSON object variant (a union's chosen member,
// encoded) the members of fields (a struct: the properties the schema
// declares beside its oneOf/anyOf) that variant does not have, and returns
// the object with sorted keys. A variant that is null is replaced by the
// fields' object; one that is not an object is returned as it is. It
// returns encoding/json's error.
func MergeFields(variant []byte, fields any) ([]byte, error) {
	f, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	v := bytes.TrimSpace(variant)
	switch jsonKind(v) {
	case "null", "":
		return f, nil
	case JSONObject:
	default:
		return variant, nil
	}
	var m, add map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(f, &add); err != nil {
		return nil, err
	}
	for k, x := range add {
		if _, ok := m[k]; !ok {
			m[k] = x
		}
	}
	return json.Marshal(m)
}

// DecodeFields decodes the properties declared beside a oneOf/anyOf into
// fields (a pointer to a struct) when b is a JSON object, and does nothing
// otherwise. It returns encoding/json's error.
func DecodeFields(b []byte, fields any) error {
	if jsonKind(bytes.TrimSpace(b)) != JSONObject {
		return nil
	}
	return exactjson.Unmarshal(b, fields)
}

// ConstText is the MarshalText of a generated string enum that may hold one
// value only (a const): v, or only when v is empty, so a field the caller
// leaves unset still sends the one value the spec allows. One shared body
// instead of two statements per such enum (Stripe has over a thousand;
// issue 24). It never returns an error.
func ConstText(v, only string) ([]byte, error) {
	if v == "" {
		v = only
	}
	return []byte(v), nil
}

// MaxUnionDepth is how many arrays and objects deep (a count of nesting
// levels, any containers, not only unions) a JSON value a union decodes
// may nest. encoding/json hands each union's UnmarshalJSON its
// value's bytes and each union decodes them again, so a value nested d
// unions deep costs d passes over its bytes (second new-user trial F10: a
// 16 KB "any JSON value" nested 8,000 deep took 13 s and 586 MB, deeper
// ones overflowed the stack). With the bound, a union decodes a value in at
// most MaxUnionDepth passes; a deeper one is refused by the outermost union
// with a *UnionError, which the call returns in a *runtime.DecodeError.
const MaxUnionDepth = 64
