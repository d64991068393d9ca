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
	if n.Kind == yaml.AliasNode {
		return nil, errAliases
	}
	c := &yaml4.Node{Kind: yaml4.Kind(n.Kind), Style: yaml4.Style(n.Style), Tag: n.Tag, Value: n.Value,
		Line: n.Line, Column: n.Column}
	if n.Kind == yaml.ScalarNode {
		if err := kinScalar(c); err != nil {
			return nil, err
		}
	}
	if len(n.Content) > 0 {
		c.Content = make([]*yaml4.Node, len(n.Content))
	}
	for i, sub := range n.Content {
		key := n.Kind == yaml.MappingNode && i%2 == 0
		keep := n.Kind == yaml.MappingNode && i%2 == 1 && strings.HasPrefix(n.Content[i-1].Value, "x-")
		cc, err := kinTree(sub, release && !keep)
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
