package openapi

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMultipartNamesCannotInjectPartHeaders: a filename or part name with
// CR, LF or '"' is escaped as mime/multipart's escapeQuotes escapes it
// (`"` → `\"`, CR → %0D, LF → %0A), so it stays inside its quoted
// parameter (third new-user trial F1: a filename taken from an end user
// injected part headers and body bytes). The buffered and the streamed
// writer agree byte for byte.
func TestMultipartNamesCannotInjectPartHeaders(t *testing.T) {
	const evil = "x\"\r\nContent-Type: text/html\r\n\r\n<p>"
	parts := func() []Part {
		return []Part{{Name: "na\"me\r\nX-Injected: 1", Value: &File{Filename: evil, Body: strings.NewReader("data")}}}
	}
	body, ct, err := MultipartBody(parts()...)
	require.NoError(t, err)
	b := strings.TrimPrefix(ct, "multipart/form-data; boundary=")
	require.Equal(t, "--"+b+"\r\n"+
		`Content-Disposition: form-data; name="na\"me%0D%0AX-Injected: 1"; filename="x\"%0D%0AContent-Type: text/html%0D%0A%0D%0A<p>"`+"\r\n"+
		"Content-Type: application/octet-stream\r\n\r\ndata\r\n"+
		"--"+b+"--\r\n", string(body))

	s, sct, err := MultipartReader(parts()...)
	require.NoError(t, err)
	got, err := io.ReadAll(s)
	require.NoError(t, err)
	sb := strings.TrimPrefix(sct, "multipart/form-data; boundary=")
	require.Equal(t, string(body), strings.ReplaceAll(string(got), sb, b))
}

// TestMultipartHeaderValuesWithLineBreaksRefused: a part's media type or an
// Encoding header value holding CR or LF could only be written raw (a MIME
// header value has no escaping), so the body is refused with an error
// naming the part, before a byte is sent.
func TestMultipartHeaderValuesWithLineBreaksRefused(t *testing.T) {
	for name, p := range map[string]Part{
		"file content type": {Name: "f", Value: &File{ContentType: "text/plain\r\nX-Evil: 1", Body: strings.NewReader("x")}},
		"encoding type":     {Name: "f", Value: map[string]int{"a": 1}, Encoding: Encoding{ContentType: "application/json\nX-Evil: 1"}},
		"encoding header":   {Name: "f", Value: "v", Encoding: Encoding{Headers: map[string]string{"X-Part": "1\r\nX-Evil: 1"}}},
		"header name":       {Name: "f", Value: "v", Encoding: Encoding{Headers: map[string]string{"X-Part: 1\r\nX-Evil": "1"}}},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := MultipartBody(p)
			require.ErrorContains(t, err, `multipart part "f": `)
			require.ErrorContains(t, err, "cannot be written in a MIME part header")
			_, _, err = MultipartReader(p)
			require.ErrorContains(t, err, `multipart part "f": `)
		})
	}
}
