package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLinkPaginationOptIn: the Link-header heuristic pages GitHub-style list
// operations only when asked, by flag or by the config file's
// linkPagination; the flag overrides the file.
func TestLinkPaginationOptIn(t *testing.T) {
	spec, err := filepath.Abs("../../golden/testdata/pages.openapi.yaml")
	require.NoError(t, err)
	gen := func(args ...string) string {
		t.Helper()
		out := filepath.Join(t.TempDir(), "pages")
		var stdout, stderr bytes.Buffer
		code := runGenerate(append([]string{"-out", out, "-package", "pages"}, args...), &stdout, &stderr)
		require.Equal(t, 0, code, stderr.String())
		src, err := os.ReadFile(filepath.Join(out, "operations.go"))
		require.NoError(t, err)
		return string(src)
	}
	require.NotContains(t, gen("-spec", spec), "ListIssuesPages", "off by default")
	require.Contains(t, gen("-spec", spec, "-link-pagination"), "func (c *Client) ListIssuesPages(")

	cfg := filepath.Join(t.TempDir(), "retrygen.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("spec: "+spec+"\nlinkPagination: true\n"), 0o644))
	require.Contains(t, gen("-config", cfg), "func (c *Client) ListIssuesItems(")
	require.False(t, strings.Contains(gen("-config", cfg, "-link-pagination=false"), "ListIssuesPages"), "the flag overrides the file")
}
