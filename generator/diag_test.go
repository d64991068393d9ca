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
