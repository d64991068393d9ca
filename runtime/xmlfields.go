package runtime

import (
	"bytes"
	"encoding/xml"
	"strings"
)

// maxXMLDepth bounds the element nesting xmlFields follows; deeper elements
// are skipped.
const maxXMLDepth = 32

// xmlFields returns the elements below the root element of an XML error body
// in the form stringField reads JSON fields: an element with child elements
// is a map of them by local name, any other element its trimmed text. A
// repeated element keeps its first occurrence. So the AWS query protocol's
// <ErrorResponse><Error><Code>SlowDown</Code></Error></ErrorResponse> gives
// "SlowDown" for the dotted path "Error.Code" (x-retry errorCode.fields).
// It returns nil when body is not well-formed XML.
func xmlFields(body []byte) map[string]any {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = true
	type frame struct {
		name     string
		children map[string]any
		text     strings.Builder
	}
	var stack []*frame
	var root map[string]any
	for {
		tok, err := d.Token()
		if err != nil {
			if len(stack) == 0 && root != nil {
				return root // io.EOF after the root element closed
			}
			return nil
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxXMLDepth {
				if err := d.Skip(); err != nil {
					return nil
				}
				continue
			}
			stack = append(stack, &frame{name: t.Name.Local})
		case xml.CharData:
			if n := len(stack); n > 0 {
				stack[n-1].text.Write(t)
			}
		case xml.EndElement:
			n := len(stack)
			f := stack[n-1]
			stack = stack[:n-1]
			var v any = strings.TrimSpace(f.text.String())
			if f.children != nil {
				v = f.children
			}
			if n == 1 {
				root = f.children
				if root == nil {
					root = map[string]any{}
				}
				continue
			}
			parent := stack[n-2]
			if parent.children == nil {
				parent.children = map[string]any{}
			}
			if _, dup := parent.children[f.name]; !dup {
				parent.children[f.name] = v
			}
		}
	}
}

// looksXML reports whether an error body is XML: its Content-Type says so,
// or its first non-space byte is '<'.
func looksXML(contentType string, body []byte) bool {
	ct := strings.ToLower(contentType)
	if strings.Contains(ct, "xml") {
		return true
	}
	b := bytes.TrimLeft(body, " \t\r\n")
	return len(b) > 0 && b[0] == '<'
}
