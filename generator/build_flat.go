package generator

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
)

// flatAllOf is an allOf that stands for one member that is not an object
// (aliasMember): a value must satisfy every member (JSON Schema 2020-12
// §10.2.1.1), so the value's schema is that member with every other
// member's constraints, and the schema's own, folded in (foldConstraints):
// the tighter bound where both give one, the values both enums allow, a
// format or pattern where only one gives it.
type flatAllOf struct {
	alias int
	// merged is the alias member's schema with every constraint folded in.
	merged *openapi3.Schema
	// extra holds only the constraints the other members and the schema
	// itself give (the facts a property shows beside a named type).
	extra *openapi3.Schema
	// named: the alias member is a $ref to a named type (an enum, a
	// union), which stays the Go type; the other members add doc facts.
	named bool
	// retyped: the folded constraints change the Go type (a format, an
	// enum, a type the alias member does not give).
	retyped bool
	// conflicts are the constraints that cannot be combined, each at its
	// place; the first member's is kept.
	conflicts []flatConflict
}

// flatConflict is a constraint that cannot be combined with another one.
type flatConflict struct{ ptr, msg string }

// flattenAllOf folds s's allOf (at ptr) into one scalar or array schema;
// nil when s does not stand for one member that is not an object.
func flattenAllOf(s *openapi3.Schema, ptr string) *flatAllOf {
	i := aliasMember(s)
	if i < 0 || s.AllOf[i].Value == nil || objectish(s.AllOf[i].Value, 0) {
		return nil
	}
	alias := s.AllOf[i]
	f := &flatAllOf{alias: i}
	if alias.Ref != "" {
		_, f.named = namedKind(alias.Value, true)
	}
	if foldsNothing(s, i) {
		// aws2openapi's allOf [{$ref: X}, {description}]: the alias
		// member is the result as it is, with no extra facts (what the
		// folds below give, without copying two schemas; they are read,
		// never written: retyped is false).
		f.merged = alias.Value
		return f
	}
	f.extra = &openapi3.Schema{}
	merged := *alias.Value
	f.merged = &merged
	for j, m := range s.AllOf {
		if j == i || m.Value == nil {
			continue
		}
		mptr := child(child(ptr, "allOf"), strconv.Itoa(j))
		f.conflicts = append(f.conflicts, foldConstraints(f.merged, m.Value, mptr, i)...)
		foldConstraints(f.extra, m.Value, mptr, i)
	}
	f.conflicts = append(f.conflicts, foldConstraints(f.merged, s, ptr, i)...)
	foldConstraints(f.extra, s, ptr, i)
	a := alias.Value
	f.retyped = !f.named && (f.merged.Format != a.Format || !reflect.DeepEqual(f.merged.Enum, a.Enum) ||
		!reflect.DeepEqual(f.merged.Const, a.Const) || !reflect.DeepEqual(f.merged.Type, a.Type))
	return f
}

// foldsNothing reports whether no member of s's allOf but the alias
// member i, and not s itself, carries a value constraint foldConstraints
// reads, so that folding them would change nothing
// (TestFoldsNothingMatchesFold checks it field by field).
func foldsNothing(s *openapi3.Schema, i int) bool {
	if !constraintFree(s) {
		return false
	}
	for j, m := range s.AllOf {
		if j != i && m.Value != nil && !constraintFree(m.Value) {
			return false
		}
	}
	return true
}

// constraintFree reports whether m gives none of the keywords
// foldConstraints folds.
func constraintFree(m *openapi3.Schema) bool {
	return (m.Type == nil || m.Type.IsEmpty()) && m.Format == "" && m.Min == nil && m.Max == nil &&
		!m.ExclusiveMin.IsSet() && !m.ExclusiveMax.IsSet() && m.MultipleOf == nil &&
		m.MinLength == 0 && m.MaxLength == nil && m.MinItems == 0 && m.MaxItems == nil &&
		!m.UniqueItems && !m.Deprecated && m.Pattern == "" && len(m.Enum) == 0 && m.Const == nil && m.Default == nil
}

