package generator

import (
	"html"
	"strings"
)

// Doc text of the spec as Go doc: spec descriptions are Markdown or HTML
// (AWS's are HTML with <note> and <important> blocks). docText rewrites
// what commentLines would otherwise drop or keep raw — links and AWS
// callouts — before commentLines makes comment lines of the rest; the
// lines themselves (wrapping, directive safety) are commentLines' business.

// docText returns text with links made Go doc links — "[text]" in the text,
// and "[text]: url" in defs, one per distinct text, in order — and AWS
// <note>/<important> blocks made paragraphs starting "Note:"/"Important:".
// Only absolute http and https URLs become links; a link to anything else
// keeps its text alone.
func docText(text string) (string, []string) {
	var defs []string
	var seen map[string]bool // made for the first link
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
	text = replaceHTMLLinks(text, link)
	text = replaceMarkdownLinks(text, link)
	return replaceCallouts(text), defs
}

// specDocLines is commentLines of a spec description after docText, with
// the link definitions returned apart: they go at the end of the doc
// comment, one per line, unwrapped.
func specDocLines(text string) (lines, defs []string) {
	text, defs = docText(text)
	lines = commentLines(text)
	// Only a link (or the glue in the spec, or an entity of it) puts glue
	// in a line.
	if strings.Contains(text, linkGlue) || strings.IndexByte(text, '&') >= 0 {
		for i, l := range lines {
			lines[i] = strings.ReplaceAll(l, linkGlue, " ")
		}
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
