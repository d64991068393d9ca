package generator

import (
	"bytes"
	"fmt"
	"go/format"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// piecesOf is how many top-level declarations (types, with their methods)
// one piece of a file rendered by pieces holds: small enough that a piece's
// syntax trees are a few MiB on the largest specs, large enough that the
// per-piece work (a jen.File, one go/format call) is noise.
const piecesOf = 100

// pieces renders one file of the package a few declarations at a time
// (issue 24: Stripe's types.go is a quarter of a million lines, and its
// jennifer statements, their text and go/format's syntax tree of it were,
// all at once, the generator's peak memory). An emitter asks for the
// jen.File to add each declaration to (next); every piecesOf
// declarations, the piece is rendered, formatted on its own and dropped.
// The file is then the header, the package clause, the union of the
// pieces' imports and the formatted pieces in order, byte for byte what
// formatting the whole file at once gives: go/format formats each
// top-level declaration on its own, and the pieces are cut between
// declarations (which emitters separate by a blank line).
type pieces struct {
	pkg, name string
	// per is how many declarations a piece holds (0: all of them, one
	// piece).
	per int
	f   *jen.File // the piece being built (nil: none yet)
	n   int       // declarations begun in f
	// imports holds each import line of the pieces (`"path"` or
	// `alias "path"`), by path; clash is set when two pieces import a
	// path under different names, or two paths under one (then the file is
	// rendered whole: see render).
	imports map[string]string
	clash   bool
	body    [][]byte // the formatted pieces so far, each after a blank line
	size    int      // their length
	err     error
	// direct holds the declarations printed without jennifer and
	// go/format (appendStructDecl) in the piece being built, in order:
	// each stands at a placeholder (directName) until it is formatted.
	direct [][]byte
}

// newPieces starts file name of package pkg.
func newPieces(pkg, name string) *pieces {
	return &pieces{pkg: pkg, name: name, per: piecesOf, imports: map[string]string{}}
}

// next returns the jen.File the emitter adds its next top-level
// declaration to, rendering the piece built so far once it holds
// piecesOf declarations.
func (p *pieces) next() *jen.File {
	if p.f != nil && p.per > 0 && p.n >= p.per {
		p.flush()
	}
	if p.f == nil {
		p.f = jen.NewFile(p.pkg)
		p.f.ImportName(runtimePath, "runtime")
		p.f.ImportName(openapiPath, "openapi")
		p.f.NoFormat = true
		p.n = 0
	}
	p.n++
	return p.f
}

// flush renders the piece being built, formats it and appends it to body.
func (p *pieces) flush() {
	f := p.f
	p.f = nil
	if f == nil || p.err != nil {
		return
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		p.err = fmt.Errorf("rendering %s: %w", p.name, err)
		return
	}
	clause := "package " + p.pkg + "\n\n"
	src, ok := bytes.CutPrefix(buf.Bytes(), []byte(clause))
	if !ok {
		p.err = fmt.Errorf("rendering %s: a piece does not start with %q", p.name, clause)
		return
	}
	lines, body := splitImports(src)
	for _, l := range lines {
		q := strings.IndexByte(l, '"')
		if q < 0 { // not an import line as jennifer writes them: render whole
			p.clash = true
			continue
		}
		path := l[q:]
		if old, seen := p.imports[path]; seen && old != l {
			p.clash = true
		}
		p.imports[path] = l
	}
	// The piece alone, after a package clause: its declarations format
	// as they do in the file.
	out, err := format.Source(append([]byte(clause), body...))
	if err != nil {
		p.err = fmt.Errorf("formatting %s: %w", p.name, err)
		return
	}
	piece := bytes.TrimPrefix(out, []byte("package "+p.pkg+"\n"))
	if len(p.direct) > 0 {
		piece = p.fill(piece)
	}
	p.body = append(p.body, piece)
	p.size += len(piece)
}

// directName names the placeholder type declaration ("type NAME
// struct{}") that holds a direct declaration's place in a piece: a
// top-level declaration like the one it stands for, so go/format lays out
// what is around it the same way.
const directName = "_retrygen_direct_"

// addDirect adds a declaration printed as go/format prints it (decl, from
// appendStructDecl, naming the packages of imports) to the piece being
// built, after what next returned was given.
func (p *pieces) addDirect(decl []byte, imports []string) {
	for _, path := range imports {
		line := strconv.Quote(path) // as jennifer writes an import it names by its last element
		if old, seen := p.imports[line]; seen && old != line {
			p.clash = true
		}
		p.imports[line] = line
	}
	p.f.Type().Id(directName).Struct()
	p.direct = append(p.direct, decl)
}

// direct reports whether declarations can be added with addDirect: not
// when the file is rendered whole (render's redo).
func (p *pieces) canDirect() bool {
	return p.imports != nil
}

// fill puts the direct declarations in place of their placeholders in the
// formatted piece. Should the piece hold another line like a placeholder
// (spec text kept verbatim in a comment), the file is rendered whole
// (clash).
func (p *pieces) fill(piece []byte) []byte {
	mark := []byte("\ntype " + directName + " struct{}\n")
	if bytes.Count(piece, mark) != len(p.direct) {
		p.clash = true
		p.direct = p.direct[:0]
		return piece
	}
	size := len(piece)
	for _, d := range p.direct {
		size += len(d) - len(mark) + 1
	}
	out := make([]byte, 0, size)
	for _, d := range p.direct {
		i := bytes.Index(piece, mark) + 1
		out = append(out, piece[:i]...)
		out = append(out, d...)
		piece = piece[i+len(mark)-1:]
	}
	out = append(out, piece...)
	p.direct = p.direct[:0]
	return out
}

// splitImports splits a piece's text after its package clause into the
// lines of its import declaration (as jennifer writes them: one
// `import "p"` or `import a "p"`, or an `import (` block of one line per
// path) and the rest.
func splitImports(src []byte) (lines []string, body []byte) {
	switch {
	case bytes.HasPrefix(src, []byte("import (\n")):
		block, rest, _ := bytes.Cut(src[len("import (\n"):], []byte(")\n\n"))
		for _, l := range strings.Split(strings.TrimSuffix(string(block), "\n"), "\n") {
			lines = append(lines, l)
		}
		return lines, rest
	case bytes.HasPrefix(src, []byte("import ")):
		line, rest, _ := bytes.Cut(src[len("import "):], []byte("\n\n"))
		return []string{string(line)}, rest
	}
	return nil, src
}

// render returns the formatted file: header comments (from svc), package
// clause, imports and the pieces. redo renders the file whole the old way
// (emitFile); it is used when the pieces disagree on an import's name,
// which jennifer chooses per file.
func (p *pieces) render(svc *Service, redo func() ([]byte, error)) ([]byte, error) {
	p.flush()
	if p.err != nil {
		return nil, p.err
	}
	names := map[string]bool{}
	for _, l := range p.imports {
		name, _, _ := strings.Cut(l, `"`)
		if name != "" && names[name] {
			p.clash = true
		}
		names[name] = true
	}
	if p.clash {
		return redo()
	}
	f := jen.NewFile(p.pkg)
	if err := header(f, svc); err != nil {
		return nil, err
	}
	f.NoFormat = true
	var head bytes.Buffer
	if err := f.Render(&head); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", p.name, err)
	}
	paths := make([]string, 0, len(p.imports))
	for path := range p.imports {
		paths = append(paths, path)
	}
	slices.Sort(paths) // jennifer's order: by quoted path, the same order
	switch len(paths) {
	case 0:
	case 1:
		fmt.Fprintf(&head, "import %s\n\n", p.imports[paths[0]])
	default:
		head.WriteString("import (\n")
		for _, path := range paths {
			head.WriteString(p.imports[path] + "\n")
		}
		head.WriteString(")\n\n")
	}
	out, err := format.Source(groupImports(head.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("formatting %s: %w", p.name, err)
	}
	file := make([]byte, 0, len(out)+p.size) // one allocation of the file's size
	file = append(file, out...)
	for _, piece := range p.body {
		file = append(file, piece...)
	}
	return file, nil
}
