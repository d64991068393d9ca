package generator

import (
	"bytes"
	"html"
	"strings"
	"sync"
	"unicode/utf8"
)

// Scanners of the doc path (issue 24: the regular expressions that read
// spec descriptions were a tenth of generating SQS's client). Each one is
// a regular expression read by hand: the same matches, leftmost first and
// non-overlapping, the same replacement, in one pass from "<" (or "[") to
// "<" with every search it repeats remembered, so that hostile text is
// read in linear time as RE2 reads it. The expressions themselves are the
// tests' oracles (docscan_test.go).
//
// A scanner appends its result to dst and reports true, or, when nothing
// matches, returns s itself and false; docScratch runs them one after the
// other over two buffers it keeps from text to text, so converting a text
// allocates only its lines.

// docScratch is the memory of the doc path's passes: the text being
// converted is cur, each pass that changes it writes over spare and the
// two swap; paras holds the paragraphs ready for docWriter. It is reused
// from text to text (docScratches): every fresh MiB costs 3-4 ms of page
// faults on our machines (issue 24), and a copy per pass was most of the
// doc path's allocations.
type docScratch struct {
	cur, spare []byte
	paras      []byte
	ends       []int // where each paragraph ends in paras
}

// docScratches holds docScratch values between texts.
var docScratches = sync.Pool{New: func() any { return new(docScratch) }}

// apply makes a pass's result the text when the pass changed it.
func (d *docScratch) apply(out []byte, changed bool) {
	if changed {
		d.cur, d.spare = out, d.cur
	}
}

// docText rewrites cur with links made Go doc links — "[text]" in the
// text, and "[text]: url" in defs, one per distinct text, in order — and
// AWS <note>/<important> blocks made paragraphs starting "Note:" or
// "Important:". Only absolute http and https URLs become links; a link to
// anything else keeps its text alone.
func (d *docScratch) docText() (defs []string) {
	var seen map[string]bool // made for the first link
	link := func(label, url string) string {
		if strings.IndexByte(label, '<') >= 0 {
			label = stripTags(label)
		}
		label = oneSpaced(html.UnescapeString(label))
		url = html.UnescapeString(strings.TrimSpace(url))
		if label == "" {
			label = url
		}
		if strings.ContainsAny(label, "[]") || strings.ContainsAny(url, " \t\n") ||
			!strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
			return label
		}
		if !seen[label] {
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[label] = true
			defs = append(defs, "["+label+"]: "+url)
		}
		// A link's text stays on one line: gofmt does not read a link
		// broken across lines, so the spaces in it are glue until
		// specDocLines has wrapped the text.
		return "[" + strings.ReplaceAll(label, " ", linkGlue) + "]"
	}
	// The links, then the callouts: a link's text may have decoded a "<".
	d.apply(replaceHTMLLinks(d.spare[:0], d.cur, link))
	d.apply(replaceMarkdownLinks(d.spare[:0], d.cur, link))
	d.apply(replaceCallouts(d.spare[:0], d.cur))
	return defs
}

// commentLines returns commentLines of cur; with glue, each linkGlue in a
// line is a space again before defuseLine reads the line (specDocLines).
func (d *docScratch) commentLines(glue bool) []string {
	if !utf8.Valid(d.cur) {
		d.cur = bytes.ToValidUTF8(d.cur, []byte("\uFFFD"))
	}
	d.apply(normalizeBreaks(d.spare[:0], d.cur))
	d.apply(replaceTag(d.spare[:0], d.cur, false, "li", "", "\n* "))
	d.apply(replaceTag(d.spare[:0], d.cur, true, "ul", "ol", "\n\n"))
	d.paras, d.ends = d.paras[:0], d.ends[:0]
	text := d.cur
	for more := true; more; {
		var para []byte
		para, text, more = cutParagraph(text)
		start := len(d.paras)
		out, changed := stripTagsTo(d.paras, para)
		if !changed {
			out = append(d.paras, para...)
		}
		if p := out[start:]; bytes.IndexByte(p, '&') >= 0 {
			out = append(out[:start], html.UnescapeString(string(p))...)
		}
		d.paras = out
		d.ends = append(d.ends, len(d.paras))
	}
	var w docWriter
	if len(d.paras) > 0 {
		// Room for the lines: the words, a space or a line's start
		// between them (four bytes at most where the text had one, a
		// line in about 80 bytes), and an empty line between paragraphs.
		w.b.Grow(len(d.paras) + len(d.paras)/8 + 16)
		w.lines = make([]string, 0, len(d.paras)/80+2*len(d.ends))
	}
	start := 0
	for _, end := range d.ends {
		w.paragraph(d.paras[start:end])
		start = end
	}
	if len(w.lines) == 0 {
		return nil
	}
	for i, l := range w.lines {
		if glue {
			l = strings.ReplaceAll(l, linkGlue, " ")
		}
		w.lines[i] = defuseLine(l)
	}
	return w.lines
}

