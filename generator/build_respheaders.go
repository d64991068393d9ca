package generator

import (
	"net/http"
	"reflect"
	"slices"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
)

// ResponseHeader is a header a 2xx response declares, read into a typed
// field of the operation's output.
type ResponseHeader struct {
	// Field is the output's Go field name; Name the header's name as the
	// spec writes it.
	Field, Name string
	// Reader is the runtime/openapi function that parses it: "HeaderString",
	// "HeaderInt", "HeaderFloat", "HeaderBool" or "HeaderTime".
	Reader string
}

// responseHeaders adds to the output type out a field per header the
// operation's 2xx responses declare (the first declaration of a name wins,
// responses in status order, headers sorted) and returns them. A header
// whose schema is not a string, integer, number, boolean or date-time (an
// array or object, or a content header) gets no field: a warning names it,
// and ResultMetadata.Header still holds it.
func (b *builder) responseHeaders(op *openapi3.Operation, ptr, out string) []ResponseHeader {
	if op.Responses == nil {
		return nil
	}
	var t *Type
	for _, x := range b.types {
		if x.Name == out {
			t = x
		}
	}
	if t == nil {
		return nil
	}
	ns := fieldNamespace(t)
	seen := map[string]bool{}
	var hs []ResponseHeader
	m := op.Responses.Map()
	for _, code := range sortedKeys(m) {
		r := m[code]
		if !is2xx(code) || r == nil || r.Value == nil {
			continue
		}
		for _, name := range sortedKeys(r.Value.Headers) {
			canon := http.CanonicalHeaderKey(name)
			h := r.Value.Headers[name]
			hptr := child(child(child(child(ptr, "responses"), code), "headers"), name)
			if seen[canon] || canon == headerContentType {
				continue // Content-Type is the body's (OpenAPI 3.0 §4.7.17: ignored)
			}
			seen[canon] = true
			if h == nil || h.Value == nil || h.Value.Schema == nil {
				b.d.warnf(hptr, "response header %q has no schema; it is not an output field (read it from ResultMetadata.Header)", name)
				continue
			}
			key := out + "\x00" + canon
			if d, ok := sameHeaderDecl(b.headerDecls[key], h.Value.Schema); ok {
				// Another operation returning this type declared the same
				// header with an equal schema (an inline enum too): one
				// field of one type.
				hs = append(hs, ResponseHeader{Field: d.field, Name: name, Reader: d.reader})
				continue
			}
			ref := nonNull(b.schemaRef(h.Value.Schema, child(hptr, "schema"), out+goName(name, false)))
			reader := headerReader(ref, b)
			if reader == "" {
				b.d.warnf(hptr, "response header %q is not a string, integer, number, boolean or date-time; it is not an output field (read it from ResultMetadata.Header)", name)
				continue
			}
			if f := sharedHeaderField(t, canon, ref); f != "" {
				// Another operation returning this type declared the same
				// header the same way: one field (trial F3).
				hs = append(hs, ResponseHeader{Field: f, Name: name, Reader: reader})
				b.noteHeaderDecl(key, h.Value.Schema, f, reader)
				continue
			}
			base := goName(name, false)
			fname, renamed := ns.claim(base)
			if renamed {
				by := ""
				if slices.ContainsFunc(t.Fields, func(f Field) bool { return f.Name == base && f.In == "header" }) {
					by = " by a response header of another type"
				}
				b.d.warnf(hptr, "Go field name %s is taken in %s%s; the response header %q is field %s", base, out, by, name, fname)
			}
			doc := "Read from the response header " + strconv.Quote(name) + " (nil when absent)."
			if h.Value.Description != "" {
				doc = h.Value.Description + "\n\n" + doc
			}
			if ref.Kind == RefNamed {
				ref.Struct = false
			}
			t.Fields = append(t.Fields, Field{Name: fname, JSONName: name, Doc: doc, Type: ref, In: "header"})
			hs = append(hs, ResponseHeader{Field: fname, Name: name, Reader: reader})
			b.noteHeaderDecl(key, h.Value.Schema, fname, reader)
		}
	}
	return hs
}

// headerDecl is a response header's schema as declared, with the field
// and reader it was given.
type headerDecl struct {
	schema        *openapi3.SchemaRef
	field, reader string
}

// noteHeaderDecl records the declaration s of the header key (output type
// and canonical name) as field.
func (b *builder) noteHeaderDecl(key string, s *openapi3.SchemaRef, field, reader string) {
	if b.headerDecls == nil {
		b.headerDecls = map[string][]headerDecl{}
	}
	b.headerDecls[key] = append(b.headerDecls[key], headerDecl{s, field, reader})
}

// sameHeaderDecl returns the declaration among ds whose schema equals s:
// the same $ref, or inline schemas equal in every keyword but their docs
// (title, description, examples), which would make the same Go type.
func sameHeaderDecl(ds []headerDecl, s *openapi3.SchemaRef) (headerDecl, bool) {
	for _, d := range ds {
		switch {
		case d.schema.Ref != "" || s.Ref != "":
			if d.schema.Ref == s.Ref {
				return d, true
			}
		case d.schema.Value != nil && s.Value != nil && reflect.DeepEqual(undocumented(*d.schema.Value), undocumented(*s.Value)):
			return d, true
		}
	}
	return headerDecl{}, false
}

// undocumented is s without the keywords that only document it.
func undocumented(s openapi3.Schema) openapi3.Schema {
	s.Title, s.Description, s.Example, s.Examples, s.ExternalDocs = "", "", nil, nil, nil
	return s
}

// sharedHeaderField returns the name of t's response-header field for the
// header canon (canonical form) of type ref, declared by another operation
// returning t, or "".
func sharedHeaderField(t *Type, canon string, ref TypeRef) string {
	for _, f := range t.Fields {
		if f.In == "header" && http.CanonicalHeaderKey(f.JSONName) == canon && reflect.DeepEqual(f.Type, ref) {
			return f.Name
		}
	}
	return ""
}

// headerReader names the runtime/openapi function reading a header of type
// ref, or "" when none does.
func headerReader(ref TypeRef, b *builder) string {
	switch ref.Kind {
	case RefScalar:
		switch ref.Scalar {
		case ScalarString:
			return "HeaderString"
		case ScalarInt32, ScalarInt64:
			return "HeaderInt"
		case ScalarFloat32, ScalarFloat64:
			return "HeaderFloat"
		case ScalarBool:
			return "HeaderBool"
		case ScalarTime:
			return "HeaderTime"
		}
	case RefNamed:
		for _, t := range b.types {
			if t.Name == ref.Name && t.Kind == KindEnum {
				if t.IntEnum {
					return "HeaderInt"
				}
				return "HeaderString"
			}
		}
	}
	return ""
}
