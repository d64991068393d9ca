package generator

// The doc path as it was before docfast (issue 24), kept whole as the
// oracle of the hand-written scanners: docTextOracle, commentLinesOracle
// specDocLinesOracle and docCommentOracle are the former docText,
// commentLines, specDocLines and docComment, regular expressions and all.

import (
	"go/build/constraint"
	"html"
	"regexp"
	"strings"

	"github.com/dave/jennifer/jen"
)

var (
	// htmlLinkOracle is an HTML anchor with an href; markdownLinkOracle a
	// Markdown inline link [text](url).
	htmlLinkOracle     = regexp.MustCompile(`(?is)<a\b[^>]*?\bhref\s*=\s*("([^"]*)"|'([^']*)')[^>]*>(.*?)</a\s*>`)
	markdownLinkOracle = regexp.MustCompile(`\[([^\[\]\n]+)\]\((\S+?)\)`)
	// calloutStartOracle and calloutEndOracle are AWS's <note> and
	// <important> (and their ends), with a paragraph tag right after the
	// start.
	calloutStartOracle = regexp.MustCompile(`(?i)<(note|important)\b[^>]*>\s*(?:<p\b[^>]*>)?`)
	calloutEndOracle   = regexp.MustCompile(`(?i)</(?:note|important)\s*>`)
	// listItemTagOracle and listTagOracle are HTML's <li> and <ul>/<ol>.
	listItemTagOracle = regexp.MustCompile(`(?i)<li\b[^>]*>`)
	listTagOracle     = regexp.MustCompile(`(?i)</?(?:ul|ol)\b[^>]*>`)
	// bulletOracle is a Markdown list item's start: "* ", "- ", "+ ",
	// "1. " or "1) ", after any indentation.
	bulletOracle = regexp.MustCompile(`^[ \t]*(?:[*+-]|([0-9]{1,9})[.)])[ \t]+`)
	// blankLineOracle separates paragraphs.
	blankLineOracle = regexp.MustCompile(`\n[ \t]*\n`)
)

// paragraphBreaksOracle makes every line break "\n" and a </p> a blank line.
var paragraphBreaksOracle = strings.NewReplacer("\r\n", "\n", "\r", "\n", "</p>", "\n\n", "</P>", "\n\n")

// docTextOracle returns text with links made Go doc links — "[text]" in the text,
// and "[text]: url" in defs, one per distinct text, in order — and AWS
// <note>/<important> blocks made paragraphs starting "Note:"/"Important:".
// Only absolute http and https URLs become links; a link to anything else
// keeps its text alone.
func docTextOracle(text string) (string, []string) {
	var defs []string
	seen := map[string]bool{}
	link := func(label, url string) string {
		label = strings.Join(strings.Fields(html.UnescapeString(stripTags(label))), " ")
		url = html.UnescapeString(strings.TrimSpace(url))
		if label == "" {
			label = url
		}
		if strings.ContainsAny(label, "[]") || strings.ContainsAny(url, " \t\n") ||
			!strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
			return label
		}
		if !seen[label] {
			seen[label] = true
			defs = append(defs, "["+label+"]: "+url)
		}
		// A link's text stays on one line: gofmt does not read a link
		// broken across lines, so the spaces in it are glue until
		// specDocLines has wrapped the text.
		return "[" + strings.ReplaceAll(label, " ", linkGlue) + "]"
	}
	// Each expression needs its tag or a "](" to match; most descriptions
	// have none (issue 24: scanning them was a tenth of generating SQS's
	// client, whose HTML docs these case-insensitive expressions read
	// byte by byte).
	if hasTagOracle(text, "a") {
		text = htmlLinkOracle.ReplaceAllStringFunc(text, func(a string) string {
			m := htmlLinkOracle.FindStringSubmatch(a)
			return link(m[4], m[2]+m[3])
		})
	}
	if strings.Contains(text, "](") {
		text = markdownLinkOracle.ReplaceAllStringFunc(text, func(a string) string {
			m := markdownLinkOracle.FindStringSubmatch(a)
			return link(m[1], m[2])
		})
	}
	// (Checked after the links: a link's text may have decoded a "<".)
	if hasTagOracle(text, "note") || hasTagOracle(text, "important") {
		text = calloutStartOracle.ReplaceAllStringFunc(text, func(s string) string {
			m := calloutStartOracle.FindStringSubmatch(s)
			return "\n\n" + strings.ToUpper(m[1][:1]) + strings.ToLower(m[1][1:]) + ": "
		})
	}
	if hasTagOracle(text, "/note") || hasTagOracle(text, "/important") {
		text = calloutEndOracle.ReplaceAllString(text, "\n\n")
	}
	return text, defs
}

// specDocLinesOracle is commentLines of a spec description after docText, with
// the link definitions returned apart: they go at the end of the doc
// comment, one per line, unwrapped.
func specDocLinesOracle(text string) (lines, defs []string) {
	text, defs = docTextOracle(text)
	lines = commentLinesOracle(text)
	for i, l := range lines {
		// The one change since docfast began: defuseLine reads the line
		// with its glue made a space (TestSpecTextGlueMakesNoBuildConstraint);
		// defusing it again does what defusing it after the glue does.
		lines[i] = defuseLineOracle(strings.ReplaceAll(l, linkGlue, " "))
	}
	return lines, defs
}

