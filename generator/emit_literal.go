package generator

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// runtimeLiteral renders v, a value of a runtime type (runtime.Service,
// runtime.Operation), as the Go composite literal that builds it, so the
// generated client holds exactly the value the generator built. Fields are
// written in the struct's declaration order and zero fields are left out.
// fill supplies the code of fields the generator cannot render as values
// (the func fields of runtime.Operation, by field name).
//
// Values render as follows: strings through jen.Lit; named string and
// integer types of the runtime as their constant (runtime.ModeLegacy,
// runtime.JitterNone: the type's name followed by the value's String,
// capitalised); float64 as a Go float literal (1.5); time.Duration as a whole number of seconds or milliseconds;
// slices inline; maps one entry per line, sorted by key; pointers to structs
// as &T{…}. It returns an error for anything else (a func field fill does
// not supply, an unexported field set, a channel): a generator bug, not bad
// input.
func runtimeLiteral(v any, fill map[string]jen.Code) (*jen.Statement, error) {
	return literalWriter{}.literal(reflect.ValueOf(v), false, fill)
}

// runtimeLiteralInline is runtimeLiteral written on one line: maps and
// structs too (a runtime.Operation of a large client was six lines per
// operation, issue 24).
func runtimeLiteralInline(v any, fill map[string]jen.Code) (*jen.Statement, error) {
	return literalWriter{inline: true}.literal(reflect.ValueOf(v), false, fill)
}

// literalWriter renders runtime values as literals; inline writes every
// composite literal on one line.
type literalWriter struct{ inline bool }

// multi is how lw writes a composite literal of several elements: one per
// line, or all on one line when inline.
func (lw literalWriter) multi() jen.Options {
	if lw.inline {
		return jen.Options{Open: "{", Close: "}", Separator: ","}
	}
	return multiLine
}

// durationType is time.Duration, which renders in time's units.
var durationType = reflect.TypeFor[time.Duration]()

// literal renders v; elide leaves out the type of a composite literal (an
// element of a slice or map literal, where Go allows it).
func (lw literalWriter) literal(v reflect.Value, elide bool, fill map[string]jen.Code) (*jen.Statement, error) {
	t := v.Type()
	switch {
	case t == durationType:
		return durationLit(time.Duration(v.Int())), nil
	case t.PkgPath() == runtimePath && t.Kind() != reflect.Struct:
		return runtimeConst(v)
	case t.PkgPath() != "" && t.Kind() != reflect.Struct:
		return nil, fmt.Errorf("runtimeLiteral: cannot render a %s", t)
	}
	switch t.Kind() {
	case reflect.String:
		return jen.Lit(v.String()), nil
	case reflect.Bool:
		return jen.Lit(v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return jen.Lit(int(v.Int())), nil
	case reflect.Float64:
		return jen.Lit(v.Float()), nil
	case reflect.Struct:
		return lw.structLit(v, elide, fill)
	case reflect.Pointer:
		if t.Elem().Kind() != reflect.Struct {
			return nil, fmt.Errorf("runtimeLiteral: cannot render a %s", t)
		}
		if v.IsNil() {
			return jen.Nil(), nil // a nil element of a slice or map of pointers
		}
		s, err := lw.structLit(v.Elem(), elide, nil)
		if err != nil || elide {
			return s, err
		}
		return jen.Op("&").Add(s), nil
	case reflect.Slice:
		elems := make([]jen.Code, v.Len())
		for i := range v.Len() {
			e, err := lw.literal(v.Index(i), true, nil)
			if err != nil {
				return nil, err
			}
			elems[i] = e
		}
		typ, err := typeCode(t)
		if err != nil {
			return nil, err
		}
		return typ.Values(elems...), nil
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		entries := make([]jen.Code, len(keys))
		for i, k := range keys {
			kc, err := lw.literal(k, false, nil)
			if err != nil {
				return nil, err
			}
			vc, err := lw.literal(v.MapIndex(k), true, nil)
			if err != nil {
				return nil, err
			}
			entries[i] = kc.Op(":").Add(vc)
		}
		typ, err := typeCode(t)
		if err != nil {
			return nil, err
		}
		return typ.Custom(lw.multi(), entries...), nil
	}
	return nil, fmt.Errorf("runtimeLiteral: cannot render a %s", t)
}

// multiLine renders a composite literal's elements one per line.
var multiLine = jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}

