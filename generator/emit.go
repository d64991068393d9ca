package generator

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/imports"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/templates"
)

// runtimePath is the import path of the runtime generated code calls.
const runtimePath = "github.com/retrygen/retrygen/runtime"

// File is one generated Go file.
type File struct {
	// Name is the file's base name ("client.go").
	Name string
	// Content is the formatted source; it starts with
	// templates.GeneratedLine.
	Content []byte
}

// Generate renders svc as the Go package pkg: client.go, operations.go,
// types.go and errors.go, sorted by name. The output depends only on svc and
// pkg (byte-identical on every run and machine). It returns an error when pkg
// is not a valid package name or rendering fails (a generator bug).
func Generate(svc *Service, pkg string) ([]File, error) {
	if !ValidPackageName(pkg) {
		return nil, fmt.Errorf("invalid package name %q", pkg)
	}
	emitters := []struct {
		name string
		emit func(*jen.File, *Service)
	}{
		{"client.go", func(f *jen.File, svc *Service) { emitClient(f, svc, pkg) }},
		{"errors.go", emitErrors},
		{"operations.go", emitOperations},
		{"types.go", emitTypes},
	}
	// The files are rendered concurrently (each only reads svc); formatting
	// is most of the time on large specs.
	out := make([]File, len(emitters))
	errs := make([]error, len(emitters))
	var wg sync.WaitGroup
	for i, e := range emitters {
		wg.Go(func() {
			f := jen.NewFile(pkg)
			f.ImportName(runtimePath, "runtime")
			if errs[i] = header(f, svc); errs[i] != nil {
				return
			}
			e.emit(f, svc)
			out[i] = File{Name: e.name}
			out[i].Content, errs[i] = render(f, e.name)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// header adds the templates.Header comment block; spec text in it (title,
// file names) is reduced to one plain line each.
func header(f *jen.File, svc *Service) error {
	d := templates.HeaderData{Version: runtime.Version, SpecFile: oneLine(svc.SpecFile), Title: oneLine(svc.Title)}
	for _, o := range svc.Overlays {
		d.Overlays = append(d.Overlays, oneLine(o))
	}
	lines, err := templates.RenderHeader(d)
	if err != nil {
		return err
	}
	for _, l := range lines {
		f.HeaderComment(l)
	}
	return nil
}

// oneLine reduces spec text to a single comment-safe line.
func oneLine(s string) string {
	return strings.Join(commentLines(s), " ")
}

// render renders f and formats it with imports.Process (FormatOnly: no
// import resolution, so the result does not depend on the machine).
// jennifer's own formatting is off: imports.Process formats the same source
// again, and each pass costs a parse and a print.
func render(f *jen.File, name string) ([]byte, error) {
	f.NoFormat = true
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", name, err)
	}
	src, err := imports.Process(name, buf.Bytes(), &imports.Options{FormatOnly: true, Comments: true, TabIndent: true, TabWidth: 8})
	if err != nil {
		return nil, fmt.Errorf("formatting %s: %w", name, err)
	}
	return src, nil
}

// docComment returns doc comment lines: first, then the description's
// lines after an empty line.
func docComment(first, desc string) *jen.Statement {
	s := jen.Comment(first)
	if lines := commentLines(desc); len(lines) > 0 {
		s.Line().Comment("")
		for _, l := range lines {
			s.Line().Comment(l)
		}
	}
	return s
}
