package generator

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// scanYAML reads the YAML that real specs are written in into exactly the
// document tree gopkg.in/yaml.v3 makes of it (yaml.Unmarshal into a
// yaml.Node): the same kinds, styles, tags, values, lines and columns
// (1-based, in characters), comments left out (nothing reads them). ok is
// false for anything outside the subset it reads, and the caller then runs
// yaml.v3 itself, whose errors name the place; it never returns a
// different tree (FuzzScanYAML, TestScanYAMLOracle).
//
// The subset (YAML 1.2.2 section numbers):
//   - one document, its root a block mapping or sequence (8.2) or a flow
//     collection (7.4), with an optional "---" line before it and "..."
//     after it (9.1); comments (6.6) and empty lines anywhere a line may
//     end;
//   - block mappings with implicit keys (8.2.2) — plain or quoted scalars
//     on one line, shorter than yaml.v3's 1,024 characters — and block
//     sequences (8.2.1), a sequence entry holding a compact mapping
//     ("- key: v") or sequence ("- - a"), a mapping value holding a
//     sequence at the mapping's own column (8.2.1's indentless sequence);
//   - plain scalars (7.3.3), multi-line ones folded (6.5) in block context;
//     single- and double-quoted scalars (7.3.1, 7.3.2) with every escape
//     yaml.v3 knows, folded over lines; literal and folded block scalars
//     (8.1) with chomping and indentation indicators;
//   - flow mappings and sequences (7.4), nested, across lines, their
//     entries scalars written on one line or flow collections, every
//     mapping entry with a key, ':' and a value.
//
// Plain scalars are tagged as yaml.v3's resolve tags them (plainTag).
// Outside the subset: anchors, aliases, tags, directives, "?" keys, merge
// keys ("<<"), empty keys or flow values, a flow sequence entry that is a
// pair, a trailing comma, a tab anywhere but inside a quoted scalar or a
// block scalar's text, carriage returns, a byte order mark, NEL, LS and PS
// (line breaks to yaml.v3), text yaml.v3's reader refuses (invalid UTF-8,
// control characters), nesting deeper than yamlMaxDepth, and every
// construct YAML calls an error.
//
// It reads the bytes once (issue 24: yaml.v3's parser was 15–19 % of
// generating the SQS and S3 clients): scalars written on one line are
// slices of one copy of the input, and nodes and their children lists come
// from blocks (yamlSlab).
func scanYAML(raw []byte) (doc *yaml.Node, ok bool) {
	if !yamlTextInSubset(raw) {
		return nil, false
	}
	p := &yamlScanner{raw: raw, src: string(raw), line: 1}
	doc = p.document()
	if p.bad {
		return nil, false
	}
	return doc, true
}

// yamlMaxDepth bounds the nesting of collections scanYAML reads (yaml.v3
// refuses 10,000); deeper documents go to yaml.v3.
const yamlMaxDepth = 1000

// yamlTextInSubset reports whether every character of raw is one yaml.v3's
// reader accepts (YAML 1.2.2 5.1: tab, line feed, printable ASCII,
// U+00A0–U+D7FF, U+E000–U+FFFD, U+10000 and above) and none is one
// scanYAML leaves to yaml.v3: a carriage return, NEL (U+0085), LS
// (U+2028), PS (U+2029) — line breaks to yaml.v3 — or a byte order mark
// (U+FEFF, which yaml.v3 skips at some places only).
func yamlTextInSubset(raw []byte) bool {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\n' && c != '\t' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(raw[i:])
		switch {
		case r == utf8.RuneError && size == 1,
			r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff,
			0xd800 <= r && r < 0xe000, r == 0xfffe, r == 0xffff:
			return false
		}
		i += size
	}
	return true
}

// yamlScanner builds yaml.v3 nodes from YAML text. It follows yaml.v3's
// scanner (libyaml's): parent is always the column of the block collection
// a node belongs to (libyaml's indent, -1 for the root), lines and columns
// are 0-based inside and 1-based in nodes.
type yamlScanner struct {
	raw       []byte
	src       string // raw as a string, to slice scalars from
	off       int
	line      int // line of raw[off], 1-based
	lineStart int // offset where that line begins
	bad       bool

	// After a node is read, off is at the first character of the next
	// line holding content (comments and empty lines skipped); ind is that
	// line's indentation, marker whether it begins "---" or "..." at
	// column 0. off is len(raw) at the end.
	ind    int
	marker bool

	// colLine, colOff and colN cache columns: on line colLine,
	// raw[lineStart:colOff] holds colN characters.
	colLine, colOff, colN int

	slab  yamlSlab
	stack []*yaml.Node // children of the collections being read
	buf   []byte       // scratch for scalars that are not slices of src
}