// oneSpaced returns strings.Join(strings.Fields(s), " "): s itself when
// it is ASCII with single spaces between its words, as most links' texts
// are.
func oneSpaced(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c != ' ' && '\t' <= c && c <= '\r' ||
			c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' ') {
			return strings.Join(strings.Fields(s), " ")
		}
	}
	return s
}

// replaceHTMLLinks replaces each HTML anchor with an href in s by
// link(text, href), the anchor's content and its href's value as written:
// the expression
//
//	(?is)<a\b[^>]*?\bhref\s*=\s*("([^"]*)"|'([^']*)')[^>]*>(.*?)</a\s*>
//
// (text its fourth group, href its second or third). For an anchor start
// "<a" whose tag's first ">" is at g, the candidates are the "href"s
// before g, in order; the first that makes a match wins:
//   - one whose quoted value closes before g ends its tag at g, and its
//     content at the first "</a>" after g;
//   - one whose value holds g (a quoted ">") ends its tag at the first
//     ">" after its closing quote, its content at the first "</a>" after
//     that; at most one per quote character has a value holding g.
//
// A start that gives no match gives none for any later start before g
// (they have the same candidates), so the scan goes on after g; and with
// no "</a>" after g, no later start can match at all.
func replaceHTMLLinks(dst, s []byte, link func(text, href string) string) ([]byte, bool) {
	done := 0
	changed := false
	var gt, dq, sq nextIndex
	gt.sep, dq.sep, sq.sep = ">", `"`, "'"
	var ends nextMatch // the first "</a>" after a tag's g (g only grows)
	noEnd := len(s)    // no "</a>" starts at or after noEnd (see anchorEndAfter)
	for i := 0; ; {
		p := anchorStart(s, i)
		if p < 0 {
			break
		}
		g := gt.from(s, p+2)
		if g < 0 {
			break // no tag ends: no anchor either
		}
		z := ends.from(s, g+1, anchorEnd)
		if z < 0 {
			break
		}
		text, href, end := anchorAt(s, p, g, z, &dq, &sq, &noEnd)
		if end < 0 {
			i = g + 1
			continue
		}
		changed = true
		dst = append(dst, s[done:p]...)
		dst = append(dst, link(string(text), string(href))...)
		done, i = end, end
	}
	if !changed {
		return s, false
	}
	return append(dst, s[done:]...), true
}

// anchorStart returns the first "<a" at or after i followed by a word
// boundary, in any case, or -1.
func anchorStart(s []byte, i int) int {
	for {
		j := bytes.IndexByte(s[i:], '<')
		if j < 0 {
			return -1
		}
		p := i + j
		if p+1 < len(s) && s[p+1]|0x20 == 'a' && wordBoundary(s, p+2) {
			return p
		}
		i = p + 1
	}
}

