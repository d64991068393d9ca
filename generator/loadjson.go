package generator

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// parseJSON parses a spec file written as JSON (its first byte other than
// white space is "{") into the same document tree parseYAML makes, with
// the strings exactly as encoding/json decodes them: a YAML parser folds a
// raw U+0085 (NEL) inside a string into a space and refuses a key of 1,024
// characters or more, both valid JSON. Every node keeps the line and
// column (1-based, in bytes) of its first byte. ok is false when raw is not
// valid JSON (what json.Valid refuses, nesting deeper than its 10,000
// levels included): the caller then reads it as YAML, a superset of JSON,
// whose parser names the place of a syntax error.
//
// It reads the bytes once, without encoding/json (issue 24: json.Valid
// then the decoder's token API were 9 % of generating Stripe's client);
// FuzzParseJSON checks it against encoding/json.
func parseJSON(raw []byte) (doc *yaml.Node, ok bool) {
	p := &jsonScanner{raw: raw, line: 1, keys: map[string]string{}}
	p.space()
	if p.off >= len(raw) || raw[p.off] != '{' {
		return nil, false
	}
	root := p.value(0)
	if p.bad {
		return nil, false
	}
	if p.space(); p.off != len(raw) {
		return nil, false // text after the value
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{root}}, true
}

// jsonMaxDepth is encoding/json's nesting limit: json.Valid refuses a
// document nested deeper, which is then read as YAML.
const jsonMaxDepth = 10000

// jsonScanner builds yaml nodes from JSON text (RFC 8259).
type jsonScanner struct {
	raw       []byte
	off       int
	line      int  // line of raw[off]
	lineStart int  // offset where that line begins
	bad       bool // raw is not valid JSON
	// stack holds the children of the containers being read, so each
	// node's Content is allocated once at its final length.
	stack []*yaml.Node
	// keys interns mapping keys: a spec repeats a few hundred names.
	keys map[string]string
	buf  []byte // unescaping scratch
}

// space skips JSON white space, counting lines.
func (p *jsonScanner) space() {
	for p.off < len(p.raw) {
		switch p.raw[p.off] {
		case '\n':
			p.line++
			p.lineStart = p.off + 1
		case ' ', '\t', '\r':
		default:
			return
		}
		p.off++
	}
}

// fail marks raw invalid; the nil node it returns is never used.
func (p *jsonScanner) fail() *yaml.Node {
	p.bad = true
	return nil
}

// value reads the value at p.off (white space already skipped), nested
// depth containers deep.
func (p *jsonScanner) value(depth int) *yaml.Node {
	if p.off >= len(p.raw) {
		return p.fail()
	}
	n := &yaml.Node{Line: p.line, Column: p.off - p.lineStart + 1}
	switch c := p.raw[p.off]; {
	case c == '{' || c == '[':
		if depth++; depth > jsonMaxDepth {
			return p.fail()
		}
		end := byte('}')
		n.Kind, n.Tag = yaml.MappingNode, "!!map"
		if c == '[' {
			end, n.Kind, n.Tag = ']', yaml.SequenceNode, "!!seq"
		}
		p.off++
		p.space()
		if p.off < len(p.raw) && p.raw[p.off] == end {
			p.off++
			return n
		}
		base := len(p.stack)
		for {
			if n.Kind == yaml.MappingNode {
				k := p.key()
				if p.bad {
					return nil
				}
				p.stack = append(p.stack, k)
				p.space()
				if p.off >= len(p.raw) || p.raw[p.off] != ':' {
					return p.fail()
				}
				p.off++
				p.space()
			}
			v := p.value(depth)
			if p.bad {
				return nil
			}
			p.stack = append(p.stack, v)
			p.space()
			if p.off >= len(p.raw) {
				return p.fail()
			}
			if p.raw[p.off] == end {
				p.off++
				break
			}
			if p.raw[p.off] != ',' {
				return p.fail()
			}
			p.off++
			p.space()
		}
		n.Content = append([]*yaml.Node(nil), p.stack[base:]...)
		clear(p.stack[base:])
		p.stack = p.stack[:base]
	case c == '"':
		s, ok := p.str(false)
		if !ok {
			return p.fail()
		}
		n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "!!str", s, yaml.DoubleQuotedStyle
	case c == '-' || '0' <= c && c <= '9':
		text, float, ok := p.number()
		if !ok {
			return p.fail()
		}
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!int", text
		if float || !fitsInteger(text) {
			n.Tag = "!!float" // as a YAML parser resolves an integer beyond uint64
		}
	case p.literal("true"):
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!bool", "true"
	case p.literal("false"):
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!bool", "false"
	case p.literal("null"):
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!null", "null"
	default:
		return p.fail()
	}
	return n
}

