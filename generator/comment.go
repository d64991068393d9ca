package generator

import (
	"bytes"
	"go/build/constraint"
	"strings"
	"unicode"
	"unicode/utf8"
)

// commentWidth is the column at which doc comment text is wrapped.
const commentWidth = 96

// htmlTagNames are the HTML elements spec descriptions use (AWS's
// documentation is HTML), in the order stripTags tries them. Other text in
// angle brackets, such as a placeholder "<Op>", is kept.
var htmlTagNames = []string{"a", "abbr", "b", "blockquote", "br", "caption", "code", "dd", "div", "dl", "dt", "em",
	"h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "kbd", "li", "ol", "p", "pre", "q", "s", "samp", "small", "span",
	"strong", "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "tt", "u", "ul", "var"}

// inlineTags are the elements that sit inside a sentence: removing them
// leaves no space ("the <code>Item</code>." reads "the Item."). Other tags
// and comments become a space.
var inlineTags = map[string]bool{"a": true, "abbr": true, "b": true, "code": true, "em": true, "i": true, "kbd": true,
	"q": true, "s": true, "samp": true, "small": true, "span": true, "strong": true, "sub": true, "sup": true, "tt": true, "u": true, "var": true}

// stripTags removes from s the HTML comments that end on their line and
// the tags of htmlTagNames, start or end, with any attributes, in any case
// (a tag is "<", an optional "/", the name, then a character that cannot
// continue a word, up to the next ">"). An inline tag is removed, anything
// else becomes a space. It is the regular expression
//
//	(?i)<!--.*?-->|</?(a|abbr|…|var)\b[^>]*>
//
// (each match replaced by "" when its name is an inline tag, " "
// otherwise) read by hand, Unicode case folding and all ("<ſpan>" is the
// tag "s" for it): a scan from each "<" instead of the backtracker, which
// cleared a bitmap the size of the text for every tag, most of the time
// spent on AWS's HTML docs (issue 24). TestStripTagsIsTheRegexp holds the
// expression.
func stripTags(s string) string {
	out, changed := stripTagsTo(nil, []byte(s))
	if !changed {
		return s
	}
	return string(out)
}

// stripTagsTo is stripTags on bytes: it appends s with its tags and
// comments removed to dst and reports true, or, when s has none, returns
// s itself and false (docScratch's passes).
func stripTagsTo(dst, s []byte) ([]byte, bool) {
	done := 0 // s[:done] is written
	changed := false
	next := tagScan{gt: nextIndex{sep: ">"}, comment: nextIndex{sep: "-->"}, newline: nextIndex{sep: "\n"}}
	for i := bytes.IndexByte(s, '<'); i >= 0; {
		end, inline := htmlTagAt(s, i, &next)
		if end < 0 {
			j := bytes.IndexByte(s[i+1:], '<')
			if j < 0 {
				break
			}
			i += 1 + j
			continue
		}
		changed = true
		dst = append(dst, s[done:i]...)
		if !inline {
			dst = append(dst, ' ')
		}
		done = end
		j := bytes.IndexByte(s[end:], '<')
		if j < 0 {
			break
		}
		i = end + j
	}
	if !changed {
		return s, false
	}
	return append(dst, s[done:]...), true
}

// htmlTagAt returns the end of the comment or tag stripTags removes at
// s[i] (a "<"), and whether it is an inline tag; end is -1 when there is
// none.
func htmlTagAt(s []byte, i int, next *tagScan) (end int, inline bool) {
	rest := s[i+1:]
	if hasPrefix(rest, "!--") {
		e := next.comment.from(s, i+4)
		if nl := next.newline.from(s, i+4); e >= 0 && (nl < 0 || nl > e) {
			return e + 3, false
		}
		return -1, false
	}
	j := i + 1
	if hasPrefix(rest, "/") {
		j++
	}
	gt := next.gt.from(s, j)
	if gt < 0 {
		return -1, false
	}
	for _, name := range htmlTagNames {
		if e := foldPrefix(s, j, name); e >= 0 && wordBoundary(s, e) {
			if e-j == len(name) { // ASCII: the name in some case
				return gt + 1, inlineTags[name]
			}
			return gt + 1, inlineTags[strings.ToLower(string(s[j:e]))] // "ſpan" is no "span"; the Kelvin sign lowers to k
		}
	}
	return -1, false
}

// hasPrefix reports whether s starts with prefix.
func hasPrefix(s []byte, prefix string) bool {
	return len(s) >= len(prefix) && string(s[:len(prefix)]) == prefix
}

// tagScan holds where stripTags last found each text its tags and
// comments end with, so that a "<" does not search again what an earlier
// one searched: many "<" before one far ">" (or "<!--" before no "-->")
// cost one pass over the text, not one per "<", as the expression's RE2
// scan does (review: 100,000 "<!--" lines took 10 s).
type tagScan struct {
	gt, comment, newline nextIndex
}

// nextIndex finds the first sep at or after a position that only grows
// from call to call, searching each part of the text at most once.
type nextIndex struct {
	sep   string
	found bool // at is known: the first sep at or after the last position asked
	at    int  // -1 for none
}

// from returns the index of the first sep in s at or after p (p at least
// the last call's), or -1.
func (n *nextIndex) from(s []byte, p int) int {
	if n.found && (n.at < 0 || n.at >= p) {
		return n.at
	}
	n.found, n.at = true, -1
	var k int
	if len(n.sep) == 1 {
		k = bytes.IndexByte(s[p:], n.sep[0])
	} else {
		k = bytes.Index(s[p:], []byte(n.sep))
	}
	if k >= 0 {
		n.at = p + k
	}
	return n.at
}

// foldPrefix returns where name (ASCII lower case letters and digits)
// ends when s[j:] starts with it under Unicode simple case folding (k is
// also the Kelvin sign U+212A, s the long s U+017F), or -1.
func foldPrefix(s []byte, j int, name string) int {
	for k := 0; k < len(name); k++ {
		if j >= len(s) {
			return -1
		}
		c := name[k]
		if r := s[j]; r < utf8.RuneSelf {
			if r != c && !('a' <= c && c <= 'z' && r == c-'a'+'A') {
				return -1
			}
			j++
			continue
		}
		r, n := utf8.DecodeRune(s[j:])
		if !(c == 'k' && r == '\u212A' || c == 's' && r == '\u017F') {
			return -1
		}
		j += n
	}
	return j
}

// wordBoundary reports whether s has a word boundary (regexp's \b: an
// ASCII word character on one side only) at byte e, e > 0.
func wordBoundary(s []byte, e int) bool {
	before, _ := utf8.DecodeLastRune(s[:e])
	after := rune(-1)
	if e < len(s) {
		after, _ = utf8.DecodeRune(s[e:])
	}
	return isWordRune(before) != isWordRune(after)
}

// isWordRune reports regexp's \w: an ASCII letter, digit or underscore.
func isWordRune(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_'
}

// commentLines turns a spec description into plain-text lines for
// jen.Comment, one call per line. HTML tags are removed (stripTags), entities decoded,
// invalid UTF-8 replaced by U+FFFD, and every other line break ("\n" within a
// paragraph, U+0085, U+2028, U+2029), control character (NUL, …) and format
// character (byte order marks, bidirectional overrides, …) becomes a space;
// paragraphs (blank lines or </p>) are kept apart by an empty line, list
// items (Markdown "* ", "- ", "1. " lines, HTML <li>) become a Go doc
// comment list ("  - item", " 1. item", continued four spaces in), and text
// is wrapped at about 100 columns, never breaking before a "+build". No
// line starts with "//", "/*" (jennifer would print such a line raw) or,
// after spaces, "+build" (an old build constraint; defuseLine), so no
// description can end a comment, open one, make a directive or change the
// build.
//
// The text is read by the scanners of docscan.go, in memory kept from
// text to text (docScratch), and the lines are cut from one string
// (docWriter): the regular expressions they replace, a copy of the text
// per pass, and a string per word and per line joined, were most of the
// doc comments' time (issue 24).
func commentLines(text string) []string {
	d := docScratches.Get().(*docScratch)
	defer docScratches.Put(d)
	d.cur = append(d.cur[:0], text...)
	return d.commentLines(false)
}

// defuseLine keeps a comment line made from spec text from becoming
// anything but prose once jennifer writes it as "// " + l: a line starting
// with "//" or "/*" (which jennifer would print raw: "//go:generate …",
// "//line …", "/* …") gets a leading space, and a line that go/build and
// gofmt would read as an old build constraint (constraint.IsPlusBuild:
// "+build" after any spaces, then a space or the end) has its "+build"
// written "\+build", the Markdown escape. Directives need "//" directly
// before the name ("//go:", "//line ", "//export "), which "// " never is.
func defuseLine(l string) string {
	if strings.HasPrefix(l, "//") || strings.HasPrefix(l, "/*") {
		l = " " + l
	}
	if strings.Contains(l, "+build") && constraint.IsPlusBuild("// "+l) {
		i := strings.Index(l, "+build")
		l = l[:i] + `\` + l[i:]
	}
	return l
}

// breaksWord reports the characters commentLines turns into spaces: white
// space (line and paragraph separators included), controls and format
// characters.
func breaksWord(r rune) bool {
	if r < utf8.RuneSelf {
		return r <= ' ' || r == 0x7f // ASCII's spaces and controls; it has no format characters
	}
	return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// plainLine reduces spec text quoted in a generated comment's first line (a
// schema name inside a JSON pointer) to one line, without HTML handling:
// every character commentLines treats as a break becomes a space.
func plainLine(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToValidUTF8(s, "\uFFFD"), breaksWord), " ")
}

// docWriter makes comment lines of paragraphs, one word at a time: each
// paragraph's text wrapped, and each list item (a line starting with a
// bullet; the lines after it, up to the next item, continue it) a Go doc
// comment list item, set apart from text by an empty line as gofmt sets
// lists apart; paragraphs are set apart by an empty line, except where a
// paragraph ending in a list item is followed by one starting with one
// (items of one list stay together even when a paragraph ends inside an
// item: <li><p>…</p></li>). Every line is a part of one string, b's.
type docWriter struct {
	b     strings.Builder
	lines []string
	// line is where the open line starts in b.
	line int
	// endsInList: the last paragraph with words ended in a list item.
	endsInList bool
	// In the paragraph being written: started once a word is; list is
	// whether its last block with words is a list item.
	started, list bool
	// The block being written: its marker ("" for text, "  -" or " 1."
	// for a list item), and whether a line of it is open.
	marker string
	open   bool
}

// paragraph writes one paragraph's lines.
func (w *docWriter) paragraph(para []byte) {
	w.started, w.list = false, false
	w.marker, w.open = "", false
	for more := true; more; {
		var line []byte
		line, para, more = bytes.Cut(para, []byte("\n"))
		if marker, rest, ok := bulletPrefix(line); ok {
			w.endLine()
			w.marker, line = marker, rest
		}
		w.words(line)
	}
	w.endLine()
	if w.started {
		w.endsInList = w.list
	}
}

// words writes the words of line: the runs of characters that are not
// breaksWord.
func (w *docWriter) words(line []byte) {
	for i := 0; i < len(line); {
		if n := breakLen(line, i); n > 0 {
			i += n
			continue
		}
		j := i
		for j < len(line) {
			if c := line[j]; ' ' < c && c < 0x7f {
				j++ // most of the text: ASCII letters, digits and punctuation
				continue
			}
			if breakLen(line, j) > 0 {
				break
			}
			_, n := utf8.DecodeRune(line[j:])
			j += n
		}
		w.word(line[i:j])
		i = j
	}
}

// breakLen returns the length of the character at s[i] when breaksWord
// holds for it, else 0.
func breakLen(s []byte, i int) int {
	if c := s[i]; c < utf8.RuneSelf {
		if c <= ' ' || c == 0x7f {
			return 1
		}
		return 0
	}
	r, n := utf8.DecodeRune(s[i:])
	if breaksWord(r) {
		return n
	}
	return 0
}

// word writes one word: on the open line after a space while the line
// stays within commentWidth bytes (a longer word stands alone; a
// "+build" stays on the line before, however long it gets: a line starting
// with it would be a build constraint), else on a new line, which starts
// with the block's marker and a space (the first line of a list item),
// four spaces (the others) or nothing (text).
func (w *docWriter) word(word []byte) {
	if w.open {
		if w.b.Len()-w.line+1+len(word) > commentWidth && string(word) != "+build" {
			w.endLine()
			w.open, w.line = true, w.b.Len()
			if w.marker != "" {
				w.b.WriteString("    ")
			}
		} else {
			w.b.WriteByte(' ')
		}
		w.b.Write(word)
		return
	}
	list := w.marker != ""
	switch {
	case !w.started:
		if len(w.lines) > 0 && !(w.endsInList && list) {
			w.lines = append(w.lines, "")
		}
		w.started = true
	case list != w.list:
		w.lines = append(w.lines, "")
	}
	w.list, w.open, w.line = list, true, w.b.Len()
	if list {
		w.b.WriteString(w.marker)
		w.b.WriteByte(' ')
	}
	w.b.Write(word)
}

// endLine ends the open line, if any: a part of b's string (the bytes a
// strings.Builder has written never change, so the part stays valid as
// more is written).
func (w *docWriter) endLine() {
	if w.open {
		w.lines = append(w.lines, w.b.String()[w.line:])
		w.open = false
	}
}
