package openapi

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// rawMessageType is json.RawMessage's type: a generated union's Raw field.
var rawMessageType = reflect.TypeFor[json.RawMessage]()

// EmptyPathParam reports whether v, a path parameter's value (a generated
// union, or a pointer to one), renders as an empty path segment with
// [PathParam]: nil, no variant set and no Raw value, or the variant it
// sends empty (a "" string, a list with no items, Raw JSON null, "", []
// or {}).
// A generated validator refuses such a value before sending, as it
// refuses a "" string (runtime.EmptyPathParameter): "/a//b" would name
// another resource on a server that merges slashes. It allocates nothing
// for unions of strings, numbers and lists.
func EmptyPathParam(v any) bool {
	rv, ok := deref(reflect.ValueOf(v))
	if !ok {
		return true
	}
	switch rv.Kind() {
	case reflect.String:
		return rv.Len() == 0
	case reflect.Slice:
		if rv.Type() == rawMessageType {
			return rawEmpty(rv.Bytes())
		}
		return rv.Len() == 0
	case reflect.Map:
		return rv.Len() == 0
	case reflect.Struct:
		if sent, isUnion := unionVariant(rv); isUnion {
			return !sent.IsValid() || EmptyPathParam(sent.Interface())
		}
	}
	if !rv.CanInterface() {
		return false
	}
	return PathParam("", rv.Interface(), StyleSimple, false) == "" // another shape: render it
}

// UnionUnset reports whether u, a pointer to a generated union, is nil or
// has no variant set and no Raw value (or Raw JSON null): [MarshalUnion]
// would send it as null. A generated validator refuses such a value for a
// required member (runtime.MissingRequiredField), as it refuses a nil
// pointer. It allocates nothing.
func UnionUnset(u any) bool {
	rv, ok := deref(reflect.ValueOf(u))
	if !ok {
		return true
	}
	sent, isUnion := unionVariant(rv)
	return isUnion && !sent.IsValid()
}

// deref follows pointers and interfaces; ok is false at a nil one.
func deref(rv reflect.Value) (reflect.Value, bool) {
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return rv, false
		}
		rv = rv.Elem()
	}
	return rv, rv.IsValid()
}

// unionVariant returns the value a union struct rv sends (its first
// variant that is set, else its Raw value unless empty or JSON null; the
// zero Value when none), and whether rv has a generated union's shape
// (pointer variants and a json.RawMessage).
func unionVariant(rv reflect.Value) (sent reflect.Value, isUnion bool) {
	var raw reflect.Value
	for i := range rv.NumField() {
		f := rv.Field(i)
		switch {
		case f.Type() == rawMessageType:
			raw = f
		case f.Kind() != reflect.Pointer:
			return reflect.Value{}, false
		case !sent.IsValid() && !f.IsNil():
			sent = f
		}
	}
	if !raw.IsValid() {
		return reflect.Value{}, false
	}
	if !sent.IsValid() && raw.Len() > 0 && !bytes.Equal(bytes.TrimSpace(raw.Bytes()), []byte("null")) {
		sent = raw
	}
	return sent, true
}

// rawEmpty reports whether raw JSON renders as an empty path segment:
// empty, null, "", [] or {}.
func rawEmpty(b []byte) bool {
	switch string(bytes.TrimSpace(b)) {
	case "", "null", `""`, "[]", "{}":
		return true
	}
	return false
}
