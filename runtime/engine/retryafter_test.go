package engine

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestParseRetryAfter checks RFC 9110 Retry-After: delta-seconds, the three
// HTTP-date forms, past dates and overflow (retry-behavior.md §5).
func TestParseRetryAfter(t *testing.T) {
	now := time.Date(1994, time.November, 6, 8, 49, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, value string
		want        time.Duration
		ok          bool
	}{
		{"delta-seconds", "120", 120 * time.Second, true},
		{"delta-seconds zero", "0", 0, true},
		{"delta-seconds with surrounding space", " 7 ", 7 * time.Second, true},
		{"IMF-fixdate (RFC 1123)", "Sun, 06 Nov 1994 08:49:37 GMT", 37 * time.Second, true},
		{"RFC 850 date", "Sunday, 06-Nov-94 08:49:37 GMT", 37 * time.Second, true},
		{"asctime date", "Sun Nov  6 08:49:37 1994", 37 * time.Second, true},
		{"past date is 0", "Sun, 06 Nov 1994 08:48:00 GMT", 0, true},
		{"date equal to now is 0", "Sun, 06 Nov 1994 08:49:00 GMT", 0, true},
		{"delta just past the largest Duration is too long", "9223372037", math.MaxInt64, true},
		{"delta overflowing int64 is too long", "99999999999999999999", math.MaxInt64, true},
		{"largest delta that fits", "9223372036", 9223372036 * time.Second, true},
		{"empty is absent", "", 0, false},
		{"negative is malformed", "-1", 0, false},
		{"fraction is malformed", "1.5", 0, false},
		{"garbage is malformed", "soon", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, ok := parseRetryAfter(tc.value, func() time.Time { return now })
			require.Equal(t, tc.ok, ok)
			require.Equal(t, tc.want, d)
			require.GreaterOrEqual(t, d, time.Duration(0), "never negative")
		})
	}
}
