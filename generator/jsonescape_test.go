package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDecodeSurrogatePairs(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"a pair becomes the UTF-8 character", `"\ud83d\udc4d"`, `"👍"`},
		{"upper-case hex digits", `"\uD83D\uDC4D"`, `"👍"`},
		{"pairs next to each other and to text", `"a\ud83d\udc4d\ud83d\ude00b"`, `"a👍😀b"`},
		{"an escaped backslash before the pair leaves it decoded", `"\\\ud83d\udc4d"`, `"\\👍"`},
		{"an escaped backslash is not an escape", `"\\ud83d\udc4d"`, `"\\ud83d\udc4d"`},
		{"a lone high surrogate is left alone", `"\ud83d x"`, `"\ud83d x"`},
		{"low then high is not a pair", `"\udc4d\ud83d"`, `"\udc4d\ud83d"`},
		{"a non-surrogate escape is left alone", `"\u00e9\u0041"`, `"\u00e9\u0041"`},
		{"a truncated pair at the end is left alone", `"\ud83d\udc4`, `"\ud83d\udc4`},
		{"a trailing backslash", `\`, `\`},
		{"no escapes", `{"a": 1}`, `{"a": 1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, string(decodeSurrogatePairs([]byte(tt.in))))
		})
	}
}
