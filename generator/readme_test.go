package generator

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadmeMapNamesRealFiles keeps the README's "Where things are" map
// true: every Go file (or pattern such as build_*.go) it names exists in
// runtime/, runtime/engine/ or generator/ (a path with a slash: from the
// repository root or runtime/), except the files of a generated package.
func TestReadmeMapNamesRealFiles(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(b), "\n## Where things are\n")
	require.True(t, ok, "README.md has a \"Where things are\" section")
	section, _, _ = strings.Cut(section, "\n## ")
	names := regexp.MustCompile("`([a-z0-9_*/-]+\\.go)`").FindAllStringSubmatch(section, -1)
	require.NotEmpty(t, names)
	generated := map[string]bool{"client.go": true, "operations.go": true, "types.go": true, "errors.go": true}
	for _, m := range names {
		if generated[m[1]] {
			continue
		}
		var found []string
		dirs := []string{"../runtime", "../runtime/engine", "."}
		if strings.Contains(m[1], "/") {
			dirs = []string{"..", "../runtime"}
		}
		for _, dir := range dirs {
			matches, err := filepath.Glob(filepath.Join(dir, m[1]))
			require.NoError(t, err)
			found = append(found, matches...)
		}
		require.NotEmpty(t, found, "README.md's map names %s, which is in none of runtime/, runtime/engine/, generator/", m[1])
	}
}
