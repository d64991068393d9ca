package openapi

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDateJSONExact(t *testing.T) {
	var v struct {
		Born Date `json:"born"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"born":"2024-02-29"}`), &v))
	require.Equal(t, Date{2024, time.February, 29}, v.Born)
	b, err := json.Marshal(v)
	require.NoError(t, err)
	require.Equal(t, `{"born":"2024-02-29"}`, string(b))

	for _, bad := range []string{`"2023-02-29"`, `"2024-2-29"`, `"2024-02-29T00:00:00Z"`, `"24-02-29"`, `""`, `20240229`} {
		var d Date
		require.Error(t, json.Unmarshal([]byte(bad), &d), bad)
	}
	require.Equal(t, "0007-01-02", Date{7, time.January, 2}.String())
	require.Equal(t, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), Date{2024, 2, 29}.In(time.UTC))
}
