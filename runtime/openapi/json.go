package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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
		tracked := exactjson.Derived(b, raw) // a copy: it stays in b's decode session
		err := exactjson.Unmarshal(raw, &v)
		exactjson.Untrack(tracked)
		if err != nil {
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
	return u.decodeInto(b, nil, dsts)
}

// decodeInto is DecodeInto; own, when not nil, is a copy of b that no one
// else holds (the union's Raw), which a decode session may be tracked by.
//
// A union tries its variants in turn, and a variant holding other unions
// decodes them again on each try: a chain of unions each holding the one
// below twice cost 2^depth variant decodes (newuser4 G6: 129 bytes, 39 s
// of CPU). So the first union of a decode that tries two or more variants
// (or decodes its value twice: DecodeFields, then DecodeInto) opens a
// decode session, and every union decoded inside it remembers what it
// chose for each JSON value (by its exact bytes): the variant, or the
// error. A union meeting the same JSON value again decodes only the
// variant it chose before (or returns the error it returned): each
// (union, JSON value) pair is tried once per decode. What is chosen, and
// every error's text, is what trying each variant again would give.
func (u *Union) decodeInto(b, own []byte, dsts []any) (int, error) {
	decoders := make([]func([]byte) error, len(dsts))
	for i, dst := range dsts {
		decoders[i] = func(b []byte) error {
			if variantDecoded != nil {
				variantDecoded()
			}
			if s, _ := exactjson.Session(b).(*unionSession); s != nil && !s.spend() {
				return errUnionWork
			}
			err := exactjson.Unmarshal(b, dst)
			if err != nil {
				_ = json.Unmarshal(jsonNull, dst) // null into a pointer: nil
			}
			return err
		}
	}
	if unionMemoOff {
		return u.decode(b, nil, false, decoders)
	}
	s, _ := exactjson.Session(b).(*unionSession)
	if s == nil || own == nil && !allNil(dsts) {
		// Outside a session: DecodeInto (a union with fields, whose
		// value DecodeFields decoded first) opens one at once, Unmarshal
		// when it has variants to try.
		return u.decode(b, own, own == nil, decoders)
	}
	t := bytes.TrimSpace(b)
	key := memoKey{u: u, h: maphash.Bytes(memoSeed, t)}
	if len(dsts) > 0 {
		key.t = reflect.TypeOf(dsts[0])
	}
	if e, ok := s.find(key, t); ok {
		if e.err != nil || e.index < 0 || e.index >= len(decoders) {
			return e.index, e.err
		}
		if decoders[e.index](t) == nil {
			return e.index, nil
		}
	}
	i, err := u.decode(b, nil, false, decoders)
	if own != nil {
		t = bytes.TrimSpace(own)
	} else {
		t = append([]byte(nil), t...)
	}
	s.memo[key] = append(s.memo[key], memoEntry{b: t, index: i, err: err})
	return i, err
}

// variantDecoded, when set (by tests), is called once per variant decode.
var variantDecoded func()

// unionMemoOff (set by tests) decodes unions without decode sessions, as
// before they existed: the oracle the memo is tested against.
var unionMemoOff bool

// unionSession is the memo of one decode session (decodeInto): what each
// union chose for each JSON value.
type unionSession struct {
	memo map[memoKey][]memoEntry
	// work is the variant decodes made so far, limit how many the
	// session may make (MaxUnionWork per byte of the value it opened on).
	work, limit int
}

// MaxUnionWork is how many variant decodes per byte of a JSON value (plus
// 4,096) one decode of a union may make, memo hits included. A decode
// session (Union.DecodeInto) tries each (union, JSON value) pair once,
// but the decoded value itself can be exponential in size when a union
// holds the same union both beside its oneOf (DecodeFields) and in its
// variants: each level decodes the one below twice, into two values. A
// value needing more is refused with a *UnionError saying so (the call
// returns it in a *runtime.DecodeError) instead of taking minutes of CPU
// (newuser4 G6). newuser4's 41-schema chain, 40 deep, takes 7 per byte.
const MaxUnionWork = 64

// errUnionWork is what a variant decode returns once the session's work
// is spent.
var errUnionWork = errors.New("decoding took more than openapi.MaxUnionWork variant decodes per byte of the value")

// spend counts one variant decode and reports whether it is within the
// session's limit.
func (s *unionSession) spend() bool {
	s.work++
	return s.work <= s.limit
}

// memoKey is a union, the type of its first variant field (one Union
// describes one Go type) and the hash of a JSON value's bytes.
type memoKey struct {
	u *Union
	t reflect.Type
	h uint64
}

// memoEntry is what a union chose for the JSON value b: the variant's
// index (-1: none) or the error.
type memoEntry struct {
	b     []byte
	index int
	err   error
}

var memoSeed = maphash.MakeSeed()

// find returns the entry for the JSON value b under key.
func (s *unionSession) find(key memoKey, b []byte) (memoEntry, bool) {
	for _, e := range s.memo[key] {
		if bytes.Equal(e.b, b) {
			return e, true
		}
	}
	return memoEntry{}, false
}

