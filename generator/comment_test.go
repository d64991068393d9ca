package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/require"
)

func TestCommentLines(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"HTML elements are removed, paragraphs kept", "<p>Returns the <code>Item</code>.</p><p>Second.</p>",
			[]string{"Returns the Item.", "", "Second."}},
		{"block elements separate words", "one<br>two<div>three</div>", []string{"one two three"}},
		{"a Markdown list is a Go doc list", "Can be one of:\n  * agent for questions\n  * agent for text\ngeneration\n\nAfter.",
			[]string{"Can be one of:", "", "  - agent for questions", "  - agent for text generation", "", "After."}},
		{"a numbered list keeps its numbers", "Steps:\n1. first\n2) second", []string{"Steps:", "", " 1. first", " 2. second"}},
		{"an HTML list is a Go doc list", "<p>Where:</p><ul><li><p><code>S</code> - a string</p></li><li>N - a number</li></ul><p>Done.</p>",
			[]string{"Where:", "", "  - S - a string", "  - N - a number", "", "Done."}},
		{"a long item continues four spaces in", "- " + strings.Repeat("word ", 25),
			[]string{"  - " + strings.TrimSpace(strings.Repeat("word ", 18)), "    " + strings.TrimSpace(strings.Repeat("word ", 7))}},
		{"a list item cannot open a comment either", "* // x", []string{"  - // x"}},
		{"a minus sign is not a bullet", "-1 means none", []string{"-1 means none"}},
		{"a placeholder in angle brackets is kept", "Every operation is `GET /?Action=<Op>`.",
			[]string{"Every operation is `GET /?Action=<Op>`."}},
		{"HTML comments are removed", "a <!-- hidden --> b", []string{"a b"}},
		{"entities are decoded", "a &lt;b&gt; &amp; c", []string{"a <b> & c"}},
		{"a line cannot open a comment", "x\n\n// y", []string{"x", "", " // y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, commentLines(tt.in))
		})
	}
}

func TestDocComment(t *testing.T) {
	render := func(spec, notes []string, source string) string {
		return docComment(spec, notes, source).GoString()
	}
	require.Equal(t, "// Get a pet.\n//\n// Returns the pet.\n//\n// GetPet sends GET /pets/{id}.\n// Source: #/paths/~1pets~1%7Bid%7D/get",
		render([]string{"Get a pet.", "Returns the pet."}, []string{"GetPet sends GET /pets/{id}."}, "/paths/~1pets~1{id}/get"),
		"spec text first (summary, then description), generated notes, the source last")
	require.Equal(t, "// Pet is an object of the spec.\n// Source: #/components/schemas/Pet",
		render([]string{"", " "}, []string{"Pet is an object of the spec."}, "/components/schemas/Pet"),
		"without spec text the generated sentence leads")
	require.Equal(t, "// Same.", render([]string{"Same.", "Same."}, nil, ""), "a description repeating the summary is left out")
}

// FuzzDocComment renders any description as a doc comment: the file must
// format and parse with the declaration after it intact, so no text can end
// the comment, open another or turn into code; as a package doc comment
// (before the package clause, where gofmt rewrites "// +build") it must
// pass checkGenerated: no directive, no build constraint, type-checks.
func FuzzDocComment(f *testing.F) {
	for _, s := range []string{"plain", "a\n* b\n* // c\n\n1. */ d", "<ul><li>x</li></ul>", "x\u2028// y\r\n+build z", "*/\n/*", "- \n-", "+build ignore", "a b c use +build ignore", "//go:generate x\n//line a:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		file := jen.NewFile("p")
		file.Add(docComment([]string{s}, []string{"note"}, "/components/schemas/"+s))
		file.Type().Id("T").Int()
		src, err := render(file, "p.go")
		require.NoError(t, err)
		af, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.ParseComments)
		require.NoError(t, err, "%s", src)
		require.Len(t, af.Decls, 1, "%s", src)
		require.Contains(t, af.Decls[0].(*ast.GenDecl).Doc.Text(), "Source: #/components/schemas/")
		pkg := jen.NewFile("p")
		for _, l := range commentLines(s) {
			pkg.PackageComment(l)
		}
		pkg.Add(docComment([]string{s}, []string{"note"}, "/components/schemas/"+s))
		pkg.Type().Id("T").Int()
		src, err = render(pkg, "doc.go")
		require.NoError(t, err)
		require.NoError(t, checkGenerated([]File{{Name: "doc.go", Content: src}}), "%s", src)
	})
}
