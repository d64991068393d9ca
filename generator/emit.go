package generator

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/templates"
)

// runtimePath is the import path of the runtime generated code calls.
const runtimePath = "github.com/retrygen/retrygen/runtime"

// openapiPath is the import path of the OpenAPI wire encoding generated code
// calls (parameters, bodies, credentials, server URLs, timestamps, unions).
const openapiPath = "github.com/retrygen/retrygen/runtime/openapi"

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
	defer specDocs.begin()() // each spec text's doc lines made once (specDocLines)
	emitters := []struct {
		name string
		emit func(*jen.File, *Service) error
	}{
		{"client.go", func(f *jen.File, svc *Service) error { return emitClient(f, svc, pkg) }},
		{"errors.go", func(f *jen.File, svc *Service) error { emitErrors(f, svc); return nil }},
		{"operations.go", emitOperations},
		{"types.go", nil}, // in pieces, below
	}
	// The files are rendered one after another, each file's syntax tree
	// (jennifer's statements, then go/format's AST) dropped before the next
	// is built: rendering them concurrently held all four at once, most of
	// the generator's peak memory on large specs (issue 24: Stripe's
	// types.go alone is a quarter of a million lines).
	out := make([]File, len(emitters))
	for i, e := range emitters {
		var content []byte
		var err error
		if e.emit != nil {
			content, err = emitFile(svc, pkg, e.name, e.emit)
		} else {
			content, err = emitTypesFile(svc, pkg)
		}
		if err != nil {
			return nil, err
		}
		out[i] = File{Name: e.name, Content: content}
	}
	return out, nil
}

// emitFile builds and renders one file of the package.
func emitFile(svc *Service, pkg, name string, emit func(*jen.File, *Service) error) ([]byte, error) {
	f := jen.NewFile(pkg)
	f.ImportName(runtimePath, "runtime")
	f.ImportName(openapiPath, "openapi")
	if err := header(f, svc); err != nil {
		return nil, err
	}
	if err := emit(f, svc); err != nil {
		return nil, err
	}
	return render(f, name)
}

// emitTypesFile renders types.go in pieces (see pieces).
func emitTypesFile(svc *Service, pkg string) ([]byte, error) {
	p := newPieces(pkg, "types.go")
	emitTypes(p, svc)
	return p.render(svc, func() ([]byte, error) {
		return emitFile(svc, pkg, "types.go", func(f *jen.File, svc *Service) error {
			emitTypes(&pieces{f: f}, svc) // one piece: f
			return nil
		})
	})
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

// render renders f and formats it with go/format: one parse and one print
// (imports.Process, which this replaced, parses and prints twice; that
// was a quarter of the time on large specs). jennifer's own formatting is
// off. Its single import block is split first into the standard library,
// a blank line, then the rest, as goimports groups them.
func render(f *jen.File, name string) ([]byte, error) {
	f.NoFormat = true
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", name, err)
	}
	src, err := format.Source(groupImports(buf.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("formatting %s: %w", name, err)
	}
	return src, nil
}

// groupImports puts a blank line between the standard-library imports and
// the others in src's first "import (" block (jennifer sorts the paths).
func groupImports(src []byte) []byte {
	start := bytes.Index(src, []byte("\nimport (\n"))
	if start < 0 {
		return src
	}
	start += len("\nimport (\n")
	end := bytes.Index(src[start:], []byte("\n)"))
	if end < 0 {
		return src
	}
	end += start
	var std, other [][]byte
	for _, line := range bytes.Split(src[start:end], []byte("\n")) {
		spec := bytes.TrimSpace(line)
		if len(spec) == 0 {
			continue
		}
		path := spec[bytes.IndexByte(spec, '"')+1:]
		if first, _, _ := bytes.Cut(path, []byte("/")); bytes.Contains(first, []byte(".")) {
			other = append(other, spec)
		} else {
			std = append(std, spec)
		}
	}
	var out bytes.Buffer
	out.Grow(len(src) + 1)
	out.Write(src[:start])
	out.Write(bytes.Join(std, []byte("\n")))
	if len(std) > 0 && len(other) > 0 {
		out.WriteString("\n\n")
	}
	out.Write(bytes.Join(other, []byte("\n")))
	out.Write(src[end:])
	return out.Bytes()
}

// joinedEqual reports whether lines joined by spaces are s, without
// joining them.
func joinedEqual(lines []string, s string) bool {
	for i, l := range lines {
		if i > 0 {
			if s == "" || s[0] != ' ' {
				return false
			}
			s = s[1:]
		}
		if !strings.HasPrefix(s, l) {
			return false
		}
		s = s[len(l):]
	}
	return s == ""
}

// docComment returns a doc comment built like a hand-written SDK's: the
// spec's own text first (spec: summary, then description; empty and
// repeated texts left out), then the generator's notes (one paragraph each;
// the first names the declaration, so it leads when the spec says nothing),
// and last "Source: #POINTER", the JSON pointer of what the declaration is
// generated from (omitted when source is ""), continuing the paragraph
// before it (notesAfter); then the Go doc link
// definitions of the spec text's links ("[text]: url"). Spec text passes
// through docText and commentLines, notes through commentLines; the pointer is fragment-encoded, so no line can end
// the comment.
func docComment(spec, notes []string, source string) *jen.Statement {
	return docStatement(docLines(spec, notes, source))
}

// docStatement is the comment of lines, one line each.
func docStatement(lines []string) *jen.Statement {
	if len(lines) == 0 {
		return &jen.Statement{}
	}
	s := jen.Comment(lines[0])
	for _, l := range lines[1:] {
		s.Line().Comment(l)
	}
	return s
}

// docLines is docComment's lines, one per comment line (without "// ").
func docLines(spec, notes []string, source string) []string {
	var paras [][]string
	var defs []string
	// seen holds the texts (their lines joined) and the definitions so
	// far, once a second text has lines; with one, only its definitions
	// can repeat it.
	var seen map[string]bool
	for _, text := range spec {
		lines, ds := specDocLines(text)
		if len(lines) == 0 {
			continue
		}
		if len(paras) == 0 {
			paras = append(paras, lines)
			for _, d := range ds { // distinct: one per link text (docText)
				if !joinedEqual(lines, d) {
					defs = append(defs, d)
				}
			}
			continue
		}
		if seen == nil {
			seen = map[string]bool{strings.Join(paras[0], " "): true}
			for _, d := range defs {
				seen[d] = true
			}
		}
		key := strings.Join(lines, " ")
		if seen[key] {
			continue
		}
		seen[key] = true
		paras = append(paras, lines)
		for _, d := range ds {
			if !seen[d] {
				seen[d] = true
				defs = append(defs, d)
			}
		}
	}
	for _, n := range notes {
		if lines := commentLines(n); len(lines) > 0 {
			paras = append(paras, lines)
		}
	}
	var lines []string
	for i, p := range paras {
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, p...)
	}
	// The Source line continues the paragraph before it (notesAfter)
	// instead of opening one: a blank comment line per declaration was
	// thousands of lines in a client (issue 24).
	if source != "" {
		lines = notesAfter(lines, "Source: #"+fragment(source))
	}
	return withDefs(lines, defs) // Go doc link definitions end the comment
}
