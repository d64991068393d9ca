package generator

import (
	"encoding/json"
	"go/build/constraint"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// The scanners of docscan.go against the expressions they read by hand
// (docoracle_test.go), each on hand-picked texts, on random texts built
// from the pieces that matter to it, and in a fuzz target; then the whole
// doc path, specDocLines and commentLines, against the former one on the
// same and on every description of the real specs.

// onString runs a scanner on a string.
func onString(scan func(dst, s []byte) ([]byte, bool)) func(string) string {
	return func(s string) string {
		out, changed := scan([]byte("junk"), []byte(s))
		if !changed {
			if string(out) != s {
				panic("a scanner that changes nothing returns its text")
			}
			return s
		}
		if !strings.HasPrefix(string(out), "junk") {
			panic("a scanner appends to dst")
		}
		return string(out[len("junk"):])
	}
}

// replaceListTags is the two list tag passes of docScratch's commentLines.
func replaceListTags(s []byte) []byte {
	if out, changed := replaceTag(nil, s, false, "li", "", "\n* "); changed {
		s = out
	}
	if out, changed := replaceTag(nil, s, true, "ul", "ol", "\n\n"); changed {
		s = out
	}
	return s
}

// linkOracle is a link replacement that shows both of its arguments.
func linkOracle(text, url string) string { return "{" + text + "|" + url + "}" }

// replaceHTMLLinksOracle is replaceHTMLLinks as the expression, with the
// callback docText had: a second match on the anchor for its groups.
func replaceHTMLLinksOracle(s string) string {
	return htmlLinkOracle.ReplaceAllStringFunc(s, func(a string) string {
		m := htmlLinkOracle.FindStringSubmatch(a)
		return linkOracle(m[4], m[2]+m[3])
	})
}

// replaceMarkdownLinksOracle is replaceMarkdownLinks as the expression.
func replaceMarkdownLinksOracle(s string) string {
	return markdownLinkOracle.ReplaceAllStringFunc(s, func(a string) string {
		m := markdownLinkOracle.FindStringSubmatch(a)
		return linkOracle(m[1], m[2])
	})
}

// replaceCalloutsOracle is replaceCallouts as the two expressions.
func replaceCalloutsOracle(s string) string {
	s = calloutStartOracle.ReplaceAllStringFunc(s, func(a string) string {
		m := calloutStartOracle.FindStringSubmatch(a)
		return "\n\n" + strings.ToUpper(m[1][:1]) + strings.ToLower(m[1][1:]) + ": "
	})
	return calloutEndOracle.ReplaceAllString(s, "\n\n")
}

// replaceListTagsOracle is replaceListTags as the two expressions.
func replaceListTagsOracle(s string) string {
	return listTagOracle.ReplaceAllString(listItemTagOracle.ReplaceAllString(s, "\n* "), "\n\n")
}

// paragraphsOracle and paragraphs split a text at blank lines.
func paragraphsOracle(s string) []string { return blankLineOracle.Split(s, -1) }

func paragraphs(s string) []string {
	var out []string
	b := []byte(s)
	for more := true; more; {
		var p []byte
		p, b, more = cutParagraph(b)
		out = append(out, string(p))
	}
	return out
}

// bulletOracleOf is bulletPrefix as the expression.
func bulletOracleOf(line string) (marker, rest string, ok bool) {
	m := bulletOracle.FindStringSubmatch(line)
	if m == nil {
		return "", "", false
	}
	marker = "  -"
	if m[1] != "" {
		marker = " " + m[1] + "."
	}
	return marker, line[len(m[0]):], true
}

// scanCheck is one scanner and its oracle, with the pieces its random
// texts are made of.
type scanCheck struct {
	name   string
	got    func(string) string
	want   func(string) string
	pieces []string
}

var anyText = []string{"<", ">", "/", " ", "\n", "\t", "\r", "x", "é", "\xff", "ſ", "\u212A", "_", "1"}

var scanChecks = []scanCheck{
	{"htmlLinks", onString(func(dst, s []byte) ([]byte, bool) { return replaceHTMLLinks(dst, s, linkOracle) }), replaceHTMLLinksOracle,
		[]string{"<a", "<A", "<a ", "<ab", "href", "HREF", " href", "href=", "=", `"`, "'", ">", "</a>", "</A >", "</a\n>", "</ab>",
			"x", " ", "\n", "<b>", "\xff", "<a href=\"", "<a href='", "https://x"}},
	{"markdownLinks", onString(func(dst, s []byte) ([]byte, bool) { return replaceMarkdownLinks(dst, s, linkOracle) }), replaceMarkdownLinksOracle,
		[]string{"[", "]", "(", ")", "](", "[x]", "x", " ", "\n", "\t", "\f", "\v", "http://a", "\xff", "é"}},
	{"callouts", onString(replaceCallouts), replaceCalloutsOracle,
		[]string{"<note", "<NOTE", "<important", "<Important", "</note", "</IMPORTANT", "<notes", "<p", "<P", "<pre", ">", " ", "\n", "\t",
			"\v", "<", "/", "x", "_", "é"}},
	{"listTags", func(s string) string { return string(replaceListTags([]byte(s))) }, replaceListTagsOracle,
		[]string{"<li", "<LI", "<lix", "<ul", "</ul", "<OL", "</Ol", "<ol_", "<", "/", ">", " ", "\n", "x", "é", "-"}},
	{"breaks", onString(normalizeBreaks), paragraphBreaksOracle.Replace,
		[]string{"\r", "\n", "\r\n", "</p>", "</P>", "</p", "<", "/", "p", ">", "x", "é"}},
	{"paragraphs", func(s string) string { return strings.Join(paragraphs(s), "¶") },
		func(s string) string { return strings.Join(paragraphsOracle(s), "¶") },
		[]string{"\n", " ", "\t", "\r", "x", "\n\n", "\n \n", "é"}},
	{"bullet", func(s string) string {
		m, r, ok := bulletPrefix([]byte(s))
		return strings.Join([]string{m, string(r), map[bool]string{true: "ok"}[ok]}, "|")
	},
		func(s string) string {
			m, r, ok := bulletOracleOf(s)
			return strings.Join([]string{m, r, map[bool]string{true: "ok"}[ok]}, "|")
		},
		[]string{" ", "\t", "*", "+", "-", "1", "9", "0", ".", ")", "x", "é", "12345", "\n"}},
}

// TestDocScannersAreTheirExpressions: every scanner gives its expression's
// result on hand-picked texts and on 20,000 random ones each.
func TestDocScannersAreTheirExpressions(t *testing.T) {
	cases := []string{
		"", "plain", "<", "[", "<a>", `<a href="x">t</a>`, `<A HREF = 'x' class=y>t</A >`, `<a href="x">t</a\n>`,
		`<a title="x" href="u">t</a>`, `<ahref="x">t</a>`, `<a xhref="x">t</a>`, `<a x-href="u">t</a>`, `<a href="a>b">t</a>`,
		`<a href='a>b' href="c">t</a>`, `<a href="x">t`, `<a href="x"`, `<a href=x>t</a>`, `<a href="u">a <b>c</b></a>`,
		`<a href="u"><a href="v">t</a></a>`, `<a href="u" <a href="v">t</a>`, `<a href="x>">t</a><a href="y">u</a>`,
		`<a href="x" title='>'>t</a>`, `<a href="1">x</a><a href="2">y</a>`, "<a\nhref=\"x\"\n>t\n</a>", `<a href="é">ſ</a>`,
		"[t](u)", "[t](u v)", "[](u)", "[t]( u)", "[t](u)x)", "[[t](u)", "[t]\n(u)", "[a\nb](u)", "[t](u\n)", "[t]())", "[t](\xff)",
		"<note>x</note>", "<NOTE class=x>\n <p>x</p></note>", "<important><p>x", "<notes>", "<note", "</note >", "</note\n>",
		"<note> <pre>", "<note><p", "<note><p x", "< note>", "</ note>", "<note <p>>",
		"<li>x", "<LI class=a>x</li>", "<lix>", "<ul><li>a</li></ul>", "<ul <li>>", "</OL>", "<ol_>", "<li", "<ul",
		"a\r\nb\rc</p>d</P>e</p >", "a\n\nb\n \t\nc\n\n\n", "\n", "* a", "  1. a", "1234567890. a", "123456789) a", "-a", "- ", "*\ta",
	}
	for _, c := range scanChecks {
		t.Run(c.name, func(t *testing.T) {
			for _, s := range cases {
				require.Equal(t, c.want(s), c.got(s), "%q", s)
			}
			r := rand.New(rand.NewPCG(3, 4))
			pieces := append(append([]string(nil), c.pieces...), anyText...)
			for range 20000 {
				s := randomText(r, pieces, 24)
				require.Equal(t, c.want(s), c.got(s), "%q", s)
			}
		})
	}
}

// randomText joins up to n random pieces.
func randomText(r *rand.Rand, pieces []string, n int) string {
	var b strings.Builder
	for range r.IntN(n + 1) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// FuzzDocScanners: every scanner is its expression on any text.
func FuzzDocScanners(f *testing.F) {
	for _, s := range []string{`<a href="x>">t</a>`, "[t](u)", "<note><p>x</note>", "<ul><li>a</ul>", "a\r\n</p>b", "a\n \nb", " 1. x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range scanChecks {
			if got, want := c.got(s), c.want(s); got != want {
				t.Fatalf("%s(%q) = %q, the expression gives %q", c.name, s, got, want)
			}
		}
	})
}

