package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// repoGoFiles returns the repository's non-test Go files under the given
// top-level directories, parsed with comments, keyed by slash path from the
// repository root.
func repoGoFiles(t *testing.T, dirs ...string) map[string]*ast.File {
	t.Helper()
	fset := token.NewFileSet()
	out := map[string]*ast.File{}
	for _, dir := range dirs {
		root := filepath.Join("..", dir)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel("..", path)
			out[filepath.ToSlash(rel)] = f
			return nil
		})
		require.NoError(t, err)
	}
	require.NotEmpty(t, out)
	return out
}

// TestNoCopiedRuleLiterals enforces one definition per rule: outside
// runtime/ (tests, golden/, specs/ and docs aside) no Go string literal is a
// built-in error code or a retry mode name; code that needs one uses the
// runtime's constant or asks the runtime (Service.CodeClass, Modes). The
// one exception is a fake server's wire data: the simulator's server answers
// with the codes a real service sends, which is a fact about the service,
// not a copy of a rule.
func TestNoCopiedRuleLiterals(t *testing.T) {
	wireData := map[string]bool{"cmd/retrygen-sim/server.go": true}
	aliyun := &runtime.Service{DefaultMode: runtime.ModeAliyun}
	isRule := func(s string) string {
		switch {
		case slices.Contains(runtime.Modes(), runtime.Mode(s)):
			return "the retry mode"
		case s != "" && aliyun.CodeClass(s) != engine.ClassNonRetryable:
			return "the built-in " + aliyun.CodeClass(s).String() + " code"
		}
		return ""
	}
	var found []string
	for path, f := range repoGoFiles(t, "cmd", "generator", "internal", "templates") {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err == nil && !(wireData[path] && aliyun.CodeClass(s) != engine.ClassNonRetryable) {
				if what := isRule(s); what != "" {
					found = append(found, path+": "+lit.Value+" is "+what+"; use the runtime's")
				}
			}
			return true
		})
	}
	slices.Sort(found)
	require.Empty(t, found)
}

// TestExportedNamesDocumented checks that every exported name of runtime/
// (subpackages included) and generator/ has a doc comment: functions,
// methods of exported types, types, and constants and variables (a comment
// on the spec, at its line's end, or on its group).
func TestExportedNamesDocumented(t *testing.T) {
	var missing []string
	for path, f := range repoGoFiles(t, "runtime", "generator") {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || d.Recv != nil && !ast.IsExported(receiverType(d.Recv.List[0].Type)) {
					continue
				}
				if d.Doc == nil {
					name := d.Name.Name
					if d.Recv != nil {
						name = receiverType(d.Recv.List[0].Type) + "." + name
					}
					missing = append(missing, path+": func "+name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() && s.Doc == nil && (d.Doc == nil || len(d.Specs) > 1) {
							missing = append(missing, path+": type "+s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() && s.Doc == nil && s.Comment == nil && d.Doc == nil {
								missing = append(missing, path+": "+d.Tok.String()+" "+n.Name)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(missing)
	require.Empty(t, missing, "exported names without a doc comment")
}

// receiverType returns the name of a method's receiver type.
func receiverType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverType(e.X)
	case *ast.IndexExpr:
		return receiverType(e.X)
	case *ast.IndexListExpr:
		return receiverType(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// TestCLIConvertsNoSettings checks that cmd/retrygen reads no field of the
// generator's model: the retry settings it runs come whole from
// LoadRetryService (the value the generated client holds), so it cannot
// keep a conversion of its own. Diagnostics, internal errors, JSON Schema
// findings and generated files are data the CLI prints and writes; their
// fields are allowed.
func TestCLIConvertsNoSettings(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Dir: "..", Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo},
		"./cmd/retrygen")
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	require.Empty(t, pkgs[0].Errors)
	p := pkgs[0]
	allowed := []string{"Diagnostic", "File", "InternalError", "SchemaFinding"}
	var found []string
	for sel, s := range p.TypesInfo.Selections {
		if s.Kind() != types.FieldVal {
			continue
		}
		recv := s.Recv()
		if ptr, ok := recv.(*types.Pointer); ok {
			recv = ptr.Elem()
		}
		named, ok := recv.(*types.Named)
		if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "github.com/retrygen/retrygen/generator" || slices.Contains(allowed, named.Obj().Name()) {
			continue
		}
		pos := p.Fset.Position(sel.Pos())
		found = append(found, filepath.Base(pos.Filename)+":"+strconv.Itoa(pos.Line)+": reads generator."+named.Obj().Name()+"."+s.Obj().Name())
	}
	slices.Sort(found)
	require.Empty(t, found)
}
