package generator

import (
	"html"
	"regexp"
	"strings"
	"unicode"
)

// commentWidth is the column at which doc comment text is wrapped.
const commentWidth = 96

// htmlTag matches the HTML elements spec descriptions use (AWS's
// documentation is HTML) and HTML comments; other text in angle brackets,
// such as a placeholder "<Op>", is kept.
var htmlTag = regexp.MustCompile(`(?i)<!--.*?-->|</?(a|abbr|b|blockquote|br|caption|code|dd|div|dl|dt|em|h[1-6]|hr|i|img|kbd|li|ol|p|pre|q|s|samp|small|span|strong|sub|sup|table|tbody|td|tfoot|th|thead|tr|tt|u|ul|var)\b[^>]*>`)

// inlineTags are the elements that sit inside a sentence: removing them
// leaves no space ("the <code>Item</code>." reads "the Item."). Other tags
// and comments become a space.
var inlineTags = map[string]bool{"a": true, "abbr": true, "b": true, "code": true, "em": true, "i": true, "kbd": true,
	"q": true, "s": true, "samp": true, "small": true, "span": true, "strong": true, "sub": true, "sup": true, "tt": true, "u": true, "var": true}

// stripTags removes the HTML elements and comments htmlTag matches.
func stripTags(s string) string {
	return htmlTag.ReplaceAllStringFunc(s, func(tag string) string {
		if m := htmlTag.FindStringSubmatch(tag); m != nil && inlineTags[strings.ToLower(m[1])] {
			return ""
		}
		return " "
	})
}

// commentLines turns a spec description into plain-text lines for
// jen.Comment, one call per line. HTML tags are removed (stripTags), entities decoded,
// invalid UTF-8 replaced by U+FFFD, and every line break ("\n", "\r\n",
// "\r", U+0085, U+2028, U+2029), control character (NUL, …) and format
// character (byte order marks, bidirectional overrides, …) becomes a space;
// paragraphs (blank lines or </p>) are kept apart by an empty line, and text
// is wrapped at about 100 columns. No line starts with "//", "/*" (jennifer
// would print such a line raw) or "+build" (an old build constraint), so no
// description can end a comment, open one or change the build.
func commentLines(text string) []string {
	text = strings.NewReplacer("\r\n", "\n", "\r", "\n", "</p>", "\n\n", "</P>", "\n\n").Replace(strings.ToValidUTF8(text, "\uFFFD"))
	var out []string
	for _, para := range strings.Split(text, "\n\n") {
		words := strings.FieldsFunc(html.UnescapeString(stripTags(para)), breaksWord)
		if len(words) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, wrap(words)...)
	}
	for i, l := range out {
		if strings.HasPrefix(l, "//") || strings.HasPrefix(l, "/*") || strings.HasPrefix(l, "+build") {
			out[i] = " " + l
		}
	}
	return out
}

// breaksWord reports the characters commentLines turns into spaces: white
// space (line and paragraph separators included), controls and format
// characters.
func breaksWord(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// plainLine reduces spec text quoted in a generated comment's first line (a
// schema name inside a JSON pointer) to one line, without HTML handling:
// every character commentLines treats as a break becomes a space.
func plainLine(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToValidUTF8(s, "\uFFFD"), breaksWord), " ")
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
