package generator

import (
	"mime"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/retrygen/retrygen/runtime/openapi"
)

// eventStreamMedia is the media type of server-sent events.
const eventStreamMedia = "text/event-stream"

// sentinelExtension names the data that ends an event stream, as
// Speakeasy's specs spell it on the media type object.
const sentinelExtension = "x-speakeasy-sse-sentinel"

// eventFields are the properties of a schema that describes a whole
// server-sent event (Speakeasy's convention, which Mistral's spec follows):
// such a schema's data property is the type each event's data decodes as.
var eventFields = []string{"data", "event", "id", "retry"}

// streamFlag is the request property that turns streaming on in
// OpenAI-style APIs (Mistral, OpenAI): the stream method sends it true.
const streamFlag = "stream"

// eventStream reads the text/event-stream media type of the operation's
// first 2xx response with content: nil when there is none. name is the
// operation's Go name, methods the client's method namespace: when the
// response also offers other media types, the stream gets its own method,
// name + "Stream".
func (b *builder) eventStream(op *openapi3.Operation, ptr, name string, methods namespace) *EventStream {
	content, cptr := firstSuccessContent(op, ptr)
	mt := content[eventStreamMedia]
	if mt == nil {
		return nil
	}
	mptr := child(child(cptr, "content"), eventStreamMedia)
	es := &EventStream{Only: len(content) == 1, Sentinel: openapi.DoneSentinel, Method: name}
	if v, ok := mt.Extensions[sentinelExtension].(string); ok {
		es.Sentinel = v
	}
	if !es.Only {
		method, renamed := methods.claim(name + "Stream")
		if renamed {
			b.d.warnf(mptr, "method name %sStream is taken; the event stream's method is %s", name, method)
		}
		es.Method = method
	}
	sr, sptr := mt.Schema, child(mptr, "schema")
	if s := objectSchema(sr); s != nil && s.Properties["data"] != nil && onlyEventFields(s) {
		sr, sptr = s.Properties["data"], child(child(sptr, "properties"), "data")
	}
	if sr == nil {
		b.d.warnf(mptr, "event stream without a schema; each event's data is kept raw (json.RawMessage)")
		es.Data = TypeRef{Kind: RefScalar, Scalar: ScalarRawJSON}
		return es
	}
	es.Data = b.schemaRef(sr, sptr, es.Method+"Event")
	return es
}

// onlyEventFields reports whether every property of s is a field of a
// server-sent event.
func onlyEventFields(s *openapi3.Schema) bool {
	for k := range s.Properties {
		if !slices.Contains(eventFields, k) {
			return false
		}
	}
	return true
}

// firstSuccessContent returns the content of the operation's first 2xx
// response (in code order) that has any, and that response's pointer.
func firstSuccessContent(op *openapi3.Operation, ptr string) (openapi3.Content, string) {
	if op.Responses == nil {
		return nil, ""
	}
	m := op.Responses.Map()
	for _, code := range sortedKeys(m) {
		if r := m[code].Value; is2xx(code) && r != nil && len(r.Content) > 0 {
			return r.Content, child(child(ptr, "responses"), code)
		}
	}
	return nil, ""
}

// withoutEventStream returns op with the event-stream media type removed
// from its 2xx responses (a shallow copy; op is not changed), so the
// output is built from the other media types.
func withoutEventStream(op *openapi3.Operation) *openapi3.Operation {
	if op.Responses == nil {
		return op
	}
	cp := *op
	cp.Responses = openapi3.NewResponses()
	for code, r := range op.Responses.Map() {
		if is2xx(code) && r.Value != nil && r.Value.Content[eventStreamMedia] != nil {
			rv := *r.Value
			rv.Content = openapi3.Content{}
			for k, v := range r.Value.Content {
				if k != eventStreamMedia {
					rv.Content[k] = v
				}
			}
			r = &openapi3.ResponseRef{Value: &rv}
		}
		cp.Responses.Set(code, r)
	}
	return &cp
}

// streamedMedia reports whether a 2xx body of media type mt with schema sr
// is handed to the caller as an io.ReadCloser, unread: binary data
// (format: binary, application/octet-stream, */*, and any media type that
// is not JSON, XML or text). unstreamable is set for media types whose
// framing the client does not decode (JSON lines, JSON text sequences,
// multipart): those are streamed raw too, with a warning.
func streamedMedia(mt string, sr *openapi3.SchemaRef) (streamed bool, unstreamable bool) {
	base, _, err := mime.ParseMediaType(mt)
	if err != nil {
		base = strings.ToLower(mt)
	}
	switch {
	case strings.Contains(base, "ndjson") || strings.Contains(base, "jsonl") || strings.Contains(base, "json-seq") ||
		strings.HasPrefix(base, "multipart/"):
		return true, true
	case sr != nil && sr.Value != nil && sr.Value.Format == "binary":
		return true, false
	case strings.Contains(base, "json") || strings.Contains(base, "xml") || strings.HasPrefix(base, "text/"):
		return false, false
	}
	return true, false
}

// streamFlagField returns the Go field of the input type that holds the
// request body's boolean "stream" property, and whether it is a pointer;
// "" when there is none.
func streamFlagField(t *Type) (string, bool) {
	if t == nil {
		return "", false
	}
	for _, f := range t.Fields {
		if f.JSONName == streamFlag && f.In == "" && f.Type.Kind == RefScalar && f.Type.Scalar == ScalarBool {
			return f.Name, fieldIsPointer(f)
		}
	}
	return "", false
}
