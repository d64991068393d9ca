package golden

import (
	"flag"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/generator"
)

var update = flag.Bool("update", false, "rewrite golden/dynamodb from the spec and overlay")

const (
	spec    = "../specs/aws-dynamodb-2012-08-10.openapi.yaml"
	overlay = "../specs/dynamodb.overlay.yaml"
)

// generate runs the generator into a fresh temporary directory and returns
// the files it wrote.
func generate(t *testing.T) map[string][]byte {
	t.Helper()
	svc, _, err := generator.LoadService(spec, []string{overlay})
	require.NoError(t, err)
	files, err := generator.Generate(svc, "dynamodb")
	require.NoError(t, err)
	dir := t.TempDir()
	for _, f := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f.Name), f.Content, 0o644))
	}
	return readDir(t, dir)
}

func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	out := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		out[e.Name()] = b
	}
	return out
}

func TestGoldenDynamoDB(t *testing.T) {
	first, second := generate(t), generate(t)
	require.Equal(t, first, second, "two runs on the same spec must be byte-identical")
	if *update {
		require.NoError(t, os.RemoveAll("dynamodb"))
		require.NoError(t, os.Mkdir("dynamodb", 0o755))
		for name, b := range first {
			require.NoError(t, os.WriteFile(filepath.Join("dynamodb", name), b, 0o644))
		}
	}
	golden := readDir(t, "dynamodb")
	require.Equal(t, len(golden), len(first), "file set differs from golden/dynamodb; run go test ./golden/ -update")
	for name, want := range first {
		require.Equal(t, string(want), string(golden[name]), "%s differs from golden/dynamodb; run go test ./golden/ -update", name)
	}
}

// TestGoldenBuildsAndVets compiles and vets the checked-in client.
func TestGoldenBuildsAndVets(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	out, err := exec.Command("go", "vet", "./dynamodb/").CombinedOutput()
	require.NoError(t, err, "go vet ./golden/dynamodb/: %s", out)
}

// TestGoldenImports checks that generated code imports only the standard
// library and the runtime, and references the runtime's version constant.
func TestGoldenImports(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, "dynamodb", nil, parser.ImportsOnly)
	require.NoError(t, err)
	for _, f := range pkgs["dynamodb"].Files {
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			require.True(t, path == "github.com/retrygen/retrygen/runtime" || !strings.Contains(first, "."),
				"%s imports %s", fset.Position(imp.Pos()).Filename, path)
		}
	}
	client, err := os.ReadFile("dynamodb/client.go")
	require.NoError(t, err)
	require.Contains(t, string(client), "const _ = runtime.SupportsGeneratedCodeV1")
}
