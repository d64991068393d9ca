package generator

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// aws2openapi (the converter of the AWS specs, named in the spec's
// info.x-origin) writes the members of a REST-XML operation that do not
// travel as XML elements as properties of the body schema all the same:
//
//   - a Smithy @httpPayload member that is a blob or string (S3's
//     PutObject/GetObject Body, PutBucketPolicy's Policy) is the whole
//     body, as raw bytes; aws2openapi writes it as the body object's only
//     property, a plain string;
//   - a Smithy @httpPrefixHeaders map (S3's object metadata) is one header
//     per entry, named prefix + key; aws2openapi writes it as a property
//     named by the prefix ("x-amz-meta-", or an xml.name of it in outputs)
//     holding a map of strings.
//
// Read as an XML body they sent <PutObjectInput><Body>…</Body>…, sent the
// metadata nowhere and decoded a 200 object body as XML (newuser.md item
// 2). awsBody recognises them; the builder sends and returns them as
// raw bodies and headers.

// awsRESTXML reports whether the spec says it was converted by aws2openapi
// (info.x-origin names it as the converter) from a REST protocol: no path
// key holds the query protocol's "#Action=" (SQS), whose XML 2xx schemas
// are result elements, never payloads.
func awsRESTXML(api *openapi3.T) bool {
	return aws2openapi(api) && !awsQueryPaths(api)
}

// awsQuery reports whether the spec says it was converted by aws2openapi
// from the AWS query protocol (SQS, SNS…): a path key holds "#Action=".
func awsQuery(api *openapi3.T) bool {
	return aws2openapi(api) && awsQueryPaths(api)
}

// aws2openapi reports whether info.x-origin names aws2openapi as the
// spec's converter.
func aws2openapi(api *openapi3.T) bool {
	if api.Info == nil || api.Info.Extensions["x-origin"] == nil {
		return false
	}
	origin, err := json.Marshal(api.Info.Extensions["x-origin"])
	return err == nil && strings.Contains(string(origin), "aws2openapi")
}

// awsQueryPaths reports whether a path key holds the query protocol's
// "Action=".
func awsQueryPaths(api *openapi3.T) bool {
	if api.Paths != nil {
		for path := range api.Paths.Map() {
			if strings.Contains(path, "Action=") {
				return true
			}
		}
	}
	return false
}

// awsQueryWarnings makes an operation of a spec aws2openapi converted from
// the AWS query protocol send its request body (which aws2openapi writes
// as XML) as the protocol's form parameters (Action=…&Version=…&QueueUrl=…,
// lists as Name.N, maps as Name.N.Name and Name.N.Value;
// openapi.AWSQueryBody), and warns of the GET variants' list, map and
// object query parameters, sent by OpenAPI's form/explode rule
// (AttributeNames=All, a map as JSON) where the protocol wants
// AttributeName.1=All (new-user trial 3, F7).
func (b *builder) awsQueryWarnings(o *Operation, ptr string) {
	if o.Body.Kind == BodyXML {
		for _, q := range o.Query {
			if q.Name == "Action" {
				o.Body.AWSQueryAction = q.Value
			}
		}
		if o.Body.AWSQueryAction == "" || b.api.Info.Version == "" {
			b.d.warnf(child(ptr, "requestBody"), "AWS query protocol: no Action in the path key or no info.version; this operation sends the spec's XML body, but the service takes form parameters")
		} else {
			// The protocol's form, as aws-sdk-go-v2 writes it, not the
			// spec's XML (new-user trial 3, F7).
			o.Body.AWSQueryVersion = b.api.Info.Version
			o.Body.ContentType = "application/x-www-form-urlencoded"
		}
	}
	t := b.typeNamed(o.Input)
	if t == nil {
		return
	}
	for _, p := range o.Params {
		if p.In != "query" {
			continue
		}
		for _, f := range t.Fields {
			if f.Name == p.Field && (f.Type.Kind == RefSlice || f.Type.Kind == RefMap || f.Type.Kind == RefNamed && f.Type.Struct) {
				b.d.warnf(ptr, "AWS query protocol: query parameter %q (%s) is sent by OpenAPI's form rule (%s=a&%s=b, objects as JSON), not the protocol's numbered members (Name.1=a, Name.1.Name=…); the service may ignore it", p.Name, f.Name, p.Name, p.Name)
			}
		}
	}
}

// awsBody is how an aws2openapi XML body schema's properties travel.
type awsBody struct {
	// Prefixes maps each prefix-header property's name to its header
	// prefix (x-amz-meta-), in property order.
	Prefixes [][2]string
	// Payload is the property that is the whole body as raw bytes ("" for
	// none); Others counts the properties that are neither.
	Payload string
	Others  int
}