// foldConstraints folds the value constraints of m (at mptr) into dst,
// keeping the tighter of two bounds, and returns those it cannot combine
// with dst's (first is the allOf member dst started from, for messages).
// It reads only m's constraint keywords, never its structure (allOf,
// properties, items).
func foldConstraints(dst, m *openapi3.Schema, mptr string, first int) []flatConflict {
	var out []flatConflict
	conflict := func(kw, format string, args ...any) {
		out = append(out, flatConflict{child(mptr, kw), fmt.Sprintf(format, args...)})
	}
	if m.Type != nil && !m.Type.IsEmpty() {
		switch {
		case dst.Type == nil || dst.Type.IsEmpty():
			t := m.Type.Clone()
			dst.Type = &t
		default:
			var both openapi3.Types
			for _, a := range dst.Type.Slice() {
				for _, b := range m.Type.Slice() {
					switch {
					case a == b:
						both = append(both, a)
					case a == "integer" && b == "number", a == "number" && b == "integer":
						both = append(both, "integer")
					}
				}
			}
			both = slices.Compact(both)
			if len(both) == 0 {
				conflict("type", "type %v has no value in common with type %v (allOf member %d); the type follows the first", m.Type.Slice(), dst.Type.Slice(), first)
			} else if !slices.Equal(both, dst.Type.Slice()) {
				dst.Type = &both
			}
		}
	}
	switch {
	case m.Format == "" || m.Format == dst.Format:
	case dst.Format == "":
		dst.Format = m.Format
	default:
		conflict("format", "format %q and format %q (allOf member %d) cannot both apply; the type follows %q", m.Format, dst.Format, first, dst.Format)
	}
	wasEmpty := emptyRange(dst)
	if lo, excl, ok := lowerBound(m); ok {
		if dlo, dexcl, dok := lowerBound(dst); !dok || lo > dlo || lo == dlo && excl && !dexcl {
			dst.Min, dst.ExclusiveMin = &lo, openapi3.ExclusiveBound{}
			if excl {
				dst.Min, dst.ExclusiveMin.Value = nil, &lo
			}
		}
	}
	if hi, excl, ok := upperBound(m); ok {
		if dhi, dexcl, dok := upperBound(dst); !dok || hi < dhi || hi == dhi && excl && !dexcl {
			dst.Max, dst.ExclusiveMax = &hi, openapi3.ExclusiveBound{}
			if excl {
				dst.Max, dst.ExclusiveMax.Value = nil, &hi
			}
		}
	}
	if m.MultipleOf != nil {
		switch {
		case dst.MultipleOf == nil:
			dst.MultipleOf = m.MultipleOf
		default:
			a, b := *dst.MultipleOf, *m.MultipleOf
			if l, ok := commonMultiple(a, b); ok {
				dst.MultipleOf = &l
			} else if !positive(a) || !positive(b) {
				conflict("multipleOf", "multipleOf %s and multipleOf %s (allOf member %d) are kept as the first: a multipleOf must be a finite number above 0 (JSON Schema validation §6.2.1)", numText(b), numText(a), first)
			} else {
				conflict("multipleOf", "multipleOf %s and multipleOf %s (allOf member %d) are kept as the first: neither is a multiple of the other in floating point, and they are not both integers", numText(*m.MultipleOf), numText(*dst.MultipleOf), first)
			}
		}
	}
	dst.MinLength = max(dst.MinLength, m.MinLength)
	dst.MaxLength = minPtr(dst.MaxLength, m.MaxLength)
	dst.MinItems = max(dst.MinItems, m.MinItems)
	dst.MaxItems = minPtr(dst.MaxItems, m.MaxItems)
	if !wasEmpty && emptyRange(dst) {
		// m's bound met another member's: name m's keyword and the other.
		lo, lexcl, _ := lowerBound(dst)
		hi, hexcl, _ := upperBound(dst)
		kw, text := "", ""
		switch {
		case m.MaxLength != nil && dst.MaxLength != nil && *dst.MaxLength < dst.MinLength:
			kw, text = "maxLength", fmt.Sprintf("maxLength %d with minLength %d", *dst.MaxLength, dst.MinLength)
		case m.MinLength > 0 && dst.MaxLength != nil && *dst.MaxLength < dst.MinLength:
			kw, text = "minLength", fmt.Sprintf("minLength %d with maxLength %d", dst.MinLength, *dst.MaxLength)
		case m.MaxItems != nil && dst.MaxItems != nil && *dst.MaxItems < dst.MinItems:
			kw, text = "maxItems", fmt.Sprintf("maxItems %d with minItems %d", *dst.MaxItems, dst.MinItems)
		case m.MinItems > 0 && dst.MaxItems != nil && *dst.MaxItems < dst.MinItems:
			kw, text = "minItems", fmt.Sprintf("minItems %d with maxItems %d", dst.MinItems, *dst.MaxItems)
		default:
			bound := func(name string, v float64, excl bool) string {
				if excl {
					return name + " " + numText(v) + " (exclusive)"
				}
				return name + " " + numText(v)
			}
			if _, _, ok := upperBound(m); ok {
				kw, text = "maximum", bound("maximum", hi, hexcl)+" with "+bound("minimum", lo, lexcl)
			} else {
				kw, text = "minimum", bound("minimum", lo, lexcl)+" with "+bound("maximum", hi, hexcl)
			}
		}
		conflict(kw, "%s (allOf member %d) leaves no value; a request with this field cannot be valid", text, first)
	}
	dst.UniqueItems = dst.UniqueItems || m.UniqueItems
	dst.Deprecated = dst.Deprecated || m.Deprecated
	switch {
	case m.Pattern == "" || m.Pattern == dst.Pattern:
	case dst.Pattern == "":
		dst.Pattern = m.Pattern
	default:
		conflict("pattern", "pattern %q is not combined with pattern %q (one RE2 pattern cannot require both); the doc names the first", m.Pattern, dst.Pattern)
	}
	if e := enumOf(m); len(e) > 0 {
		d := enumOf(dst)
		var both []any
		for _, v := range d {
			if slices.ContainsFunc(e, func(w any) bool { return reflect.DeepEqual(v, w) }) {
				both = append(both, v)
			}
		}
		kw := "enum"
		if len(m.Enum) == 0 && m.Const != nil {
			kw = "const"
		}
		switch {
		case len(d) == 0:
			dst.Enum = e
		case len(both) == 0:
			conflict(kw, "%s has no value in common with the other allOf members'; the type keeps %v", kw, d)
		default:
			dst.Enum = both
		}
	}
	if dst.Default == nil {
		dst.Default = m.Default
	}
	return out
}

