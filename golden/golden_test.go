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

var update = flag.Bool("update", false, "rewrite the golden clients from their specs and overlays")

// goldenClient is one checked-in generated client: its directory (also its
// package name), spec and overlays.
type goldenClient struct {
	dir, spec string
	overlays  []string
	sel       *generator.Selection
}

var goldenClients = []goldenClient{
	{dir: "dynamodb", spec: "../specs/aws-dynamodb-2012-08-10.openapi.yaml", overlays: []string{"../specs/dynamodb.overlay.yaml"}},
	{dir: "ecs", spec: "../specs/ecs.openapi.yaml"},
	{dir: "kinesis", spec: "../specs/aws-kinesis-2013-12-02.openapi.yaml", overlays: []string{"../specs/kinesis.overlay.yaml"}},
	{dir: "sqs", spec: "../specs/aws-sqs-2012-11-05.openapi.yaml", overlays: []string{"../specs/sqs.overlay.yaml"}},
	{dir: "petstore", spec: "../specs/petstore-speakeasy.openapi.yaml"},
	{dir: "pages", spec: "testdata/pages.openapi.yaml", sel: &generator.Selection{LinkPagination: true}},
}

// generate runs the generator into a fresh temporary directory and returns
// the files it wrote.
func generate(t *testing.T, g goldenClient) map[string][]byte {
	t.Helper()
	svc, _, err := generator.LoadSelected(g.spec, g.overlays, g.sel)
	require.NoError(t, err)
	files, err := generator.Generate(svc, g.dir)
	require.NoError(t, err)
	dir := t.TempDir()
	writeFiles(t, dir, files)
	return readDir(t, dir)
}

// writeFiles writes generated files into dir, creating it first.
func writeFiles(t testing.TB, dir string, files []generator.File) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for _, f := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f.Name), f.Content, 0o644))
	}
}

// runGenerated writes the generated files into a temporary package inside
// the module (so it imports this module's runtime), adds test as the file
// named name, and runs `go test` there; the test fails with go's output.
func runGenerated(t *testing.T, files []generator.File, name string, test []byte) {
	t.Helper()
	dir, err := os.MkdirTemp(".", ".tmp-build-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	writeFiles(t, dir, files)
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), test, 0o644))
	out, err := exec.Command("go", "test", "-count=1", "./"+dir+"/").CombinedOutput()
	require.NoError(t, err, "%s", out)
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

func TestGolden(t *testing.T) {
	for _, g := range goldenClients {
		t.Run(g.dir, func(t *testing.T) {
			first, second := generate(t, g), generate(t, g)
			require.Equal(t, first, second, "two runs on the same spec must be byte-identical")
			if *update {
				require.NoError(t, os.RemoveAll(g.dir))
				require.NoError(t, os.Mkdir(g.dir, 0o755))
				for name, b := range first {
					require.NoError(t, os.WriteFile(filepath.Join(g.dir, name), b, 0o644))
				}
			}
			golden := readDir(t, g.dir)
			require.Equal(t, len(golden), len(first), "file set differs from golden/%s; run go test ./golden/ -update", g.dir)
			for name, want := range first {
				require.Equal(t, string(want), string(golden[name]), "%s differs from golden/%s; run go test ./golden/ -update", name, g.dir)
			}
		})
	}
}

// TestGoldenBuildsAndVets compiles and vets the checked-in clients.
func TestGoldenBuildsAndVets(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	for _, g := range append(goldenClients, goldenClient{dir: "dynamodblite"}) {
		out, err := exec.Command("go", "vet", "./"+g.dir+"/").CombinedOutput()
		require.NoError(t, err, "go vet ./golden/%s/: %s", g.dir, out)
	}
}

// TestGoldenImports checks that generated code imports only the standard
// library, the runtime and its wire-encoding package runtime/openapi, and
// references the runtime's version constant.
func TestGoldenImports(t *testing.T) {
	for _, g := range append(goldenClients, goldenClient{dir: "dynamodblite"}) {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, g.dir, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, f := range pkgs[g.dir].Files {
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				first, _, _ := strings.Cut(path, "/")
				require.True(t, path == "github.com/retrygen/retrygen/runtime" || path == "github.com/retrygen/retrygen/runtime/openapi" || !strings.Contains(first, "."),
					"%s imports %s", fset.Position(imp.Pos()).Filename, path)
			}
		}
		client, err := os.ReadFile(filepath.Join(g.dir, "client.go"))
		require.NoError(t, err)
		require.Contains(t, string(client), "const _ = runtime.SupportsGeneratedCodeV1")
	}
}