// awsBodyOf reads s's properties (names in spec order: order).
func awsBodyOf(s *openapi3.Schema, order []string) awsBody {
	var a awsBody
	var plain []string
	names := order
	if len(names) != len(s.Properties) {
		names = sortedKeys(s.Properties)
	}
	for _, name := range names {
		p := s.Properties[name]
		if p == nil || p.Value == nil {
			a.Others++
			continue
		}
		prefix := cmpOr(xmlObjectOf(p).Name, name)
		if strings.HasSuffix(prefix, "-") && stringMap(p) {
			a.Prefixes = append(a.Prefixes, [2]string{name, prefix})
			continue
		}
		if plainString(p) {
			plain = append(plain, name)
		}
		a.Others++
	}
	if a.Others == 1 && len(plain) == 1 {
		a.Payload, a.Others = plain[0], 0
	}
	return a
}

// allOfValues are sr's schema and its allOf members' (one level: aws2openapi
// writes a member as allOf: [$ref, {description}]).
func allOfValues(sr *openapi3.SchemaRef) []*openapi3.Schema {
	if sr == nil || sr.Value == nil {
		return nil
	}
	out := []*openapi3.Schema{sr.Value}
	for _, m := range sr.Value.AllOf {
		if m != nil && m.Value != nil {
			out = append(out, m.Value)
		}
	}
	return out
}

// stringMap reports an object of string values (additionalProperties a
// string schema) and no properties.
func stringMap(sr *openapi3.SchemaRef) bool {
	return slices.ContainsFunc(allOfValues(sr), func(s *openapi3.Schema) bool {
		ap := s.AdditionalProperties.Schema
		if len(s.Properties) > 0 || ap == nil || ap.Value == nil {
			return false
		}
		typ, _ := schemaType(ap.Value)
		return typ == "string"
	})
}

// plainString reports a string schema with no enum and no format that
// gives it another Go type (date-time, date…): free text or bytes.
func plainString(sr *openapi3.SchemaRef) bool {
	vs := allOfValues(sr)
	return slices.ContainsFunc(vs, func(s *openapi3.Schema) bool {
		typ, _ := schemaType(s)
		return typ == "string"
	}) && !slices.ContainsFunc(vs, func(s *openapi3.Schema) bool {
		return len(s.Enum) > 0 || s.Format != "" && s.Format != "binary" && s.Format != "byte"
	})
}

// awsInput makes the input type t send aws2openapi's payload member as the
// raw request body (an io.Reader field named after it, body.Field) and its
// prefix-header maps as headers (a "headerPrefix" Param each); it returns
// params with those added.
func (b *builder) awsInput(t *Type, body *Body, aws awsBody, sr *openapi3.SchemaRef, params []Param) []Param {
	for _, p := range aws.Prefixes {
		for i, f := range t.Fields {
			if f.In == "" && f.JSONName == p[0] {
				t.Fields[i].In = "headerPrefix"
				t.Fields[i].Doc = strings.TrimSpace(f.Doc + "\n\nEach entry is sent as the header " + p[1] + "<key>.")
				params = append(params, Param{Field: f.Name, Name: p[1], In: "headerPrefix"})
			}
		}
	}
	if aws.Payload == "" {
		return params
	}
	ns := fieldNamespace(t)
	name, _ := ns.claim(goName(aws.Payload, false))
	doc := ""
	if p := sr.Value.Properties[aws.Payload]; p != nil && p.Value != nil {
		doc = p.Value.Description
	}
	doc = strings.TrimSpace(doc + "\n\nIt is the request body, sent as its raw bytes (application/octet-stream unless ContentType says otherwise), read once (buffered up to runtime.MaxReplayBody for retries; a seekable reader is rewound).")
	t.Fields = append(t.Fields, Field{Name: name, JSONName: aws.Payload, Doc: doc,
		Type: TypeRef{Kind: RefScalar, Scalar: ScalarReader}, In: "body"})
	body.Field = name
	return params
}

