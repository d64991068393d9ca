package generator

import (
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	yaml4 "go.yaml.in/yaml/v4"
	"gopkg.in/yaml.v3"
)

// loadOpenAPI hands the spec tree (overlays applied, 3.1 constructs
// converted) to kin-openapi without printing and re-parsing it: the tree is
// copied into the YAML library kin-openapi decodes with (go.yaml.in/yaml/v4,
// whose nodes have the same kinds, styles and tags), and decoded and resolved
// as openapi3.Loader.LoadFromData does after its own parse. On GitHub's spec
// (13 MB) this saves printing the tree as YAML and parsing it again, about
// 1.8 s of 7.8 s. The copy empties doc as it goes (see kinTree): take what
// is needed of it first (keepForBuild).
//
// decodeKinDoc makes the document without the copy when the tree holds only
// what it reads exactly as kin-openapi's decoder does (kindecode.go); the
// copy and kin-openapi's decoder remain for everything else.
//
// A tree with anchors, aliases or merge keys goes through LoadFromData as
// YAML text, so kin-openapi's own reading of them (and its check for alias
// cycles) applies unchanged.
func loadOpenAPI(doc *yaml.Node) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	if hasAliases(doc) {
		text, err := yaml.Marshal(doc)
		if err != nil {
			return nil, err
		}
		return loader.LoadFromData(text)
	}
	if kinDecodeCheck != nil {
		kinDecodeCheck(doc)
	}
	if api, ok := decodeKinDoc(doc); ok {
		// The same document kin-openapi's decoder makes (kindecode.go),
		// without the copy into its YAML nodes. The spec tree is let go
		// of as kinTree's copy would have.
		doc.Content = nil
		if err := loader.ResolveRefsIn(api, nil); err != nil {
			return nil, err
		}
		return api, nil
	}
	tree, err := kinTree(doc, true)
	if err != nil {
		return nil, err
	}
	api := &openapi3.T{}
	if err := tree.Decode(api); err != nil {
		return nil, err
	}
	if err := loader.ResolveRefsIn(api, nil); err != nil {
		return nil, err
	}
	return api, nil
}

// kinDecodeCheck, when set (by tests), is given the tree loadOpenAPI is
// about to decode, before it is changed.
var kinDecodeCheck func(doc *yaml.Node)

// errAliases reports an alias or merge key kinTree was given (see
// hasAliases).
var errAliases = fmt.Errorf("anchors, aliases or merge keys")

// hasAliases reports whether the tree holds an alias or a merge key, which
// loadOpenAPI leaves to kin-openapi's YAML text path.
func hasAliases(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		return true
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && c.Kind == yaml.ScalarNode && c.Tag == "!!merge" {
			return true
		}
		if hasAliases(c) {
			return true
		}
	}
	return false
}

// kinTree copies n into a yaml4 tree, preparing scalars as kin-openapi's
// loader does before decoding (openapi3's prepareScalars): an application's
// own tag ("!md") and a timestamp become strings with the text written, a
// mapping key is its text, a null key and an infinite or NaN float are
// errors naming the line. The tree must hold no alias (hasAliases).
//
// With release, each child is let go of (its place in n.Content set to nil)
// once copied, so the garbage collector frees the spec tree while its copy
// grows and the two are never whole at once (issue 24: each is 40-odd MiB
// on Stripe's spec); the values of extensions (keys "x-…"), which the
// builder keeps (keepForBuild), are copied without emptying them.
func kinTree(n *yaml.Node, release bool) (*yaml4.Node, error) {
	var slab kinSlab
	return slab.copy(n, release)
}

// kinSlab hands out the nodes of kinTree's copy, and their children
// lists, from blocks: one allocation per block instead of one per node
// (a node per scalar, key and collection of the spec: 3.5 % of generating
// SQS went to allocating them one by one, issue 24). The copy is whole until
// kin-openapi has decoded it, then garbage together, so a block kept alive
// by one node keeps nothing that would otherwise be freed.
type kinSlab struct {
	free []yaml4.Node
	// ptrs holds the children lists (Content) of the nodes, cut at their
	// length and capacity so that an append cannot reach the next list.
	ptrs []*yaml4.Node
}

// kinSlabNodes is the size of a kinSlab block of nodes (about 40 KiB), and
// kinSlabPtrs of a block of children lists (8 KiB); a longer list is
// allocated alone.
const (
	kinSlabNodes = 256
	kinSlabPtrs  = 1024
)

// content returns a children list of length n.
func (s *kinSlab) content(n int) []*yaml4.Node {
	if n > kinSlabPtrs/4 {
		return make([]*yaml4.Node, n)
	}
	if len(s.ptrs) < n {
		s.ptrs = make([]*yaml4.Node, kinSlabPtrs)
	}
	c := s.ptrs[:n:n]
	s.ptrs = s.ptrs[n:]
	return c
}

// node returns a new zero node.
func (s *kinSlab) node() *yaml4.Node {
	if len(s.free) == 0 {
		s.free = make([]yaml4.Node, kinSlabNodes)
	}
	c := &s.free[0]
	s.free = s.free[1:]
	return c
}

// copy is kinTree with the slab's nodes.
func (s *kinSlab) copy(n *yaml.Node, release bool) (*yaml4.Node, error) {
	if n.Kind == yaml.AliasNode {
		return nil, errAliases
	}
	c := s.node()
	*c = yaml4.Node{Kind: yaml4.Kind(n.Kind), Style: yaml4.Style(n.Style), Tag: n.Tag, Value: n.Value,
		Line: n.Line, Column: n.Column}
	if n.Kind == yaml.ScalarNode {
		if err := kinScalar(c); err != nil {
			return nil, err
		}
	}
	if len(n.Content) > 0 {
		c.Content = s.content(len(n.Content))
	}
	for i, sub := range n.Content {
		key := n.Kind == yaml.MappingNode && i%2 == 0
		keep := n.Kind == yaml.MappingNode && i%2 == 1 && strings.HasPrefix(n.Content[i-1].Value, "x-")
		cc, err := s.copy(sub, release && !keep)
		if err != nil {
			return nil, err
		}
		if key {
			if err := kinKey(cc); err != nil {
				return nil, err
			}
		}
		c.Content[i] = cc
		switch {
		case !release || key: // a key is let go of with its value
		case n.Kind == yaml.MappingNode:
			n.Content[i-1], n.Content[i] = nil, nil
		default:
			n.Content[i] = nil
		}
	}
	return c, nil
}

// kinScalar retags a scalar as kin-openapi's loader does.
func kinScalar(n *yaml4.Node) error {
	switch {
	case n.Tag == "!!timestamp", strings.HasPrefix(n.Tag, "!") && !strings.HasPrefix(n.Tag, "!!"):
		n.Tag = "!!str"
	case n.Tag == "!!float":
		switch strings.ToLower(strings.TrimLeft(n.Value, "+-")) {
		case ".inf", ".nan":
			return fmt.Errorf("line %d: %s has no JSON representation", n.Line, n.Value)
		}
	}
	return nil
}

// kinKey makes a mapping key name the text written.
func kinKey(k *yaml4.Node) error {
	switch {
	case k.Kind != yaml4.ScalarNode || k.Tag == "!!str":
	case k.Tag == "!!merge":
		return errAliases
	case k.Tag == "!!null":
		return fmt.Errorf("line %d: mapping key is null, so it names nothing", k.Line)
	default:
		k.Tag = "!!str"
	}
	return nil
}
