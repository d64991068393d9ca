package openapi

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strings"
)

// XMLBody encodes v as an XML request body (OpenAPI 3.0 §4.7.26, the XML
// Object) with encoding/xml: the root element is named root, in namespace
// (the xmlns attribute; "" for none), and v's fields are written by their
// xml struct tags, which the generator derives from the XML Object of each
// property (name, namespace, attribute, wrapped). No XML declaration is
// written. A nil v (or nil pointer) gives a nil body, so nothing is sent.
// It returns encoding/xml's error (a value it cannot encode).
func XMLBody(v any, root, namespace string) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
		return nil, nil
	}
	var b bytes.Buffer
	enc := xml.NewEncoder(&b)
	if err := enc.EncodeElement(v, xml.StartElement{Name: xml.Name{Space: namespace, Local: root}}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// DecodeXML returns a decoder that reads an XML response body into v (a
// pointer to a generated struct, whose xml struct tags follow the spec's
// XML Objects) with encoding/xml. The root element's name is not checked
// (servers name it after the operation, as S3's ListBucketResult;
// [DecodeXMLNamed] checks it); elements and attributes v does not declare
// are skipped; an empty body (nothing but white space, comments and an XML
// declaration) leaves v as it is, as an empty JSON body does. When raw is
// not nil the whole body is read first and its bytes stored in *raw, also
// when decoding fails (a generated operation puts them in
// ResultMetadata.Body, so elements the spec does not declare are never
// lost; the runtime's decode cap, Options.MaxResponseBody, bounds them). It
// returns the read error, an error for a response whose Content-Type is
// HTML or JSON (never the modelled XML) or whose body is text that is not
// an element, or encoding/xml's error for a body that is not XML or does
// not fit v; the runtime reports each as a *runtime.DecodeError.
func DecodeXML(v any, raw *[]byte) func(*http.Response) error {
	return DecodeXMLNamed(v, raw, "")
}

// DecodeXMLNamed is [DecodeXML] that also checks the root element's local
// name: the generator passes root when the response schema's XML Object
// names its element (OpenAPI 3.0 §4.7.26 "name"), and a body whose root is
// another element (a proxy's <html>, another operation's document) is an
// error naming both. root "" checks no name. It returns DecodeXML's errors
// and that one.
func DecodeXMLNamed(v any, raw *[]byte, root string) func(*http.Response) error {
	return func(r *http.Response) error {
		d, start, err := openXML(r, raw)
		if err != nil || start == nil {
			return err
		}
		return decodeRoot(d, start, v, root)
	}
}

// openXML reads r's body (kept in *raw when raw is not nil), checks its
// media type and returns a decoder positioned after the root element's
// start, which is nil for an empty body. It returns keepBody's,
// xmlMediaType's and rootElement's errors.
func openXML(r *http.Response, raw *[]byte) (*xml.Decoder, *xml.StartElement, error) {
	body, err := keepBody(r.Body, raw)
	if err != nil {
		return nil, nil, err
	}
	if err := xmlMediaType(r.Header); err != nil {
		return nil, nil, err
	}
	d := xml.NewDecoder(body)
	start, err := rootElement(d)
	return d, start, err
}

// decodeRoot decodes the element start into v after checking its local
// name is root ("" checks none); it returns an error naming both, or
// encoding/xml's.
func decodeRoot(d *xml.Decoder, start *xml.StartElement, v any, root string) error {
	if root != "" && start.Name.Local != root {
		return fmt.Errorf("openapi: the XML body's root element is <%s>, want <%s>", start.Name.Local, root)
	}
	return d.DecodeElement(v, start)
}

// DecodeAWSXML is [DecodeXMLNamed] for the operations of an AWS REST-XML
// service (a spec aws2openapi converted): a 2xx body whose root element is
// <Error>, when root (the modelled output's element, "" when unnamed) is
// not "Error", is the service's error document, not the output. S3 answers
// CopyObject, UploadPartCopy and CompleteMultipartUpload with 200 OK
// before it has finished and may then send <Error><Code>InternalError</Code>…
// (the S3 API reference: "a 200 OK response can contain either a success
// or an error"); aws-sdk-go-v2 (service/s3 customizations,
// processResponseWith200Error) and the other AWS SDKs make it an error
// response with status 500. The decoder then returns an
// *[ErrorDocumentError] holding the body, which the runtime handles as an
// HTTP 500 error response with that body: classified by its Code (an
// InternalError is transient and retried) and returned as the operation's
// modelled error or a *runtime.APIError. Any other body decodes as
// DecodeXMLNamed does (root "" checks no name), with its errors.
func DecodeAWSXML(v any, raw *[]byte, root string) func(*http.Response) error {
	return DecodeAWSXMLPayload(v, raw, root, "", nil)
}

// DecodeAWSXMLPayload is [DecodeAWSXML] for an output whose one XML member
// may be the whole document (Smithy @httpPayload on a structure or string
// member, which aws2openapi writes as the output schema's only property:
// S3's CopyObject <CopyObjectResult>, GetObjectRetention <Retention>,
// GetBucketLocation's text root <LocationConstraint>us-west-2</…>): a body
// whose root element's local name is name decodes into member (a pointer
// to that field) from the root itself; any other root decodes into v as
// DecodeAWSXML does (GetBucketLogging's <BucketLoggingStatus> wraps its
// only member <LoggingEnabled>). The spec cannot tell the two kinds apart,
// the root's name does. It returns DecodeAWSXML's errors.
func DecodeAWSXMLPayload(v any, raw *[]byte, root, name string, member any) func(*http.Response) error {
	return func(r *http.Response) error {
		var kept []byte
		if raw == nil {
			raw = &kept
		}
		d, start, err := openXML(r, raw)
		if err != nil || start == nil {
			return err
		}
		if start.Name.Local == awsErrorRoot && root != awsErrorRoot {
			return &ErrorDocumentError{Body: *raw}
		}
		if member != nil && start.Name.Local == name {
			return d.DecodeElement(member, start)
		}
		return decodeRoot(d, start, v, root)
	}
}

// awsErrorRoot is the root element of an AWS REST-XML error document
// (<Error><Code>…</Code><Message>…</Message><RequestId>…</RequestId></Error>).
const awsErrorRoot = "Error"

// ErrorDocumentError is what [DecodeAWSXML] returns for a 2xx response
// whose body is the service's <Error> document: Body is the whole body.
// The runtime recognises it by its ErrorDocument method and handles the
// response as an HTTP 500 error response with that body; a caller never
// sees it.
type ErrorDocumentError struct {
	Body []byte
}

// Error says that the 2xx body is an error document.
func (e *ErrorDocumentError) Error() string {
	return "openapi: the 2xx body is an <Error> document"
}

// ErrorDocument returns the error document's bytes (the runtime's hook).
func (e *ErrorDocumentError) ErrorDocument() []byte { return e.Body }

// AppendXMLPrefixedAttr returns attrs with the attribute prefix:local
// set to *value and, unless attrs already declares it, xmlns:prefix="space"
// before it: the spelling a spec's prefixed attribute name asks for (S3's
// <Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="CanonicalUser">),
// which encoding/xml's namespaced attributes cannot give (it invents a
// prefix). A nil value appends nothing. Generated MarshalXML methods call
// it; it returns no error.
func AppendXMLPrefixedAttr(attrs []xml.Attr, prefix, space, local string, value *string) []xml.Attr {
	if value == nil {
		return attrs
	}
	decl := xml.Name{Local: "xmlns:" + prefix}
	if !slices.ContainsFunc(attrs, func(a xml.Attr) bool { return a.Name == decl }) {
		attrs = append(attrs, xml.Attr{Name: decl, Value: space})
	}
	return append(attrs, xml.Attr{Name: xml.Name{Local: prefix + ":" + local}, Value: *value})
}

// XMLAttrValue returns the value of the attribute local in namespace space
// among attrs (a decoded start element's, whose prefixes encoding/xml has
// resolved to namespace URIs), or nil when there is none. Generated
// UnmarshalXML methods call it for prefixed attributes
// ([AppendXMLPrefixedAttr]).
func XMLAttrValue(attrs []xml.Attr, space, local string) *string {
	for _, a := range attrs {
		if a.Name.Space == space && a.Name.Local == local {
			v := a.Value
			return &v
		}
	}
	return nil
}

// xmlMediaType returns an error when h's Content-Type names HTML or JSON
// (text/html, application/json, …+json), which an XML operation's 2xx body
// never is (a login page, a gateway's JSON error). A missing or other
// Content-Type (XML, text/plain, application/octet-stream) is accepted:
// servers label XML loosely, and the body is checked by parsing.
func xmlMediaType(h http.Header) error {
	ct := h.Get("Content-Type")
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return nil
	}
	if mt == "text/html" || mt == "application/json" || strings.HasSuffix(mt, "+json") {
		return fmt.Errorf("openapi: want an XML body, got Content-Type %s", mt)
	}
	return nil
}

