package openapi

import (
	"bytes"
	"encoding/json"
)

// Nullable is an optional member whose schema also admits null (OpenAPI 3.0
// "nullable: true"; 3.1 "null" in the type list, or a {type: 'null'} member
// of oneOf/anyOf). It has three states, so a request can clear a member (a
// PATCH sending null) as well as leave it out:
//
//   - absent: the zero value; with the generated omitzero tag the member is
//     left out of the JSON object;
//   - null: [Null]; the member is sent as JSON null;
//   - a value: [NullableOf].
//
// Decoding keeps the three apart: a member left out stays absent, JSON null
// is null (never the zero value of T), anything else is decoded into T. The
// design follows ogen's OptNil types (one value, a set flag and a null flag)
// with the flags unexported, so no fourth state can be built.
//
// Absent is exactly the all-zero Nullable (every constructor and a failed
// decode keep the value zero unless the state is "a value"), so
// encoding/json's omitzero needs no IsZero method. Each method costs two
// compiled functions per instantiation, and a client such as Stripe's has
// about a thousand: only the methods encoding/json and callers need exist.
type Nullable[T any] struct {
	value T
	state nullableState
}

// nullableState is a [Nullable]'s state.
type nullableState uint8

const (
	nullableAbsent nullableState = iota
	nullableNull
	nullableValue
)

// NullableOf returns a [Nullable] holding v.
func NullableOf[T any](v T) Nullable[T] {
	return Nullable[T]{value: v, state: nullableValue}
}

// Null returns a [Nullable] that is sent as JSON null.
func Null[T any]() Nullable[T] {
	return Nullable[T]{state: nullableNull}
}

// Get returns the value and true when n holds one; the zero T and false
// when n is absent or null. Get and IsNull take a pointer: a value method
// compiles to one more function per instantiation (issue 24).
func (n *Nullable[T]) Get() (T, bool) {
	return n.value, n.state == nullableValue
}

// IsNull reports whether n is JSON null.
func (n *Nullable[T]) IsNull() bool {
	return n.state == nullableNull
}

// MarshalJSON writes the value, or null when n is null or absent (an absent
// member is left out by omitzero before MarshalJSON is called). It returns
// encoding/json's error.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if n.state != nullableValue {
		return []byte("null"), nil
	}
	return json.Marshal(n.value)
}

// UnmarshalJSON makes n null for JSON null and decodes anything else into
// its value. It returns encoding/json's error, leaving n absent.
func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*n = Nullable[T]{state: nullableNull}
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		*n = Nullable[T]{}
		return err
	}
	*n = Nullable[T]{value: v, state: nullableValue}
	return nil
}
