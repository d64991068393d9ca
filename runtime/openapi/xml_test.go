package openapi

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

type xmlTag struct {
	Key   string `xml:"Key"`
	Value string `xml:"Value"`
}

type xmlTagging struct {
	Version *string  `xml:"version,attr,omitempty"`
	TagSet  []xmlTag `xml:"TagSet>Tag"`
	Flat    []string `xml:"Item"`
}

func TestXMLBody(t *testing.T) {
	v := "2"
	b, err := XMLBody(&xmlTagging{Version: &v, TagSet: []xmlTag{{"k", "a<b"}}, Flat: []string{"x", "y"}}, "Tagging", "http://s3.amazonaws.com/doc/2006-03-01/")
	want := `<Tagging xmlns="http://s3.amazonaws.com/doc/2006-03-01/" version="2"><TagSet><Tag><Key>k</Key><Value>a&lt;b</Value></Tag></TagSet><Item>x</Item><Item>y</Item></Tagging>`
	if err != nil || string(b) != want {
		t.Fatalf("got %s %v\nwant %s", b, err, want)
	}
	var nilp *xmlTagging
	if b, err := XMLBody(nilp, "Tagging", ""); b != nil || err != nil {
		t.Fatalf("a nil input sends no body: %q %v", b, err)
	}
	if _, err := XMLBody(map[string]string{"a": "b"}, "M", ""); err == nil {
		t.Fatal("encoding/xml's error is returned")
	}
}

func decodeWith(dec func(any, *[]byte) func(*http.Response) error, body string, v any) error {
	return dec(v, nil)(&http.Response{Body: io.NopCloser(strings.NewReader(body))})
}

// The raw bytes of an XML body stay reachable (issue 19 rule 7): DecodeXML
// and DecodeXMLResult keep exactly what they read in *raw — the whole body,
// the envelope and elements the spec does not declare included — also when
// decoding fails; a nil raw keeps nothing.
func TestDecodeXMLKeepsTheRawBody(t *testing.T) {
	for name, dec := range map[string]func(any, *[]byte) func(*http.Response) error{"DecodeXML": DecodeXML, "DecodeXMLResult": DecodeXMLResult} {
		for _, body := range []string{
			`<ListQueuesResponse><ListQueuesResult><Item>x</Item><Undeclared a="1">y</Undeclared></ListQueuesResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></ListQueuesResponse>`,
			`<a><b></a>`,
			``,
		} {
			var got xmlTagging
			var raw []byte
			err := dec(&got, &raw)(&http.Response{Body: io.NopCloser(strings.NewReader(body))})
			if (err != nil) != (body == `<a><b></a>`) {
				t.Fatalf("%s(%q): error %v", name, body, err)
			}
			if string(raw) != body {
				t.Fatalf("%s: raw = %q, want %q", name, raw, body)
			}
		}
	}
}

func TestDecodeXML(t *testing.T) {
	var got xmlTagging
	err := decodeWith(DecodeXML, `<?xml version="1.0"?><Any xmlns="urn:x" version="3"><TagSet><Tag><Key>k</Key><Value>v</Value></Tag></TagSet><Item>x</Item><Other/></Any>`, &got)
	if err != nil || *got.Version != "3" || got.TagSet[0] != (xmlTag{"k", "v"}) || got.Flat[0] != "x" {
		t.Fatalf("%+v %v", got, err)
	}
	if err := decodeWith(DecodeXML, ``, &got); err != nil {
		t.Fatalf("an empty body is no error: %v", err)
	}
	if err := decodeWith(DecodeXML, `<a><b></a>`, &got); err == nil {
		t.Fatal("malformed XML is an error")
	}
}

func TestDecodeXMLResult(t *testing.T) {
	var got struct {
		Messages []struct {
			Body string `xml:"Body"`
		} `xml:"Message"`
	}
	body := `<ReceiveMessageResponse><Other><Message><Body>no</Body></Message></Other><ReceiveMessageResult><Message><Body>hi</Body></Message><Message><Body>ho</Body></Message></ReceiveMessageResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></ReceiveMessageResponse>`
	if err := decodeWith(DecodeXMLResult, body, &got); err != nil || len(got.Messages) != 2 || got.Messages[1].Body != "ho" {
		t.Fatalf("%+v %v", got, err)
	}
	got.Messages = nil
	if err := decodeWith(DecodeXMLResult, `<DeleteQueueResponse><ResponseMetadata/></DeleteQueueResponse>`, &got); err != nil || got.Messages != nil {
		t.Fatalf("no result element: %+v %v", got, err)
	}
	if err := decodeWith(DecodeXMLResult, `<R><XResult><Message>`, &got); err == nil {
		t.Fatal("a truncated body is an error")
	}
}