// rootElement reads d up to the first start element and returns it; nil
// when the body ends first holding only white space, comments, processing
// instructions (the XML declaration) and directives (an empty body). Text
// before any element is an error quoting its first 32 bytes; a read or
// syntax error is encoding/xml's.
func rootElement(d *xml.Decoder) (*xml.StartElement, error) {
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return &t, nil
		case xml.CharData:
			if text := bytes.TrimSpace(t); len(text) > 0 {
				if len(text) > 32 {
					text = text[:32]
				}
				return nil, fmt.Errorf("openapi: the body is not XML: text %q where an element should start", text)
			}
		}
	}
}

// keepBody returns body itself when raw is nil; otherwise it reads body
// whole into *raw and returns a reader over those bytes. It returns the
// read error (*raw then holds what was read).
func keepBody(body io.Reader, raw *[]byte) (io.Reader, error) {
	if raw == nil {
		return body, nil
	}
	b, err := io.ReadAll(body)
	*raw = b
	return bytes.NewReader(b), err
}

// DecodeXMLResult is [DecodeXML] for the AWS query protocol's envelope
// (SQS, SNS, EC2-style services): the response is
// <OpResponse><OpResult>…</OpResult><ResponseMetadata>…</ResponseMetadata></OpResponse>
// and v describes the …Result element, so v is decoded from the root's
// first child element whose name ends in "Result"; a root without one
// leaves v as it is. raw, when not nil, receives the whole body, envelope
// included, as with DecodeXML. It returns DecodeXML's errors (read, HTML or
// JSON Content-Type, text that is not an element, encoding/xml's), which
// the runtime reports as a *runtime.DecodeError.
func DecodeXMLResult(v any, raw *[]byte) func(*http.Response) error {
	return func(r *http.Response) error {
		body, err := keepBody(r.Body, raw)
		if err != nil {
			return err
		}
		if err := xmlMediaType(r.Header); err != nil {
			return err
		}
		d := xml.NewDecoder(body)
		start, err := rootElement(d)
		if err != nil || start == nil {
			return err
		}
		depth := 1
		for {
			tok, err := d.Token()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			switch t := tok.(type) {
			case xml.StartElement:
				depth++
				if depth == 2 && strings.HasSuffix(t.Name.Local, "Result") {
					return d.DecodeElement(v, &t)
				}
				if depth == 2 {
					if err := d.Skip(); err != nil {
						return err
					}
					depth--
				}
			case xml.EndElement:
				depth--
				if depth == 0 {
					return nil // no …Result element: nothing to decode
				}
			}
		}
	}
}
