package generator

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	yaml4 "go.yaml.in/yaml/v4"
	"gopkg.in/yaml.v3"
)

// maxExpandedNodes is the node budget of one load: the YAML nodes that
// alias expansion, second copies of referenced files and overlay updates
// may add to what the spec's files hold literally. A 1 KB spec of nested
// aliases ("billion laughs") expands to billions of nodes; the budget
// refuses it before anything expands it (BenchmarkAliasBombRefused:
// 0.2–0.3 ms, 50 KB). Loading a spec that uses 80% of the budget takes
// 1.8–3.5 s (2 shared cores) and 175 MB (BenchmarkAliasesWithinBudget);
// real specs add no nodes (no aliases) or a few thousand.
const maxExpandedNodes = 1 << 18

// maxExpandedBytes is the byte budget of one load, beside the node budget:
// the bytes of scalar text (keys and values) that alias expansion, second
// copies of referenced files and overlay updates may add — 64 MiB, what one
// input file may hold (MaxInputFileBytes). Few nodes can hold many bytes:
// 5,000 aliases of a mapping holding a 96 KB string are 5,000 nodes but
// 480 MB once expanded.
const maxExpandedBytes = 64 << 20

// nodeBudget counts down the nodes and bytes a load may still add
// (maxExpandedNodes, maxExpandedBytes).
type nodeBudget struct {
	left, bytesLeft int
	// bytesRead counts the bytes of every file read (MaxInputTotalBytes).
	bytesRead int
}

func newNodeBudget() *nodeBudget {
	return &nodeBudget{left: maxExpandedNodes, bytesLeft: maxExpandedBytes}
}

// budgetText names both budgets in errors.
var budgetText = fmt.Sprintf("the budget of %d YAML nodes and %d bytes (64 MiB)", maxExpandedNodes, maxExpandedBytes)

// take charges a size to the budget and reports whether it fits.
func (nb *nodeBudget) take(s treeSize) bool {
	nb.left -= s.nodes
	nb.bytesLeft -= s.bytes
	return nb.left >= 0 && nb.bytesLeft >= 0
}

// treeSize is the size of a YAML tree with its aliases expanded: its nodes
// and the bytes of its scalars' text.
type treeSize struct{ nodes, bytes int }

// parseYAML parses one file of the spec (YAML or JSON) into a document
// node; valid JSON is read by parseJSON, keeping its exact strings, and the
// YAML real specs are written in by scanYAML, which builds yaml.v3's tree
// without it (anything else goes to yaml.v3). A syntax error names the file, line and column where the parser
// stopped (and the line where the construct it was reading began, when
// that differs): gopkg.in/yaml.v3 reports the line before, or the line of
// the enclosing block, so the error is taken from go.yaml.in/yaml/v4's
// parser, which keeps both marks.
func parseYAML(file string, raw []byte) (*yaml.Node, error) {
	if doc, ok := parseJSON(raw); ok {
		return doc, checkDuplicateKeys(file, doc)
	}
	raw = decodeSurrogatePairs(raw)
	if doc, ok := scanYAML(raw); ok {
		return doc, checkDuplicateKeys(file, doc)
	}
	var doc yaml.Node
	err := yaml.Unmarshal(raw, &doc)
	if err == nil {
		return &doc, checkDuplicateKeys(file, &doc)
	}
	var n4 yaml4.Node
	var le *yaml4.LoadError
	if err4 := yaml4.Unmarshal(raw, &n4); errors.As(err4, &le) && le.Mark.Line > 0 {
		msg := fmt.Sprintf("%s:%d:%d: %s", file, le.Mark.Line, le.Mark.Column, le.Message)
		if le.ContextMsg != "" && le.ContextMark.Line > 0 && le.ContextMark.Line != le.Mark.Line {
			msg += fmt.Sprintf(" (%s that begins on line %d)", le.ContextMsg, le.ContextMark.Line)
		}
		return nil, errors.New(msg)
	}
	return nil, fmt.Errorf("%s: %w", file, err)
}

