package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLoadRefusesUnsupportedVersions(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"Swagger 2.0", "swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {}\n",
			"#/swagger: Swagger 2.0 is not supported; convert the spec to OpenAPI 3 first"},
		{"OpenAPI 4", "openapi: 4.0.0\ninfo: {title: T, version: '1'}\npaths: {}\n",
			`#/openapi: version "4.0.0" is not supported (3.0.x and 3.1.x are)`},
		{"no version", "info: {title: T, version: '1'}\npaths: {}\n",
			"#/openapi: missing: not an OpenAPI 3 document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := load(t, tt.doc)
			require.Error(t, err)
			require.True(t, strings.HasSuffix(err.Error(), tt.want), "got %q", err)
		})
	}
}

func TestLoadErrorsNameTheOverlays(t *testing.T) {
	spec := writeSpec(t, specWith("", ""))
	overlay := filepath.Join(t.TempDir(), "retry.overlay.yaml")
	require.NoError(t, os.WriteFile(overlay, []byte(`overlay: 1.0.0
info: {title: t, version: 1.0.0}
actions:
  - target: $
    update: {x-retry: {version: 1, maxAttempts: 0}}
`), 0o644))
	_, ds, err := LoadService(spec, []string{overlay})
	require.Error(t, err)
	require.Len(t, ds, 1)
	require.Equal(t, `must be an integer ≥ 1, got "0" (set by overlay retry.overlay.yaml)`, ds[0].Message)
	require.Equal(t, "/x-retry/maxAttempts", ds[0].Pointer)
}

func TestValidPackageNameRefusesMain(t *testing.T) {
	require.False(t, ValidPackageName("main"), "a client is a library")
	require.False(t, ValidPackageName("my-pkg"))
	require.False(t, ValidPackageName("type"))
	require.False(t, ValidPackageName("init"), "init names init functions")
	require.False(t, ValidPackageName("_"))
	require.True(t, ValidPackageName("dynamodb"))
}
