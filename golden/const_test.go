package golden_test

import (
	"encoding"
	"encoding/json"
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/kinesis"
	"github.com/retrygen/retrygen/golden/pages"
)

// A required property that may hold one value only (a const, an enum of
// one value) is sent as that value when the caller leaves it unset, never
// as "" (new-user trial item 7): Kinesis's UpdateShardCount ScalingType
// (enum [UNIFORM_SCALING]) here. A value set is sent as it is, and decoding
// is unchanged.
func TestConstFieldLeftUnsetSendsItsValue(t *testing.T) {
	b, err := json.Marshal(kinesis.UpdateShardCountInput{StreamName: "s", TargetShardCount: 2})
	require.NoError(t, err)
	require.JSONEq(t, `{"ScalingType":"UNIFORM_SCALING","StreamName":"s","TargetShardCount":2}`, string(b))
	b, err = xml.Marshal(struct {
		XMLName xml.Name            `xml:"r"`
		Scaling kinesis.ScalingType `xml:"scaling"`
		Attr    kinesis.ScalingType `xml:"a,attr"`
	}{})
	require.NoError(t, err)
	require.Equal(t, `<r a="UNIFORM_SCALING"><scaling>UNIFORM_SCALING</scaling></r>`, string(b))
	b, err = json.Marshal(kinesis.UpdateShardCountInput{ScalingType: "other"})
	require.NoError(t, err)
	require.Contains(t, string(b), `"ScalingType":"other"`)
	var in kinesis.UpdateShardCountInput
	require.NoError(t, json.Unmarshal([]byte(`{"ScalingType":"other"}`), &in))
	require.Equal(t, kinesis.ScalingType("other"), in.ScalingType)
}

// A one-value enum no request can carry (Stripe's list `object: {enum:
// [list]}`, only ever received) has no marshal method: its value comes
// from the server, and a method per such type was most of the Stripe
// client's compile cost (issue 24). Decoding keeps what was received.
func TestConstOfAResponseOnlyTypeHasNoMarshalMethod(t *testing.T) {
	_, ok := any(pages.ListCustomersOutputObject("")).(encoding.TextMarshaler)
	require.False(t, ok)
	var out pages.ListCustomersOutput
	require.NoError(t, json.Unmarshal([]byte(`{"object":"list"}`), &out))
	require.Equal(t, pages.ListCustomersOutputObjectList, out.Object)
}
