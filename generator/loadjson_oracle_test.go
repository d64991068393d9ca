package generator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// parseJSONTokens is the parser parseJSON replaced (issue 24: encoding/json's token API was 9 % of generating Stripe), kept as the fuzz oracle. It parses a spec file written as JSON (its first byte other than
// white space is "{") into the same document tree parseYAML makes, with
// encoding/json, so the strings are exactly JSON's: a YAML parser folds a
// raw U+0085 (NEL) inside a string into a space and refuses a key of 1,024
// characters or more, both valid JSON. Nodes keep their line and column;
// a syntax error names the file, line and column. ok is false when raw is
// not JSON: the caller reads it as YAML (a superset of JSON).
func parseJSONTokens(file string, raw []byte) (doc *yaml.Node, ok bool, err error) {
	trimmed := bytes.TrimLeft(raw, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(raw) {
		return nil, false, nil
	}
	p := &tokenParser{raw: raw, dec: json.NewDecoder(bytes.NewReader(raw))}
	p.dec.UseNumber()
	for i, c := range raw {
		if c == '\n' {
			p.lines = append(p.lines, i+1)
		}
	}
	root, err := p.value()
	if err != nil {
		return nil, true, fmt.Errorf("%s: %w", file, err)
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{root}}, true, nil
}

// tokenParser builds yaml nodes from encoding/json's tokens.
type tokenParser struct {
	raw   []byte
	dec   *json.Decoder
	lines []int // offsets where lines 2, 3, … begin
}

// pos returns the line and column (1-based, in bytes) of the next token.
func (p *tokenParser) pos() (int, int) {
	off := int(p.dec.InputOffset())
	for off < len(p.raw) && strings.IndexByte(" \t\r\n:,", p.raw[off]) >= 0 {
		off++
	}
	line := sort.SearchInts(p.lines, off+1) // lines beginning at or before off
	start := 0
	if line > 0 {
		start = p.lines[line-1]
	}
	return line + 1, off - start + 1
}

// value reads one JSON value.
func (p *tokenParser) value() (*yaml.Node, error) {
	line, col := p.pos()
	tok, err := p.dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("%d:%d: %v", line, col, err)
	}
	n := &yaml.Node{Line: line, Column: col}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			n.Kind, n.Tag = yaml.MappingNode, "!!map"
		} else {
			n.Kind, n.Tag = yaml.SequenceNode, "!!seq"
		}
		for p.dec.More() {
			if n.Kind == yaml.MappingNode {
				kl, kc := p.pos()
				k, err := p.dec.Token()
				if err != nil {
					return nil, fmt.Errorf("%d:%d: %v", kl, kc, err)
				}
				n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k.(string), Style: yaml.DoubleQuotedStyle, Line: kl, Column: kc})
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, v)
		}
		if _, err := p.dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	case string:
		n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "!!str", t, yaml.DoubleQuotedStyle
	case json.Number:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!int", string(t)
		if strings.ContainsAny(string(t), ".eE") {
			n.Tag = "!!float"
		}
	case bool:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!bool", fmt.Sprint(t)
	case nil:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!null", "null"
	}
	return n, nil
}
