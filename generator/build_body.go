package generator

import (
	"fmt"
	"mime"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// bodyKind says how a media type is encoded: BodyJSON for JSON types
// (application/json, +json, anything containing "json"), BodyForm,
// BodyMultipart (multipart/*), BodyXML (application/xml, text/xml, +xml),
// else BodyRaw.
func bodyKind(mt string) string {
	l := strings.ToLower(mt)
	switch {
	case strings.Contains(l, "json"):
		return BodyJSON
	case strings.Contains(l, "xml"):
		return BodyXML
	case strings.HasPrefix(l, "application/x-www-form-urlencoded"):
		return BodyForm
	case strings.HasPrefix(l, "multipart/"):
		return BodyMultipart
	}
	return BodyRaw
}

// kindRank orders body kinds by preference.
var kindRank = map[string]int{BodyJSON: 0, BodyForm: 1, BodyMultipart: 2, BodyXML: 3, BodyRaw: 4}

// pickMedia chooses the media type a client sends or expects when content
// offers several: JSON, then form, then multipart, then XML, then raw; within a kind
// "application/json" first, then in sorted order. It returns the choice, its
// kind and the other media types, sorted.
func pickMedia(content openapi3.Content) (mt, kind string, others []string) {
	types := sortedKeys(content)
	if len(types) == 0 {
		return "", BodyNone, nil
	}
	slices.SortStableFunc(types, func(x, y string) int {
		if d := kindRank[bodyKind(x)] - kindRank[bodyKind(y)]; d != 0 {
			return d
		}
		switch {
		case x == "application/json":
			return -1
		case y == "application/json":
			return 1
		}
		return 0
	})
	return types[0], bodyKind(types[0]), slices.Sorted(slices.Values(types[1:]))
}

// mediaSchema returns the schema of media type mt of content, found at
// ptr. A null media type object (`application/json:` with nothing after it)
// has none: a warning says so, and the body is typed as raw JSON or bytes.
func (b *builder) mediaSchema(content openapi3.Content, mt, ptr string) *openapi3.SchemaRef {
	m := content[mt]
	if m == nil {
		b.d.warnf(ptr, "media type object is null; the body has no schema")
		return nil
	}
	return m.Schema
}

// checkMediaType returns kind, or BodyRaw with a warning at ptr when mt is
// not a media type (RFC 6838 type/subtype, mime.ParseMediaType): the body is
// then kept raw, bytes as they are.
func (b *builder) checkMediaType(mt, kind, ptr string) string {
	if parsed, _, err := mime.ParseMediaType(mt); err != nil || !strings.Contains(parsed, "/") {
		b.d.warnf(ptr, "%q is not a media type (type/subtype); the body is kept raw (bytes as they are)", mt)
		return BodyRaw
	}
	return kind
}

// objectSchema returns the object schema sr stands for (through a
// reference) when it becomes a struct (namedKind), else nil.
func objectSchema(sr *openapi3.SchemaRef) *openapi3.Schema {
	if sr == nil || sr.Value == nil || len(sr.Value.AllOf)+len(sr.Value.OneOf)+len(sr.Value.AnyOf) > 0 {
		return nil
	}
	if kind, ok := namedKind(sr.Value, sr.Ref != ""); ok && kind == KindStruct {
		return sr.Value
	}
	return nil
}

// input builds the operation's input type from its parameters and request
// body. The input is the body's component type when the body is a
// reference to an object and there are no parameters (AWS JSON); otherwise
// a new struct called name with the parameter fields followed by the body
// object's properties, or by a Body field holding the whole body when it is
// not an object (arrays, scalars, raw bytes: io.Reader).
//
// A query, header or cookie parameter named like a property of the body
// object is kept beside it: two fields, both sent (the parameter's Go name
// gets a numeric suffix). Specs that duplicate body members as parameters
// by mistake (aws2openapi's AWS specs) remove the copies with an overlay.
// It returns the input type's name, the body and the parameters.
func (b *builder) input(op *openapi3.Operation, ptr, name string, ps *opParams) (string, Body, []Param) {
	var body Body
	var sr *openapi3.SchemaRef
	bptr := child(ptr, "requestBody")
	required := false
	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		required = rb.Value.Required
		mt, kind, others := pickMedia(rb.Value.Content)
		if mt != "" {
			bptr = child(child(bptr, "content"), mt)
			sr = b.mediaSchema(rb.Value.Content, mt, bptr)
			kind = b.checkMediaType(mt, kind, bptr)
		}
		body = Body{Kind: kind, ContentType: mt, Others: others}
		if kind == BodyJSON {
			b.warnUnsendableFiles(rb.Value.Content, others, child(ptr, "requestBody"))
		}
	}
	obj := objectSchema(sr)
	if body.Kind == BodyXML && obj == nil {
		b.d.warnf(bptr, "XML body schema is not an object with properties; the client sends the Body field's bytes as they are")
		body.Kind = BodyRaw
	}
	if body.Kind == BodyRaw {
		obj = nil
	}
	var aws awsBody
	if body.Kind == BodyXML && obj != nil && sr.Ref == "" && b.aws {
		// aws2openapi's payload and prefix-header members (build_payload.go).
		aws = awsBodyOf(obj, b.propertyOrder(child(bptr, "schema"), 0))
		if aws.Payload != "" || aws.Others == 0 && len(aws.Prefixes) > 0 {
			kept := *obj // only the prefix-header maps stay fields built from the schema
			kept.Properties, kept.Required = openapi3.Schemas{}, nil
			for _, p := range aws.Prefixes {
				kept.Properties[p[0]] = obj.Properties[p[0]]
			}
			obj = &kept
			if aws.Payload != "" {
				body.Kind, body.ContentType = BodyRaw, "application/octet-stream"
			} else {
				body = Body{}
			}
		}
	}
	if body.Kind == BodyForm && emptyObject(sr) {
		// Stripe's GET operations declare a form body with no properties:
		// nothing to send.
		body, obj = Body{}, nil
	}
	if body.Kind == BodyMultipart && obj != nil && len(obj.Properties) == 0 {
		obj = nil // no parts to build: the caller lists them (Parts)
	}
	if body.Kind == BodyForm || body.Kind == BodyMultipart {
		body.Encoding = b.encodings(op.RequestBody.Value.Content[body.ContentType], body.Kind, bptr)
	}
	if obj != nil && sr.Ref != "" && len(ps.fields) == 0 && body.Kind == BodyXML {
		body.XMLRoot, body.XMLNamespace = xmlRoot(sr, name)
		tname := b.structOrEmpty(sr, bptr, name)
		b.markXML(tname)
		return tname, body, nil
	}
	if obj != nil && sr.Ref != "" && len(ps.fields) == 0 && body.Kind == BodyJSON {
		return b.structOrEmpty(sr, bptr, name), body, nil
	}
	if body.Kind == BodyNone && len(ps.fields) == 0 && obj == nil {
		return b.structOrEmpty(nil, ptr, name), body, nil
	}
	claimAt := bptr
	if op.RequestBody == nil {
		claimAt = ptr // no requestBody to point at
	}
	tname := b.claim(name, claimAt)
	t := &Type{Name: tname, Kind: KindStruct, Source: ptr}
	b.types = append(b.types, t)
	var bodyFields []Field
	switch {
	case obj != nil:
		bodyFields = b.memberFields(tname, obj, child(bptr, "schema"), reservedTypeFields)
		bodyFields = slices.DeleteFunc(bodyFields, func(f Field) bool { return f.ReadOnly }) // never sent
		if body.Kind == BodyMultipart {
			bodyFields = slices.DeleteFunc(bodyFields, func(f Field) bool {
				if headerValueOK(f.JSONName) {
					return false
				}
				// Escaped at run time as mime/multipart escapes it, but a
				// name no form can hold is the spec's error: say so.
				b.d.warnf(child(child(child(bptr, "schema"), "properties"), f.JSONName),
					"multipart part name %q holds a control byte; the property is skipped", f.JSONName)
				return true
			})
			for i, f := range bodyFields {
				if p := obj.Properties[f.JSONName]; p != nil && isFile(p.Value) && f.Type.Kind == RefScalar {
					// *openapi.File; a required one is refused when nil,
					// before the first attempt (inputChecks).
					bodyFields[i].Type = TypeRef{Kind: RefScalar, Scalar: ScalarFile}
					body.Streamed = true // files are streamed, never buffered
				}
				body.Parts = append(body.Parts, Param{Field: f.Name, Name: f.JSONName})
			}
		}
	case body.Kind == BodyMultipart:
		// No properties to build parts from: the caller lists them, and the
		// runtime writes them with a boundary (a raw multipart body without
		// one cannot be parsed).
		b.d.warnf(bptr, "%s body schema has no properties; the input's Parts field lists the parts to send", body.ContentType)
		bodyFields = []Field{{Name: "Parts", Doc: "Parts are the multipart/form-data body's parts, sent in order (the spec's schema names none).",
			Type: TypeRef{Kind: RefSlice, Elem: &TypeRef{Kind: RefScalar, Scalar: ScalarPart}}, Required: required, In: "body"}}
		body.Field = "Parts"
	case body.Kind == BodyRaw || body.Kind == BodyForm:
		if body.Kind != BodyRaw {
			b.d.warnf(bptr, "%s body schema is not an object with properties; the client sends the Body field's bytes as they are", body.ContentType)
			body.Kind = BodyRaw
		}
		bodyFields = []Field{{Name: "Body", Doc: "Body is the request body, read once (buffered up to runtime.MaxReplayBody for retries).",
			Type: TypeRef{Kind: RefScalar, Scalar: ScalarReader}, Required: true, In: "body"}}
		body.Field = "Body"
	case body.Kind == BodyJSON:
		bodyFields = []Field{{Name: "Body", Doc: "Body is the JSON request body.",
			Type: b.schemaRef(sr, child(bptr, "schema"), tname+"Body"), Required: required, In: "body"}}
		body.Field = "Body"
	}
	t.Fields = append(renameClashes(ps, bodyFields, b, ptr), bodyFields...)
	params := ps.params
	if aws.Payload != "" || len(aws.Prefixes) > 0 {
		params = b.awsInput(t, &body, aws, sr, params)
	}
	if body.Kind == BodyXML {
		b.xmlInput(t, sr, child(bptr, "schema"), &body, bodyFields)
	}
	return tname, body, params
}

