package generator

import (
	"bytes"
	"fmt"
	"go/format"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
)

// jenStructDecl is what appendStructDecl stands for: the declaration as
// emitTypes writes it with jennifer, then go/format, without the package
// clause and imports.
func jenStructDecl(t *testing.T, name string, doc []string, fields []fieldSpec) ([]byte, error) {
	t.Helper()
	f := jen.NewFile("p")
	f.ImportName(runtimePath, "runtime")
	f.ImportName(openapiPath, "openapi")
	f.NoFormat = true
	f.Add(docStatement(doc))
	code := make([]jen.Code, 0, len(fields))
	for _, fs := range fields {
		code = append(code, fs.jen())
	}
	f.Type().Id(name).Struct(code...)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, err
	}
	// The declaration is what follows the last blank line before its doc
	// comment (or "type").
	s := string(out)
	i := strings.Index(s, "\ntype "+name+" struct")
	if len(doc) > 0 {
		i = strings.LastIndex(s[:i], "\n\n") + 1
	}
	return []byte(s[i+1:]), nil
}

// TestStructDeclIsGofmt: on seeded random struct shapes (field names of
// one to twenty characters, some not ASCII; every field type the
// generator writes; tags that need quoting or hold a tab; doc comments with
// blank lines, indented lines, headings, link definitions, “ and ”,
// trailing blanks, control characters; line comments; one-field structs),
// appendStructDecl prints each declaration it accepts exactly as
// jennifer and go/format do, and refuses only shapes the test knows it
// refuses.
func TestStructDeclIsGofmt(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 3))
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	names := []string{"A", "Id", "Name", "MaxKeys", "XAmzExpectedBucketOwner", "ÄÖ", "Größe", "ResultMetadata", "_x", "B2"}
	types := []*goType{
		{name: "string"}, {name: "int64"}, {op: "*", elem: &goType{name: "bool"}},
		{op: "[]", elem: &goType{name: "byte"}}, {op: "[]", elem: &goType{name: "Tag"}},
		{op: "map[string]", elem: &goType{op: "[]", elem: &goType{name: "LongerTypeName"}}},
		{pkg: "time", name: "Time"}, {op: "*", elem: &goType{pkg: "time", name: "Time"}},
		{pkg: openapiPath, name: "Nullable", elem: &goType{op: "*", elem: &goType{name: "Object"}}},
		{pkg: openapiPath, name: "XMLMap", elem: &goType{name: "string"}},
		{pkg: runtimePath, name: "ResponseMetadata"}, {pkg: "encoding/json", name: "RawMessage"},
		{pkg: "io", name: "ReadCloser"}, {name: "[0]func()"},
	}
	tagValues := []string{"-", "a", "a,omitzero", "Größe,omitzero", `q"uote`, "back`quote", "tab\there", "x y", "-,", "ns http://x/ a,attr"}
	plain := []string{"", "", "Plain text.", "Another plain line of prose", "Overview", "[Link] in a sentence.",
		"https://example.com/path.", "Source: #/components/schemas/X", "Required.", "Deprecated: use Y.",
		"Größe über alles", "- item", "1. item", "[Link]: https://example.com/x"}
	hostile := []string{"  indented code", "\tTab code", "# Heading", "see ``x`` and ''y''", "trailing blank ",
		"a\x01b", "//verbatim", "x\u00a0", " [Link]: https://example.com/y", "# ", "[x]: "}
	docPool := append(plain, hostile...)
	docOf := func(max int) []string {
		var d []string
		if r.IntN(2) == 0 { // paragraphs of one to three lines
			for p := range r.IntN(4) {
				if p > 0 {
					d = append(d, "")
				}
				for range 1 + r.IntN(3) {
					if r.IntN(8) == 0 {
						d = append(d, pick(hostile))
					} else {
						d = append(d, pick(plain[2:]))
					}
				}
			}
			return d
		}
		for range r.IntN(max + 1) {
			if r.IntN(8) == 0 {
				d = append(d, pick(hostile))
			} else {
				d = append(d, pick(plain))
			}
		}
		return d
	}
	accepted, refused := 0, 0
	for i := range 5000 {
		var fields []fieldSpec
		for j := range 1 + r.IntN(6) {
			fs := fieldSpec{name: pick(names) + fmt.Sprint(j), typ: types[r.IntN(len(types))]}
			if r.IntN(3) > 0 {
				fs.doc = docOf(3)
			}
			if r.IntN(5) > 0 {
				fs.tags = map[string]string{"json": pick(tagValues)}
				if r.IntN(2) == 0 {
					fs.tags["xml"] = pick(tagValues)
				}
			}
			if r.IntN(3) == 0 || fs.tags == nil {
				fs.trailing = pick(docPool)
				if fs.trailing == "" {
					fs.trailing = "Maximum length: 64."
				}
			}
			fields = append(fields, fs)
		}
		name := "T" + fmt.Sprint(i)
		doc := docOf(6)
		got, _, ok := appendStructDecl(nil, name, doc, fields)
		want, err := jenStructDecl(t, name, doc, fields)
		if !ok {
			refused++
			continue
		}
		accepted++
		if err != nil {
			t.Fatalf("shape %d: appendStructDecl printed a declaration go/format refuses (%v):\n%s", i, err, got)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("shape %d: appendStructDecl printed\n%s\ngo/format prints\n%s", i, got, want)
		}
	}
	t.Logf("%d shapes printed directly, %d refused", accepted, refused)
	if accepted < 2000 || refused < 200 {
		t.Errorf("%d shapes printed directly, %d refused: the test no longer exercises both", accepted, refused)
	}
}