// ReadInputYAML reads the YAML or JSON file at path as ReadInputFile does
// (a regular file of at most MaxInputFileBytes) and parses it into a
// document node under the same budget as a spec: its aliases may add at
// most 262,144 nodes and 64 MiB once expanded. The config file of
// `retrygen generate -config` is read so: a 643-byte file of nested
// aliases no longer expands to gigabytes when checked. Errors name the
// file, and for a syntax error or an alias past the budget, the line and
// column.
func ReadInputYAML(path string) (*yaml.Node, error) {
	raw, err := ReadInputFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := parseYAML(path, raw)
	if err != nil {
		return nil, err
	}
	if err := newNodeBudget().chargeAliases(path, doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// secondDocumentLine reports whether raw holds a YAML document after the
// first (which parseYAML alone reads) and the line it begins on (0 when the
// second document does not parse).
func secondDocumentLine(raw []byte) (int, bool) {
	if !hasDocumentMarker(raw) {
		return 0, false // the common case: parsed once only
	}
	raw = decodeSurrogatePairs(raw)
	if _, ok := scanYAML(raw); ok {
		return 0, false // scanYAML reads a text of one document only
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	var first, second yaml.Node
	if dec.Decode(&first) != nil {
		return 0, false
	}
	switch err := dec.Decode(&second); {
	case errors.Is(err, io.EOF):
		return 0, false
	case err != nil:
		return 0, true
	}
	return second.Line, true
}

// hasDocumentMarker reports whether a line of raw starts or ends a YAML
// document: "---" or "..." followed by a space, a tab, a carriage return
// or the line's end; a file with one document need not have one. (A byte
// scan: the regular expression it replaced took 0.1 s on Stripe's 8 MB.)
func hasDocumentMarker(raw []byte) bool {
	for len(raw) > 0 {
		if len(raw) >= 3 && (raw[0] == '-' && raw[1] == '-' && raw[2] == '-' || raw[0] == '.' && raw[1] == '.' && raw[2] == '.') {
			if len(raw) == 3 {
				return true
			}
			switch raw[3] {
			case ' ', '\t', '\r', '\n':
				return true
			}
		}
		i := bytes.IndexByte(raw, '\n')
		if i < 0 {
			return false
		}
		raw = raw[i+1:]
	}
	return false
}

// chargeAliases takes from the budget the nodes and bytes alias expansion
// adds to doc, in document order. It fails at the first alias whose
// expansion exhausts the budget, naming its file, line and column.
func (nb *nodeBudget) chargeAliases(file string, doc *yaml.Node) error {
	sizes := map[*yaml.Node]treeSize{}
	var walk func(n *yaml.Node) error
	walk = func(n *yaml.Node) error {
		if n.Kind == yaml.AliasNode {
			if n.Alias == nil {
				return nil
			}
			if !nb.take(expandedSize(n.Alias, sizes)) {
				return fmt.Errorf("%s:%d:%d: alias *%s expands the spec past %s that aliases, referenced files and overlays may add; refusing it",
					file, n.Line, n.Column, n.Value, budgetText)
			}
			return nil
		}
		for _, c := range n.Content {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(doc)
}

// sizeLimit saturates expandedSize: past it, a tree is too big for any
// budget (so a bomb costs one visit per distinct node).
var sizeLimit = treeSize{maxExpandedNodes + 1, maxExpandedBytes + 1}

// expandedSize returns the size of n with its aliases expanded, memoized
// in sizes, saturating at sizeLimit.
func expandedSize(n *yaml.Node, sizes map[*yaml.Node]treeSize) treeSize {
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return treeSize{1, 0}
		}
		return expandedSize(n.Alias, sizes)
	}
	if s, ok := sizes[n]; ok {
		return s
	}
	sizes[n] = sizeLimit // an anchor that contains itself: yaml.v3 refuses it, count it as too big
	s := treeSize{1, len(n.Value)}
	for _, c := range n.Content {
		cs := expandedSize(c, sizes)
		s.nodes += cs.nodes
		s.bytes += cs.bytes
		if s.nodes >= sizeLimit.nodes || s.bytes >= sizeLimit.bytes {
			s = sizeLimit
			break
		}
	}
	sizes[n] = s
	return s
}

// copyNode deep-copies n with its aliases expanded. A charged copy takes
// every node it makes, and its text, from the budget and returns nil when the budget runs
// out; the first copy of a referenced file's node is not charged (its
// nodes, aliases expanded, were charged when the file was read).
func (nb *nodeBudget) copyNode(n *yaml.Node, charged bool) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return nb.copyNode(n.Alias, charged)
	}
	if charged && !nb.take(treeSize{1, len(n.Value)}) {
		return nil
	}
	c := *n
	c.Anchor = ""
	if n.Kind == yaml.AliasNode { // an alias to nothing: an empty mapping
		c = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	}
	if len(n.Content) > 0 {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, sub := range n.Content {
			if c.Content[i] = nb.copyNode(sub, charged); c.Content[i] == nil {
				return nil
			}
		}
	}
	return &c
}