// yamlSlab hands out nodes and children lists from blocks, as kinSlab does
// for kinTree's copy: one allocation per block instead of one per node.
type yamlSlab struct {
	free []yaml.Node
	ptrs []*yaml.Node
}

// yamlSlabNodes and yamlSlabPtrs are the sizes of the blocks (about 40 KiB
// and 8 KiB); a children list longer than a quarter of a block is
// allocated alone.
const (
	yamlSlabNodes = 256
	yamlSlabPtrs  = 1024
)

// node returns a new node.
func (s *yamlSlab) node(kind yaml.Kind, tag string, line, col int) *yaml.Node {
	if len(s.free) == 0 {
		s.free = make([]yaml.Node, yamlSlabNodes)
	}
	n := &s.free[0]
	s.free = s.free[1:]
	n.Kind, n.Tag, n.Line, n.Column = kind, tag, line, col
	return n
}

// content returns a copy of nodes, cut at its length and capacity so that
// an append cannot reach the next list.
func (s *yamlSlab) content(nodes []*yaml.Node) []*yaml.Node {
	n := len(nodes)
	if n > yamlSlabPtrs/4 {
		return append([]*yaml.Node(nil), nodes...)
	}
	if len(s.ptrs) < n {
		s.ptrs = make([]*yaml.Node, yamlSlabPtrs)
	}
	c := s.ptrs[:n:n]
	s.ptrs = s.ptrs[n:]
	copy(c, nodes)
	return c
}

// fail marks the text outside the subset; the node it returns is never used.
func (p *yamlScanner) fail() *yaml.Node {
	p.bad = true
	return nil
}

// at returns raw[i], or 0 past the end.
func (p *yamlScanner) at(i int) byte {
	if i < len(p.raw) {
		return p.raw[i]
	}
	return 0
}

// blankz reports whether raw[i] is a space, a tab, a line feed or the end
// (libyaml's is_blankz, carriage returns and other breaks being refused).
func (p *yamlScanner) blankz(i int) bool {
	if i >= len(p.raw) {
		return true
	}
	c := p.raw[i]
	return c == ' ' || c == '\n' || c == '\t'
}

// column returns the 0-based column, in characters, of off on the current
// line.
func (p *yamlScanner) column(off int) int {
	if p.colLine != p.line || p.colOff > off || p.colOff < p.lineStart {
		p.colLine, p.colOff, p.colN = p.line, p.lineStart, 0
	}
	seg := p.raw[p.colOff:off]
	n := len(seg)
	for _, c := range seg {
		if c >= utf8.RuneSelf {
			n = utf8.RuneCount(seg)
			break
		}
	}
	p.colN += n
	p.colOff = off
	return p.colN
}

// newline moves past the line feed at raw[i].
func (p *yamlScanner) newline(i int) {
	p.line++
	p.lineStart = i + 1
}

// docMarker reports whether raw[i:] begins with "---" or "..." and a blank
// (YAML 1.2.2 9.1.2, 9.1.4); the caller checks that i starts a line.
func (p *yamlScanner) docMarker(i int) bool {
	raw := p.raw
	return len(raw)-i >= 3 && (raw[i] == '-' && raw[i+1] == '-' && raw[i+2] == '-' ||
		raw[i] == '.' && raw[i+1] == '.' && raw[i+2] == '.') && p.blankz(i+3)
}

// spaces skips the spaces at off; a tab fails.
func (p *yamlScanner) spaces() {
	for p.off < len(p.raw) {
		switch p.raw[p.off] {
		case ' ':
			p.off++
		case '\t':
			p.fail()
			return
		default:
			return
		}
	}
}

// lineEnd reads the rest of a line after a node: spaces, a comment, the
// line feed; then skips to the next content (next).
func (p *yamlScanner) lineEnd() {
	p.spaces()
	if p.off < len(p.raw) && p.raw[p.off] == '#' {
		if !p.commentMayStart() {
			p.fail() // "#" right after a token: not a comment to YAML
			return
		}
		if i := bytes.IndexByte(p.raw[p.off:], '\n'); i >= 0 {
			p.off += i
		} else {
			p.off = len(p.raw)
		}
	}
	if p.off < len(p.raw) {
		if p.raw[p.off] != '\n' {
			p.fail()
			return
		}
		p.newline(p.off)
		p.off++
	}
	p.next()
}