// TestStructDeclRefuses: what appendStructDecl leaves to jennifer.
func TestStructDeclRefuses(t *testing.T) {
	str := &goType{name: "string"}
	ok := []fieldSpec{{name: "A", typ: str, tags: map[string]string{"json": "a"}}}
	for _, c := range []struct {
		name   string
		doc    []string
		fields []fieldSpec
	}{
		{"no fields", nil, nil},
		{"doc with a control character", []string{"a\x00b"}, ok},
		{"doc gofmt rewrites", []string{"see ``x``"}, ok},
		{"doc starting //", []string{"//go:build x"}, ok},
		{"field doc with a line break", nil, []fieldSpec{{doc: []string{"a\nb"}, name: "A", typ: str, tags: map[string]string{"json": "a"}}}},
		{"no tag, no comment", nil, []fieldSpec{{name: "A", typ: str}}},
		{"another package", nil, []fieldSpec{{name: "A", typ: &goType{pkg: "net/http", name: "Header"}, tags: map[string]string{"json": "a"}}}},
	} {
		if b, _, ok := appendStructDecl([]byte("x"), "T", c.doc, c.fields); ok || string(b) != "x" {
			t.Errorf("%s: ok %v, %q", c.name, ok, b)
		}
	}
}

// TestStructDeclImports: the import paths a declaration names, sorted
// once each.
func TestStructDeclImports(t *testing.T) {
	fields := []fieldSpec{
		{name: "A", typ: &goType{pkg: openapiPath, name: "Nullable", elem: &goType{pkg: "time", name: "Time"}}, tags: map[string]string{"json": "a"}},
		{name: "B", typ: &goType{pkg: "time", name: "Time"}, tags: map[string]string{"json": "b"}},
	}
	_, imports, ok := appendStructDecl(nil, "T", nil, fields)
	if want := []string{openapiPath, "time"}; !ok || fmt.Sprint(imports) != fmt.Sprint(want) {
		t.Errorf("imports %q, ok %v; want %q", imports, ok, want)
	}
}

// TestGeneratedFilesAreGofmt is the oracle of the files generated without
// go/format in part (appendStructDecl): every file generated from the
// repository's specs and those of ../shared/specs that are present (the
// repository's *.openapi.yaml alone with -short or -race) is
// byte for byte the file jennifer and go/format alone give
// (directStructs off), and gofmt-clean.
func TestGeneratedFilesAreGofmt(t *testing.T) {
	specs, _ := filepath.Glob("../specs/*.openapi.yaml")
	if !testing.Short() && !raceEnabled { // the large ones too
		specs = append(specs, "../specs/mistral_openapi.yaml")
		seen := map[string]bool{}
		for _, s := range specs {
			seen[filepath.Base(s)] = true
		}
		shared, _ := filepath.Glob("../../shared/specs/*")
		for _, s := range shared {
			if (strings.HasSuffix(s, ".yaml") || strings.HasSuffix(s, ".json")) && !seen[filepath.Base(s)] {
				specs = append(specs, s)
			}
		}
	}
	for _, spec := range specs {
		t.Run(filepath.Base(spec), func(t *testing.T) {
			svc, _, err := LoadSelected(spec, nil, nil)
			if err != nil {
				t.Skipf("not generated: %v", err)
			}
			files, err := Generate(svc, "gen")
			if err != nil {
				t.Fatal(err)
			}
			directStructs = false
			defer func() { directStructs = true }()
			whole, err := Generate(svc, "gen")
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range files {
				if !bytes.Equal(f.Content, whole[i].Content) {
					t.Errorf("%s differs from jennifer and go/format's at byte %d", f.Name, firstDiff(f.Content, whole[i].Content))
				}
				want, err := format.Source(f.Content)
				if err != nil {
					t.Fatalf("%s: %v", f.Name, err)
				}
				if !bytes.Equal(f.Content, want) {
					t.Errorf("%s is not gofmt-clean: first difference at byte %d", f.Name, firstDiff(f.Content, want))
				}
			}
		})
	}
}

// firstDiff is the offset of the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
