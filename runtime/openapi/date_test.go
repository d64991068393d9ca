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

// A date of the right shape that does not exist says so, not that the
// shape is wrong (newuser.md item 15).
func TestParseDateSaysWhatIsWrong(t *testing.T) {
	for s, want := range map[string]string{
		"2024-02-30": `openapi: date "2024-02-30" does not exist (day out of range)`,
		"2023-13-01": `openapi: date "2023-13-01" does not exist (month out of range)`,
		"2024-2-3":   `openapi: date "2024-2-3" is not YYYY-MM-DD`,
		"24-02-03":   `openapi: date "24-02-03" is not YYYY-MM-DD`,
	} {
		_, err := ParseDate(s)
		require.EqualError(t, err, want, s)
	}
}
