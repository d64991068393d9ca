package generator

import (
	"net/http"
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
			ref := nonNull(b.schemaRef(h.Value.Schema, child(hptr, "schema"), out+goName(name, false)))
			reader := headerReader(ref, b)
			if reader == "" {
				b.d.warnf(hptr, "response header %q is not a string, integer, number, boolean or date-time; it is not an output field (read it from ResultMetadata.Header)", name)
				continue
			}
			base := goName(name, false)
			fname, renamed := ns.claim(base)
			if renamed {
				b.d.warnf(hptr, "Go field name %s is taken in %s; the response header %q is field %s", base, out, name, fname)
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
		}
	}
	return hs
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
