package generator

import (
	"bytes"
	"slices"
	"sync"
)

// Doc text of the spec as Go doc: spec descriptions are Markdown or HTML
// (AWS's are HTML with <note> and <important> blocks). docText rewrites
// what commentLines would otherwise drop or keep raw — links and AWS
// callouts — before commentLines makes comment lines of the rest; the
// lines themselves (wrapping, directive safety) are commentLines' business.

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
	d := docScratches.Get().(*docScratch)
	defer docScratches.Put(d)
	d.cur = append(d.cur[:0], text...)
	defs = d.docText()
	// Only a link (or the glue in the spec, or an entity of it) puts glue
	// in a line. It is a space again before defuseLine reads the line: a
	// spec's own U+E000 before "+build" made a build constraint when it
	// became a space after.
	glue := bytes.Contains(d.cur, []byte(linkGlue)) || bytes.IndexByte(d.cur, '&') >= 0
	lines = d.commentLines(glue)
	lines, defs = slices.Clip(lines), slices.Clip(defs)
	specDocs.put(text, specDoc{lines, defs})
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