// xmlInput settles how the XML body of input type t is written: from a
// wrapper property's field (xmlWrapper: the property is the root element)
// or from t itself, the root named by the schema (xmlRoot), fields in the
// spec's order; the types reached are marked XML.
func (b *builder) xmlInput(t *Type, sr *openapi3.SchemaRef, sptr string, body *Body, bodyFields []Field) {
	if w := xmlWrapper(sr); w != "" {
		for _, f := range bodyFields {
			if f.JSONName == w {
				body.Field = f.Name
				body.XMLRoot, body.XMLNamespace = cmpOr(f.XML.Name, w), f.XML.Namespace
				if f.Type.Kind == RefNamed {
					b.markXML(f.Type.Name)
				}
				return
			}
		}
	}
	body.XMLRoot, body.XMLNamespace = xmlRoot(sr, t.Name)
	b.xmlOrderFrom(t, sptr)
	b.markXML(t.Name)
}

// emptyObject reports an object schema with no properties that keeps no
// other members either (additionalProperties absent or false).
func emptyObject(sr *openapi3.SchemaRef) bool {
	if sr == nil || sr.Value == nil {
		return false
	}
	s := sr.Value
	typ, _ := schemaType(s)
	return typ == "object" && len(s.Properties) == 0 && len(s.AllOf)+len(s.OneOf)+len(s.AnyOf) == 0 &&
		s.AdditionalProperties.Schema == nil && (s.AdditionalProperties.Has == nil || !*s.AdditionalProperties.Has)
}

