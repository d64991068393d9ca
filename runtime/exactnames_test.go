package runtime

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/retrygen/retrygen/runtime/openapi"
	"github.com/stretchr/testify/require"
)

// exactOut has a generated output's shape: a declared member, a list of
// objects, a union of an object and a string, and a nullable object.
type (
	exactItem struct {
		V string `json:"v"`
	}
	exactOut struct {
		V     string                      `json:"v"`
		Items []exactItem                 `json:"items"`
		U     exactUnionT                 `json:"u"`
		N     openapi.Nullable[exactItem] `json:"n"`
	}
	exactUnionT struct {
		Item *exactItem
	}
)

// UnmarshalJSON decodes the object variant as a generated union does.
func (u *exactUnionT) UnmarshalJSON(b []byte) error {
	var un openapi.Union
	un.Variants = []openapi.Variant{{Name: "Item", Type: openapi.JSONObject}}
	var raw json.RawMessage
	return un.Unmarshal(b, &raw, &u.Item)
}

// TestDecodeMatchesMemberNamesExactly: a response member whose name equals
// a declared one only ignoring case fills nothing, at every level: the
// body, list items, a union's variant and a Nullable's value (second
// new-user trial F16: encoding/json's rule let an undeclared "V" fill, or
// overwrite, the declared "v"); the body as sent is kept whole.
func TestDecodeMatchesMemberNamesExactly(t *testing.T) {
	body := `{"v":"real","V":"undeclared","items":[{"V":"no"},{"v":"yes"}],"u":{"V":"no","v":"yes"},"n":{"V":"no"}}`
	var out exactOut
	var raw []byte
	err := DecodeJSONKeep(&out, &raw)(&http.Response{Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body))})
	require.NoError(t, err)
	require.Equal(t, "real", out.V)
	require.Equal(t, []exactItem{{}, {V: "yes"}}, out.Items)
	require.Equal(t, &exactItem{V: "yes"}, out.U.Item)
	n, ok := openapi.ValueOf(out.N)
	require.True(t, ok)
	require.Equal(t, exactItem{}, n)
	require.Equal(t, body, string(raw))
}
