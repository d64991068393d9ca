package generator

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
)

// directivePrefixes start the comment lines Go tools obey ("//go:embed",
// "//line f:1", "//export F", cgo's "//extern"): the generator writes none,
// so any in its output came from spec text.
var directivePrefixes = []string{"//go:", "//line ", "//export ", "//extern ", "//sys ", "//sysnb "}

// checkGenerated is the fuzz targets' oracle (issue 17 item 6): no line of
// any generated file is a build constraint (go/build/constraint: //go:build
// or // +build, anywhere) or a directive, and the files type-check as one
// package against the real runtime packages. It returns the first problem.
func checkGenerated(files []File) error {
	fset := token.NewFileSet()
	var afs []*ast.File
	for _, f := range files {
		for i, line := range strings.Split(string(f.Content), "\n") {
			l := strings.TrimLeft(line, " \t")
			if constraint.IsGoBuild(l) || constraint.IsPlusBuild(l) {
				return fmt.Errorf("%s:%d: build constraint %q", f.Name, i+1, line)
			}
			for _, p := range directivePrefixes {
				if strings.HasPrefix(l, p) {
					return fmt.Errorf("%s:%d: directive %q", f.Name, i+1, line)
				}
			}
		}
		if !strings.HasSuffix(f.Name, ".go") {
			continue
		}
		af, err := parser.ParseFile(fset, f.Name, f.Content, parser.ParseComments)
		if err != nil {
			return err
		}
		afs = append(afs, af)
	}
	conf := types.Config{Importer: typesImporter{}, Error: func(error) {}}
	if _, err := conf.Check("fuzz", fset, afs, nil); err != nil {
		return fmt.Errorf("type-check: %w", err)
	}
	return nil
}

// typesImporter imports packages from their type information, loaded once
// per path with golang.org/x/tools/go/packages (the runtime packages and
// their dependencies in one load) and cached for the test binary's life.
type typesImporter struct{}

var (
	importMu    sync.Mutex
	importCache = map[string]*types.Package{}
)

func (typesImporter) Import(path string) (*types.Package, error) {
	importMu.Lock()
	defer importMu.Unlock()
	if p := importCache[path]; p != nil {
		return p, nil
	}
	pats := []string{path}
	if len(importCache) == 0 {
		pats = append(pats, "github.com/retrygen/retrygen/runtime", "github.com/retrygen/retrygen/runtime/openapi",
			"encoding/json", "encoding/xml", "net/http", "net/url", "context", "io", "time", "fmt", "strings", "bytes", "strconv", "errors")
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps}, pats...)
	if err != nil {
		return nil, err
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types != nil && importCache[p.PkgPath] == nil {
			importCache[p.PkgPath] = p.Types
		}
	})
	if p := importCache[path]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("cannot import %q", path)
}

// A "+build" line in a description, alone or wrapped inside prose, and
// "//go:", "//line" or "//export" text never become a directive or build
// constraint, and the client still type-checks.
func TestNoSpecTextBecomesADirective(t *testing.T) {
	long := strings.Repeat("word ", 17) + "use +build ignore to skip it"
	svc, _, err := loadSpecText(t, "", `openapi: 3.0.3
info:
  title: T
  version: '1'
  description: |
    +build ignore

    `+long+`

    //go:generate rm -rf /
    //line evil.go:1
    //export F
    * +build linux
paths:
  /x:
    get:
      operationId: x
      description: "+build ignore"
      responses: {'200': {description: ok}}
`)
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(svc, "p")
	if err != nil {
		t.Fatal(err)
	}
	if err := checkGenerated(files); err != nil {
		t.Fatal(err)
	}
	var client string
	for _, f := range files {
		if f.Name == "client.go" {
			client = string(f.Content)
		}
	}
	for _, want := range []string{
		"// \\+build ignore\n//\n",
		"// word word word word word word word word word word word word word word word word word use +build\n// ignore to skip it\n",
		"//\t//go:generate rm -rf / //line evil.go:1 //export F\n", // gofmt: indented, so a code block
		"//\t - +build linux\n",
	} {
		if !strings.Contains(client, want) {
			t.Errorf("client.go lacks %q:\n%s", want, client[:min(len(client), 1500)])
		}
	}
}