// encodings reads the Encoding Object of a form or multipart media type,
// applying its defaults (style form; explode true for form); a header of a
// part is sent when its schema fixes the value (a default or one enum
// value), else it is left out with a warning.
func (b *builder) encodings(mt *openapi3.MediaType, kind, ptr string) map[string]Encoding {
	if mt == nil || len(mt.Encoding) == 0 {
		return nil
	}
	out := map[string]Encoding{}
	for _, name := range sortedKeys(mt.Encoding) {
		e := mt.Encoding[name]
		if e == nil {
			continue
		}
		enc := Encoding{ContentType: e.ContentType, Style: e.Style}
		if !headerValueOK(enc.ContentType) {
			b.d.warnf(child(child(child(ptr, "encoding"), name), "contentType"),
				"contentType %q holds a control byte and cannot be written in a part header; the part's default media type is sent", enc.ContentType)
			enc.ContentType = ""
		}
		if enc.Style == "" {
			enc.Style = "form"
		}
		enc.Explode = enc.Style == "form"
		if e.Explode != nil {
			enc.Explode = *e.Explode
		}
		if e.Style == "" && e.Explode == nil {
			enc.Style, enc.Explode = "", false // the runtime's default for the property's type
		}
		for _, h := range sortedKeys(e.Headers) {
			if kind != BodyMultipart || strings.EqualFold(h, "Content-Type") {
				continue // OpenAPI 3.0 §4.7.15: ignored
			}
			hp := child(child(child(child(ptr, "encoding"), name), "headers"), h)
			if !isToken(h) {
				b.d.warnf(hp, "multipart part header name %q is not an RFC 9110 token; not sent", h)
				continue
			}
			v, ok := fixedHeaderValue(e.Headers[h])
			if !ok {
				b.d.warnf(hp, "multipart part header %q has no fixed value (default or single enum value); not sent", h)
				continue
			}
			if !headerValueOK(v) {
				b.d.warnf(hp, "multipart part header %q value %q holds a control byte and cannot be written in a part header; not sent", h, v)
				continue
			}
			if enc.Headers == nil {
				enc.Headers = map[string]string{}
			}
			enc.Headers[h] = v
		}
		out[name] = enc
	}
	return out
}

