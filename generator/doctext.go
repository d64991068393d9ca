package generator

import (
	"html"
	"slices"
	"strings"
	"sync"
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
// comment, one per line, unwrapped. While a generation runs (specDocs),
// each text is converted once: AWS's shapes share member docs (S3: 1,427
// texts, 949 distinct; Twilio: 4,598 and 1,214). The slices returned are
// shared, full to capacity: an append copies them, and no caller writes
// into them.
func specDocLines(text string) (lines, defs []string) {
	if d, ok := specDocs.get(text); ok {
		return d.lines, d.defs
	}
	text0 := text
	text, defs = docText(text)
	lines = commentLines(text)
	// Only a link (or the glue in the spec, or an entity of it) puts glue
	// in a line.
	if strings.Contains(text, linkGlue) || strings.IndexByte(text, '&') >= 0 {
		for i, l := range lines {
			lines[i] = strings.ReplaceAll(l, linkGlue, " ")
		}
	}
	lines, defs = slices.Clip(lines), slices.Clip(defs)
	specDocs.put(text0, specDoc{lines, defs})
	return lines, defs
}

// specDocs holds specDocLines' results by text while at least one
// generation runs (Generate calls begin, then the function it returns);
// outside one nothing is kept.
var specDocs docMemo

// docMemo is a store of specDocLines' results, safe for concurrent
// generations (each result is the same, whoever computes it).
type docMemo struct {
	mu     sync.Mutex
	active int                // generations running
	m      map[string]specDoc // nil when none runs
}

// specDoc is one text's doc comment lines and link definitions.
type specDoc struct{ lines, defs []string }

// begin keeps results until the function it returns is called, and when
// no other generation runs then, drops them.
func (c *docMemo) begin() (end func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.active++
	if c.m == nil {
		c.m = map[string]specDoc{}
	}
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.active--; c.active == 0 {
			c.m = nil
		}
	}
}

// get returns the result kept for text.
func (c *docMemo) get(text string) (specDoc, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.m[text]
	return d, ok
}

// put keeps text's result while a generation runs.
func (c *docMemo) put(text string, d specDoc) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m != nil {
		c.m[text] = d
	}
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