// commentMayStart reports whether a "#" at off starts a comment: it
// begins a line or follows a space (YAML 1.2.2 6.6).
func (p *yamlScanner) commentMayStart() bool {
	return p.off == p.lineStart || p.raw[p.off-1] == ' ' || p.raw[p.off-1] == '\n'
}

// next skips empty lines and comment lines from the start of a line to the
// first content, setting ind and marker.
func (p *yamlScanner) next() {
	raw := p.raw
	for {
		j := p.off
		for j < len(raw) && raw[j] == ' ' {
			j++
		}
		if j < len(raw) {
			switch raw[j] {
			case '\n':
				p.newline(j)
				p.off = j + 1
				continue
			case '#':
				if k := bytes.IndexByte(raw[j:], '\n'); k >= 0 {
					p.newline(j + k)
					p.off = j + k + 1
					continue
				}
				j = len(raw)
			case '\t':
				p.fail()
				return
			}
		}
		p.ind = j - p.off
		p.off = j
		p.marker = p.ind == 0 && p.docMarker(j)
		return
	}
}

// document reads the one document of the text.
func (p *yamlScanner) document() *yaml.Node {
	p.next()
	if p.bad {
		return nil
	}
	doc := p.slab.node(yaml.DocumentNode, "", 0, 0)
	explicit := false
	if p.marker {
		if p.raw[p.off] != '-' {
			return p.fail()
		}
		doc.Line, doc.Column = p.line, 1
		explicit = true
		p.off += 3
		p.lineEnd()
	}
	if p.off >= len(p.raw) || p.marker || p.bad {
		return p.fail() // an empty document, or a second one
	}
	root := p.blockNode(p.ind, -1, 0)
	if p.bad || root.Kind == yaml.ScalarNode {
		return p.fail()
	}
	if p.off < len(p.raw) {
		if !p.marker || p.raw[p.off] != '.' {
			return p.fail()
		}
		p.off += 3
		if p.lineEnd(); p.off < len(p.raw) {
			return p.fail() // something after "..."
		}
	}
	if !explicit {
		doc.Line, doc.Column = root.Line, root.Column
	}
	doc.Content = p.slab.content([]*yaml.Node{root})
	return doc
}

// isEntry reports whether raw[i] is a block sequence entry's "-".
func (p *yamlScanner) isEntry(i int) bool {
	return p.at(i) == '-' && p.blankz(i+1)
}

// plainStart reports whether a plain scalar may start at raw[i] (YAML
// 1.2.2 7.3.3, as yaml.v3's scanner decides it).
func (p *yamlScanner) plainStart(i int, flow bool) bool {
	switch c := p.at(i); c {
	case 0, ' ', '\t', '\n', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '-':
		return !p.blankz(i + 1)
	case '?', ':':
		return !flow && !p.blankz(i+1)
	}
	return true
}

// blockNode reads the node that begins a line at column ind, more
// indented than its parent's column.
func (p *yamlScanner) blockNode(ind, parent, depth int) *yaml.Node {
	if depth++; depth > yamlMaxDepth {
		return p.fail()
	}
	raw := p.raw
	switch c := raw[p.off]; {
	case p.isEntry(p.off):
		return p.blockSeq(ind, false, depth)
	case c == '|' || c == '>':
		return p.blockScalar(parent)
	case c == '[' || c == '{':
		n := p.flow(depth)
		if p.bad {
			return nil
		}
		p.lineEnd()
		return n
	case c == '\'' || c == '"' || p.plainStart(p.off, false):
		line := p.line
		n := p.scalar(parent)
		if p.bad {
			return nil
		}
		p.spaces()
		if p.at(p.off) == ':' && p.blankz(p.off+1) {
			if p.line != line || !p.keyFits() {
				return p.fail()
			}
			return p.blockMap(ind, n, depth)
		}
		p.lineEnd()
		return n
	}
	return p.fail()
}

// scalar reads the plain or quoted scalar at off.
func (p *yamlScanner) scalar(parent int) *yaml.Node {
	line, col := p.line, p.column(p.off)+1
	switch p.raw[p.off] {
	case '\'':
		v := p.quoted(parent, false)
		n := p.slab.node(yaml.ScalarNode, "!!str", line, col)
		n.Value, n.Style = v, yaml.SingleQuotedStyle
		return n
	case '"':
		v := p.quoted(parent, false)
		n := p.slab.node(yaml.ScalarNode, "!!str", line, col)
		n.Value, n.Style = v, yaml.DoubleQuotedStyle
		return n
	}
	v := p.plain(parent, false)
	if p.bad || v == "<<" {
		return p.fail() // a merge key
	}
	n := p.slab.node(yaml.ScalarNode, plainTag(v), line, col)
	n.Value = v
	return n
}

