package openapi

import (
	"encoding/xml"
	"testing"
)

type xmlMapValue struct {
	StringValue *string `xml:"StringValue,omitempty"`
	DataType    string  `xml:"DataType"`
}

type xmlMapMessage struct {
	Body       string                  `xml:"Body"`
	Attributes XMLFlatMap[string]      `xml:"Attribute"`
	MsgAttrs   XMLFlatMap[xmlMapValue] `xml:"MessageAttribute"`
	Tags       XMLMap[string]          `xml:"Tags"`
}

// SQS's ReceiveMessage <Message> (the SQS API reference's sample): the
// flattened <Attribute>/<MessageAttribute> entries with <Name>/<Value>
// decode into the maps; encoding writes Smithy's <key>/<value>, in key
// order, and decodes back to the same maps (new-user trial 3, F7: both
// maps were xml:"-" and dropped).
func TestXMLMaps(t *testing.T) {
	const in = `<Message><Body>b</Body>` +
		`<Attribute><Name>SenderId</Name><Value>1950</Value></Attribute><Attribute><Name>ApproximateReceiveCount</Name><Value>5</Value></Attribute>` +
		`<MessageAttribute><Name>color</Name><Value><StringValue>blue</StringValue><DataType>String</DataType></Value></MessageAttribute>` +
		`<Tags><entry><key>b</key><value>2</value></entry><entry><key>a</key><value>1</value></entry></Tags></Message>`
	var m xmlMapMessage
	if err := xml.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Attributes) != 2 || m.Attributes["SenderId"] != "1950" || m.Attributes["ApproximateReceiveCount"] != "5" ||
		len(m.MsgAttrs) != 1 || *m.MsgAttrs["color"].StringValue != "blue" || m.MsgAttrs["color"].DataType != "String" ||
		len(m.Tags) != 2 || m.Tags["a"] != "1" || m.Tags["b"] != "2" {
		t.Fatalf("decoded %+v", m)
	}
	out, err := xml.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	const want = `<xmlMapMessage><Body>b</Body>` +
		`<Attribute><key>ApproximateReceiveCount</key><value>5</value></Attribute><Attribute><key>SenderId</key><value>1950</value></Attribute>` +
		`<MessageAttribute><key>color</key><value><StringValue>blue</StringValue><DataType>String</DataType></value></MessageAttribute>` +
		`<Tags><entry><key>a</key><value>1</value></entry><entry><key>b</key><value>2</value></entry></Tags></xmlMapMessage>`
	if string(out) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", out, want)
	}
	var again xmlMapMessage
	if err := xml.Unmarshal(out, &again); err != nil || len(again.Attributes) != 2 || again.Tags["b"] != "2" || again.MsgAttrs["color"].DataType != "String" {
		t.Fatalf("round trip %+v %v", again, err)
	}
	var bad xmlMapMessage
	if err := xml.Unmarshal([]byte(`<Message><Attribute><Value>x</Value></Attribute></Message>`), &bad); err == nil || err.Error() != "openapi: XML map entry <Attribute> has no <key> or <Name>" {
		t.Fatal(err)
	}
}