// fixedHeaderValue returns the value a Header Object's schema fixes.
func fixedHeaderValue(h *openapi3.HeaderRef) (string, bool) {
	if h == nil || h.Value == nil || h.Value.Schema == nil || h.Value.Schema.Value == nil {
		return "", false
	}
	s := h.Value.Schema.Value
	v := s.Default
	if v == nil && len(s.Enum) == 1 {
		v = s.Enum[0]
	}
	if v == nil {
		return "", false
	}
	return fmt.Sprint(v), true
}

// renameClashes gives parameter fields whose Go names a body field already
// uses a numeric suffix, updating the parameters to match, and returns the
// parameter fields (and ps.accept, ps.contentType to match).
func renameClashes(ps *opParams, bodyFields []Field, b *builder, ptr string) []Field {
	ns := namespace{}
	for _, f := range bodyFields {
		ns[f.Name] = true
	}
	for i := range ps.fields {
		f := &ps.fields[i]
		got, renamed := ns.claim(f.Name)
		if renamed {
			b.d.warnf(ptr, "parameter %q: Go field name %s is taken by the request body; using %s", f.JSONName, f.Name, got)
			for j := range ps.params {
				if ps.params[j].Field == f.Name {
					ps.params[j].Field = got
				}
			}
			switch f.Name {
			case ps.accept:
				ps.accept = got
			case ps.contentType:
				ps.contentType = got
			}
			f.Name = got
		}
	}
	return ps.fields
}

// isErrorShape reports whether sr refers to a component that is an error
// shape (it has no ResultMetadata, so it cannot be an output type itself).
func (b *builder) isErrorShape(sr *openapi3.SchemaRef) bool {
	name, ok := strings.CutPrefix(sr.Ref, componentPrefix)
	return ok && b.errors[name] != nil
}