// keyFits reports whether an implicit key ends, at off (its ':'), within
// the 1,024 characters yaml.v3 allows it (YAML 1.2.2 7.4.2's limit; counted
// here in bytes, which are at least as many).
func (p *yamlScanner) keyFits() bool {
	return p.off-p.lineStart < 1000
}

// blockMap reads a block mapping at column ind whose first key, k, is
// read, off at its ':'.
func (p *yamlScanner) blockMap(ind int, k *yaml.Node, depth int) *yaml.Node {
	m := p.slab.node(yaml.MappingNode, "!!map", k.Line, k.Column)
	base := len(p.stack)
	for {
		p.off++ // the ':'
		v := p.blockValue(ind, false, depth)
		if p.bad {
			return nil
		}
		p.stack = append(p.stack, k, v)
		if p.off >= len(p.raw) || p.marker || p.ind < ind {
			break
		}
		if p.ind > ind {
			return p.fail()
		}
		if k = p.blockKey(); k == nil {
			return nil
		}
	}
	m.Content = p.slab.content(p.stack[base:])
	clear(p.stack[base:])
	p.stack = p.stack[:base]
	return m
}

// blockKey reads an implicit key of a block mapping and the spaces after
// it, leaving off at its ':'.
func (p *yamlScanner) blockKey() *yaml.Node {
	c := p.raw[p.off]
	if c != '\'' && c != '"' && !p.plainStart(p.off, false) {
		return p.fail()
	}
	line := p.line
	k := p.scalar(-1)
	if p.bad {
		return nil
	}
	p.spaces()
	if p.line != line || p.at(p.off) != ':' || !p.blankz(p.off+1) || !p.keyFits() {
		return p.fail()
	}
	return k
}

// blockSeq reads a block sequence whose entries' "-" are at column ind,
// off at the first; indentless, it is a mapping's value at the mapping's
// own column and ends at the next key.
func (p *yamlScanner) blockSeq(ind int, indentless bool, depth int) *yaml.Node {
	s := p.slab.node(yaml.SequenceNode, "!!seq", p.line, p.column(p.off)+1)
	base := len(p.stack)
	for {
		p.off++ // the '-'
		v := p.blockValue(ind, true, depth)
		if p.bad {
			return nil
		}
		p.stack = append(p.stack, v)
		if p.off >= len(p.raw) || p.marker || p.ind < ind {
			break
		}
		if p.ind > ind {
			return p.fail()
		}
		if !p.isEntry(p.off) {
			if indentless {
				break
			}
			return p.fail()
		}
	}
	s.Content = p.slab.content(p.stack[base:])
	clear(p.stack[base:])
	p.stack = p.stack[:base]
	return s
}

// blockValue reads the node after a mapping's ':' or a sequence entry's
// "-" (seqEntry), off just after it; parent is the collection's column.
func (p *yamlScanner) blockValue(parent int, seqEntry bool, depth int) *yaml.Node {
	if depth++; depth > yamlMaxDepth {
		return p.fail()
	}
	raw := p.raw
	line, col := p.line, p.column(p.off)+1
	p.spaces()
	if p.bad {
		return nil
	}
	if p.off >= len(raw) || raw[p.off] == '\n' || raw[p.off] == '#' {
		// The node begins on a later line, or is empty.
		p.lineEnd()
		if p.bad {
			return nil
		}
		if p.off < len(raw) && !p.marker {
			if p.ind > parent {
				return p.blockNode(p.ind, parent, depth)
			}
			if !seqEntry && p.ind == parent && p.isEntry(p.off) {
				return p.blockSeq(p.ind, true, depth)
			}
		}
		return p.slab.node(yaml.ScalarNode, "!!null", line, col)
	}
	switch c := raw[p.off]; {
	case c == '|' || c == '>':
		return p.blockScalar(parent)
	case c == '[' || c == '{':
		n := p.flow(depth)
		if p.bad {
			return nil
		}
		p.lineEnd()
		return n
	case p.isEntry(p.off):
		if !seqEntry {
			return p.fail()
		}
		return p.blockSeq(p.column(p.off), false, depth)
	case c == '\'' || c == '"' || p.plainStart(p.off, false):
		keyLine, keyCol := p.line, p.column(p.off)
		n := p.scalar(parent)
		if p.bad {
			return nil
		}
		p.spaces()
		if p.at(p.off) == ':' && p.blankz(p.off+1) {
			if !seqEntry || p.line != keyLine || !p.keyFits() {
				return p.fail()
			}
			return p.blockMap(keyCol, n, depth)
		}
		p.lineEnd()
		return n
	}
	return p.fail()
}

