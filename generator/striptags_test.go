package generator

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// htmlTagOracle is the expression stripTags reads by hand.
var htmlTagOracle = regexp.MustCompile(`(?i)<!--.*?-->|</?(a|abbr|b|blockquote|br|caption|code|dd|div|dl|dt|em|h[1-6]|hr|i|img|kbd|li|ol|p|pre|q|s|samp|small|span|strong|sub|sup|table|tbody|td|tfoot|th|thead|tr|tt|u|ul|var)\b[^>]*>`)

// stripTagsOracle is stripTags as the expression: each match replaced by
// "" when its name is an inline tag, " " otherwise.
func stripTagsOracle(s string) string {
	return htmlTagOracle.ReplaceAllStringFunc(s, func(tag string) string {
		if m := htmlTagOracle.FindStringSubmatch(tag); m != nil && inlineTags[strings.ToLower(m[1])] {
			return ""
		}
		return " "
	})
}

// TestStripTagsIsTheRegexp: stripTags gives the expression's result on
// hand-picked texts (case folding to the Kelvin sign and the long s,
// word boundaries, comments across lines, tags without a ">", invalid
// UTF-8) and on 20,000 random ones built from the same pieces.
func TestStripTagsIsTheRegexp(t *testing.T) {
	cases := []string{
		"", "plain", "<", ">", "a < b > c", "<Op>", "the <code>Item</code>.", "<p>one</p><p>two",
		"<P CLASS=x>", "<SPAN>", "<ſpan>", "<ſ>", "<\u212Abd>x</KBD>", "<h1>T</h1>", "<h7>", "<h10>", "<hr/>", "<br>",
		"<a href='x'>l</a>", "<abbr>", "<ab>", "<b_>", "<b->", "<b\u00e9>", "<li", "<li x", "</>", "</ >", "</ul >",
		"<!-- c -->", "<!-- a > b -->", "<!-- a\n -->", "<!---->", "<!-->", "<!--->", "<!-- x", "<!--<b>-->",
		"<<b>>", "<b<i>>", "x<b\n>y", "<\xff>", "<b\xff>", "<s\xc5>", "<sam>", "<samp", "<smallest>", "<small.>",
		"<table><tbody><tr><td>1</td></tr></tbody></table>", "<note>n</note>", "<ul><li>a</li></ul>", "<tt>", "<var>",
	}
	for _, c := range cases {
		require.Equal(t, stripTagsOracle(c), stripTags(c), "%q", c)
	}
	pieces := []string{"<", ">", "/", "!--", "--", "-->", "\n", " ", "x", "_", "1", "7", "\xff", "é", "ſ", "\u212A",
		"a", "b", "p", "P", "s", "S", "k", "K", "h", "H", "li", "LI", "ul", "code", "span", "samp", "small", "var", "abbr", "br", "=", "'", "\""}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(24) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		require.Equal(t, stripTagsOracle(s), stripTags(s), "%q", s)
	}
}

// FuzzStripTags: stripTags is the expression on any text.
func FuzzStripTags(f *testing.F) {
	for _, s := range []string{"<b>x</b>", "<!-- c -->", "<ſpan>", "<\u212Abd>", "<h1 x>", "a<b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := stripTags(s), stripTagsOracle(s); got != want {
			t.Fatalf("stripTags(%q) = %q, the expression gives %q", s, got, want)
		}
	})
}
