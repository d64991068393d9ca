// Package exactjson makes encoding/json match object members to struct
// fields by their exact names. encoding/json (v1) also fills a field from
// a member whose name equals the field's ignoring case when no exact match
// exists, so an undeclared member "V" fills the declared "v" (and of "v"
// and "V" the last wins); OpenAPI and JSON names are case-sensitive. Before
// encoding/json decodes, Names renames, in a copy of the bytes, every
// member of an object decoded into a plain struct whose name is not one
// of the struct's but equals one ignoring case, so encoding/json ignores
// it as it ignores any undeclared member. It is the one rule of the
// runtime's and runtime/openapi's decoders; standard library only.
package exactjson

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
)

// Unmarshal is json.Unmarshal with exact member names (Names). It returns
// encoding/json's error.
func Unmarshal(b []byte, v any) error {
	c := Names(b, v)
	k := Derived(b, c) // a renamed copy stays in b's decode session
	err := json.Unmarshal(c, v)
	Untrack(k)
	return err
}

// Names returns b with every member that encoding/json would match to a
// field of v's type only by ignoring case renamed (its name prefixed with
// the escaped NUL "\u0000", which no field name holds), or b itself when
// there is none (no allocation). The walk follows v's type through plain
// structs, pointers, slices, arrays and maps, and stops at a type with its
// own UnmarshalJSON or UnmarshalText, whose decoder applies the rule to its
// own parts. Malformed JSON is returned as it is (encoding/json reports
// it).
func Names(b []byte, v any) []byte {
	t := reflect.TypeOf(v)
	if t == nil {
		return b
	}
	w := walker{b: b}
	if _, ok := w.value(0, t, 0); !ok || len(w.renames) == 0 {
		return b
	}
	out := make([]byte, 0, len(b)+6*len(w.renames))
	last := 0
	for _, at := range w.renames {
		out = append(append(out, b[last:at]...), `\u0000`...)
		last = at
	}
	return append(out, b[last:]...)
}

// maxDepth bounds the walk as encoding/json bounds nesting (10,000).
const maxDepth = 10000