// A 2xx body that is not the modelled XML is a decode error naming what was
// expected and what came (new-user trial item 1), never a success with zero
// values: text that is not an element, an HTML or JSON Content-Type, and —
// when the schema names its element — another root. An empty body stays
// valid, as an empty JSON body is (runtime.DecodeJSONKeep).
func TestDecodeXMLRefusesWhatIsNotTheModelledXML(t *testing.T) {
	type doc struct {
		Title string `xml:"title"`
	}
	cases := []struct {
		ct, body, root string
		want           string // "" = no error
	}{
		{"application/xml", `<Doc><title>t</title></Doc>`, "Doc", ""},
		{"application/xml", `<?xml version="1.0"?><!-- c --> <Doc><title>t</title></Doc>`, "Doc", ""},
		{"application/xml", ``, "Doc", ""},
		{"application/xml", " \n<?xml version=\"1.0\"?>\n", "Doc", ""},
		{"", `<Any><title>t</title></Any>`, "", ""},
		{"text/plain", `<Doc><title>t</title></Doc>`, "Doc", ""},
		{"application/xml", `plain text, not xml`, "Doc", `openapi: the body is not XML: text "plain text, not xml" where an element should start`},
		{"application/xml", strings.Repeat("x", 40), "", `openapi: the body is not XML: text "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" where an element should start`},
		{"text/html; charset=utf-8", `<html><body>login page</body></html>`, "", `openapi: want an XML body, got Content-Type text/html`},
		{"application/problem+json", `{}`, "Doc", `openapi: want an XML body, got Content-Type application/problem+json`},
		{"application/xml", `<Other><title>wrong root</title></Other>`, "Doc", `openapi: the XML body's root element is <Other>, want <Doc>`},
		{"application/xml", `<html><body>login page</body></html>`, "Doc", `openapi: the XML body's root element is <html>, want <Doc>`},
		{"application/xml", `<Doc><title>t</title>`, "Doc", `XML syntax error on line 1: unexpected EOF`},
	}
	for _, c := range cases {
		var got doc
		var raw []byte
		r := &http.Response{Header: http.Header{}, Body: io.NopCloser(strings.NewReader(c.body))}
		if c.ct != "" {
			r.Header.Set("Content-Type", c.ct)
		}
		err := DecodeXMLNamed(&got, &raw, c.root)(r)
		if msg := fmt.Sprint(err); (c.want == "" && err != nil) || (c.want != "" && msg != c.want) {
			t.Errorf("%s %q root %q: error %v, want %q", c.ct, c.body, c.root, err, c.want)
		}
		if string(raw) != c.body {
			t.Errorf("%q: raw %q", c.body, raw)
		}
		if c.want == "" && c.body != "" && strings.Contains(c.body, "title") && got.Title != "t" {
			t.Errorf("%q: decoded %+v", c.body, got)
		}
	}
	// DecodeXMLResult refuses the same non-XML bodies.
	for _, body := range []string{"plain text, not xml", "<html></html>"} {
		r := &http.Response{Header: http.Header{"Content-Type": {"text/html"}}, Body: io.NopCloser(strings.NewReader(body))}
		if body[0] == 'p' {
			r.Header.Set("Content-Type", "text/xml")
		}
		if err := DecodeXMLResult(&struct{}{}, nil)(r); err == nil {
			t.Errorf("DecodeXMLResult(%q) accepted it", body)
		}
	}
}

// DecodeAWSXML: a 2xx <Error> root, where the output is another element
// (or unnamed), is an *ErrorDocumentError holding the whole body; an
// output whose own root is Error, and any other root, decode as
// DecodeXMLNamed does (new-user trial 3, F16).
func TestDecodeAWSXMLErrorDocument(t *testing.T) {
	const doc = `<?xml version="1.0"?><Error><Code>InternalError</Code></Error>`
	resp := func() *http.Response {
		return &http.Response{Header: http.Header{"Content-Type": {"application/xml"}}, Body: io.NopCloser(strings.NewReader(doc))}
	}
	for _, root := range []string{"", "CopyObjectResult"} {
		var v struct{ Code string }
		err := DecodeAWSXML(&v, nil, root)(resp())
		var ed *ErrorDocumentError
		if !errors.As(err, &ed) || string(ed.ErrorDocument()) != doc || v.Code != "" {
			t.Fatalf("root %q: %v %+v", root, err, v)
		}
	}
	var v struct{ Code string }
	var raw []byte
	if err := DecodeAWSXML(&v, &raw, "Error")(resp()); err != nil || v.Code != "InternalError" || string(raw) != doc {
		t.Fatalf("root Error: %v %+v", err, v)
	}
	err := DecodeAWSXML(&v, nil, "X")(&http.Response{Body: io.NopCloser(strings.NewReader("<Y/>"))})
	if err == nil || err.Error() != "openapi: the XML body's root element is <Y>, want <X>" {
		t.Fatal(err)
	}
}
