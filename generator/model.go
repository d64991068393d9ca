package generator

import (
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// Service is the intermediate model of one spec: everything the emitter
// needs, with every Go name decided. Slices are sorted by Go name, so the
// emitted code is the same on every run.
type Service struct {
	// Title is the spec's info.title, used as the runtime's
	// Service.Name.
	Title string
	// Doc is the spec's info.description.
	Doc string
	// XRetry: the spec declares a root x-retry extension (the package doc
	// says where the retry settings come from).
	XRetry bool
	// SpecFile is the spec's base file name, quoted in file headers;
	// Overlays the overlays' base file names, in the order applied.
	SpecFile string
	Overlays []string
	// Retry is the runtime.Service the root-level x-retry extension
	// declares (Name is Title), with the defaults for specs without x-retry
	// applied; the generated client holds it as a literal, and the CLI runs
	// it as is.
	Retry runtime.Service
	// Protocol holds the root-level x-protocol extension.
	Protocol Protocol
	// Operations, sorted by Name.
	Operations []*Operation
	// Types are the named Go types (structs and enums), sorted by Name.
	Types []*Type
	// Errors are the modelled error shapes, sorted by Name.
	Errors []*ErrorShape
	// Auth are the client options made from components/securitySchemes,
	// sorted by Option.
	Auth []AuthOption
	// Servers are the spec's servers, in spec order.
	Servers []Server
	// Skipped lists the operations left out because of a defect that
	// concerns them alone ("GET /things"), each reported by a located
	// warning; a path item that could not be read at all counts as one
	// ("path /things").
	Skipped []string
}

// Protocol is the root-level x-protocol extension.
type Protocol struct {
	// JSONContentType is the Content-Type of JSON request bodies (default
	// "application/json"; AWS JSON 1.0: "application/x-amz-json-1.0").
	JSONContentType string
	// TimestampFormat is how "format: date-time" values travel: "date-time"
	// (RFC 3339 strings, Go time.Time; the default) or "epoch-seconds"
	// (JSON numbers of seconds since 1970, as the AWS JSON protocols send
	// them; openapi.EpochSeconds).
	TimestampFormat string
	// XMLResultWrapper: XML responses arrive in the AWS query protocol's
	// envelope, <OpResponse><OpResult>…</OpResult><ResponseMetadata>…
	// </OpResponse>, and the spec's 2xx schema describes the …Result
	// element (aws2openapi's SQS): outputs are decoded from it
	// (openapi.DecodeXMLResult).
	XMLResultWrapper bool
}

// Operation is one API operation.
type Operation struct {
	// Name is the Go method name ("GetItem").
	Name string
	// Summary and Doc are the operation's summary and description (HTML
	// allowed; emitted through commentLines).
	Summary, Doc string
	// Source is the operation's JSON pointer ("/paths/~1pets/get").
	Source string
	// Method is the HTTP method, upper case ("POST").
	Method string
	// Path is the URL path with any "#k=v" or "?k=v" suffix of the path key
	// removed ("/").
	Path string
	// Headers are sent on every call with a fixed value: required header
	// parameters whose schema is a one-value enum (X-Amz-Target), and
	// Accept with the 2xx response media types. Sorted by Name, names in
	// canonical MIME form.
	Headers []FixedHeader
	// Input and Output name the Go types of the request body and the 2xx
	// response body (synthesised empty structs when the spec has none);
	// Output is "" when the only 2xx body is an event stream (Stream).
	Input, Output string
	// Errors are the Go names of the error shapes this operation models,
	// sorted.
	Errors []string
	// Retry is the runtime.Operation of the operation-level x-retry
	// extension: Name set, RetrySafe already combined with the method and
	// the service's retrySafe. Its NewError and NewErrorForStatus are nil;
	// the emitter names the generated constructors. Its IdempotencyHeader
	// comes from x-retry idempotencyKey (the operation's, else the root's
	// for a POST or PATCH), which makes the operation retry-safe.
	Retry runtime.Operation
	// IdempotencyTokenField is the JSON name of the input member carrying
	// an idempotency token (x-retry idempotencyTokenField, AWS
	// ClientToken): filled with a fresh UUID on a copy of the input when the
	// caller leaves it empty, which makes the operation retry-safe.
	// IdempotencyTokenGo is its Go field name and IdempotencyTokenPtr
	// whether that field is a pointer.
	IdempotencyTokenField string
	IdempotencyTokenGo    string
	IdempotencyTokenPtr   bool
	// Params are the input fields sent as path, query, header or cookie
	// parameters, in spec order (path-level ones first).
	Params []Param
	// Query are query parameters sent on every call with a fixed value: the
	// pairs of a "#k=v" or "?k=v" path key suffix (unless a header
	// parameter has that name) and required one-value-enum query
	// parameters. Sorted by Name.
	Query []FixedHeader
	// Flags are query parameters sent bare on every call ("?tagging"):
	// required boolean parameters whose only value is true (S3's
	// subresources). Sorted.
	Flags []string
	// AcceptField and ContentTypeField are the Go names of the input fields
	// made from declared Accept and Content-Type header parameters (""
	// for none): set, they override the Accept header (a fixed header of
	// Headers, from the 2xx response media types) and the request body's
	// media type.
	AcceptField, ContentTypeField string
	// Body says how the request body is encoded.
	Body Body
	// OutputBody says how a 2xx body is decoded: OutputSelf (JSON into the
	// output struct, or the struct it embeds), OutputXML (XML into the
	// output struct, or the struct it embeds), OutputJSONField or
	// OutputRawField (into its Body field), OutputStreamField (handed over
	// unread in its Body field), or OutputNone (no body).
	OutputBody string
	// OutputXMLRoot is the root element an OutputXML body must have: the
	// name the response schema's XML Object gives, "" when it names none
	// (the root is then not checked: S3 names its roots after operations).
	OutputXMLRoot string
	// ErrorDocument: the spec is an AWS REST-XML one (aws2openapi) and a
	// 2xx body whose root is <Error> is an error response
	// (openapi.DecodeAWSXML), unless OutputXMLRoot is "Error".
	ErrorDocument bool
	// OutputPayload is the Go field of an AWS REST-XML output's only XML
	// member, which may be the whole document (Smithy @httpPayload on a
	// structure or string: S3's CopyObjectResult, LocationConstraint):
	// a body whose root element is OutputPayloadElement decodes into it
	// (openapi.DecodeAWSXMLPayload). "" for other outputs.
	OutputPayload, OutputPayloadElement string
	// Servers are the operation's own servers (its servers, else its path
	// item's), nil when it uses the root's.
	Servers []Server
	// Security is the operation's security requirement (its own, else the
	// root's): per alternative, the security scheme names it needs, sorted;
	// nil when it needs none. Only these credentials are sent.
	Security [][]string
	// ResponseHeaders are the headers the 2xx responses declare, each read
	// into a field of the output (in that order) before the body is
	// decoded.
	ResponseHeaders []ResponseHeader
	// OutputHeaderMaps are the output's maps read from every response
	// header named Param.Name + key (Smithy's @httpPrefixHeaders,
	// build_payload.go): Field the output's field, Name the prefix.
	OutputHeaderMaps []Param
	// StatusErrors are the error shapes modelled by HTTP status ("404",
	// "4XX", "default"), sorted by status with "default" last.
	StatusErrors []StatusError
	// Pagination is how the operation's results come in pages (nil: not
	// paginated); build_paginate.go.
	Pagination *Pagination
	// Waiters poll the operation until a state is reached (x-waiters,
	// smithy's @waitable), sorted by Name; build_waiters.go.
	Waiters []*Waiter
	// Stream is the operation's text/event-stream 2xx response, nil when it
	// has none. When it is the only 2xx media type (Stream.Only), Output is
	// "" and the operation's method returns the stream.
	Stream *EventStream
}

// EventStream is an operation's server-sent events response.
type EventStream struct {
	// Method is the Go name of the method returning the stream: the
	// operation's Name when Only, else Name + "Stream".
	Method string
	// Only: the 2xx response offers no other media type.
	Only bool
	// Data is the type each event's data decodes as: the data property of
	// a schema describing the whole event (data, event, id, retry), else the
	// schema itself.
	Data TypeRef
	// Sentinel is the data that ends the stream (x-speakeasy-sse-sentinel,
	// else openapi.DoneSentinel).
	Sentinel string
	// FlagField is the input's Go field holding the request body's boolean
	// "stream" property ("" for none): the stream method sends it true, the
	// other method false. FlagPtr: that field is a *bool.
	FlagField string
	FlagPtr   bool
}

// How a 2xx response body is decoded.
const (
	OutputSelf      = ""
	OutputJSONField = "json"
	OutputRawField  = "raw"
	OutputNone      = "none"
	OutputXML       = "xml"
	// OutputStreamField: the body is handed over unread in the output's
	// Body field, an io.ReadCloser (runtime.Stream).
	OutputStreamField = "stream"
)

// Param is an input field sent as a path, query, header or cookie
// parameter.
type Param struct {
	// Field is the input struct's Go field name; Name the exact wire name.
	Field, Name string
	// In is "path", "query", "header", "cookie", or "headerPrefix" for a
	// map sent as one header per entry, named Name + key (Smithy's
	// @httpPrefixHeaders, build_payload.go).
	In string
	// Style and Explode are the serialisation (OpenAPI defaults applied).
	Style   string
	Explode bool
	// TimeFormat is how a time.Time header parameter of an AWS REST spec
	// (aws2openapi) travels: "http-date" (Smithy's default for headers)
	// or "date-time" (awsDateTimeHeader); "" for other specs and
	// parameters (openapi.SetHeaderTimestamp).
	TimeFormat string
}

// Request body kinds.
const (
	BodyNone      = ""
	BodyJSON      = "json"
	BodyForm      = "form"
	BodyMultipart = "multipart"
	BodyRaw       = "raw"
	BodyXML       = "xml"
)

// Body describes an operation's request body.
type Body struct {
	// Kind is BodyNone, BodyJSON, BodyForm, BodyMultipart, BodyXML or
	// BodyRaw.
	Kind string
	// XMLRoot and XMLNamespace name the root element of an XML body.
	XMLRoot, XMLNamespace string
	// AWSQueryAction and AWSQueryVersion: the XML body of an aws2openapi
	// query-protocol spec (SQS) is sent as the protocol's form parameters
	// instead, Action=AWSQueryAction&Version=AWSQueryVersion&…
	// (openapi.AWSQueryBody); "" for other bodies.
	AWSQueryAction, AWSQueryVersion string
	// ContentType is the media type sent (for multipart the runtime adds
	// the boundary).
	ContentType string
	// Field is the Go name of the input field holding the whole body
	// ("Body"), or "" when the input struct's own fields are the body.
	Field string
	// Parts are the multipart fields in order: wire name and Go field.
	Parts []Param
	// Others are the other media types the spec accepts, sorted; this
	// client sends ContentType (preference: JSON, form, multipart, raw).
	Others []string
	// Encoding is the media type's Encoding Object per property (form and
	// multipart bodies), keyed by JSON name; nil when the spec gives none.
	Encoding map[string]Encoding
	// Streamed: a multipart body with file parts, written through a pipe
	// as it is sent (openapi.MultipartReader), never buffered whole.
	Streamed bool
}

// Encoding is the Encoding Object of one property of a form or multipart
// body (OpenAPI 3.0 §4.7.15), with defaults applied: it maps one to one
// onto openapi.Encoding.
type Encoding struct {
	// ContentType is the part's media type ("" for the default).
	ContentType string
	// Headers are the part's extra headers with the value the spec fixes
	// (a schema default or a single enum value), keyed by name.
	Headers map[string]string
	// Style is the parameter style ("" for the default, form); Explode the
	// explode flag (default true for form).
	Style   string
	Explode bool
}

// StatusError maps an HTTP status, range or "default" to an error shape.
type StatusError struct {
	// Status is "404", "4XX" or "default".
	Status string
	// Name is the error shape's Go name.
	Name string
}

// AuthOption is a client option made from a security scheme.
type AuthOption struct {
	// Option is the Go function name ("WithBasicAuth").
	Option string
	// Scheme is the securitySchemes key; Doc its description.
	Scheme, Doc string
	// Kind is "basic", "bearer" or "apiKey".
	Kind string
	// In and Name locate an API key ("header", "X-Api-Key").
	In, Name string
}

// Server is one entry of a servers list (the root's, a path item's or an
// operation's; OpenAPI 3.0 §4.7.5).
type Server struct {
	// URL is the template ("https://sqs.{region}.amazonaws.com"); Doc its
	// description.
	URL, Doc string
	// Defaults are the variables' default values, by name.
	Defaults map[string]string
	// Vars are the variables, sorted by name.
	Vars []ServerVar
	// Source is the server's JSON pointer ("/servers/0").
	Source string
	// Name is the Go prefix of its constants and URL builder ("Server1",
	// "GetThingServer1").
	Name string
}

// ServerVar is a Server Variable Object.
type ServerVar struct {
	// Name is the variable's name; Default its default; Doc its
	// description.
	Name, Default, Doc string
	// Enum lists the values allowed (nil: any).
	Enum []string
}

// FixedHeader is a request header with a value fixed by the spec.
type FixedHeader struct {
	Name, Value string
}

// TypeKind says what a named Go type is.
type TypeKind uint8

const (
	// KindStruct is a struct from an object schema.
	KindStruct TypeKind = iota
	// KindEnum is a named string type (int64 when IntEnum) with one
	// constant per enum value.
	KindEnum
	// KindUnion is a oneOf/anyOf: a struct with one pointer field per
	// variant and a Raw json.RawMessage holding the JSON as received.
	KindUnion
)

// Type is a named Go type.
type Type struct {
	// Name is the Go type name.
	Name string
	// Doc is the schema's description.
	Doc string
	// Source is the JSON pointer of what the type is generated from: a
	// schema ("/components/schemas/GetItemInput", or an inline one), or the
	// operation whose input or output it is ("/paths/~1pets/get"). The
	// doc comment ends with it.
	Source string
	// Kind is struct or enum.
	Kind TypeKind
	// Fields of a struct, sorted by JSON name; of a union, the properties
	// declared beside its oneOf/anyOf.
	Fields []Field
	// Values of an enum, in spec order.
	Values []EnumValue
	// Output is set for the output types of operations: they carry
	// ResultMetadata.
	Output bool
	// Embed names the struct type an output type embeds: the shared
	// component (or allOf/oneOf type) its 2xx JSON object decodes into, so
	// the object's fields are promoted onto the output. "" for none.
	Embed string
	// Partial: some of the spec's enum values got no constant (a value
	// that is not an integer of an integer enum, …): the type is never a
	// one-value enum filled in when left unset.
	Partial bool
	// IntEnum: the enum's values are integers (EnumValue.Int), its Go type
	// int64.
	IntEnum bool
	// Additional is the value type of a struct's additionalProperties: the
	// struct gets an AdditionalProperties map[string]Additional field and
	// MarshalJSON/UnmarshalJSON methods that keep the fixed and the
	// additional members together. nil: no additional properties.
	Additional *TypeRef
	// Variants of a union, in spec order.
	Variants []Variant
	// XML: the struct travels in XML bodies, so its fields carry xml struct
	// tags (from their XML Objects) and are in the spec's property order.
	XML bool
	// Discriminator is the union's discriminator property name ("" when the
	// spec gives none: variants are tried in order).
	Discriminator string
	// DiscriminatorOnly: the union is a base schema's (a discriminator, its
	// subtypes allOf it); only the discriminator chooses a variant, and a
	// value naming none is kept in Raw (openapi.Union.DiscriminatorOnly).
	DiscriminatorOnly bool
}

// Variant is one member of a oneOf/anyOf union.
type Variant struct {
	// Name is the Go field name; Type its type (the field is a pointer).
	Name string
	Type TypeRef
	// Tags are the discriminator values selecting this variant (explicit
	// mapping keys, or the referenced schema's name), sorted.
	Tags []string
}

// EnumValue is one constant of an enum type.
type EnumValue struct {
	// Name is the constant's Go name: the type's name followed by the
	// value's ("TableStatusActive").
	Name string
	// Value is the wire value ("ACTIVE") of a string enum.
	Value string
	// Int is the wire value of an integer enum (Type.IntEnum).
	Int int64
	// Doc is the value's description (a oneOf/anyOf of const members gives
	// one per value), "" when the spec has none.
	Doc string
}

// Field is one struct field.
type Field struct {
	// Name is the Go field name; JSONName the exact property name.
	Name, JSONName string
	// Doc is the property's description.
	Doc string
	// Facts is what the property's schema says beyond its Go type
	// (factsDoc: default, format, bounds, pattern, deprecation), "" when
	// nothing.
	Facts string
	// Type is the field's Go type.
	Type TypeRef
	// Required fields are values without omitzero; optional ones are
	// pointers (scalars, enums and structs) or nil-able slices and maps,
	// with omitzero, so only nil is left out (an empty slice or map is sent).
	Required bool
	// In is where a field that is not a JSON property travels ("path",
	// "query", "header", "cookie", or "body" for a field holding the whole
	// request or response body); its tag is json:"-". "" for JSON
	// properties.
	In string
	// Const is the JSON text of the only value the property may hold (an
	// enum of one value, or const), "" when it may hold more: a union uses
	// it to recognise its variants (Stripe's DeletedCustomer.deleted: true).
	Const string
	// Enum is the JSON array of the values the property may hold when its
	// enum (or oneOf/anyOf of const) has several, "" otherwise: a union
	// recognises a variant by it (`"type": ["klarna","klarna_account"]`).
	Enum string
	// Indirect: a required struct field that would close a cycle of struct
	// values is a pointer all the same (set by breakValueCycles).
	Indirect bool
	// ReadOnly properties (readOnly: true) are sent by the server only: the
	// field is left out of request bodies. WriteOnly properties (writeOnly:
	// true) are sent by the client only: a union never requires them when
	// recognising a response.
	ReadOnly, WriteOnly bool
	// XML is the property's XML Object (OpenAPI 3.0 §4.7.26), used when its
	// type is written as XML (Type.XML).
	XML XMLObject
	// Nullable fields (nullable: true, or a 3.1 type list with "null") are
	// pointers even when required; a required one has no omitempty, so nil
	// is sent as null.
	Nullable bool
}

// ThreeState reports whether a field is an optional nullable JSON member
// whose Go type tells absent, null and a value apart: openapi.Nullable[T]
// (openapi.Nullable[*T] when Indirect). Raw JSON, bytes, readers and files
// are left as they are (json.RawMessage already keeps "null").
func (f Field) ThreeState() bool {
	if f.Required || !f.Nullable || f.In != "" {
		return false
	}
	t := f.Type
	return t.Kind != RefScalar || t.Scalar != ScalarRawJSON && t.Scalar != ScalarBytes && t.Scalar != ScalarReader && t.Scalar != ScalarFile
}

// RefKind says what a TypeRef is.
type RefKind uint8

const (
	// RefScalar is a Go built-in or standard-library type, named by Scalar.
	RefScalar RefKind = iota
	// RefNamed is a Type of the model, named by Name.
	RefNamed
	// RefSlice is []Elem.
	RefSlice
	// RefMap is map[string]Elem.
	RefMap
)

// Scalar types a TypeRef can name.
const (
	ScalarString       = "string"
	ScalarBool         = "bool"
	ScalarInt32        = "int32"
	ScalarInt64        = "int64"
	ScalarFloat32      = "float32"
	ScalarFloat64      = "float64"
	ScalarBytes        = "[]byte"
	ScalarTime         = "time.Time"
	ScalarEpochSeconds = "openapi.EpochSeconds"
	ScalarDate         = "openapi.Date"
	ScalarRawJSON      = "json.RawMessage"
	ScalarReader       = "io.Reader"
	ScalarReadCloser   = "io.ReadCloser"
	ScalarFile         = "openapi.File"
	ScalarPart         = "openapi.Part"
)

// TypeRef is the Go type of a field, slice element or map value.
type TypeRef struct {
	Kind RefKind
	// Scalar is one of the Scalar* constants (RefScalar).
	Scalar string
	// Name is the model type's name (RefNamed); Struct reports whether it
	// is a struct or union (optional fields of such a type are pointers,
	// required ones values unless they close a cycle: Field.Indirect).
	Name   string
	Struct bool
	// Elem is the element or value type (RefSlice, RefMap).
	Elem *TypeRef
	// Nullable marks an array element or map value (or additionalProperties
	// value) the spec lets be null: written *T, nil for null, so a null
	// element round-trips. Only set where a pointer is needed (named types
	// and scalars other than []byte and json.RawMessage; slices and maps are
	// nil already).
	Nullable bool
}

// ErrorShape is a modelled error: a component schema named by a non-2xx
// response (aws2openapi's fake statuses 480–48x).
type ErrorShape struct {
	// Name is the Go type name; Code the error code it matches (the schema
	// name).
	Name, Code string
	// Doc is the schema's description; Source its JSON pointer
	// ("/components/schemas/ResourceNotFoundException").
	Doc, Source string
	// Fields are the schema's properties, sorted by JSON name.
	Fields []Field
	// Class is the code's retry class as the runtime classifies it by code
	// (runtime.Service.CodeClass, retry-behavior.md §4).
	Class engine.Class
}
