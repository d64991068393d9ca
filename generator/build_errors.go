package generator

import (
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// isFakeAWSStatus reports whether a response code is one of aws2openapi's
// fake statuses 480–489, which name a modelled error by its schema (the
// schema's name is the error code) rather than by HTTP status.
func isFakeAWSStatus(code string) bool {
	return len(code) == 3 && strings.HasPrefix(code, "48")
}

// isStatusKey reports whether a responses key is an HTTP status code
// (100–599), a range (1XX–5XX, any case) or "default" (OpenAPI 3.0
// §4.7.16).
func isStatusKey(code string) bool {
	if code == "default" {
		return true
	}
	if len(code) != 3 || code[0] < '1' || code[0] > '5' {
		return false
	}
	if strings.EqualFold(code[1:], "XX") {
		return true
	}
	return '0' <= code[1] && code[1] <= '9' && '0' <= code[2] && code[2] <= '9'
}

// errorResponses returns the error shapes of the operation's non-2xx and
// default responses that have a JSON schema: the Go names of those keyed by
// error code (aws2openapi's fake statuses 480–489), sorted, and those keyed
// by HTTP status ("404", "4XX", "default"), in sorted status order (exact
// codes before their range, "default" last). An inline object schema
// becomes a new error shape named after the operation and status
// ("GetThing404Error"); a schema that is not an object gives no typed
// error (the runtime's *APIError keeps the body).
func (b *builder) errorResponses(op *openapi3.Operation, ptr, opName string) ([]string, []StatusError) {
	if op.Responses == nil {
		return nil, nil
	}
	var codes []string
	var statuses []StatusError
	m := op.Responses.Map()
	for _, code := range sortedKeys(m) {
		r := m[code].Value
		if is2xx(code) || r == nil {
			continue
		}
		if !isStatusKey(code) {
			b.d.warnf(child(child(ptr, "responses"), code), "response key %q is not an HTTP status (100–599, 1XX–5XX or default); ignored", code)
			continue
		}
		sr := jsonSchema(r.Content)
		if sr == nil {
			continue
		}
		rptr := child(child(ptr, "responses"), code)
		var shape *ErrorShape
		if name, ok := strings.CutPrefix(sr.Ref, componentPrefix); ok {
			shape = b.errors[name]
		} else if s := errorObject(sr); s != nil {
			// A shared response (components/responses/NotFound) is one shape,
			// named after its component and located there; an operation's own
			// inline schema is named after the operation and status.
			name, sptr := opName+strings.ToUpper(code[:1])+code[1:]+"Error", rptr
			if rn, ok := strings.CutPrefix(m[code].Ref, "#/components/responses/"); ok {
				name, sptr = pointerUnescaper.Replace(rn), pointer("components", "responses", pointerUnescaper.Replace(rn))
				if !strings.HasSuffix(name, "Error") {
					name += "Error"
				}
			}
			shape = b.inlineError(name, s, child(child(sptr, "content"), jsonMediaType(r.Content)))
		}
		switch {
		case shape == nil:
			b.d.warnf(rptr, "error response schema is not an object; the error is a *runtime.APIError with the raw body")
		case isFakeAWSStatus(code) && sr.Ref != "":
			codes = append(codes, shape.Name)
		default:
			if code != "default" {
				code = strings.ToUpper(code)
			}
			statuses = append(statuses, StatusError{Status: code, Name: shape.Name})
		}
	}
	return compactSorted(codes), statuses
}

// inlineError declares an error shape for an inline error schema found in
// the media type object at ptr, once per schema: a response shared by many
// operations is one shape.
func (b *builder) inlineError(name string, s *openapi3.Schema, ptr string) *ErrorShape {
	if e := b.inlineErrors[s]; e != nil {
		return e
	}
	e := &ErrorShape{Name: b.claim(goName(name, false), ptr), Doc: s.Description, Source: child(ptr, "schema")}
	e.Fields = b.memberFields(e.Name, s, child(ptr, "schema"), reservedErrorFields)
	b.errors["#"+ptr] = e
	if b.inlineErrors == nil {
		b.inlineErrors = map[*openapi3.Schema]*ErrorShape{}
	}
	b.inlineErrors[s] = e
	return e
}

// errorObject returns an inline error schema that is an object: one with
// properties, or an allOf whose members merge into one object (its fields
// are the merged properties), or nil.
func errorObject(sr *openapi3.SchemaRef) *openapi3.Schema {
	if s := objectSchema(sr); s != nil {
		return s
	}
	if sr == nil || sr.Value == nil || len(sr.Value.OneOf)+len(sr.Value.AnyOf) > 0 || len(sr.Value.AllOf) == 0 {
		return nil
	}
	if objectish(sr.Value, 0) && aliasMember(sr.Value) < 0 {
		return sr.Value
	}
	if i := aliasMember(sr.Value); i >= 0 && objectish(sr.Value.AllOf[i].Value, 0) {
		return sr.Value // allOf: [{$ref: Error}, {description}]: the member's object
	}
	return nil
}

// jsonMediaType is the key of the media type jsonSchema takes the schema
// from ("application/json").
func jsonMediaType(content openapi3.Content) string {
	for _, mt := range sortedKeys(content) {
		if strings.Contains(strings.ToLower(mt), "json") && content[mt] != nil {
			return mt
		}
	}
	return ""
}

// clearUnusedCodes drops the error code of shapes no operation keys by code
// (they are matched by HTTP status only).
func (b *builder) clearUnusedCodes(ops []*Operation) {
	used := map[string]bool{}
	for _, op := range ops {
		for _, n := range op.Errors {
			used[n] = true
		}
	}
	for _, e := range b.errors {
		if !used[e.Name] {
			e.Code = ""
		}
	}
}

func compactSorted(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
