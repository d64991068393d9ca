package generator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// directivePrefixes start the comment lines Go tools obey ("//go:embed",
// "//line f:1", "//export F", cgo's "//extern"): the generator writes none
// but generatorDirective's, so any other in its output came from spec text.
var directivePrefixes = []string{"//go:", "//line ", "//export ", "//extern ", "//sys ", "//sysnb "}

// generatorDirective reports whether lines[i] of file name is one of the
// directives the generator itself writes: "//go:noinline" right before
// client.go's callJSON (issue 24), never from spec text.
func generatorDirective(name string, lines []string, i int) bool {
	if name != "client.go" || lines[i] != "//go:noinline" || i+1 == len(lines) {
		return false
	}
	next := lines[i+1]
	return strings.HasPrefix(next, "func (c *Client) callJSON(")
}

// checkGenerated is the fuzz targets' oracle (issue 17 item 6): no line of
// any generated file is a build constraint (go/build/constraint: //go:build
// or // +build, anywhere) or a directive, no comment is a /* */ block (spec
// text that could close it), and the files type-check as one
// package against the real runtime packages. It returns the first problem.
func checkGenerated(files []File) error {
	fset := token.NewFileSet()
	var afs []*ast.File
	for _, f := range files {
		lines := strings.Split(string(f.Content), "\n")
		for i, line := range lines {
			l := strings.TrimLeft(line, " \t")
			if generatorDirective(f.Name, lines, i) {
				continue
			}
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
		for _, cg := range af.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "/*") {
					// Generated comments are line comments: a block
					// comment holds multi-line spec text, which a "*/"
					// in it could end, turning the rest into code.
					return fmt.Errorf("%s: block comment %q", fset.Position(c.Pos()), c.Text)
				}
			}
		}
		afs = append(afs, af)
	}
	conf := types.Config{Importer: typesImporter{}, Error: func(error) {}}
	if _, err := conf.Check("fuzz", fset, afs, nil); err != nil {
		return fmt.Errorf("type-check: %w", err)
	}
	return nil
}

// typesImporter imports packages from their compiler export data, which
// `go list -export -deps` lists (the runtime packages and their
// dependencies in one run), read by go/importer and cached for the test
// binary's life. (golang.org/x/tools/go/packages was used before: inside a
// fuzzing worker process it ended the process, exit status 2, with no
// output, so -fuzz could not run.)
type typesImporter struct{}

var (
	importMu    sync.Mutex
	exportFiles = map[string]string{} // import path → export data file
	gcImporter  types.Importer
)

func (typesImporter) Import(path string) (*types.Package, error) {
	importMu.Lock()
	defer importMu.Unlock()
	if _, ok := exportFiles[path]; !ok {
		pats := []string{path}
		if len(exportFiles) == 0 {
			pats = append(pats, "github.com/retrygen/retrygen/runtime", "github.com/retrygen/retrygen/runtime/openapi",
				"encoding/json", "encoding/xml", "net/http", "net/url", "context", "io", "time", "fmt", "strings", "bytes", "strconv", "errors")
		}
		if err := listExports(pats); err != nil {
			return nil, err
		}
	}
	if gcImporter == nil {
		gcImporter = importer.ForCompiler(token.NewFileSet(), "gc", func(p string) (io.ReadCloser, error) {
			f, ok := exportFiles[p]
			if !ok || f == "" {
				return nil, fmt.Errorf("no export data for %q", p)
			}
			return os.Open(f)
		})
	}
	return gcImporter.Import(path)
}

// listExports records the export data files of pats and their
// dependencies.
func listExports(pats []string) error {
	cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-json=ImportPath,Export"}, pats...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list -export: %v: %s", err, stderr.String())
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err != nil {
			return err
		}
		exportFiles[p.ImportPath] = p.Export
	}
	return nil
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