// plain reads a plain scalar (YAML 1.2.2 7.3.3) as yaml.v3's scanner
// does: it ends before ": ", " #", a flow indicator in flow context, or a
// line less indented than parent+1 (block context); its lines are folded
// (6.5). off is left after its last character. A plain scalar across lines
// in flow context is left to yaml.v3.
func (p *yamlScanner) plain(parent int, flow bool) string {
	raw := p.raw
	start := p.off
	seg := start // start of the current line's text
	multi := false
	var b []byte
	for {
		// One line: runs of characters separated by spaces.
		i, end, j := seg, seg, seg
		for {
			for i < len(raw) && !p.plainStop(i, flow) {
				i++
			}
			end = i
			for j = i; j < len(raw) && raw[j] == ' '; j++ {
			}
			if j < len(raw) && raw[j] == '\t' {
				p.fail()
				return ""
			}
			if j == i || j >= len(raw) || raw[j] == '\n' || raw[j] == '#' || p.plainStop(j, flow) {
				break
			}
			i = j
		}
		if multi {
			b = append(b, raw[seg:end]...)
		}
		if j >= len(raw) || raw[j] != '\n' {
			p.off = end
			break
		}
		// A line break: the scalar goes on if the next line with content
		// is indented more than parent.
		k, breaks := j+1, 0
		lineStart := k
		for {
			for k < len(raw) && raw[k] == ' ' {
				k++
			}
			if k < len(raw) && raw[k] == '\t' {
				p.fail()
				return ""
			}
			if k < len(raw) && raw[k] == '\n' {
				breaks++
				k++
				lineStart = k
				continue
			}
			break
		}
		if k >= len(raw) || raw[k] == '#' || !flow && k-lineStart < parent+1 || k == lineStart && p.docMarker(k) {
			p.off = end
			break
		}
		if flow && p.plainStop(k, flow) {
			p.off = end // "[a\n, b]": the scalar ends with its line
			break
		}
		if flow || p.plainStop(k, flow) {
			p.fail()
			return ""
		}
		if !multi {
			multi = true
			b = append(p.buf[:0], raw[start:end]...)
		}
		if breaks == 0 {
			b = append(b, ' ')
		}
		for range breaks {
			b = append(b, '\n')
		}
		p.line += 1 + breaks
		p.lineStart = lineStart
		seg = k
	}
	if !multi {
		return p.src[start:p.off]
	}
	p.buf = b
	return string(b)
}

// plainStop reports whether a plain scalar's run of characters ends at
// raw[i]: a space, tab or line feed, ": " (":" and a blank), and in flow
// context a flow indicator or "?" (yaml.v3's scanner).
func (p *yamlScanner) plainStop(i int, flow bool) bool {
	switch p.raw[i] {
	case ' ', '\n', '\t':
		return true
	case ':':
		return p.blankz(i + 1)
	case ',', '?', '[', ']', '{', '}':
		return flow
	}
	return false
}

