package openapi

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestImportsOnlyStandardLibrary checks the house rule for the packages
// generated code imports: runtime, runtime/openapi and runtime/engine
// (non-test files) import only the standard library, except that runtime
// imports runtime/engine (the state machine's vocabulary); openapi imports
// neither, and engine does not import runtime.
func TestImportsOnlyStandardLibrary(t *testing.T) {
	const engine = "github.com/retrygen/retrygen/runtime/engine"
	for _, dir := range []string{".", "..", "../engine"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files)
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
			require.NoError(t, err)
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if dir == ".." && path == engine {
					continue
				}
				first, _, _ := strings.Cut(path, "/")
				require.False(t, strings.Contains(first, "."), "%s imports %s", name, path)
			}
		}
	}
}