// structLit renders a struct value's non-zero fields in declaration order.
func (lw literalWriter) structLit(v reflect.Value, elide bool, fill map[string]jen.Code) (*jen.Statement, error) {
	t := v.Type()
	var fields []jen.Code
	for i := range t.NumField() {
		f, fv := t.Field(i), v.Field(i)
		if code, ok := fill[f.Name]; ok {
			if code != nil {
				fields = append(fields, jen.Id(f.Name).Op(":").Add(code))
			}
			continue
		}
		if fv.IsZero() || (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.Len() == 0 {
			continue
		}
		if !f.IsExported() || f.Type.Kind() == reflect.Func {
			return nil, fmt.Errorf("runtimeLiteral: cannot render field %s of %s", f.Name, t)
		}
		fc, err := lw.literal(fv, false, nil)
		if err != nil {
			return nil, err
		}
		fields = append(fields, jen.Id(f.Name).Op(":").Add(fc))
	}
	s := &jen.Statement{}
	if !elide {
		typ, err := typeCode(t)
		if err != nil {
			return nil, err
		}
		s = typ
	}
	if len(fields) <= 1 {
		return s.Values(fields...), nil
	}
	return s.Custom(lw.multi(), fields...), nil
}

// typeCode renders a type: built-in types by name, named types qualified
// by their package, slices, maps and pointers of those.
func typeCode(t reflect.Type) (*jen.Statement, error) {
	switch {
	case t.Name() != "" && t.PkgPath() == "":
		return jen.Id(t.Name()), nil
	case t.Name() != "":
		return jen.Qual(t.PkgPath(), t.Name()), nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Pointer:
		elem, err := typeCode(t.Elem())
		if err != nil {
			return nil, err
		}
		if t.Kind() == reflect.Pointer {
			return jen.Op("*").Add(elem), nil
		}
		return jen.Index().Add(elem), nil
	case reflect.Map:
		key, err := typeCode(t.Key())
		if err != nil {
			return nil, err
		}
		elem, err := typeCode(t.Elem())
		if err != nil {
			return nil, err
		}
		return jen.Map(key).Add(elem), nil
	}
	return nil, fmt.Errorf("runtimeLiteral: cannot name the type %s", t)
}

// runtimeConst renders a value of a named runtime type as its constant: the
// type's name followed by the value's String, capitalised ("legacy" of
// runtime.Mode is runtime.ModeLegacy, "none" of runtime.Jitter is
// runtime.JitterNone). TestRuntimeConstNames checks that every retry mode
// and jitter names a constant of its value.
func runtimeConst(v reflect.Value) (*jen.Statement, error) {
	s, ok := v.Interface().(fmt.Stringer)
	name := ""
	switch {
	case ok:
		name = s.String()
	case v.Kind() == reflect.String:
		name = v.String()
	}
	r, size := utf8.DecodeRuneInString(name)
	if name == "" || !isIdent(name) {
		return nil, fmt.Errorf("runtimeLiteral: no constant for %s value %v", v.Type(), v)
	}
	return jen.Qual(runtimePath, v.Type().Name()+string(unicode.ToUpper(r))+name[size:]), nil
}

// isIdent reports whether s is made of letters and digits only.
func isIdent(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) < 0
}

// durationLit renders d in the largest of time.Second and
// time.Millisecond that divides it ("20 * time.Second", "time.Second"),
// else as time.Duration(N).
func durationLit(d time.Duration) *jen.Statement {
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{time.Second, "Second"}, {time.Millisecond, "Millisecond"}} {
		if d%u.unit == 0 {
			if d == u.unit {
				return jen.Qual("time", u.name)
			}
			return jen.Lit(int(d/u.unit)).Op("*").Qual("time", u.name)
		}
	}
	return jen.Qual("time", "Duration").Call(jen.Lit(int(d)))
}
