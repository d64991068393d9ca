package generator

import (
	"html"
	"regexp"
	"strings"
)

// Doc text of the spec as Go doc: spec descriptions are Markdown or HTML
// (AWS's are HTML with <note> and <important> blocks). docText rewrites
// what commentLines would otherwise drop or keep raw — links and AWS
// callouts — before commentLines makes comment lines of the rest; the
// lines themselves (wrapping, directive safety) are commentLines' business.

var (
	// htmlLink is an HTML anchor with an href; markdownLink a Markdown
	// inline link [text](url).
	htmlLink     = regexp.MustCompile(`(?is)<a\b[^>]*?\bhref\s*=\s*("([^"]*)"|'([^']*)')[^>]*>(.*?)</a\s*>`)
	markdownLink = regexp.MustCompile(`\[([^\[\]\n]+)\]\((\S+?)\)`)
	// callout is AWS's <note> and <important> (and their ends), with a
	// paragraph tag right after the start.
	calloutStart = regexp.MustCompile(`(?i)<(note|important)\b[^>]*>\s*(?:<p\b[^>]*>)?`)
	calloutEnd   = regexp.MustCompile(`(?i)</(?:note|important)\s*>`)
)

// docText returns text with links made Go doc links — "[text]" in the text,
// and "[text]: url" in defs, one per distinct text, in order — and AWS
// <note>/<important> blocks made paragraphs starting "Note:"/"Important:".
// Only absolute http and https URLs become links; a link to anything else
// keeps its text alone.
func docText(text string) (string, []string) {
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
	if hasTag(text, "a") {
		text = htmlLink.ReplaceAllStringFunc(text, func(a string) string {
			m := htmlLink.FindStringSubmatch(a)
			return link(m[4], m[2]+m[3])
		})
	}
	if strings.Contains(text, "](") {
		text = markdownLink.ReplaceAllStringFunc(text, func(a string) string {
			m := markdownLink.FindStringSubmatch(a)
			return link(m[1], m[2])
		})
	}
	// (Checked after the links: a link's text may have decoded a "<".)
	if hasTag(text, "note") || hasTag(text, "important") {
		text = calloutStart.ReplaceAllStringFunc(text, func(s string) string {
			m := calloutStart.FindStringSubmatch(s)
			return "\n\n" + strings.ToUpper(m[1][:1]) + strings.ToLower(m[1][1:]) + ": "
		})
	}
	if hasTag(text, "/note") || hasTag(text, "/important") {
		text = calloutEnd.ReplaceAllString(text, "\n\n")
	}
	return text, defs
}

// specDocLines is commentLines of a spec description after docText, with
// the link definitions returned apart: they go at the end of the doc
// comment, one per line, unwrapped.
func specDocLines(text string) (lines, defs []string) {
	text, defs = docText(text)
	lines = commentLines(text)
	for i, l := range lines {
		lines[i] = strings.ReplaceAll(l, linkGlue, " ")
	}
	return lines, defs
}

// linkGlue stands for a space inside a link's text while commentLines wraps
// (a private-use character: no spec text holds it on purpose, and
// commentLines keeps it).
const linkGlue = ""

// withDefs appends link definitions to comment lines, after an empty line.
func withDefs(lines, defs []string) []string {
	if len(defs) == 0 {
		return lines
	}
	if len(lines) > 0 {
		lines = append(lines, "")
	}
	return append(lines, defs...)
}

// hasTag reports whether text holds "<" followed by name, in any case: a
// tag's expression above cannot match without it.
func hasTag(text, name string) bool {
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
