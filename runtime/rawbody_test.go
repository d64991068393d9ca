package runtime

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The raw body stays reachable beside the decoded value: a member the
// struct does not declare is in the bytes, exactly as received.
func TestDecodeJSONKeep(t *testing.T) {
	var v struct {
		Name string `json:"name"`
	}
	var raw []byte
	body := `{"name":"a","undeclared":[1,2]}`
	err := DecodeJSONKeep(&v, &raw)(&http.Response{Body: io.NopCloser(strings.NewReader(body))})
	require.NoError(t, err)
	require.Equal(t, "a", v.Name)
	require.Equal(t, body, string(raw))

	raw = nil
	require.NoError(t, DecodeJSONKeep(&v, &raw)(&http.Response{Body: io.NopCloser(strings.NewReader(""))}))
	require.Empty(t, raw)

	err = DecodeJSONKeep(&v, &raw)(&http.Response{Body: io.NopCloser(strings.NewReader(`{"name":1}`))})
	require.Error(t, err)
	require.Equal(t, `{"name":1}`, string(raw))
}