// quoted reads a single- or double-quoted scalar (YAML 1.2.2 7.3.1, 7.3.2)
// as yaml.v3's scanner does, off at its opening quote: two quotes are one in
// single quotes, double quotes know yaml.v3's escapes, and line breaks
// fold (6.5). A continuation line indented no more than parent (yaml.v3
// does not check it), a document marker and an escape yaml.v3 refuses are
// left to it; in flow context (oneLine), so is any line break.
func (p *yamlScanner) quoted(parent int, oneLine bool) string {
	raw := p.raw
	q := raw[p.off]
	single := q == '\''
	start := p.off + 1
	for i := start; i < len(raw); i++ {
		c := raw[i]
		if c == q {
			if single && p.at(i+1) == '\'' {
				break
			}
			p.off = i + 1
			return p.src[start:i]
		}
		if c == '\n' || c == '\\' && !single {
			break
		}
	}
	b := p.buf[:0]
	i := start
	for {
		if i == p.lineStart && p.docMarker(i) || i >= len(raw) {
			p.fail()
			return ""
		}
		leading, leadingBreak := false, false
		for i < len(raw) && raw[i] != ' ' && raw[i] != '\t' && raw[i] != '\n' {
			c := raw[i]
			if single && c == '\'' && p.at(i+1) == '\'' {
				b = append(b, '\'')
				i += 2
				continue
			}
			if c == q {
				break
			}
			if single || c != '\\' {
				b = append(b, c)
				i++
				continue
			}
			e := p.at(i + 1)
			if e == '\n' { // an escaped line break: no space
				p.newline(i + 1)
				i += 2
				leading = true
				if oneLine {
					p.fail()
					return ""
				}
				break
			}
			var ok bool
			if b, ok = yamlEscape(b, e, raw[min(i+2, len(raw)):]); !ok {
				p.fail()
				return ""
			}
			i += 2 + yamlEscapeLen(e)
		}
		if i < len(raw) && raw[i] == q {
			p.off = i + 1
			break
		}
		ws, breaks := i, 0
		for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n') {
			if raw[i] == '\n' {
				if oneLine {
					p.fail()
					return ""
				}
				if !leading {
					leading, leadingBreak = true, true
				} else {
					breaks++
				}
				p.newline(i)
			}
			i++
		}
		if leading {
			if i-p.lineStart <= parent {
				p.fail() // a continuation line not indented past its parent
				return ""
			}
			if leadingBreak && breaks == 0 {
				b = append(b, ' ')
			}
			for range breaks {
				b = append(b, '\n')
			}
		} else {
			b = append(b, raw[ws:i]...)
		}
	}
	p.buf = b
	return string(b)
}

// yamlEscapeLen is the number of hex digits after the escape letter e.
func yamlEscapeLen(e byte) int {
	switch e {
	case 'x':
		return 2
	case 'u':
		return 4
	case 'U':
		return 8
	}
	return 0
}

// yamlEscape appends what the escape "\\e" stands for in a double-quoted
// scalar, as yaml.v3 decodes it (YAML 1.2.2 5.7); hex holds the text after
// e. ok is false for an escape yaml.v3 refuses: an unknown letter, a
// missing hex digit, a surrogate or a code past U+10FFFF.
func yamlEscape(b []byte, e byte, hex []byte) ([]byte, bool) {
	switch e {
	case '0':
		return append(b, 0), true
	case 'a':
		return append(b, '\a'), true
	case 'b':
		return append(b, '\b'), true
	case 't', '\t':
		return append(b, '\t'), true
	case 'n':
		return append(b, '\n'), true
	case 'v':
		return append(b, '\v'), true
	case 'f':
		return append(b, '\f'), true
	case 'r':
		return append(b, '\r'), true
	case 'e':
		return append(b, 0x1b), true
	case ' ', '"', '\'', '\\':
		return append(b, e), true
	case 'N':
		return append(b, "\u0085"...), true
	case '_':
		return append(b, "\u00a0"...), true
	case 'L':
		return append(b, "\u2028"...), true
	case 'P':
		return append(b, "\u2029"...), true
	}
	n := yamlEscapeLen(e)
	if n == 0 || len(hex) < n {
		return b, false
	}
	r := 0 // eight hex digits overflow a rune
	for _, c := range hex[:n] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return b, false
		}
		r = r<<4 | int(c)
	}
	if 0xd800 <= r && r <= 0xdfff || r > 0x10ffff {
		return b, false
	}
	return utf8.AppendRune(b, rune(r)), true
}