// docPieces are what the random texts of the whole doc path are made of:
// AWS's HTML, Markdown, links of both kinds, lists, entities, long words,
// "+build" and comment markers.
var docPieces = []string{"<p>", "</p>", "<P>", "</P>", "<code>", "</code>", "<a href=\"https://x.example/a b\">", "<a href='http://y'>",
	"<a href=\"#z\">", "</a>", "[t](https://u)", "[a b](http://v)", "[x](y)", "<note>", "</note>", "<important>", "</important>",
	"<ul>", "</ul>", "<ol>", "<li>", "</li>", "<br>", "<!-- c -->", "&lt;", "&amp;", "&#10;", "&#xE000;", "\n", "\n\n", "\r\n", " ",
	"\t", "* ", "- ", "1. ", "22) ", "+build", "//", "/*", "word", "a", "Lorem", strings.Repeat("long", 30), "\u2028", "\xff", "é",
	"\u200b", "[", "]", "(", ")", "<", ">", linkGlue}

// TestDocPathIsTheFormerOne: specDocLines and commentLines give what
// they gave before docfast, on random texts and on every description,
// summary and title of the real specs.
func TestDocPathIsTheFormerOne(t *testing.T) {
	check := func(s string) {
		t.Helper()
		lines, defs := specDocLines(s)
		wantLines, wantDefs := specDocLinesOracle(s)
		require.Equal(t, wantLines, lines, "specDocLines(%q)", s)
		require.Equal(t, wantDefs, defs, "specDocLines(%q) defs", s)
		require.Equal(t, commentLinesOracle(s), commentLines(s), "commentLines(%q)", s)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		check(randomText(r, docPieces, 40))
	}
	n := 0
	for _, text := range realSpecDocs(t) {
		check(text)
		n++
	}
	t.Logf("%d texts of the real specs", n)
}