// openSession starts a decode session tracked by c (a copy of the JSON
// value no one else holds) and returns its key for exactjson.Untrack.
func openSession(c []byte) (*byte, *unionSession) {
	s := &unionSession{memo: map[memoKey][]memoEntry{}, limit: MaxUnionWork*len(c) + 4096}
	return exactjson.Track(c, s), s
}

// ownSession opens a decode session for the JSON value b unless b is in
// one, tracked by own (a copy of b no one else holds; a new copy when nil),
// and returns the bytes to decode (own, trimmed) and the session's key (nil
// when it opened none).
func ownSession(b, own []byte) ([]byte, *byte, *unionSession) {
	if unionMemoOff || exactjson.Session(b) != nil {
		return b, nil, nil
	}
	if own == nil {
		own = append([]byte(nil), b...)
	}
	k, s := openSession(own)
	return bytes.TrimSpace(own), k, s
}

// maxReasonText is how long, in bytes, the reason a variant was rejected
// may be in a UnionError's Tried: a longer one (another union's error,
// naming every variant it tried, which name theirs…) is cut to it and
// ends with "…". Without the cut the text grew as the product of the
// unions' variant counts: 9 MB for newuser4's G6 chain at depth 3.
const maxReasonText = 2048

// cutReason returns s cut to maxReasonText bytes (on a UTF-8 boundary)
// followed by "…", or s when it is no longer.
func cutReason(s string) string {
	if len(s) <= maxReasonText {
		return s
	}
	n := maxReasonText
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// allNil reports whether every dsts[i] (a **T) points to nil.
func allNil(dsts []any) bool {
	for _, d := range dsts {
		rv := reflect.ValueOf(d)
		if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Pointer || !rv.Elem().IsNil() {
			return false
		}
	}
	return true
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
	_, err := u.decodeInto(b, *raw, dsts)
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
//     an object holding, in a property every member gives one value (a
//     const: Discord's components, `type: [1]`, `[13]`, …), a value of
//     the same JSON type that no member has (a member added to the API
//     later) decodes into no member too (-1, nil);
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
	return u.decode(b, nil, false, decoders)
}

// decode is Decode. When it has two or more variants to try, or at once
// when openNow is set, and b is in no decode session, it opens one
// (decodeInto) and tries the variants on own (a copy of b no one else
// holds; a new copy when nil), which the session is tracked by.
func (u *Union) decode(b, own []byte, openNow bool, decoders []func([]byte) error) (int, error) {
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
	var tracked *byte // the session this decode opened, if any
	var opened *unionSession
	defer func() { exactjson.Untrack(tracked) }()
	if openNow {
		b, tracked, opened = ownSession(b, own)
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
						fail.Tried = append(fail.Tried, fmt.Sprintf("%s (discriminator %s=%q): %s", v.Name, u.Discriminator, tag, cutReason(err.Error())))
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
	if obj != nil && !named && u.unknownTag(obj) {
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
	if len(fits) > 1 && tracked == nil {
		b, tracked, opened = ownSession(b, own)
	}
	for _, f := range fits {
		if err := decoders[f.index](b); err != nil {
			fail.Tried = append(fail.Tried, u.Variants[f.index].Name+": "+cutReason(err.Error()))
			continue
		}
		return f.index, nil
	}
	if opened != nil && opened.work > opened.limit {
		fail.Tried = []string{errUnionWork.Error()}
	} else if named {
		return -1, nil
	}
	fail.Raw = append(json.RawMessage(nil), b...)
	return -1, fail
}

// unknownTag reports whether obj holds, in a property every variant of u
// gives one value (a const, or a one-value enum: Discord's components,
// `type: [1]`, `[13]`, … with no discriminator), a value of the same JSON
// type that none of them has: a variant added to the API later. Decode
// then sets no variant and keeps the value in Raw, as for a discriminator
// value that names no variant (newuser4 G11: one new component type made
// a whole message fail to decode).
func (u *Union) unknownTag(obj map[string]json.RawMessage) bool {
	if len(u.Variants) < 2 {
		return false
	}
	first := u.Variants[0].Const
	for i := 0; i+1 < len(first); i += 2 {
		raw, ok := obj[first[i]]
		if !ok {
			continue
		}
		kind := jsonKind(bytes.TrimSpace(raw))
		unknown := true
		for _, v := range u.Variants {
			val, has := v.constOf(first[i])
			if !has || jsonKind([]byte(val)) != kind || jsonEqual(raw, val) {
				unknown = false
				break
			}
		}
		if unknown {
			return true
		}
	}
	return false
}

// constOf returns the JSON value v's Const gives the property name.
func (v *Variant) constOf(name string) (string, bool) {
	for i := 0; i+1 < len(v.Const); i += 2 {
		if v.Const[i] == name {
			return v.Const[i+1], true
		}
	}
	return "", false
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
	// The union decodes b again, into its variant, right after: a session
	// (Union.decodeInto) keeps the unions below from doubling the work
	// at each level.
	b, tracked, opened := ownSession(b, nil)
	defer exactjson.Untrack(tracked)
	err := exactjson.Unmarshal(b, fields)
	if opened != nil && opened.work > opened.limit {
		return &UnionError{Union: "(fields beside a oneOf/anyOf)", Tried: []string{errUnionWork.Error()}, Raw: append(json.RawMessage(nil), b...)}
	}
	return err
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