// anchorAt returns the content and href of the anchor starting at p (see
// replaceHTMLLinks; g is its tag's first ">", z the first "</a>" after g)
// and where the anchor ends, or end -1 when no candidate matches. dq and
// sq find closing quotes (their positions only grow from call to call:
// each candidate's value starts after the last one's), noEnd is
// anchorEndAfter's.
func anchorAt(s []byte, p, g, z int, dq, sq *nextIndex, noEnd *int) (text, href []byte, end int) {
	for k := p + 3; k+4 <= g; k++ {
		if s[k]|0x20 != 'h' || isWordRune(rune(s[k-1])) || foldPrefix(s, k, "href") < 0 {
			continue
		}
		v := skipSpace(s, k+4)
		if v >= len(s) || s[v] != '=' {
			continue
		}
		v = skipSpace(s, v+1)
		var c int
		switch {
		case v >= len(s):
			continue
		case s[v] == '"':
			c = dq.from(s, v+1)
		case s[v] == '\'':
			c = sq.from(s, v+1)
		default:
			continue
		}
		if c < 0 {
			continue
		}
		tag, close := g, z
		if c > g {
			t := bytes.IndexByte(s[c+1:], '>')
			if t < 0 {
				continue
			}
			tag = c + 1 + t
			if close = anchorEndAfter(s, tag+1, z, noEnd); close < 0 {
				continue
			}
		}
		return s[tag+1 : close], s[v+1 : c], anchorEndLen(s, close)
	}
	return nil, nil, -1
}

// anchorEnd returns the first "</a\s*>" (any case) at or after i, or -1.
func anchorEnd(s []byte, i int) int {
	return anchorEndBefore(s, i, len(s))
}

// anchorEndBefore returns the first "</a\s*>" starting in s[i:limit], or
// -1; it reads past limit only to finish one.
func anchorEndBefore(s []byte, i, limit int) int {
	for i < limit {
		j := bytes.Index(s[i:min(len(s), limit+1)], []byte("</"))
		if j < 0 {
			return -1
		}
		q := i + j
		if anchorEndLen(s, q) >= 0 {
			return q
		}
		i = q + 1
	}
	return -1
}

// anchorEndAfter returns the first "</a>" at or after x, where z is the
// first one after the tag's g (z < x needs a search of its own). Every
// search that finds none lowers *noEnd to where it began, and the next
// searches stop there: each part of the text is searched in vain once.
func anchorEndAfter(s []byte, x, z int, noEnd *int) int {
	if z >= x {
		return z
	}
	if x >= *noEnd {
		return -1
	}
	q := anchorEndBefore(s, x, *noEnd)
	if q < 0 {
		*noEnd = x
	}
	return q
}

// anchorEndLen returns where the "</a\s*>" at q ends, or -1 when there is
// none at q.
func anchorEndLen(s []byte, q int) int {
	if !hasPrefix(s[q:], "</") || q+2 >= len(s) || s[q+2]|0x20 != 'a' {
		return -1
	}
	e := skipSpace(s, q+3)
	if e >= len(s) || s[e] != '>' {
		return -1
	}
	return e + 1
}

// replaceMarkdownLinks replaces each Markdown inline link [text](url) in s
// by link(text, url): the expression
//
//	\[([^\[\]\n]+)\]\((\S+?)\)
//
// read by hand. The url runs from the "(" to the first ")" after its first
// character; a space before it, or no ")", is no link.
func replaceMarkdownLinks(dst, s []byte, link func(text, url string) string) ([]byte, bool) {
	done := 0
	changed := false
	var stop nextMatch // the url's end (its start only grows)
	for i := 0; ; {
		j := bytes.IndexByte(s[i:], '[')
		if j < 0 {
			break
		}
		p := i + j
		q := bytes.IndexAny(s[p+1:], "[]\n")
		if q < 0 {
			break // no "]" after p: no link after it either
		}
		q += p + 1
		u := q + 2
		if s[q] != ']' || q == p+1 || u >= len(s) || s[q+1] != '(' || isSpaceByte(s[u]) {
			i = p + 1
			continue
		}
		e := stop.from(s, u+1, urlStop)
		if e < 0 || s[e] != ')' {
			i = p + 1
			continue
		}
		changed = true
		dst = append(dst, s[done:p]...)
		dst = append(dst, link(string(s[p+1:q]), string(s[u:e]))...)
		done, i = e+1, e+1
	}
	if !changed {
		return s, false
	}
	return append(dst, s[done:]...), true
}

// urlStop returns the first ")" or space (\s) at or after i, or -1.
func urlStop(s []byte, i int) int {
	if k := bytes.IndexAny(s[i:], ") \t\n\f\r"); k >= 0 {
		return i + k
	}
	return -1
}

