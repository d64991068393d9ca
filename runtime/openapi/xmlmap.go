package openapi

import (
	"encoding/xml"
	"fmt"
	"maps"
	"slices"
)

// XMLMap is a map member of an XML body as the AWS XML protocols write it
// (Smithy's default map serialization, REST-XML and query): one wrapper
// element named by the member, holding an <entry> per key with <key> and
// <value> children. A generated struct's map field has this type when the
// struct travels as XML (OpenAPI's XML Object has no notion of maps;
// encoding/xml refuses Go maps), with the XML Object's wrapped: true or
// no XML Object. It converts to and from map[string]V without a cast
// (XMLMap[V] is assignable from a map literal). Entries are written in
// key order, so the bytes are deterministic. Decoding also accepts the
// query protocol's <Name>/<Value> entry children (SQS).
type XMLMap[V any] map[string]V

// XMLFlatMap is [XMLMap] flattened (Smithy @xmlFlattened; an XML Object
// with wrapped: false, as aws2openapi writes SQS's maps): one element per
// entry, each named by the member, with <key> and <value> children
// (Smithy's default names) when written, and <key>/<value> or the query
// protocol's <Name>/<Value> (SQS's <Attribute><Name>SenderId</Name><Value>…)
// accepted when read.
type XMLFlatMap[V any] map[string]V

// MarshalXML writes the map wrapped: <start><entry><key>k</key><value>v</value></entry>…</start>.
// It returns encoding/xml's error for a value it cannot encode.
func (m XMLMap[V]) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	if err := e.EncodeToken(start); err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if err := encodeXMLEntry(e, xml.StartElement{Name: xml.Name{Local: "entry"}}, k, m[k]); err != nil {
			return err
		}
	}
	return e.EncodeToken(start.End())
}

// UnmarshalXML reads the <entry> children of a wrapped map into m (made
// when nil); other children are skipped. It returns encoding/xml's error,
// or one naming an entry without a key.
func (m *XMLMap[V]) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	if *m == nil {
		*m = XMLMap[V]{}
	}
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != "entry" {
				if err := d.Skip(); err != nil {
					return err
				}
				continue
			}
			if err := decodeXMLEntry(d, t, *m); err != nil {
				return err
			}
		case xml.EndElement:
			return nil
		}
	}
}

// MarshalXML writes one element named like start per entry, in key order:
// <start><key>k</key><value>v</value></start>…. It returns encoding/xml's
// error for a value it cannot encode.
func (m XMLFlatMap[V]) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if err := encodeXMLEntry(e, start, k, m[k]); err != nil {
			return err
		}
	}
	return nil
}

// UnmarshalXML reads one flattened entry (encoding/xml calls it once per
// element named like the member) into m, made when nil. It returns
// encoding/xml's error, or one naming an entry without a key.
func (m *XMLFlatMap[V]) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	if *m == nil {
		*m = XMLFlatMap[V]{}
	}
	return decodeXMLEntry(d, start, *m)
}

// encodeXMLEntry writes <start><key>k</key><value>v</value></start>.
func encodeXMLEntry[V any](e *xml.Encoder, start xml.StartElement, k string, v V) error {
	if err := e.EncodeToken(start); err != nil {
		return err
	}
	if err := e.EncodeElement(k, xml.StartElement{Name: xml.Name{Local: "key"}}); err != nil {
		return err
	}
	if err := e.EncodeElement(v, xml.StartElement{Name: xml.Name{Local: "value"}}); err != nil {
		return err
	}
	return e.EncodeToken(start.End())
}

// decodeXMLEntry reads the children of the entry element start (key: <key>
// or <Name>; value: <value> or <Value>) into m.
func decodeXMLEntry[V any](d *xml.Decoder, start xml.StartElement, m map[string]V) error {
	var key *string
	var val V
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "key", "Name":
				var k string
				if err := d.DecodeElement(&k, &t); err != nil {
					return err
				}
				key = &k
			case "value", "Value":
				if err := d.DecodeElement(&val, &t); err != nil {
					return err
				}
			default:
				if err := d.Skip(); err != nil {
					return err
				}
			}
		case xml.EndElement:
			if key == nil {
				return fmt.Errorf("openapi: XML map entry <%s> has no <key> or <Name>", start.Name.Local)
			}
			m[*key] = val
			return nil
		}
	}
}