// awsOutput makes the output type (called name) of an operation whose 2xx
// XML schema sr has aws2openapi's payload member, or prefix-header maps
// and nothing else (S3's HeadObject, whose response has no body): Body
// streams the raw response body, and each prefix-header map is a field
// filled from the response headers (b.outputHeaderMaps). It returns the
// type's name and OutputStreamField, or OutputNone with no payload.
func (b *builder) awsOutput(name, ptr, cptr, mt string, sr *openapi3.SchemaRef, aws awsBody) (string, string) {
	s := sr.Value
	var t *Type
	if comp, ok := strings.CutPrefix(sr.Ref, componentPrefix); ok && b.dedicatedOutput(sr) {
		// The component is this response's only use (S3's GetObjectOutput),
		// built with the components: it becomes the streamed output,
		// keeping its name and doc; its fields are the ones below.
		if ref := b.component(comp); ref.Kind == RefNamed && ref.Struct {
			t = b.typeNamed(ref.Name)
		}
	}
	if t == nil || t.Kind != KindStruct {
		// Made empty, not built from the schema only to drop its fields.
		t = &Type{Name: b.claim(name, cptr), Kind: KindStruct, Source: ptr}
		if sr.Ref == "" { // an inline schema: its doc and place, as building it gave
			t.Doc, t.Source = withDeprecated(s.Description, s.Deprecated, "schema"), child(cptr, "schema")
		}
		b.types = append(b.types, t)
	}
	tname := t.Name
	kind := OutputNone
	t.Fields = nil
	if aws.Payload != "" {
		kind = OutputStreamField
		t.Fields = []Field{payloadField(s, aws.Payload, mt)}
	}
	ns := namespace{"Body": true}
	for _, n := range reservedTypeFields {
		ns[n] = true
	}
	for _, p := range aws.Prefixes {
		fname, _ := ns.claim(goName(p[0], false))
		fdoc := ""
		for _, v := range allOfValues(s.Properties[p[0]]) {
			fdoc = cmpOr(fdoc, v.Description)
		}
		fdoc = strings.TrimSpace(fdoc + "\n\n" + prefixReadDoc(p[1]))
		t.Fields = append(t.Fields, Field{Name: fname, JSONName: p[0], Doc: fdoc,
			Type: TypeRef{Kind: RefMap, Elem: &TypeRef{Kind: RefScalar, Scalar: ScalarString}}, In: "header"})
		if b.outputHeaderMaps == nil {
			b.outputHeaderMaps = map[string][]Param{}
		}
		b.outputHeaderMaps[tname] = append(b.outputHeaderMaps[tname], Param{Field: fname, Name: p[1], In: "headerPrefix"})
	}
	return tname, kind
}

// prefixReadDoc is the doc sentence of an output field filled from the
// response headers named prefix<key>.
func prefixReadDoc(prefix string) string {
	return "Read from every response header named " + prefix + "<key>, keyed by <key> in lower case (nil when there is none)."
}

// outputPrefixHeaders makes the fields of XML output type tname that are
// aws2openapi prefix-header maps (prefixes: property name, header prefix)
// read from the response headers (b.outputHeaderMaps), not from the XML
// body, whose decoder skips maps: the response-side twin of awsInput's.
func (b *builder) outputPrefixHeaders(tname string, prefixes [][2]string) {
	t := b.typeNamed(tname)
	if t == nil {
		return
	}
	for _, p := range prefixes {
		for i, f := range t.Fields {
			if f.In == "" && f.JSONName == p[0] {
				t.Fields[i].In = "header"
				t.Fields[i].Doc = strings.TrimSpace(f.Doc + "\n\n" + prefixReadDoc(p[1]))
				if b.outputHeaderMaps == nil {
					b.outputHeaderMaps = map[string][]Param{}
				}
				b.outputHeaderMaps[tname] = append(b.outputHeaderMaps[tname], Param{Field: f.Name, Name: p[1], In: "headerPrefix"})
			}
		}
	}
}

// payloadField is the Body field of an output whose payload is s's
// property payload: the raw response body, streamed.
func payloadField(s *openapi3.Schema, payload, mt string) Field {
	doc := ""
	if p := s.Properties[payload]; p != nil && p.Value != nil {
		for _, v := range allOfValues(p) {
			doc = cmpOr(doc, v.Description)
		}
	}
	doc = strings.TrimSpace(doc + "\n\nBody streams the response body (the spec's " + payload + ", sent as raw bytes although the spec says " + mt + "), unread and unbuffered; the caller must close it.")
	return Field{Name: "Body", JSONName: payload, Doc: doc, Type: TypeRef{Kind: RefScalar, Scalar: ScalarReadCloser}, Required: true, In: "body"}
}

// awsOutputPayload returns the Go field and element name of an AWS
// REST-XML output type's only XML member when it is a structure or a
// scalar (not a list or map): aws2openapi writes a Smithy @httpPayload
// structure member (S3's CopyObjectOutput.CopyObjectResult) exactly as a
// lone wrapped member (GetBucketLoggingOutput.LoggingEnabled inside
// <BucketLoggingStatus>), so the decoder tells them apart by the
// document's root element (openapi.DecodeAWSXMLPayload). "" for none.
func awsOutputPayload(t *Type) (field, element string) {
	if t == nil || t.Kind != KindStruct || t.Embed != "" || t.Additional != nil {
		return "", ""
	}
	var only *Field
	for i, f := range t.Fields {
		if f.In != "" || f.XML.Skip || f.XML.Attribute || f.Type.Kind == RefMap {
			continue
		}
		if only != nil {
			return "", ""
		}
		only = &t.Fields[i]
	}
	if only == nil || only.Type.Kind != RefNamed && only.Type.Kind != RefScalar || only.ThreeState() ||
		only.Type.Kind == RefScalar && (only.Type.Scalar == ScalarRawJSON || only.Type.Scalar == ScalarReader || only.Type.Scalar == ScalarReadCloser) {
		return "", ""
	}
	return only.Name, cmpOr(only.XML.Name, only.JSONName)
}
