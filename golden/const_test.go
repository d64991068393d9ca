package golden_test

import (
	"encoding/json"
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/pages"
)

// A required property that may hold one value only (a const, an enum of
// one value) is sent as that value when the caller leaves it unset, never
// as "" (new-user trial item 7): Stripe's `object: {enum: [list]}` here. A
// value set is sent as it is, and decoding is unchanged.
func TestConstFieldLeftUnsetSendsItsValue(t *testing.T) {
	b, err := json.Marshal(pages.ListCustomersOutput{})
	require.NoError(t, err)
	require.JSONEq(t, `{"object":"list","data":null,"has_more":false,"url":""}`, string(b))
	b, err = xml.Marshal(struct {
		XMLName xml.Name                        `xml:"r"`
		Object  pages.ListCustomersOutputObject `xml:"object"`
		Attr    pages.ListCustomersOutputObject `xml:"a,attr"`
	}{})
	require.NoError(t, err)
	require.Equal(t, `<r a="list"><object>list</object></r>`, string(b))
	b, err = json.Marshal(pages.ListCustomersOutput{Object: "other"})
	require.NoError(t, err)
	require.Contains(t, string(b), `"object":"other"`)
	var out pages.ListCustomersOutput
	require.NoError(t, json.Unmarshal([]byte(`{"object":"other"}`), &out))
	require.Equal(t, pages.ListCustomersOutputObject("other"), out.Object)
}
