package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPointer(t *testing.T) {
	tests := []struct {
		name   string
		tokens []string
		want   string
	}{
		{"RFC 6901 §3: plain tokens joined by slashes", []string{"components", "schemas", "Pet"}, "/components/schemas/Pet"},
		{"RFC 6901 §3: slash escaped as ~1", []string{"paths", "/pets/{id}", "get"}, "/paths/~1pets~1{id}/get"},
		{"RFC 6901 §3: tilde escaped as ~0 before slashes", []string{"a~/b"}, "/a~0~1b"},
		{"empty token", []string{""}, "/"},
		{"no tokens is the whole document", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, pointer(tt.tokens...))
		})
	}
}

// TestSplitPointerUndoesPointer checks that splitPointer (RFC 6901 §4)
// returns the tokens pointer escaped, "~01" being "~1" and not "/".
func TestSplitPointerUndoesPointer(t *testing.T) {
	for _, toks := range [][]string{{"paths", "/pets/{id}", "get"}, {"a~/b", "~1", ""}, {"components", "schemas", "Pet"}} {
		require.Equal(t, toks, splitPointer(pointer(toks...)), pointer(toks...))
	}
	require.Equal(t, []string{"~1"}, splitPointer("/~01"))
	require.Nil(t, splitPointer(""))
	require.Equal(t, "b/c", refName("#/components/schemas/b~1c"))
}

// TestUnescapeFragment checks the percent-decoding of a $ref's fragment
// (RFC 3986 §2.1) and that a fragment without "%" is left to the caller.
func TestUnescapeFragment(t *testing.T) {
	got, ok := unescapeFragment("/paths/~1d~1%7Bid%7D/get")
	require.True(t, ok)
	require.Equal(t, "/paths/~1d~1{id}/get", got)
	got, ok = unescapeFragment("/components/schemas/Caf%C3%A9")
	require.True(t, ok)
	require.Equal(t, "/components/schemas/Café", got)
	_, ok = unescapeFragment("/paths/~1d/get")
	require.False(t, ok)
}
