package generator

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// retrySafeMethods are retried after ambiguous transport failures
// (retry-behavior.md §3).
var retrySafeMethods = []string{"GET", "HEAD", "OPTIONS", "PUT", "DELETE"}

// errorShapeNames returns the component schemas named by non-2xx responses
// through a $ref (aws2openapi's fake statuses 480–48x).
func (b *builder) errorShapeNames() map[string]bool {
	names := map[string]bool{}
	b.eachOperation(func(_, _ string, op *openapi3.Operation) {
		if op.Responses == nil {
			return
		}
		for code, r := range op.Responses.Map() {
			if is2xx(code) || code == "default" || r.Value == nil {
				continue
			}
			if sr := jsonSchema(r.Value.Content); sr != nil {
				if name, ok := strings.CutPrefix(sr.Ref, componentPrefix); ok {
					names[name] = true
				}
			}
		}
	})
	return names
}

// eachOperation calls f for every operation, paths sorted, methods sorted.
func (b *builder) eachOperation(f func(path, method string, op *openapi3.Operation)) {
	if b.api.Paths == nil {
		return
	}
	paths := b.api.Paths.Map()
	for _, path := range sortedKeys(paths) {
		ops := paths[path].Operations()
		for _, method := range sortedKeys(ops) {
			f(path, method, ops[method])
		}
	}
}

// operations builds every operation, sorted by Go name.
func (b *builder) operations() []*Operation {
	var out []*Operation
	methods := namespace{}
	b.eachOperation(func(path, method string, op *openapi3.Operation) {
		ptr := pointer("paths", path, strings.ToLower(method))
		id := op.OperationID
		if id == "" {
			id = method + " " + path
		}
		name, renamed := methods.claim(goName(id, false))
		if renamed {
			b.d.warnf(ptr, "method name %s is taken; using %s", goName(id, false), name)
		}
		o := &Operation{Name: name, Doc: op.Description, Method: strings.ToUpper(method), Path: urlPath(path)}
		if o.Doc == "" {
			o.Doc = op.Summary
		}
		o.Headers = b.fixedHeaders(path, ptr, op)
		o.Input = b.body(op, ptr, name+"Input")
		o.Output, o.Errors = b.responses(op, ptr, name+"Output")
		o.Retry = parseOperationXRetry(mapValue(mapValue(mapValue(mapValue(b.root, "paths"), path), strings.ToLower(method)), "x-retry"), child(ptr, "x-retry"), b.d)
		o.Retry.RetrySafe = o.Retry.RetrySafe || b.retry.RetrySafe || slices.Contains(retrySafeMethods, o.Method)
		out = append(out, o)
	})
	slices.SortFunc(out, func(x, y *Operation) int { return strings.Compare(x.Name, y.Name) })
	return out
}

// urlPath strips the "#k=v" or "?k=v" part of an aws2openapi path key
// ("/#X-Amz-Target=Svc_20120810.GetItem" → "/"); it is not part of the
// URL path.
func urlPath(key string) string {
	if i := strings.IndexAny(key, "#?"); i >= 0 {
		key = key[:i]
	}
	if key == "" {
		return "/"
	}
	return key
}

// fixedHeaders returns the headers sent automatically: required header
// parameters whose schema is a one-value enum (X-Amz-Target). Optional
// headers named X-Amz-* (X-Amz-Date, X-Amz-Security-Token, …) are the
// signer's business, set by the request hook, and are not input fields.
// Other parameters are not supported yet and are skipped with a warning.
func (b *builder) fixedHeaders(path, opPtr string, op *openapi3.Operation) []FixedHeader {
	var out []FixedHeader
	check := func(params openapi3.Parameters, ptr string) {
		for i, pr := range params {
			p := pr.Value
			pptr := child(ptr, strconv.Itoa(i))
			if p == nil {
				continue
			}
			switch {
			case p.In == "header" && p.Required && p.Schema != nil && p.Schema.Value != nil && len(p.Schema.Value.Enum) == 1:
				if v, ok := p.Schema.Value.Enum[0].(string); ok {
					out = append(out, FixedHeader{Name: http.CanonicalHeaderKey(p.Name), Value: v})
					continue
				}
				b.d.warnf(pptr, "header parameter %q has a non-string enum value; skipped", p.Name)
			case p.In == "header" && !p.Required && strings.HasPrefix(strings.ToLower(p.Name), "x-amz-"):
				// signing header: the request hook sets it
			default:
				b.d.warnf(pptr, "%s parameter %q is not supported yet; skipped", p.In, p.Name)
			}
		}
	}
	check(b.api.Paths.Value(path).Parameters, pointer("paths", path, "parameters"))
	check(op.Parameters, child(opPtr, "parameters"))
	slices.SortFunc(out, func(x, y FixedHeader) int { return strings.Compare(x.Name, y.Name) })
	return slices.CompactFunc(out, func(x, y FixedHeader) bool { return x.Name == y.Name })
}

// body returns the Go type of the JSON request body, or a new empty struct
// called fallback when the operation has none.
func (b *builder) body(op *openapi3.Operation, ptr, fallback string) string {
	var sr *openapi3.SchemaRef
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		sr = jsonSchema(op.RequestBody.Value.Content)
		if sr == nil {
			b.d.warnf(child(ptr, "requestBody"), "request body has no JSON schema; sending none")
		}
	}
	return b.structOrEmpty(sr, child(ptr, "requestBody"), fallback)
}

// responses returns the Go type of the 2xx response body (an empty struct
// called fallback when there is none) and the Go names of the error shapes
// the non-2xx responses model, sorted.
func (b *builder) responses(op *openapi3.Operation, ptr, fallback string) (string, []string) {
	var ok *openapi3.SchemaRef
	okPtr := ""
	var errs []string
	if op.Responses != nil {
		m := op.Responses.Map()
		for _, code := range sortedKeys(m) {
			r := m[code].Value
			if r == nil {
				continue
			}
			sr := jsonSchema(r.Content)
			switch {
			case is2xx(code) && ok == nil && sr != nil:
				ok, okPtr = sr, pointer("responses", code)
			case !is2xx(code) && code != "default" && sr != nil:
				if name, found := strings.CutPrefix(sr.Ref, componentPrefix); found && b.errors[name] != nil {
					errs = append(errs, b.errors[name].Name)
				}
			}
		}
	}
	slices.Sort(errs)
	return b.structOrEmpty(ok, ptr+okPtr, fallback), slices.Compact(errs)
}

// structOrEmpty returns the struct type of sr, or declares an empty struct
// called fallback when sr is nil or not an object.
func (b *builder) structOrEmpty(sr *openapi3.SchemaRef, ptr, fallback string) string {
	if sr != nil {
		ref := b.schemaRef(sr, ptr, fallback)
		if ref.Kind == RefNamed && ref.Struct {
			return ref.Name
		}
		b.d.warnf(ptr, "body schema is not an object with properties; using an empty struct")
	}
	name := b.claim(fallback, ptr)
	b.types = append(b.types, &Type{Name: name, Kind: KindStruct, Source: "operation " + ptr + " (the spec gives no object schema)"})
	return name
}

// jsonSchema returns the schema of the JSON media type of content: one
// whose type is application/json or ends in +json or contains "json", else
// nil.
func jsonSchema(content openapi3.Content) *openapi3.SchemaRef {
	for _, mt := range sortedKeys(content) {
		if strings.Contains(strings.ToLower(mt), "json") && content[mt] != nil {
			return content[mt].Schema
		}
	}
	return nil
}

func is2xx(code string) bool {
	return len(code) == 3 && code[0] == '2'
}