// realSpecDocs returns the distinct description, summary and title values
// of the specs in ../specs and ../../shared/specs (those present).
func realSpecDocs(t testing.TB) []string {
	var files []string
	for _, glob := range []string{"../specs/*.yaml", "../../shared/specs/*.yaml", "../../shared/specs/*.json"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	seen := map[string]bool{}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && (k == "description" || k == "summary" || k == "title") && !seen[s] {
					seen[s] = true
					out = append(out, s)
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		var doc any
		if strings.HasSuffix(f, ".json") {
			require.NoError(t, json.Unmarshal(data, &doc), f)
		} else {
			require.NoError(t, yaml.Unmarshal(data, &doc), f)
		}
		walk(doc)
	}
	return out
}

// FuzzDocPath: specDocLines and commentLines give what they gave before
// docfast on any text.
func FuzzDocPath(f *testing.F) {
	for _, s := range []string{"<p>a <a href=\"https://x\">b c</a></p><note>n</note>", "[a](http://b) * x\n* y", "<ul><li>1</li></ul>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lines, defs := specDocLines(s)
		wantLines, wantDefs := specDocLinesOracle(s)
		require.Equal(t, wantLines, lines, "specDocLines(%q)", s)
		require.Equal(t, wantDefs, defs, "specDocLines(%q) defs", s)
		require.Equal(t, commentLinesOracle(s), commentLines(s), "commentLines(%q)", s)
	})
}