// output builds the operation's output type from the first 2xx response
// with content. A JSON object whose schema is dedicated to the response (a
// component referenced nowhere else, see componentUses, or an inline object)
// is the output type itself. Any other JSON decodes into a new struct called
// name: a struct type (a shared component such as a REST resource, an allOf
// or oneOf) is embedded in it, so its fields are the output's; anything else
// (arrays, scalars, maps, error shapes) goes in its Body field. Other media
// types give a Body []byte field; no 2xx content an empty struct and no
// decoding.
func (b *builder) output(op *openapi3.Operation, ptr, name string) (string, string) {
	var content openapi3.Content
	cptr, respRef := "", ""
	if op.Responses != nil {
		m := op.Responses.Map()
		for _, code := range sortedKeys(m) {
			if r := m[code].Value; is2xx(code) && r != nil && len(r.Content) > 0 {
				content, cptr, respRef = r.Content, child(child(ptr, "responses"), code), m[code].Ref
				break
			}
		}
	}
	mt, kind, _ := pickMedia(content)
	if kind == BodyNone {
		return b.structOrEmpty(nil, ptr, name), OutputNone
	}
	cptr = child(child(cptr, "content"), mt)
	sr := b.mediaSchema(content, mt, cptr)
	kind = b.checkMediaType(mt, kind, cptr)
	if streamed, _ := streamedMedia(mt, sr); streamed {
		kind = BodyRaw // JSON lines and the like: handed over unread
	}
	if kind == BodyXML && objectSchema(sr) == nil {
		b.d.warnf(cptr, "XML response schema is not an object with properties; the output's Body field holds the bytes")
		kind = BodyRaw
	}
	// A components/responses entry answering several operations: each gets
	// its own output type, embedding one type named after the response.
	shared, sharedName, sharedPtr := b.sharedResponse(respRef, sr, mt)
	var prefixes [][2]string // aws2openapi prefix-header maps beside XML members
	if s := objectSchema(sr); kind == BodyXML && b.aws && s != nil {
		// aws2openapi's payload member: the body as raw bytes; its
		// prefix-header maps: headers (build_payload.go).
		aws := awsBodyOf(s, b.propertyOrder(child(cptr, "schema"), 0))
		if aws.Payload != "" || aws.Others == 0 && len(aws.Prefixes) > 0 {
			return b.awsOutput(name, ptr, cptr, mt, sr, aws)
		}
		prefixes = aws.Prefixes
	}
	if kind == BodyXML && !shared && b.dedicatedOutput(sr) {
		tname := b.structOrEmpty(sr, child(cptr, "schema"), name)
		b.markXML(tname)
		b.outputPrefixHeaders(tname, prefixes)
		return tname, OutputXML
	}
	for _, p := range prefixes {
		b.d.warnf(cptr, "the prefix-header map %s (response headers %s<key>) is in a schema used elsewhere too, so it is not read from the response; read out.ResultMetadata.Header", p[0], p[1])
	}
	if kind == BodyJSON && !shared && b.dedicatedOutput(sr) {
		return b.structOrEmpty(sr, child(cptr, "schema"), name), OutputSelf
	}
	tname := b.claim(name, cptr)
	t := &Type{Name: tname, Kind: KindStruct, Source: ptr}
	b.types = append(b.types, t)
	bodyName, bodyPtr := tname+"Body", child(cptr, "schema")
	if shared {
		bodyName, bodyPtr = sharedName, sharedPtr
	}
	if kind == BodyXML {
		ref := b.schemaRef(sr, bodyPtr, bodyName)
		t.Embed = ref.Name
		b.markXML(tname)
		return tname, OutputXML
	}
	if kind == BodyJSON && sr != nil {
		ref := b.schemaRef(sr, bodyPtr, bodyName)
		if ref.Kind == RefNamed && ref.Struct && !b.isErrorShape(sr) && ref.Name != "ResultMetadata" {
			t.Embed = ref.Name
			return tname, OutputSelf
		}
		t.Fields = []Field{{Name: "Body", Doc: "Body is the JSON response body.", Type: ref, Required: true, In: "body"}}
		return tname, OutputJSONField
	}
	if streamed, unstreamable := streamedMedia(mt, sr); streamed {
		if unstreamable {
			b.d.warnf(cptr, "%s responses are not decoded (their framing is not modelled); the output's Body field streams the bytes", mt)
		}
		t.Fields = []Field{{Name: "Body", Doc: "Body streams the response body (" + mt + "), unread and unbuffered; the caller must close it.",
			Type: TypeRef{Kind: RefScalar, Scalar: ScalarReadCloser}, Required: true, In: "body"}}
		return tname, OutputStreamField
	}
	t.Fields = []Field{{Name: "Body", Doc: "Body is the response body (" + mt + ").", Type: TypeRef{Kind: RefScalar, Scalar: ScalarBytes}, Required: true, In: "body"}}
	return tname, OutputRawField
}

