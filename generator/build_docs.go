package generator

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// factsDoc is what a property's schema says beyond its Go type, as doc
// text: its default ("Default: 20."), a string format the Go type does not
// show ("Format: uri."), bounds ("Minimum: 1.", "Maximum length: 64."),
// pattern, and a "Deprecated:" paragraph (which gopls and staticcheck
// flag). Constraints of a named type (struct, enum, union) belong to that
// type, so a property that is one shows only its own default and
// deprecation.
func factsDoc(sr *openapi3.SchemaRef) string {
	if sr == nil || sr.Value == nil {
		return ""
	}
	own := sr.Value
	target, extra := own, (*openapi3.Schema)(nil)
	if i := aliasMember(own); i >= 0 && own.AllOf[i].Value != nil {
		target = own.AllOf[i].Value // AWS: allOf [{$ref: X}, {description}]
		if f := flattenAllOf(own, ""); f != nil && f.named {
			extra = f.extra // a named type's own facts are its type's
		} else if f != nil {
			target = f.merged // every member's constraints (allOf [$ref, {maxLength}])
		}
	}
	var facts []string
	def := own.Default
	if def == nil {
		def = target.Default
	}
	if def != nil {
		if b, err := json.Marshal(def); err == nil {
			facts = append(facts, "Default: "+string(b)+".")
		}
	}
	if _, named := namedKind(target, false); !named && target.Const == nil {
		facts = append(facts, constraintFacts(target)...)
	} else if extra != nil {
		facts = append(facts, constraintFacts(extra)...)
	}
	var paras []string
	if len(facts) > 0 {
		paras = append(paras, strings.Join(facts, " "))
	}
	if own.Deprecated || target.Deprecated {
		paras = append(paras, withDeprecated("", true, "member"))
	}
	return strings.Join(paras, "\n\n")
}

// constraintFacts lists a scalar or array schema's format and bounds.
func constraintFacts(s *openapi3.Schema) []string {
	var out []string
	typ, _ := schemaType(s)
	switch f := s.Format; {
	case f == "":
	case typ == "string" && f != "date-time" && f != "date" && f != "byte" && f != "binary":
		out = append(out, "Format: "+f+".")
	}
	if s.Min != nil {
		if s.ExclusiveMin.IsTrue() {
			out = append(out, "Minimum: "+numText(*s.Min)+" (exclusive).")
		} else {
			out = append(out, "Minimum: "+numText(*s.Min)+".")
		}
	}
	if s.ExclusiveMin.Value != nil {
		out = append(out, "Minimum: "+numText(*s.ExclusiveMin.Value)+" (exclusive).")
	}
	if s.Max != nil {
		if s.ExclusiveMax.IsTrue() {
			out = append(out, "Maximum: "+numText(*s.Max)+" (exclusive).")
		} else {
			out = append(out, "Maximum: "+numText(*s.Max)+".")
		}
	}
	if s.ExclusiveMax.Value != nil {
		out = append(out, "Maximum: "+numText(*s.ExclusiveMax.Value)+" (exclusive).")
	}
	if s.MinLength > 0 {
		out = append(out, fmt.Sprintf("Minimum length: %d.", s.MinLength))
	}
	if s.MaxLength != nil {
		out = append(out, fmt.Sprintf("Maximum length: %d.", *s.MaxLength))
	}
	if s.MinItems > 0 {
		out = append(out, fmt.Sprintf("Minimum items: %d.", s.MinItems))
	}
	if s.MaxItems != nil {
		out = append(out, fmt.Sprintf("Maximum items: %d.", *s.MaxItems))
	}
	if s.Pattern != "" {
		out = append(out, fmt.Sprintf("Pattern: %q.", s.Pattern))
	}
	return out
}

// withDeprecated appends a "Deprecated:" paragraph to doc when the spec marks
// the operation or schema (what) deprecated.
func withDeprecated(doc string, deprecated bool, what string) string {
	if !deprecated {
		return doc
	}
	return strings.TrimSpace(doc + "\n\nDeprecated: the spec marks this " + what + " deprecated.")
}
