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
		} else if s := objectSchema(sr); s != nil {
			shape = b.inlineError(opName+strings.ToUpper(code[:1])+code[1:]+"Error", s, rptr)
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

// inlineError declares an error shape for an inline error schema.
func (b *builder) inlineError(name string, s *openapi3.Schema, ptr string) *ErrorShape {
	e := &ErrorShape{Name: b.claim(goName(name, false), ptr), Doc: s.Description}
	e.Fields = b.fields(e.Name, s, child(ptr, "schema"), reservedErrorFields)
	b.errors["#"+ptr] = e
	return e
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