// key reads a mapping key.
func (p *jsonScanner) key() *yaml.Node {
	if p.off >= len(p.raw) || p.raw[p.off] != '"' {
		return p.fail()
	}
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Line: p.line, Column: p.off - p.lineStart + 1}
	s, ok := p.str(true)
	if !ok {
		return p.fail()
	}
	k.Value = s
	return k
}

// literal consumes word (true, false, null) when raw continues with it.
func (p *jsonScanner) literal(word string) bool {
	if len(p.raw)-p.off < len(word) || string(p.raw[p.off:p.off+len(word)]) != word {
		return false
	}
	p.off += len(word)
	return true
}

// number reads a number and returns its text as written, and whether it
// has a fraction or an exponent.
func (p *jsonScanner) number() (text string, float, ok bool) {
	start := p.off
	raw := p.raw
	if raw[p.off] == '-' {
		p.off++
	}
	digits := func() int {
		n := 0
		for p.off < len(raw) && '0' <= raw[p.off] && raw[p.off] <= '9' {
			p.off++
			n++
		}
		return n
	}
	switch {
	case p.off < len(raw) && raw[p.off] == '0':
		p.off++
	case digits() == 0:
		return "", false, false
	}
	if p.off < len(raw) && raw[p.off] == '.' {
		p.off++
		float = true
		if digits() == 0 {
			return "", false, false
		}
	}
	if p.off < len(raw) && (raw[p.off] == 'e' || raw[p.off] == 'E') {
		p.off++
		float = true
		if p.off < len(raw) && (raw[p.off] == '+' || raw[p.off] == '-') {
			p.off++
		}
		if digits() == 0 {
			return "", false, false
		}
	}
	return string(raw[start:p.off]), float, true
}

// str reads a string at p.off (its opening quote) and returns it decoded
// as encoding/json decodes it: escapes resolved, a lone or broken UTF-16
// surrogate escape and every byte of invalid UTF-8 replaced by U+FFFD.
// Keys are interned.
func (p *jsonScanner) str(intern bool) (string, bool) {
	raw := p.raw
	start := p.off + 1
	i := start
	for i < len(raw) {
		c := raw[i]
		if c == '"' {
			p.off = i + 1
			s := raw[start:i]
			if intern {
				if v, ok := p.keys[string(s)]; ok {
					return v, true
				}
				v := string(s)
				p.keys[v] = v
				return v, true
			}
			return string(s), true
		}
		if c == '\\' || c < ' ' {
			break
		}
		if c >= utf8.RuneSelf {
			if r, size := utf8.DecodeRune(raw[i:]); r != utf8.RuneError || size > 1 {
				i += size
				continue
			}
			break // invalid UTF-8: replaced below
		}
		i++
	}
	// The slow path: escapes, control characters (invalid) or non-ASCII.
	b := append(p.buf[:0], raw[start:i]...)
	for {
		if i >= len(raw) {
			return "", false
		}
		c := raw[i]
		switch {
		case c == '"':
			p.off = i + 1
			p.buf = b
			return string(b), true
		case c < ' ':
			return "", false
		case c == '\\':
			if i+1 >= len(raw) {
				return "", false
			}
			switch e := raw[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
				i += 2
			case 'b':
				b, i = append(b, '\b'), i+2
			case 'f':
				b, i = append(b, '\f'), i+2
			case 'n':
				b, i = append(b, '\n'), i+2
			case 'r':
				b, i = append(b, '\r'), i+2
			case 't':
				b, i = append(b, '\t'), i+2
			case 'u':
				r := hex4(raw[i+2:])
				if r < 0 {
					return "", false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if len(raw)-i >= 2 && raw[i] == '\\' && raw[i+1] == 'u' {
						r2 = hex4(raw[i+2:])
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						b = utf8.AppendRune(b, d)
						i += 6
						break
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", false
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			b = utf8.AppendRune(b, r)
			i += size
		}
	}
}

// hex4 decodes the four hex digits b starts with, or returns -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// fitsInteger reports whether the JSON integer text fits int64 or uint64,
// the integers a YAML decoder constructs; a longer one is a float to it
// (trial F8: "cannot construct !!float … as a !!int" failed the spec).
func fitsInteger(text string) bool {
	if len(text) < 19 {
		return true // the common case, without parsing
	}
	if _, err := strconv.ParseInt(text, 10, 64); err == nil {
		return true
	}
	_, err := strconv.ParseUint(text, 10, 64)
	return err == nil
}
