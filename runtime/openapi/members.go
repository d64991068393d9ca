package openapi

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/retrygen/retrygen/runtime/internal/exactjson"
)

// Member is a struct field whose JSON name no Go struct tag can hold (one
// with a quote, backslash, backquote, comma or control character, or the
// empty name: encoding/json's tag syntax cannot spell it). The field is
// tagged `json:"-"` and its type's MarshalJSON/UnmarshalJSON move it with
// [AddMembers] and [DecodeMembers] under its exact name, so no property of
// the spec is dropped (OpenAPI 3.0 §4.7.24: property names are any string).
type Member struct {
	// Name is the exact JSON member name.
	Name string
	// Field is a pointer to the struct field.
	Field any
	// OmitZero leaves the member out when the field is its zero value (or
	// its IsZero method says so), as the `omitzero` tag option does: the
	// property is optional.
	OmitZero bool
}

// AddMembers adds members to the JSON object object (the struct's other
// fields, encoded; err is the error that encoding returned, passed
// through) and returns the object with sorted keys, as encoding/json writes
// a map. A member the object already has is replaced. A value that is not
// an object (a union's variant that is a string) is returned as it is. It
// returns err, or encoding/json's error.
func AddMembers(object []byte, err error, members ...Member) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	if jsonKind(bytes.TrimSpace(object)) != JSONObject {
		return object, nil // a union's variant that is not an object: no members to add (MergeFields)
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(object, &m); err != nil {
		return nil, err
	}
	for _, mb := range members {
		v := reflect.ValueOf(mb.Field).Elem()
		if mb.OmitZero && isZero(v) {
			continue
		}
		if m[mb.Name], err = json.Marshal(v.Interface()); err != nil {
			return nil, err
		}
	}
	return json.Marshal(m)
}

// isZero reports what the omitzero tag option tests: the value's IsZero
// method when it has one, else whether it is its type's zero value.
func isZero(v reflect.Value) bool {
	if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
		if v.Kind() == reflect.Pointer && v.IsNil() {
			return true
		}
		return z.IsZero()
	}
	return v.IsZero()
}

// DecodeMembers decodes each member present in the JSON object b into its
// field (names compared exactly), leaving the fields of absent members as
// they are, as encoding/json does. err is the error decoding the struct's
// other fields returned: when it is not nil DecodeMembers returns it and
// decodes nothing. A b that is not an object (null) sets nothing. It
// returns encoding/json's error.
func DecodeMembers(b []byte, err error, members ...Member) error {
	if err != nil {
		return err
	}
	if jsonKind(bytes.TrimSpace(b)) != JSONObject {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	for _, mb := range members {
		raw, ok := m[mb.Name]
		if !ok {
			continue
		}
		k := exactjson.Derived(b, raw) // a copy: it stays in b's decode session
		err := exactjson.Unmarshal(raw, mb.Field)
		exactjson.Untrack(k)
		if err != nil {
			return err
		}
	}
	return nil
}
