package openapi

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
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
	return emptyPathParam(v, 0)
}

// emptyPathParam is EmptyPathParam at the depth-th union nested in a
// variant: past maxWalkDepth (a union that holds itself, which
// json.Marshal refuses as a cycle) the value is empty, so it is refused
// before sending instead of recursing until the stack overflows.
func emptyPathParam(v any, depth int) bool {
	rv, ok := deref(reflect.ValueOf(v))
	if !ok || depth > maxWalkDepth {
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
			return !sent.IsValid() || emptyPathParam(sent.Interface(), depth+1)
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

// UnsetUnions returns the place, below at (the input type's name), of
// every required union member of v, a generated operation input, that has
// no variant set and no Raw value: encoding/json would send it as null,
// which the spec does not allow and a validating server refuses. The
// input's own members are named by their Go field ("Input.Messages"), the
// members below by their JSON path ("Input.Messages[1].content",
// `Input.Meta["k"]`, map keys in sorted order). A union member is required
// when its json tag has no omitzero or omitempty; list and map elements
// always are (a nullable one is a Nullable). The input's own members are
// not reported (UnionUnset checks them) but are walked, as are the variant
// a union sends and a Nullable's value; fields tagged "-" are walked on
// the input only (its Body). A generated validator refuses what it names
// (runtime.MissingRequiredField), as aws-sdk-go-v2's validators walk nested
// shapes. It walks at most maxWalkDepth levels and allocates nothing when
// it finds none. A value deeper than that (a cycle: json.Marshal refuses
// it) ends the whole walk, with what was found so far.
func UnsetUnions(v any, at string) []string {
	w := unionWalk{}
	w.walk(reflect.ValueOf(v), 0)
	if w.found == 0 {
		return nil
	}
	w = unionWalk{report: true, path: []string{at}}
	w.walk(reflect.ValueOf(v), 0)
	return w.out
}

// maxWalkDepth bounds UnsetUnions' walk, as encoding/json stops at a
// pointer cycle 1,000 levels deep.
const maxWalkDepth = 1000

// unionWalk is one UnsetUnions pass: the first counts (found), the second
// (report) names each place, path holding its segments.
type unionWalk struct {
	report bool
	// stopped: the walk went maxWalkDepth levels down (a cycle, most
	// likely) and ends everywhere, not only on that branch, so a value
	// that refers to itself through two members costs maxWalkDepth steps,
	// not 2^maxWalkDepth.
	stopped bool
	found   int
	path    []string
	out     []string
}

// unset records the place path + seg.
func (w *unionWalk) unset(seg pathSeg) {
	w.found++
	if w.report {
		w.out = append(w.out, strings.Join(w.path, "")+seg.String())
	}
}

// pathSeg is one step of a JSON path: ".name", "[index]" or `["key"]`,
// built only when a place is named.
type pathSeg struct {
	name  string
	index int
	key   reflect.Value
}

func (p pathSeg) String() string {
	switch {
	case p.name != "":
		return "." + p.name
	case p.key.IsValid():
		return "[" + strconv.Quote(fmt.Sprint(p.key)) + "]"
	}
	return "[" + strconv.Itoa(p.index) + "]"
}

// child walks rv at path + seg, reporting it when it is an unset union
// and required (depth 0 is the input itself, whose members are not).
func (w *unionWalk) child(rv reflect.Value, depth int, seg pathSeg, required bool) {
	if required && depth > 0 && isUnionStruct(rv.Type()) {
		if sent, _ := unionVariant(rv); !sent.IsValid() {
			w.unset(seg)
			return
		}
	}
	if w.report {
		w.path = append(w.path, seg.String())
		defer func() { w.path = w.path[:len(w.path)-1] }()
	}
	w.walk(rv, depth+1)
}

// walk visits rv's members.
func (w *unionWalk) walk(rv reflect.Value, depth int) {
	if w.stopped {
		return
	}
	if depth > maxWalkDepth {
		w.stopped = true
		return
	}
	rv, ok := deref(rv)
	if !ok {
		return
	}
	switch rv.Kind() {
	case reflect.Struct:
		t := rv.Type()
		if isUnionStruct(t) {
			if sent, _ := unionVariant(rv); sent.IsValid() && sent.Type() != rawMessageType {
				w.walk(sent, depth+1) // the variant is the value: no segment of its own, but a level (a union may hold itself)
			}
			return
		}
		if t.PkgPath() == nullablePkg && strings.HasPrefix(t.Name(), "Nullable[") {
			if rv.Field(2).Uint() == uint64(nullableValue) {
				w.walk(rv.Field(1), depth+1)
			}
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			tag, hasTag := f.Tag.Lookup("json")
			name, opts, _ := strings.Cut(tag, ",")
			switch {
			case !f.IsExported():
				continue
			case depth == 0:
				name = f.Name
			case !hasTag || name == "-" && opts == "":
				continue
			}
			w.child(rv.Field(i), depth, pathSeg{name: name}, !hasOption(opts, "omitzero") && !hasOption(opts, "omitempty"))
		}
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes, json.RawMessage
		}
		for i := range rv.Len() {
			w.child(rv.Index(i), depth, pathSeg{index: i}, true)
		}
	case reflect.Map:
		if !w.report {
			var it reflect.MapIter
			it.Reset(rv)
			for it.Next() {
				w.child(it.Value(), depth, pathSeg{}, true)
			}
			return
		}
		keys := rv.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		for _, k := range keys {
			w.child(rv.MapIndex(k), depth, pathSeg{key: k}, true)
		}
	}
}

// hasOption reports whether a json tag's options (after the name) hold o.
func hasOption(opts, o string) bool {
	for opts != "" {
		var one string
		one, opts, _ = strings.Cut(opts, ",")
		if one == o {
			return true
		}
	}
	return false
}

// isUnionStruct reports whether t has a generated union's shape: untagged
// pointer variants and Raw json.RawMessage (a generated struct's fields
// all carry json tags).
func isUnionStruct(t reflect.Type) bool {
	if t.Kind() != reflect.Struct || t.NumField() == 0 {
		return false
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if _, tagged := f.Tag.Lookup("json"); tagged || f.Type != rawMessageType && f.Type.Kind() != reflect.Pointer {
			return false
		}
	}
	last := t.Field(t.NumField() - 1)
	return last.Name == "Raw" && last.Type == rawMessageType
}

// nullablePkg is the package path of Nullable (this package's).
var nullablePkg = reflect.TypeFor[nullableState]().PkgPath()