// commentLinesOracle turns a spec description into plain-text lines for
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
func commentLinesOracle(text string) []string {
	text = paragraphBreaksOracle.Replace(strings.ToValidUTF8(text, "\uFFFD"))
	// The regular expressions below match nothing without a "<" or a line
	// break; most descriptions have neither, and scanning them was most
	// of the doc comments' time (issue 24).
	tags := strings.IndexByte(text, '<') >= 0
	if hasTagOracle(text, "li") {
		text = listItemTagOracle.ReplaceAllString(text, "\n* ")
	}
	if hasTagOracle(text, "ul") || hasTagOracle(text, "ol") || hasTagOracle(text, "/ul") || hasTagOracle(text, "/ol") {
		text = listTagOracle.ReplaceAllString(text, "\n\n")
	}
	paras := []string{text}
	if strings.IndexByte(text, '\n') >= 0 {
		paras = blankLineOracle.Split(text, -1)
	}
	var out []string
	endsInList := false
	for _, para := range paras {
		if tags {
			para = stripTags(para)
		}
		lines, startsList, endsList := paragraphLinesOracle(html.UnescapeString(para))
		if len(lines) == 0 {
			continue
		}
		// Items of one list stay together even when a paragraph ends inside
		// an item (<li><p>…</p></li>).
		if len(out) > 0 && !(endsInList && startsList) {
			out = append(out, "")
		}
		out = append(out, lines...)
		endsInList = endsList
	}
	for i, l := range out {
		out[i] = defuseLineOracle(l)
	}
	return out
}

// defuseLineOracle keeps a comment line made from spec text from becoming
// anything but prose once jennifer writes it as "// " + l: a line starting
// with "//" or "/*" (which jennifer would print raw: "//go:generate …",
// "//line …", "/* …") gets a leading space, and a line that go/build and
// gofmt would read as an old build constraint (constraint.IsPlusBuild:
// "+build" after any spaces, then a space or the end) has its "+build"
// written "\+build", the Markdown escape. Directives need "//" directly
// before the name ("//go:", "//line ", "//export "), which "// " never is.
func defuseLineOracle(l string) string {
	if strings.HasPrefix(l, "//") || strings.HasPrefix(l, "/*") {
		l = " " + l
	}
	if constraint.IsPlusBuild("// " + l) {
		i := strings.Index(l, "+build")
		l = l[:i] + `\` + l[i:]
	}
	return l
}

// paragraphLinesOracle renders one paragraph: its text wrapped, and each list
// item (a line starting with a bullet; the lines after it, up to the next
// item, continue it) as a Go doc comment list item, set apart from text by
// an empty line as gofmt sets lists apart. It reports whether the
// paragraph starts and ends with a list item.
func paragraphLinesOracle(para string) (out []string, startsList, endsList bool) {
	type block struct {
		marker string // "" for text, "  -" or " 1." for a list item
		words  []string
	}
	var blocks []block
	for _, line := range strings.Split(para, "\n") {
		if m := bulletOracle.FindStringSubmatch(line); m != nil {
			marker := "  -"
			if m[1] != "" {
				marker = " " + m[1] + "."
			}
			blocks = append(blocks, block{marker: marker})
			line = line[len(m[0]):]
		} else if len(blocks) == 0 {
			blocks = append(blocks, block{})
		}
		b := &blocks[len(blocks)-1]
		b.words = append(b.words, strings.FieldsFunc(line, breaksWord)...)
	}
	prevList := false
	for _, b := range blocks {
		if len(b.words) == 0 {
			continue
		}
		list := b.marker != ""
		if len(out) == 0 {
			startsList = list
		} else if list != prevList {
			out = append(out, "")
		}
		prevList = list
		if list {
			out = append(out, wrapOracle(b.words, b.marker+" ", "    ")...)
			continue
		}
		out = append(out, wrapOracle(b.words, "", "")...)
	}
	return out, startsList, prevList
}

// wrapOracle joins words into lines of at most commentWidth bytes (longer words
// stand alone), the first line starting with first and the others with
// rest.
func wrapOracle(words []string, first, rest string) []string {
	var lines []string
	line := first + words[0]
	for _, w := range words[1:] {
		// A line starting "+build" would be a build constraint: keep
		// the word on the line before, however long it gets.
		if len(line)+1+len(w) > commentWidth && w != "+build" {
			lines = append(lines, line)
			line = rest + w
			continue
		}
		line += " " + w
	}
	return append(lines, line)
}

// hasTagOracle reports whether text holds "<" followed by name, in any case: a
// tag's expression above cannot match without it.
func hasTagOracle(text, name string) bool {
	for i := strings.IndexByte(text, '<'); i >= 0; {
		rest := text[i+1:]
		if len(rest) >= len(name) && strings.EqualFold(rest[:len(name)], name) {
			return true
		}
		j := strings.IndexByte(rest, '<')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// docCommentOracle is docComment as it was before docfast; it returns a doc comment built like a hand-written SDK's: the
// spec's own text first (spec: summary, then description; empty and
// repeated texts left out), then the generator's notes (one paragraph each;
// the first names the declaration, so it leads when the spec says nothing),
// and last "Source: #POINTER", the JSON pointer of what the declaration is
// generated from (omitted when source is ""), continuing the paragraph
// before it (notesAfter); then the Go doc link
// definitions of the spec text's links ("[text]: url"). Spec text passes
// through docText and commentLines, notes through commentLines; the pointer is fragment-encoded, so no line can end
// the comment.
func docCommentOracle(spec, notes []string, source string) *jen.Statement {
	var paras [][]string
	var defs []string
	seen := map[string]bool{}
	for _, text := range spec {
		lines, ds := specDocLinesOracle(text)
		key := strings.Join(lines, " ")
		if len(lines) == 0 || seen[key] {
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
		if lines := commentLinesOracle(n); len(lines) > 0 {
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
	lines = withDefs(lines, defs) // Go doc link definitions end the comment
	if len(lines) == 0 {
		return &jen.Statement{}
	}
	s := jen.Comment(lines[0])
	for _, l := range lines[1:] {
		s.Line().Comment(l)
	}
	return s
}
