package openapi

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestEpochSecondsJSON(t *testing.T) {
	tests := []struct {
		name string
		json string
		want time.Time
		err  string
	}{
		{"fraction is kept to the millisecond", "1421866952.062", time.UnixMilli(1421866952062).UTC(), ""},
		{"integer seconds", "1421866952", time.Unix(1421866952, 0).UTC(), ""},
		{"null leaves the zero time", "null", time.Time{}, ""},
		{"a string is rejected", `"2015-01-21"`, time.Time{}, `epoch seconds: invalid value "2015-01-21"`},
		{"an absurd number is rejected", "1e300", time.Time{}, "epoch seconds: invalid value 1e300"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got EpochSeconds
			err := json.Unmarshal([]byte(tt.json), &got)
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			require.True(t, tt.want.Equal(got.Time), "got %v", got.Time)
		})
	}
	b, err := json.Marshal(EpochSeconds{time.UnixMilli(1421866952062)})
	require.NoError(t, err)
	require.Equal(t, "1421866952.062", string(b))
}
