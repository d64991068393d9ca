package openapi

import (
	"bytes"
	"encoding/json"

	"github.com/retrygen/retrygen/runtime/internal/exactjson"
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
// encoding/json's omitzero needs no IsZero method.
//
// Read it with [ValueOf] and [IsNull], functions rather than methods: a
// method of a generic type is compiled once per instantiation (two
// functions for a value receiver), and a client such as Stripe's has about
// a thousand instantiations, so only the two methods encoding/json needs
// exist (issue 24: Get and IsNull methods were a tenth of that client's
// compile memory). Nullable is not comparable (the zero-size func array,
// protoc-gen-go's DoNotCompare): == would compare the hidden state, and
// comparable instantiations each compiled an equality function; compare
// what [ValueOf] returns instead.
type Nullable[T any] struct {
	_     [0]func()
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

// ValueOf returns n's value and true when n holds one; the zero T and false
// when n is absent or null.
func ValueOf[T any](n Nullable[T]) (T, bool) {
	return n.value, n.state == nullableValue
}

// IsNull reports whether n is JSON null (not absent, not a value).
func IsNull[T any](n Nullable[T]) bool {
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
	if err := exactjson.Unmarshal(b, &v); err != nil {
		*n = Nullable[T]{}
		return err
	}
	*n = Nullable[T]{value: v, state: nullableValue}
	return nil
}
