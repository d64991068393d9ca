package openapi

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMultipartNullRefused: multipart/form-data has text and file parts
// only (RFC 7578), so an explicit openapi.Null in a text part cannot be
// sent; it was dropped like an absent value, and the server applied its
// default (newuser4 G5: Mistral's upload `expiry`). It is now an error
// naming the part, before anything is sent. A part whose Encoding Object
// says JSON sends null as JSON; an absent Nullable is left out as before.
func TestMultipartNullRefused(t *testing.T) {
	file := Part{Name: "file", Value: File{Filename: "a.jsonl", Body: strings.NewReader("x")}}
	_, _, err := MultipartBody(Part{Name: "expiry", Value: Null[int64]()}, file)
	require.EqualError(t, err, `multipart part "expiry": openapi.Null cannot be sent: multipart/form-data has no null (RFC 7578); leave the field absent or give a value`)

	body, ct, err := MultipartBody(Part{Name: "expiry", Value: Nullable[int64]{}}, Part{Name: "n", Value: NullableOf[int64](7)})
	require.NoError(t, err)
	boundary := strings.TrimPrefix(ct, "multipart/form-data; boundary=")
	require.Equal(t, "--"+boundary+"\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\n7\r\n--"+boundary+"--\r\n", string(body))

	body, ct, err = MultipartBody(Part{Name: "meta", Value: Null[map[string]string](), Encoding: Encoding{ContentType: "application/json"}})
	require.NoError(t, err)
	boundary = strings.TrimPrefix(ct, "multipart/form-data; boundary=")
	require.Equal(t, "--"+boundary+"\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\nnull\r\n--"+boundary+"--\r\n", string(body))
}
