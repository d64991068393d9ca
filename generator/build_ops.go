package generator

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/retrygen/retrygen/runtime"
	"gopkg.in/yaml.v3"
)

// retrySafeMethods are retried after ambiguous transport failures
// (retry-behavior.md §3).
var retrySafeMethods = []string{"GET", "HEAD", "OPTIONS", "PUT", "DELETE"}

// errorShapeNames returns the component schemas named by non-2xx and
// default responses through a $ref.
func (b *builder) errorShapeNames() map[string]bool {
	names := map[string]bool{}
	b.eachOperation(func(_, _ string, op *openapi3.Operation) {
		if op.Responses == nil {
			return
		}
		for code, r := range op.Responses.Map() {
			if is2xx(code) || r.Value == nil {
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

// operationGoName is the Go method name of op under method and pathKey
// before renames and collisions: its operationId made a Go name, else
// "method path" made one.
func operationGoName(pathKey, method string, op *openapi3.Operation) string {
	id := op.OperationID
	if id == "" {
		id = method + " " + pathKey
	}
	return goName(id, false)
}

// operations builds every operation, sorted by Go name.
func (b *builder) operations() []*Operation {
	var out []*Operation
	var nodes []*yaml.Node // each operation's mapping, by index into out
	methods := namespace{}
	ids := map[string]string{}   // operationId → pointer of its first operation
	checked := map[string]bool{} // path keys checked (checkPathKey): one error per path, not per operation
	warned := map[string]bool{}  // server variables warned of (serverURLs)
	b.eachOperation(func(path, method string, op *openapi3.Operation) {
		ptr := pointer("paths", path, strings.ToLower(method))
		b.d.building(ptr)
		want := operationGoName(path, method, op)
		if n, ok := b.sel.Rename.Operations[want]; ok {
			b.renamed["operations/"+want] = true
			want = n
		} else if n, ok := b.sel.Rename.Operations[op.OperationID]; ok && op.OperationID != "" {
			b.renamed["operations/"+op.OperationID] = true
			want = n
		}
		name, renamed := methods.claim(want)
		first, dup := ids[op.OperationID]
		switch {
		case op.OperationID == "":
			b.d.warnf(ptr, "no operationId; the method is named %s (from %s %s)", name, strings.ToUpper(method), path)
		case dup:
			b.d.warnf(child(ptr, "operationId"), "operationId %q is also used by #%s; this method is named %s", op.OperationID, first, name)
		case renamed:
			b.d.warnf(ptr, "method name %s is taken; using %s", want, name)
		}
		if op.OperationID != "" && !dup {
			ids[op.OperationID] = ptr
		}
		path0, _, _ := splitPathKey(path)
		if !checked[path] {
			checked[path] = true
			checkPathKey(b.d, path, path0)
		}
		o := &Operation{Name: name, Summary: op.Summary, Doc: withDeprecated(op.Description, op.Deprecated, "operation"), Method: strings.ToUpper(method), Path: path0, Source: ptr}
		ps := b.params(path, ptr, name, op)
		o.Headers, o.Query, o.Flags = ps.headers, ps.query, ps.flags
		o.Input, o.Body, o.Params = b.input(op, ptr, name+"Input", &ps)
		o.AcceptField, o.ContentTypeField = ps.accept, ps.contentType
		o.Stream = b.eventStream(op, ptr, name, methods)
		if o.Stream == nil || !o.Stream.Only {
			o.Output, o.OutputBody = b.output(withoutEventStream(op), ptr, name+"Output")
			if o.OutputBody == OutputXML {
				o.OutputXMLRoot = outputXMLRoot(op)
				o.ErrorDocument = b.aws
				if b.aws {
					o.OutputPayload, o.OutputPayloadElement = awsOutputPayload(b.typeNamed(o.Output))
				}
			}
			if b.aws && o.OutputBody == OutputStreamField {
				// aws2openapi's payload member (S3's GetObject Body): the
				// object's own bytes, of any media type, not the text/xml the
				// spec writes, so no Accept claims XML for it.
				o.Headers = slices.DeleteFunc(o.Headers, func(h FixedHeader) bool { return h.Name == headerAccept })
			}
		}
		if o.Stream != nil {
			o.Stream.FlagField, o.Stream.FlagPtr = streamFlagField(b.typeNamed(o.Input))
		}
		o.ResponseHeaders = b.responseHeaders(op, ptr, o.Output)
		o.OutputHeaderMaps = b.outputHeaderMaps[o.Output]
		switch {
		case op.Servers != nil && len(*op.Servers) > 0:
			o.Servers = b.serverList(*op.Servers, child(ptr, "servers"), name+"Server")
		case len(b.api.Paths.Value(path).Servers) > 0:
			o.Servers = b.serverList(b.api.Paths.Value(path).Servers, pointer("paths", path, "servers"), name+"Server")
		}
		if b.awsQuery {
			b.awsQueryWarnings(o, ptr)
		}
		servers := b.serverURLs(o.Servers, warned) // set on o.Retry below, once it is parsed
		o.Errors, o.StatusErrors = b.errorResponses(op, ptr, name)
		o.Security = b.security(op)
		opNode := mapValue(mapValue(mapValue(b.root, "paths"), path), strings.ToLower(method))
		opXRetry := mapValue(opNode, "x-retry")
		o.Retry = parseOperationXRetry(opXRetry, child(ptr, "x-retry"), b.d)
		applyOperationSpeakeasy(mapValue(opNode, speakeasyExtension), opXRetry, child(ptr, speakeasyExtension), &o.Retry, &b.retry, b.d)
		o.Retry.Name = name
		o.Retry.Servers = servers
		idempotent := slices.Contains(retrySafeMethods, o.Method)
		if o.Retry.IdempotencyHeader == "" && !idempotent {
			o.Retry.IdempotencyHeader = rootIdempotencyHeader(b.root)
		}
		b.idempotencyToken(o, opXRetry, child(ptr, "x-retry"))
		o.Retry.RetrySafe = o.Retry.RetrySafe || b.retry.RetrySafe || idempotent ||
			o.Retry.IdempotencyHeader != "" || o.IdempotencyTokenGo != ""
		// Fixed headers go to the runtime's Operation, read-only, copied into
		// each attempt's header map.
		for _, h := range o.Headers {
			if o.Retry.FixedHeaders == nil {
				o.Retry.FixedHeaders = map[string]string{}
			}
			o.Retry.FixedHeaders[http.CanonicalHeaderKey(h.Name)] = h.Value
		}
		out = append(out, o)
		nodes = append(nodes, opNode)
	})
	// Paginators and waiters read the input and output types, built above.
	types := map[string]*Type{}
	for _, t := range b.types {
		types[t.Name] = t
	}
	for i, o := range out {
		b.d.building(o.Source)
		b.pagination(o, nodes[i], o.Source, types, methods)
		b.waiters(o, nodes[i], o.Source, types, methods)
	}
	slices.SortFunc(out, func(x, y *Operation) int { return strings.Compare(x.Name, y.Name) })
	b.clearUnusedCodes(out)
	return out
}

// idempotencyToken finds the input field named by the operation's
// x-retry idempotencyTokenField (a string member of the input; xretry is
// the operation's x-retry mapping), or reports a located error.
func (b *builder) idempotencyToken(o *Operation, xretry *yaml.Node, ptr string) {
	n := mapValue(xretry, "idempotencyTokenField")
	if n == nil || n.Kind != yaml.ScalarNode || n.Value == "" {
		return // parseOperationXRetry reports a bad value
	}
	name := n.Value
	o.IdempotencyTokenField = name
	for _, t := range b.types {
		if t.Name != o.Input {
			continue
		}
		for _, f := range t.Fields {
			if f.JSONName == name && f.In == "" && !f.ThreeState() && f.Type.Kind == RefScalar && f.Type.Scalar == ScalarString {
				o.IdempotencyTokenGo = f.Name
				o.IdempotencyTokenPtr = !f.Required || f.Nullable
				return
			}
		}
	}
	b.d.errorf(child(ptr, "idempotencyTokenField"), "the input %s has no string member %q", o.Input, name)
}

// typeNamed returns the model type called name, or nil.
func (b *builder) typeNamed(name string) *Type {
	for _, t := range b.types {
		if t.Name == name {
			return t
		}
	}
	return nil
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
	b.types = append(b.types, &Type{Name: name, Kind: KindStruct, Source: ptr})
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

// checkPathKey reports a path key that could make a request leave the
// client's endpoint or reach another resource: one not starting with "/"
// (appended to the endpoint, "@evil.example/x" would change its host) or
// one with a "." or ".." segment, plain or percent-encoded ("%2e%2e"), or
// one whose braces are not a template ("/a/{b"). The runtime refuses such paths too
// (Client.Do); the error here says which key is at fault.
func checkPathKey(d *diags, key, path string) {
	ptr := pointer("paths", key)
	if !strings.HasPrefix(key, "/") {
		d.errorf(ptr, "path %q must start with \"/\": appended to the endpoint, it could send requests (and credentials) to another host", key)
		return
	}
	if defect := templateDefect(path); defect != "" {
		d.errorf(ptr, "path %q has %s: it is not a path template (RFC 6570) and would be sent literally", key, defect)
		return
	}
	for _, seg := range strings.Split(path, "/") {
		switch {
		case seg == "." || seg == "..":
			d.errorf(ptr, "path %q has a %q segment: it would name another resource", key, seg)
			return
		case runtime.HasDotSegment(seg):
			// Percent-encoded, as the runtime refuses it at every call.
			dec, _ := url.PathUnescape(seg)
			d.errorf(ptr, "path %q has a %q segment (%q): it would name another resource", key, seg, dec)
			return
		}
	}
}

// security returns the operation's security requirement as the scheme
// names of each alternative, in spec order: the operation's own, else the
// root's (OpenAPI 3.0 §4.7.10). An empty list (security: []) or none at all
// sends no credentials; nil means no credentials.
func (b *builder) security(op *openapi3.Operation) [][]string {
	reqs := b.api.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	var out [][]string
	for _, alt := range reqs {
		out = append(out, sortedKeys(alt))
	}
	if out != nil && len(out[0]) == 0 && len(out) == 1 {
		return nil
	}
	return out
}
