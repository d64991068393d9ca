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
// (non-test files), and runtime/internal/querymark and exactjson that
// runtime and openapi share, import only the standard library, except that
// runtime imports runtime/engine (the state machine's vocabulary) and
// runtime and openapi import querymark (the query separator mark's one
// definition) and exactjson (exact member names, one rule), and all three
// import httpsyntax (tokens and digits, one rule each); openapi imports
// neither runtime nor engine, and engine, querymark, exactjson and
// httpsyntax import no other package of the module but httpsyntax.
func TestImportsOnlyStandardLibrary(t *testing.T) {
	const engine = "github.com/retrygen/retrygen/runtime/engine"
	const querymark = "github.com/retrygen/retrygen/runtime/internal/querymark"
	const exactjson = "github.com/retrygen/retrygen/runtime/internal/exactjson"
	const httpsyntax = "github.com/retrygen/retrygen/runtime/internal/httpsyntax"
	for _, dir := range []string{".", "..", "../engine", "../internal/querymark", "../internal/exactjson", "../internal/httpsyntax"} {
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
				if dir == ".." && path == engine || (dir == "." || dir == "..") && (path == querymark || path == exactjson) || path == httpsyntax && dir != "../internal/httpsyntax" {
					continue
				}
				first, _, _ := strings.Cut(path, "/")
				require.False(t, strings.Contains(first, "."), "%s imports %s", name, path)
			}
		}
	}
}
