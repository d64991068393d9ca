package generator

import (
	"html"
	"regexp"
	"strings"
	"unicode"
)

// commentWidth is the column at which doc comment text is wrapped.
const commentWidth = 96

var htmlTag = regexp.MustCompile(`<[^>]*>`)

// commentLines turns a spec description into plain-text lines for
// jen.Comment, one call per line. HTML tags are removed, entities decoded,
// control characters (\r, \n, NUL, …) become spaces, paragraphs (blank lines
// or </p>) are kept apart by an empty line, and text is wrapped at about 100
// columns. No line starts with "//" or "/*" (jennifer would print such a line
// raw), so no description can end a comment or open one.
func commentLines(text string) []string {
	text = strings.NewReplacer("\r\n", "\n", "\r", "\n", "</p>", "\n\n", "</P>", "\n\n").Replace(text)
	var out []string
	for _, para := range strings.Split(text, "\n\n") {
		words := strings.FieldsFunc(html.UnescapeString(htmlTag.ReplaceAllString(para, " ")), func(r rune) bool {
			return unicode.IsSpace(r) || unicode.IsControl(r) || r == '\uFEFF'
		})
		if len(words) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, wrap(words)...)
	}
	for i, l := range out {
		if strings.HasPrefix(l, "//") || strings.HasPrefix(l, "/*") {
			out[i] = " " + l
		}
	}
	return out
}

// wrap joins words into lines of at most commentWidth bytes (longer words
// stand alone).
func wrap(words []string) []string {
	var lines []string
	line := words[0]
	for _, w := range words[1:] {
		if len(line)+1+len(w) > commentWidth {
			lines = append(lines, line)
			line = w
			continue
		}
		line += " " + w
	}
	return append(lines, line)
}