// blockScalar reads a literal or folded block scalar (YAML 1.2.2 8.1) as
// yaml.v3's scanner does, off at its "|" or ">": the header's chomping and
// indentation indicators, the indentation found from the first lines
// otherwise, folding (8.1.3) and chomping (8.1.1.2). It leaves off at the
// start of the first line less indented than its text.
func (p *yamlScanner) blockScalar(parent int) *yaml.Node {
	raw := p.raw
	literal := raw[p.off] == '|'
	n := p.slab.node(yaml.ScalarNode, "!!str", p.line, p.column(p.off)+1)
	n.Style = yaml.FoldedStyle
	if literal {
		n.Style = yaml.LiteralStyle
	}
	i := p.off + 1
	chomp, inc := 0, 0
	for k := 0; k < 2; k++ {
		switch c := p.at(i); {
		case (c == '+' || c == '-') && chomp == 0:
			chomp = 1
			if c == '-' {
				chomp = -1
			}
			i++
		case '1' <= c && c <= '9' && inc == 0:
			inc = int(c - '0')
			i++
		}
	}
	p.off = i
	if p.spaces(); p.bad {
		return nil
	}
	if p.off < len(raw) && raw[p.off] == '#' {
		if p.off == i {
			return p.fail()
		}
		if k := bytes.IndexByte(raw[p.off:], '\n'); k >= 0 {
			p.off += k
		} else {
			p.off = len(raw)
		}
	}
	i = p.off
	if i < len(raw) {
		if raw[i] != '\n' {
			return p.fail()
		}
		p.newline(i)
		i++
	}
	indent := 0
	if inc > 0 {
		indent = parent + inc
		if parent < 0 {
			indent = inc
		}
	}
	b := p.buf[:0]
	breaks := 0
	// scanBreaks is yaml_parser_scan_block_scalar_breaks: it skips the
	// empty lines (counting them) and the indentation of the next line.
	scanBreaks := func() bool {
		maxIndent := 0
		for {
			for (indent == 0 || i-p.lineStart < indent) && i < len(raw) && raw[i] == ' ' {
				i++
			}
			maxIndent = max(maxIndent, i-p.lineStart)
			if (indent == 0 || i-p.lineStart < indent) && i < len(raw) && raw[i] == '\t' {
				return false
			}
			if i >= len(raw) || raw[i] != '\n' {
				break
			}
			breaks++
			p.newline(i)
			i++
		}
		if indent == 0 {
			indent = max(maxIndent, parent+1, 1)
		}
		return true
	}
	if !scanBreaks() {
		return p.fail()
	}
	leadingBlank, leadingBreak := false, false
	for i-p.lineStart == indent && i < len(raw) {
		trailingBlank := raw[i] == ' ' || raw[i] == '\t'
		if !literal && !leadingBlank && !trailingBlank && leadingBreak {
			if breaks == 0 {
				b = append(b, ' ')
			}
		} else if leadingBreak {
			b = append(b, '\n')
		}
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
		leadingBlank = trailingBlank
		j := bytes.IndexByte(raw[i:], '\n')
		if j < 0 {
			j = len(raw) - i
		}
		b = append(b, raw[i:i+j]...)
		i += j
		leadingBreak = false
		if i < len(raw) {
			leadingBreak = true
			p.newline(i)
			i++
		}
		if !scanBreaks() {
			return p.fail()
		}
	}
	if chomp != -1 && leadingBreak {
		b = append(b, '\n')
	}
	if chomp == 1 {
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
	}
	n.Value = string(b)
	p.buf = b
	p.off = p.lineStart
	if i >= len(raw) {
		p.off = i
	}
	p.next()
	return n
}

// flow reads a flow sequence or mapping (YAML 1.2.2 7.4), off at its "["
// or "{", and leaves off after its closing bracket.
func (p *yamlScanner) flow(depth int) *yaml.Node {
	if depth++; depth > yamlMaxDepth {
		return p.fail()
	}
	raw := p.raw
	isMap := raw[p.off] == '{'
	n := p.slab.node(yaml.SequenceNode, "!!seq", p.line, p.column(p.off)+1)
	closer := byte(']')
	if isMap {
		n.Kind, n.Tag, closer = yaml.MappingNode, "!!map", '}'
	}
	n.Style = yaml.FlowStyle
	p.off++
	base := len(p.stack)
	if p.flowSpace(); p.bad {
		return nil
	}
	if p.at(p.off) == closer {
		p.off++
		return n
	}
	for {
		if isMap {
			c := p.at(p.off)
			if c != '\'' && c != '"' && !p.plainStart(p.off, true) {
				return p.fail()
			}
			line := p.line
			k := p.flowScalar()
			if p.bad {
				return nil
			}
			p.spaces()
			if p.line != line || p.at(p.off) != ':' || !p.keyFits() {
				return p.fail()
			}
			p.off++
			if p.flowSpace(); p.bad {
				return nil
			}
			p.stack = append(p.stack, k)
		}
		v := p.flowNode(depth)
		if p.bad {
			return nil
		}
		p.stack = append(p.stack, v)
		if p.flowSpace(); p.bad {
			return nil
		}
		switch p.at(p.off) {
		case ',':
			p.off++
			if p.flowSpace(); p.bad || p.at(p.off) == closer {
				return p.fail() // a trailing comma
			}
			continue
		case closer:
			p.off++
		default:
			return p.fail()
		}
		break
	}
	n.Content = p.slab.content(p.stack[base:])
	clear(p.stack[base:])
	p.stack = p.stack[:base]
	return n
}

