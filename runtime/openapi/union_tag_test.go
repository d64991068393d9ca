package openapi

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

type compA struct {
	Type       int               `json:"type"`
	Components []json.RawMessage `json:"components"`
}

type compB struct {
	Type int    `json:"type"`
	File string `json:"file"`
}

// component is Discord's message component union: no discriminator, each
// variant told apart by a one-value enum `type` (1, 13).
type component struct {
	A   *compA
	B   *compB
	Raw json.RawMessage
}

var unionComponent = Union{Name: "Component", Variants: []Variant{
	{Name: "A", Type: JSONObject, Required: []string{"components"}, Const: []string{"type", "1"}, Properties: []string{"components", "type"}},
	{Name: "B", Type: JSONObject, Const: []string{"type", "13"}, Properties: []string{"file", "type"}},
}}

func (u *component) UnmarshalJSON(b []byte) error {
	return unionComponent.Unmarshal(b, &u.Raw, &u.A, &u.B)
}

// TestUnionUnknownTagValueSetsNone: when every variant carries the same
// single-valued property (Discord's components: type 1, 13, …) and a value
// holds it with a value no variant has (a component type added later), it
// decodes into no variant and stays whole in Raw, as an unknown
// discriminator value does (newuser4 G11: the whole message failed to
// decode). A known value still picks its variant, and a value without the
// property, or one that fits none otherwise, is still an error.
func TestUnionUnknownTagValueSetsNone(t *testing.T) {
	var msg struct {
		Components []component `json:"components"`
		ID         string      `json:"id"`
	}
	body := `{"components":[{"type":99,"id":7,"new_field":"x"},{"type":13,"file":"f"}],"id":"1"}`
	require.NoError(t, json.Unmarshal([]byte(body), &msg))
	require.Equal(t, "1", msg.ID)
	require.Len(t, msg.Components, 2)
	require.Nil(t, msg.Components[0].A)
	require.Nil(t, msg.Components[0].B)
	require.JSONEq(t, `{"type":99,"id":7,"new_field":"x"}`, string(msg.Components[0].Raw))
	require.Equal(t, &compB{Type: 13, File: "f"}, msg.Components[1].B)

	var c component
	err := json.Unmarshal([]byte(`{"type":1}`), &c)
	require.EqualError(t, err, `no variant of Component fits the JSON value: tried A: missing required "components"; B: "type" is 1, must be 13`)
	err = json.Unmarshal([]byte(`{"file":"f"}`), &c)
	require.EqualError(t, err, `no variant of Component fits the JSON value: tried A: missing required "components"; B: missing "type" (must be 13)`)
	err = json.Unmarshal([]byte(`{"type":"1"}`), &c)
	require.EqualError(t, err, `no variant of Component fits the JSON value: tried A: missing required "components"; B: "type" is "1", must be 13`)
}