// walker scans b, recording in renames the offsets just after the opening
// quote of each member to rename.
type walker struct {
	b       []byte
	renames []int
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// value walks the JSON value at i as type t and returns the offset after
// it; ok is false on malformed JSON.
func (w *walker) value(i int, t reflect.Type, depth int) (int, bool) {
	i = w.space(i)
	if i >= len(w.b) || depth > maxDepth {
		return i, false
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && ownDecoder(t) {
		t = nil // its own decoder applies the rule
	}
	switch w.b[i] {
	case '{':
		return w.object(i, t, depth)
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		i = w.space(i + 1)
		if i < len(w.b) && w.b[i] == ']' {
			return i + 1, true
		}
		for {
			var ok bool
			if i, ok = w.value(i, elem, depth+1); !ok {
				return i, false
			}
			i = w.space(i)
			if i >= len(w.b) {
				return i, false
			}
			if w.b[i] == ']' {
				return i + 1, true
			}
			if w.b[i] != ',' {
				return i, false
			}
			i++
		}
	case '"':
		end, _, ok := w.str(i)
		return end, ok
	}
	for i < len(w.b) && !strings.ContainsRune(",]} \t\r\n", rune(w.b[i])) {
		i++
	}
	return i, true
}

// object walks the object at i as type t (a struct: members matched to
// its fields; a map: values as its element type).
func (w *walker) object(i int, t reflect.Type, depth int) (int, bool) {
	var fields *fieldSet
	var elem reflect.Type
	switch {
	case t == nil:
	case t.Kind() == reflect.Struct:
		fields = fieldsOf(t)
	case t.Kind() == reflect.Map:
		elem = t.Elem()
	}
	i = w.space(i + 1)
	if i < len(w.b) && w.b[i] == '}' {
		return i + 1, true
	}
	for {
		i = w.space(i)
		if i >= len(w.b) || w.b[i] != '"' {
			return i, false
		}
		start := i
		end, name, ok := w.str(i)
		if !ok {
			return end, false
		}
		i = w.space(end)
		if i >= len(w.b) || w.b[i] != ':' {
			return i, false
		}
		vt := elem
		if fields != nil {
			if ft, exact := fields.byName[string(name)]; exact {
				vt = ft
			} else if fields.folds(string(name)) {
				w.renames = append(w.renames, start+1)
			}
		}
		if i, ok = w.value(i+1, vt, depth+1); !ok {
			return i, false
		}
		i = w.space(i)
		if i >= len(w.b) {
			return i, false
		}
		if w.b[i] == '}' {
			return i + 1, true
		}
		if w.b[i] != ',' {
			return i, false
		}
		i++
	}
}

// str returns the offset after the string at i and its value (unescaped,
// into a new slice, only when it holds a backslash).
func (w *walker) str(i int) (int, []byte, bool) {
	escaped := false
	for j := i + 1; j < len(w.b); j++ {
		switch w.b[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			if !escaped {
				return j + 1, w.b[i+1 : j], true
			}
			var s string
			if json.Unmarshal(w.b[i:j+1], &s) != nil {
				return j + 1, nil, false
			}
			return j + 1, []byte(s), true
		}
	}
	return len(w.b), nil, false
}

// space returns the offset of the first byte at or after i that is not
// JSON white space.
func (w *walker) space(i int) int {
	for i < len(w.b) && (w.b[i] == ' ' || w.b[i] == '\t' || w.b[i] == '\n' || w.b[i] == '\r') {
		i++
	}
	return i
}

// fieldSet is the JSON names of a struct's fields as encoding/json reads
// them (tag name, else the Go name; fields of untagged embedded structs
// promoted) with each field's type.
type fieldSet struct {
	byName map[string]reflect.Type
	names  []string
}

// folds reports whether name equals one of the fields' names ignoring
// case (Unicode simple folding, which covers encoding/json's own).
func (f *fieldSet) folds(name string) bool {
	if !utf8.ValidString(name) {
		return false
	}
	for _, n := range f.names {
		if len(n) <= 3*len(name) && len(name) <= 3*len(n) && strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

var fieldSets sync.Map // reflect.Type → *fieldSet

var ownDecoders sync.Map // reflect.Type → bool

// ownDecoder reports whether *t has its own UnmarshalJSON or
// UnmarshalText, once per type.
func ownDecoder(t reflect.Type) bool {
	if own, ok := ownDecoders.Load(t); ok {
		return own.(bool)
	}
	p := reflect.PointerTo(t)
	own := p.Implements(jsonUnmarshaler) || p.Implements(textUnmarshaler)
	ownDecoders.Store(t, own)
	return own
}

// fieldsOf returns t's fieldSet, built once per type.
func fieldsOf(t reflect.Type) *fieldSet {
	if f, ok := fieldSets.Load(t); ok {
		return f.(*fieldSet)
	}
	f := &fieldSet{byName: map[string]reflect.Type{}}
	addFields(f, t, 0)
	got, _ := fieldSets.LoadOrStore(t, f)
	return got.(*fieldSet)
}

// addFields adds t's fields to f, the shallower name first, as
// encoding/json's dominance rule keeps.
func addFields(f *fieldSet, t reflect.Type, depth int) {
	if depth > 16 {
		return
	}
	var embedded []reflect.Type
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, hasTag := sf.Tag.Lookup("json")
		name, _, _ := strings.Cut(tag, ",")
		if tag == "-" {
			continue
		}
		ft := sf.Type
		if sf.Anonymous && name == "" {
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				embedded = append(embedded, ft)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if !hasTag || name == "" {
			name = sf.Name
		}
		if _, dup := f.byName[name]; !dup {
			f.byName[name] = sf.Type
			f.names = append(f.names, name)
		}
	}
	for _, e := range embedded {
		addFields(f, e, depth+1)
	}
}