// flowNode reads an entry of a flow collection: a collection or a scalar.
func (p *yamlScanner) flowNode(depth int) *yaml.Node {
	switch c := p.at(p.off); {
	case c == '[' || c == '{':
		return p.flow(depth)
	case c == '\'' || c == '"' || p.plainStart(p.off, true):
		return p.flowScalar()
	}
	return p.fail()
}

// flowScalar reads a scalar written on one line in flow context.
func (p *yamlScanner) flowScalar() *yaml.Node {
	line, col := p.line, p.column(p.off)+1
	n := p.slab.node(yaml.ScalarNode, "!!str", line, col)
	switch p.raw[p.off] {
	case '\'':
		n.Value, n.Style = p.quoted(-1, true), yaml.SingleQuotedStyle
	case '"':
		n.Value, n.Style = p.quoted(-1, true), yaml.DoubleQuotedStyle
	default:
		n.Value = p.plain(-1, true)
		if p.bad || n.Value == "<<" {
			return p.fail()
		}
		n.Tag = plainTag(n.Value)
	}
	return n
}

// flowSpace skips spaces, line breaks and comments inside a flow
// collection; a tab or a document marker fails.
func (p *yamlScanner) flowSpace() {
	raw := p.raw
	for p.off < len(raw) {
		switch raw[p.off] {
		case ' ':
			p.off++
		case '\n':
			p.newline(p.off)
			p.off++
			if p.docMarker(p.off) {
				p.fail()
				return
			}
		case '#':
			if !p.commentMayStart() {
				p.fail()
				return
			}
			if k := bytes.IndexByte(raw[p.off:], '\n'); k >= 0 {
				p.off += k
			} else {
				p.off = len(raw)
			}
		case '\t':
			p.fail()
			return
		default:
			return
		}
	}
}

// yamlHint is yaml.v3's resolveTable: the first characters of plain
// scalars that may resolve to something else than a string.
var yamlHint = func() (t [256]byte) {
	t['+'], t['-'], t['.'] = 'S', 'S', '.'
	for _, c := range "0123456789" {
		t[c] = 'D'
	}
	for _, c := range "yYnNtTfFoO~" {
		t[c] = 'M'
	}
	return t
}()

// yamlStyleFloat is yaml.v3's pattern of a float.
var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// plainTag returns the tag yaml.v3 resolves a plain scalar's text to
// (its resolve.go, the YAML 1.2.2 core schema of 10.3.2 with yaml.v3's
// additions): !!null, !!bool, !!int (decimal, 0x, 0o, 0b, a leading 0,
// underscores), !!float (.inf, .nan), !!timestamp (a date, or a date and
// time), or !!str.
func plainTag(s string) string {
	hint := yamlHint[s[0]]
	if hint == 0 {
		return "!!str"
	}
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool"
	case "~", "null", "Null", "NULL":
		return "!!null"
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return "!!float"
	}
	switch hint {
	case 'M':
		return "!!str"
	case '.':
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return "!!float"
		}
		return "!!str"
	}
	if yamlTimestamp(s) {
		return "!!timestamp"
	}
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return "!!int"
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return "!!int"
	}
	if yamlStyleFloat.MatchString(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return "!!float"
		}
	}
	if rest, ok := strings.CutPrefix(plain, "0b"); ok {
		if _, err := strconv.ParseInt(rest, 2, 64); err == nil {
			return "!!int"
		}
		if _, err := strconv.ParseUint(rest, 2, 64); err == nil {
			return "!!int"
		}
	} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
		if _, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
			return "!!int"
		}
	}
	if rest, ok := strings.CutPrefix(plain, "0o"); ok {
		if _, err := strconv.ParseInt(rest, 8, 64); err == nil {
			return "!!int"
		}
		if _, err := strconv.ParseUint(rest, 8, 64); err == nil {
			return "!!int"
		}
	} else if rest, ok := strings.CutPrefix(plain, "-0o"); ok {
		if _, err := strconv.ParseInt("-"+rest, 8, 64); err == nil {
			return "!!int"
		}
	}
	return "!!str"
}

// yamlTimestampFormats are the layouts yaml.v3 reads a timestamp in.
var yamlTimestampFormats = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// yamlTimestamp reports whether yaml.v3 resolves s to a timestamp (its
// parseTimestamp): four digits, "-", and one of yamlTimestampFormats.
func yamlTimestamp(s string) bool {
	i := 0
	for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, f := range yamlTimestampFormats {
		if _, err := time.Parse(f, s); err == nil {
			return true
		}
	}
	return false
}