// dedicatedOutput reports whether the 2xx JSON schema sr becomes the
// output type itself: an object that is not an error shape, either inline
// or a component with no use other than as a 2xx response.
func (b *builder) dedicatedOutput(sr *openapi3.SchemaRef) bool {
	if objectSchema(sr) == nil || b.isErrorShape(sr) {
		return false
	}
	name, ok := strings.CutPrefix(sr.Ref, componentPrefix)
	return !ok || b.uses[name] == 0
}

// isFile reports whether a multipart property is a file: format: binary
// (OpenAPI 3.0), or, in 3.1 (§4.8.14.3), a string with contentEncoding:
// binary or with a contentMediaType that is not text and no
// contentEncoding (base64 text is a field).
func isFile(s *openapi3.Schema) bool {
	if s == nil {
		return false
	}
	if s.Format == "binary" || s.ContentEncoding == "binary" {
		return true
	}
	mt := s.ContentMediaType
	return mt != "" && s.ContentEncoding == "" && !strings.HasPrefix(mt, "text/") && mt != "application/json"
}

// warnUnsendableFiles warns, at each multipart/form-data alternative of a
// body the client sends as JSON, about the file parts JSON cannot carry
// (Discord's create_message: allOf [$ref MessageCreateRequest,
// {properties: files[0]…}]): those uploads cannot be made with the
// generated operation (trial F15; newuser4 G4). The parts are read through
// allOf, oneOf and anyOf (fileParts).
func (b *builder) warnUnsendableFiles(content openapi3.Content, others []string, bptr string) {
	for _, mt := range others {
		if bodyKind(mt) != BodyMultipart || content[mt] == nil {
			continue
		}
		found := map[string]bool{}
		fileParts(content[mt].Schema, map[*openapi3.Schema]bool{}, found)
		if len(found) > 0 {
			b.d.warnf(child(child(bptr, "content"), mt), "%s body has file parts (%s) that the application/json body this client sends cannot carry; those cannot be uploaded with this operation",
				mt, strings.Join(sortedKeys(found), ", "))
		}
	}
}

// fileParts adds to found the names of the file properties (isFile, or an
// array of files) of the multipart schema sr: its own properties and those
// of its allOf members (flattened into one object) and of its oneOf and
// anyOf variants (any one of which may be sent), through $refs. Each
// schema is read once (seen), so a cycle ends and the work is linear in
// the schemas reached.
func fileParts(sr *openapi3.SchemaRef, seen map[*openapi3.Schema]bool, found map[string]bool) {
	if sr == nil || sr.Value == nil || seen[sr.Value] {
		return
	}
	s := sr.Value
	seen[s] = true
	for name, p := range s.Properties {
		if p != nil && p.Value != nil && (isFile(p.Value) || p.Value.Items != nil && isFile(p.Value.Items.Value)) {
			found[name] = true
		}
	}
	for _, list := range [...]openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
		for _, m := range list {
			fileParts(m, seen, found)
		}
	}
}

// headerValueOK reports whether v holds no control byte but HTAB (RFC 9110
// §5.5 field-value), so written in a header it stays one line.
func headerValueOK(v string) bool {
	return !strings.ContainsFunc(v, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f })
}