// replaceCallouts makes AWS's <note> and <important> blocks paragraphs:
// each start tag, the spaces after it and a <p> tag right after those
// become "\n\nNote: " or "\n\nImportant: ", and each end tag "\n\n". It is
// the expressions
//
//	(?i)<(note|important)\b[^>]*>\s*(?:<p\b[^>]*>)?
//	(?i)</(?:note|important)\s*>
//
// applied one after the other, read in one pass: a start tag's match
// never holds part of an end tag's, nor the reverse, and neither
// replacement can complete a match.
func replaceCallouts(dst, s []byte) ([]byte, bool) {
	done := 0
	changed := false
	var gt nextIndex
	gt.sep = ">"
	for i := 0; ; {
		j := bytes.IndexByte(s[i:], '<')
		if j < 0 {
			break
		}
		p := i + j
		end, repl := calloutAt(s, p, &gt)
		if end == -2 {
			break
		}
		if end < 0 {
			i = p + 1
			continue
		}
		changed = true
		dst = append(dst, s[done:p]...)
		dst = append(dst, repl...)
		done, i = end, end
	}
	if !changed {
		return s, false
	}
	return append(dst, s[done:]...), true
}

// calloutAt returns the end and the replacement of the callout tag at p
// (see replaceCallouts), end -1 when there is none, -2 when none can
// follow either (no ">" after p). gt finds ">" (its positions only grow).
func calloutAt(s []byte, p int, gt *nextIndex) (end int, repl string) {
	if p+1 < len(s) && s[p+1] == '/' {
		e := calloutName(s, p+2)
		if e < 0 {
			return -1, ""
		}
		if e = skipSpace(s, e); e < len(s) && s[e] == '>' {
			return e + 1, "\n\n"
		}
		return -1, ""
	}
	e := calloutName(s, p+1)
	if e < 0 || !wordBoundary(s, e) {
		return -1, ""
	}
	repl = "\n\nNote: "
	if e-p-1 != len("note") {
		repl = "\n\nImportant: "
	}
	g := gt.from(s, e)
	if g < 0 {
		return -2, ""
	}
	w := skipSpace(s, g+1)
	if w+1 < len(s) && s[w] == '<' && s[w+1]|0x20 == 'p' && wordBoundary(s, w+2) {
		if g2 := gt.from(s, w+2); g2 >= 0 {
			return g2 + 1, repl
		}
	}
	return w, repl
}

// calloutName returns where "note" or "important" (any case) starting at
// j ends, or -1.
func calloutName(s []byte, j int) int {
	if e := foldPrefix(s, j, "note"); e >= 0 {
		return e
	}
	return foldPrefix(s, j, "important")
}

// The list tags: each <li> tag (with any attributes, any case) becomes
// "\n* ", then each <ul>, <ol>, </ul> or </ol> tag "\n\n" (docScratch's
// commentLines, two passes of replaceTag). It is the expressions
//
//	(?i)<li\b[^>]*>
//	(?i)</?(?:ul|ol)\b[^>]*>
//
// applied one after the other (an <li> tag may hold an <ul>'s "<" and end
// it: one pass would read that differently).

// replaceTag replaces each tag named name or alt ("" for none) in s, end
// tags too when ends is set, with repl: "<", an optional "/", the name in
// any case, a word boundary, then up to the next ">".
func replaceTag(dst, s []byte, ends bool, name, alt, repl string) ([]byte, bool) {
	done := 0
	changed := false
	var gt nextIndex
	gt.sep = ">"
	for i := 0; ; {
		j := bytes.IndexByte(s[i:], '<')
		if j < 0 {
			break
		}
		p := i + j
		i = p + 1
		n := p + 1
		if ends && n < len(s) && s[n] == '/' {
			n++
		}
		e := foldPrefix(s, n, name)
		if e < 0 && alt != "" {
			e = foldPrefix(s, n, alt)
		}
		if e < 0 || !wordBoundary(s, e) {
			continue
		}
		g := gt.from(s, e)
		if g < 0 {
			break
		}
		changed = true
		dst = append(dst, s[done:p]...)
		dst = append(dst, repl...)
		done, i = g+1, g+1
	}
	if !changed {
		return s, false
	}
	return append(dst, s[done:]...), true
}

