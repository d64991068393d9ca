package generator

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

var updateHostile = flag.Bool("update", false, "rewrite testdata/hostile/*.names and *.diags")

// TestHostileCorpus generates every spec of testdata/hostile (issue 5, "What
// must be shown" 3): each must load, and its client must declare exactly the
// top-level names of NAME.names, report exactly the diagnostics of
// NAME.diags, hold no character spec text could smuggle in, and build and
// vet (one go vet and one go test over all packages; go test runs the
// behaviour tests of NAME_test.go, copied into the package when present:
// round trips of additional properties and unions, null for a required
// nullable field). The one refusal, an allOf cycle, must fail with the
// located error of its .diags and have no .names.
func TestHostileCorpus(t *testing.T) {
	specs, err := filepath.Glob("testdata/hostile/*.yaml")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(specs), 30)
	tmp, err := os.MkdirTemp(".", ".tmp-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(tmp) })
	var pkgs []string
	for _, spec := range specs {
		name := strings.TrimSuffix(filepath.Base(spec), ".yaml")
		svc, diags, err := LoadService(spec, nil)
		checkGolden(t, strings.TrimSuffix(spec, ".yaml")+".diags", diagLines(diags))
		namesFile := strings.TrimSuffix(spec, ".yaml") + ".names"
		if err != nil {
			require.Equal(t, "schema-allof-cycle", name, "only the allOf cycle may fail: %v", err)
			require.NoFileExists(t, namesFile)
			continue
		}
		pkg := strings.ReplaceAll(name, "-", "")
		files, err := Generate(svc, pkg)
		require.NoError(t, err, name)
		dir := filepath.Join(tmp, pkg)
		require.NoError(t, os.Mkdir(dir, 0o755))
		for _, f := range files {
			require.NoError(t, os.WriteFile(filepath.Join(dir, f.Name), f.Content, 0o644))
			requireSafeSource(t, name+"/"+f.Name, f.Content)
		}
		checkGolden(t, namesFile, topLevelNames(t, files))
		pkgs = append(pkgs, "./"+filepath.ToSlash(dir))
		if test, err := os.ReadFile(strings.TrimSuffix(spec, ".yaml") + "_test.go"); err == nil {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name+"_test.go"), test, 0o644))
		}
	}
	if testing.Short() {
		t.Skip("go build and go vet of the generated packages")
	}
	for _, tool := range [][]string{{"vet"}, {"test", "-count=1"}} {
		out, err := exec.Command("go", append(tool, pkgs...)...).CombinedOutput()
		require.NoError(t, err, "go %s: %s", tool[0], out)
	}
}

// requireSafeSource fails when generated source holds a character spec
// text could smuggle in: invalid UTF-8, a carriage return, NUL or another
// control character than tab and newline, a Unicode line or paragraph
// separator, NEL, a byte order mark or a bidirectional control.
func requireSafeSource(t *testing.T, name string, src []byte) {
	t.Helper()
	require.True(t, utf8.Valid(src), "%s: invalid UTF-8", name)
	for i, r := range string(src) {
		bad := unicode.IsControl(r) && r != '\t' && r != '\n' || unicode.Is(unicode.Cf, r) ||
			r == '\u2028' || r == '\u2029'
		require.False(t, bad, "%s: byte %d is %U", name, i, r)
	}
}

// diagLines renders diagnostics as "spec.yaml#/pointer: message" lines,
// errors prefixed "error: ".
func diagLines(ds []Diagnostic) []string {
	var out []string
	for _, d := range ds {
		d.File = filepath.Base(d.File)
		line := d.String()
		if d.Severity == SeverityError {
			line = "error: " + line
		}
		out = append(out, line)
	}
	return out
}

// topLevelNames lists the package-level declarations of the generated files
// as "kind name" lines (type, func, const, var; methods and "_" left out),
// sorted.
func topLevelNames(t *testing.T, files []File) []string {
	fset := token.NewFileSet()
	var out []string
	for _, f := range files {
		af, err := parser.ParseFile(fset, f.Name, f.Content, 0)
		require.NoError(t, err, "%s:\n%s", f.Name, f.Content)
		for _, decl := range af.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					out = append(out, "func "+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						out = append(out, "type "+s.Name.Name)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.Name != "_" {
								out = append(out, d.Tok.String()+" "+n.Name)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// checkGolden compares lines with the file (one per line), rewriting it
// under -update; an empty list means the file must not exist.
func checkGolden(t *testing.T, path string, lines []string) {
	t.Helper()
	text := ""
	if len(lines) > 0 {
		text = strings.Join(lines, "\n") + "\n"
	}
	if *updateHostile {
		if text == "" {
			require.NoError(t, os.RemoveAll(path))
			return
		}
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	want, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		want, err = nil, nil
	}
	require.NoError(t, err)
	require.Equal(t, string(want), text, "%s differs; run go test ./generator/ -run Hostile -update", path)
}
