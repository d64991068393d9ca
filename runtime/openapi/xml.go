package openapi

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"reflect"
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
// (servers name it after the operation, as S3's ListBucketResult); elements
// and attributes v does not declare are skipped; an empty body leaves v as
// it is. When raw is not nil the whole body is read first and its bytes
// stored in *raw, also when decoding fails (a generated operation puts them
// in ResultMetadata.Body, so elements the spec does not declare are never
// lost; the runtime's decode cap, Options.MaxResponseBody, bounds them). It
// returns the read error or encoding/xml's error for a body that is not XML
// or does not fit v, which the runtime reports as a *runtime.DecodeError.
func DecodeXML(v any, raw *[]byte) func(*http.Response) error {
	return func(r *http.Response) error {
		body, err := keepBody(r.Body, raw)
		if err != nil {
			return err
		}
		if err := xml.NewDecoder(body).Decode(v); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		return nil
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
// included, as with DecodeXML. It returns the read error or encoding/xml's
// error, which the runtime reports as a *runtime.DecodeError.
func DecodeXMLResult(v any, raw *[]byte) func(*http.Response) error {
	return func(r *http.Response) error {
		body, err := keepBody(r.Body, raw)
		if err != nil {
			return err
		}
		d := xml.NewDecoder(body)
		depth := 0
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