// numText writes a schema's number as its spec would: an integer within
// ±1e21 in plain digits (16777215, not 1.6777215e+07), any other the
// shortest way that reads back the same (0.1, 1e+300).
func numText(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// emptyRange reports whether s's bounds leave no value: a lower bound
// above the upper, equal bounds either of which is exclusive, or a
// minimum length or item count above the maximum.
func emptyRange(s *openapi3.Schema) bool {
	if lo, lexcl, ok := lowerBound(s); ok {
		if hi, hexcl, ok := upperBound(s); ok && (lo > hi || lo == hi && (lexcl || hexcl)) {
			return true
		}
	}
	return s.MaxLength != nil && *s.MaxLength < s.MinLength || s.MaxItems != nil && *s.MaxItems < s.MinItems
}

// commonMultiple is the least number that is a multiple of both a and b
// (both > 0), as a multipleOf both allow: the larger when it is an exact
// multiple of the smaller in floating point, else the integers' least
// common multiple while it stays exact (≤ 2^53); ok is false otherwise.
func commonMultiple(a, b float64) (float64, bool) {
	if !positive(a) || !positive(b) {
		return 0, false
	}
	lo, hi := min(a, b), max(a, b)
	if r := hi / lo; r == math.Trunc(r) && !math.IsInf(r, 0) {
		return hi, true
	}
	const exact = 1 << 53
	if a != math.Trunc(a) || b != math.Trunc(b) || hi > exact {
		return 0, false
	}
	x, y := uint64(a), uint64(b)
	for y != 0 {
		x, y = y, x%y
	}
	l := uint64(a) / x * uint64(b)
	if l > exact || l/uint64(b) != uint64(a)/x {
		return 0, false
	}
	return float64(l), true
}

// positive reports whether f is a finite number above 0, the only values
// a multipleOf may hold.
func positive(f float64) bool { return f > 0 && !math.IsInf(f, 1) }

// lowerBound is s's tightest lower bound and whether it is exclusive
// (minimum with 3.0's boolean exclusiveMinimum, or 3.1's numeric one).
func lowerBound(s *openapi3.Schema) (v float64, excl, ok bool) {
	if s.Min != nil {
		v, excl, ok = *s.Min, s.ExclusiveMin.IsTrue(), true
	}
	if e := s.ExclusiveMin.Value; e != nil && (!ok || *e >= v) {
		v, excl, ok = *e, true, true
	}
	return v, excl, ok
}

// upperBound is s's tightest upper bound and whether it is exclusive.
func upperBound(s *openapi3.Schema) (v float64, excl, ok bool) {
	if s.Max != nil {
		v, excl, ok = *s.Max, s.ExclusiveMax.IsTrue(), true
	}
	if e := s.ExclusiveMax.Value; e != nil && (!ok || *e <= v) {
		v, excl, ok = *e, true, true
	}
	return v, excl, ok
}

// minPtr is the smaller of two optional limits.
func minPtr(a, b *uint64) *uint64 {
	if a == nil || b != nil && *b < *a {
		return b
	}
	return a
}
