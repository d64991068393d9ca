package openapi

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// todoPatch is a PATCH body whose due_at is optional and nullable, as the
// generator emits it.
type todoPatch struct {
	Title *string          `json:"title,omitzero"`
	DueAt Nullable[string] `json:"due_at,omitzero"`
}

func TestNullableThreeStates(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   todoPatch
		wire string
	}{
		{"absent is left out", todoPatch{}, `{}`},
		{"null is sent as null", todoPatch{DueAt: Null[string]()}, `{"due_at":null}`},
		{"a value is sent", todoPatch{DueAt: NullableOf("2026-12-01")}, `{"due_at":"2026-12-01"}`},
		{"the zero value is a value, not absent", todoPatch{DueAt: NullableOf("")}, `{"due_at":""}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.in)
			require.NoError(t, err)
			require.Equal(t, tc.wire, string(b))
			var back todoPatch
			require.NoError(t, json.Unmarshal(b, &back))
			require.Equal(t, tc.in, back, "decode of the encoding gives the same state")
		})
	}
}

func TestNullableAccessors(t *testing.T) {
	var n Nullable[int64]
	require.NoError(t, json.Unmarshal([]byte(` null `), &n))
	require.True(t, IsNull(n))
	require.NotEqual(t, Nullable[int64]{}, n, "null is not absent")
	v, ok := ValueOf(n)
	require.Equal(t, int64(0), v)
	require.False(t, ok)

	require.NoError(t, json.Unmarshal([]byte(`0`), &n))
	v, ok = ValueOf(n)
	require.Equal(t, int64(0), v)
	require.True(t, ok, "0 is a value, distinct from null")
	require.False(t, IsNull(n))

	err := json.Unmarshal([]byte(`"x"`), &n)
	require.Error(t, err)
	require.Equal(t, Nullable[int64]{}, n, "a failed decode leaves n absent")
	b, err := json.Marshal(todoPatch{DueAt: Nullable[string]{}})
	require.NoError(t, err)
	require.Equal(t, `{}`, string(b), "absent is the zero value omitzero leaves out")
}