// TestDocCommentIsTheFormerOne: docComment gives what it gave before
// docfast, with its texts' doc lines made once or each time (specDocs):
// a text repeating another, or repeating a link definition ("[x]: u" as
// a whole text), is left out as before.
func TestDocCommentIsTheFormerOne(t *testing.T) {
	texts := []string{"", " ", "Same.", "Same.", `<a href="http://u">x</a>: http://u`, "[x]: http://u", "[x](http://u)",
		"[y](http://v) and [x](http://u)", "<p>Same.</p>", "Same.\n\n", "a\nb", "a b"}
	check := func(spec []string, notes []string) {
		t.Helper()
		want := docCommentOracle(spec, notes, "/s").GoString()
		require.Equal(t, want, docComment(spec, notes, "/s").GoString(), "%q %q", spec, notes)
	}
	for _, a := range texts {
		for _, b := range texts {
			check([]string{a, b}, nil)
			check([]string{a, b, a}, []string{"note"})
		}
	}
	end := specDocs.begin()
	defer end()
	r := rand.New(rand.NewPCG(7, 8))
	for range 4000 {
		spec := make([]string, r.IntN(4))
		for i := range spec {
			spec[i] = texts[r.IntN(len(texts))]
			if r.IntN(2) == 0 {
				spec[i] = randomText(r, docPieces, 12)
			}
		}
		check(spec, []string{randomText(r, docPieces, 6)})
	}
}

// TestSpecDocsKeepsWhileGenerating: specDocLines keeps a text's result
// while a generation runs, the same as it computes, and shares it full to
// capacity (an append copies); with no generation running it keeps
// nothing.
func TestSpecDocsKeepsWhileGenerating(t *testing.T) {
	text := `<p>See <a href="https://x.example">the guide</a>.</p>`
	lines, defs := specDocLines(text)
	require.Nil(t, specDocs.m, "nothing kept outside a generation")
	end := specDocs.begin()
	end2 := specDocs.begin()
	l1, d1 := specDocLines(text)
	l2, d2 := specDocLines(text)
	require.Equal(t, lines, l1)
	require.Equal(t, defs, d1)
	require.Same(t, &l1[0], &l2[0], "made once")
	require.Same(t, &d1[0], &d2[0])
	require.Equal(t, len(l1), cap(l1))
	require.Equal(t, len(d1), cap(d1))
	end()
	require.NotNil(t, specDocs.m, "kept while another generation runs")
	end2()
	require.Nil(t, specDocs.m, "dropped when the last one ends")
}

// TestOneSpaced: oneSpaced is strings.Join(strings.Fields(s), " ").
func TestOneSpaced(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	pieces := []string{" ", "  ", "\t", "\n", "\v", "\f", "\r", "a", "b", "é", "\u00a0", "\u0085", "\u2028", "\x1c", "\xff"}
	for _, s := range append([]string{"", " ", "a", "a b", " a", "a ", "a  b", "a\tb"}, func() []string {
		var out []string
		for range 20000 {
			out = append(out, randomText(r, pieces, 8))
		}
		return out
	}()...) {
		require.Equal(t, strings.Join(strings.Fields(s), " "), oneSpaced(s), "%q", s)
	}
}

// TestSpecTextGlueMakesNoBuildConstraint: a spec text holding the link
// glue character (U+E000, or its entity) before "+build" gives no comment
// line that go/build reads as a build constraint: the glue becomes a
// space before defuseLine reads the line (it was after: the package doc
// of a spec whose description held "\uE000+build ignore" made gofmt write
// //go:build ignore, and client.go left the package).
func TestSpecTextGlueMakesNoBuildConstraint(t *testing.T) {
	for _, text := range []string{"a\n\n\uE000+build ignore", "&#xE000;+build ignore", "\uE000 +build ignore", "x\n\n\uE000\uE000+build linux"} {
		lines, _ := specDocLines(text)
		require.NotEmpty(t, lines)
		for _, l := range lines {
			require.False(t, constraint.IsPlusBuild("// "+l), "%q gives the line %q", text, l)
		}
	}
}