// normalizeBreaks makes every line break in s "\n" and each "</p>" or
// "</P>" a blank line: strings.NewReplacer("\r\n", "\n", "\r", "\n",
// "</p>", "\n\n", "</P>", "\n\n") read by hand.
func normalizeBreaks(dst, s []byte) ([]byte, bool) {
	done := 0
	changed := false
	cr := bytes.IndexByte(s, '\r') >= 0
	for i := 0; i < len(s); {
		var j int
		if cr {
			j = bytes.IndexAny(s[i:], "\r<")
		} else {
			j = bytes.IndexByte(s[i:], '<')
		}
		if j < 0 {
			break
		}
		p := i + j
		var n int
		var repl string
		switch {
		case s[p] == '\r' && p+1 < len(s) && s[p+1] == '\n':
			n, repl = 2, "\n"
		case s[p] == '\r':
			n, repl = 1, "\n"
		case hasPrefix(s[p:], "</p>") || hasPrefix(s[p:], "</P>"):
			n, repl = 4, "\n\n"
		default:
			i = p + 1
			continue
		}
		changed = true
		dst = append(dst, s[done:p]...)
		dst = append(dst, repl...)
		done, i = p+n, p+n
	}
	if !changed {
		return s, false
	}
	return append(dst, s[done:]...), true
}

// cutParagraph returns the text before the first blank line in s (a
// "\n", spaces and tabs, then a "\n": the expression \n[ \t]*\n) and the
// text after it; found is false when s has none.
func cutParagraph(s []byte) (para, rest []byte, found bool) {
	for i := 0; ; {
		j := bytes.IndexByte(s[i:], '\n')
		if j < 0 {
			return s, nil, false
		}
		p := i + j
		e := p + 1
		for e < len(s) && (s[e] == ' ' || s[e] == '\t') {
			e++
		}
		if e < len(s) && s[e] == '\n' {
			return s[:p], s[e+1:], true
		}
		i = e
	}
}

// bulletPrefix returns the Go doc list marker of a Markdown list item's
// line ("  -" for "* ", "- " or "+ ", " 7." for "7. " or "7) ") and the
// line after its bullet; ok is false for other lines. It is the expression
//
//	^[ \t]*(?:[*+-]|([0-9]{1,9})[.)])[ \t]+
//
// read by hand.
func bulletPrefix(line []byte) (marker string, rest []byte, ok bool) {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i >= len(line) {
		return "", nil, false
	}
	marker = "  -"
	d := -1 // where the number starts
	switch c := line[i]; {
	case c == '*' || c == '+' || c == '-':
		i++
	case '0' <= c && c <= '9':
		d = i
		for i < len(line) && '0' <= line[i] && line[i] <= '9' {
			i++
		}
		if i-d > 9 || i >= len(line) || line[i] != '.' && line[i] != ')' {
			return "", nil, false
		}
		i++
	default:
		return "", nil, false
	}
	e := i
	for e < len(line) && (line[e] == ' ' || line[e] == '\t') {
		e++
	}
	if e == i {
		return "", nil, false
	}
	if d >= 0 {
		marker = " " + string(line[d:i-1]) + "."
	}
	return marker, line[e:], true
}

// skipSpace returns the first index at or after i that is not a space of
// regular expressions' \s (tab, newline, form feed, carriage return,
// space), or len(s).
func skipSpace(s []byte, i int) int {
	for i < len(s) && isSpaceByte(s[i]) {
		i++
	}
	return i
}

// isSpaceByte reports regular expressions' \s: tab, newline, form feed,
// carriage return or space.
func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// nextMatch finds, with a function, the first match at or after a
// position that only grows from call to call, searching each part of the
// text at most once (nextIndex for a search other than one string).
type nextMatch struct {
	found bool // at is known: the first match at or after the last position asked
	at    int  // -1 for none
}

// from returns find(s, p), the first match in s at or after p (p at least
// the last call's), or -1.
func (n *nextMatch) from(s []byte, p int, find func(s []byte, p int) int) int {
	if n.found && (n.at < 0 || n.at >= p) {
		return n.at
	}
	n.found, n.at = true, find(s, p)
	return n.at
}
