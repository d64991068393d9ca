package generator

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// kept is what the builder reads of the spec's YAML tree, taken before the
// tree is handed to kin-openapi (which empties it: see kinTree), so the
// tree, kin-openapi's copy of it and the decoded document are never alive
// at once, and the builder runs beside the decoded document alone (issue
// 24: on Stripe's 8 MB spec the tree is 48 MiB, its copy 43 MiB).
type kept struct {
	// root is a mapping standing for the spec's root (see keepForBuild):
	// the builder looks up operations' extensions in it as in the spec.
	root *yaml.Node
	// orders holds, by JSON pointer, what propertyOrder reads of each
	// mapping of the spec that has a $ref, properties or allOf.
	orders map[string]keptOrder
}

// keptOrder is what propertyOrder reads of one mapping of the spec.
type keptOrder struct {
	// hasRef says the mapping has a "$ref" key; ref is its value's text
	// ("" when the value is not a scalar).
	hasRef bool
	ref    string
	// props are the keys of its "properties" mapping, in the order
	// written (nil: none, empty, or not a mapping).
	props []string
	// allOf is the number of items of its "allOf" sequence (0: none, or not
	// a sequence).
	allOf int
}

// keepForBuild returns what the builder reads of the spec's root mapping:
//   - a mapping holding the root's extensions (their nodes: the root-level
//     x-retry), and under "paths" each path item with its extensions and,
//     per operation, the operation's extensions (x-retry, pagination,
//     waiters: the nodes themselves, which the builder reads with their
//     locations) and its responses' header names (declaresLinkHeader);
//   - the property order of every schema, for XML types (propertyOrder).
//
// Keys keep their order and repeats, so a lookup finds in it what it finds
// in the spec. Everything else of the tree can be released once kin-openapi
// has decoded it.
func keepForBuild(root *yaml.Node) *kept {
	k := &kept{root: &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}, orders: map[string]keptOrder{}}
	if root == nil || root.Kind != yaml.MappingNode {
		return k
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, v := root.Content[i], root.Content[i+1]
		switch {
		case strings.HasPrefix(key.Value, "x-"):
			k.root.Content = append(k.root.Content, key, v)
		case key.Value == "paths":
			k.root.Content = append(k.root.Content, key, keepMapping(v, keepPathItem))
		}
	}
	var toks []string
	k.collectOrders(root, &toks)
	return k
}

// keepMapping returns a mapping of n's keys whose values are each's kept
// value (kept by keep when a mapping, an empty node of its kind otherwise);
// an empty node of n's kind when n is not a mapping.
func keepMapping(n *yaml.Node, keep func(*yaml.Node) *yaml.Node) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return &yaml.Node{Kind: n.Kind, Tag: n.Tag}
	}
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: n.Tag, Content: make([]*yaml.Node, 0, len(n.Content))}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, v := n.Content[i], n.Content[i+1]
		switch {
		case strings.HasPrefix(key.Value, "x-"):
		case v.Kind == yaml.MappingNode:
			v = keep(v)
		default:
			v = &yaml.Node{Kind: v.Kind, Tag: v.Tag}
		}
		out.Content = append(out.Content, key, v)
	}
	return out
}

// keepPathItem keeps of a path item its extensions and, per operation
// (any other mapping), keepOperation.
func keepPathItem(n *yaml.Node) *yaml.Node { return keepMapping(n, keepOperation) }

// keepOperation keeps of an operation its extensions and its responses'
// header names.
func keepOperation(n *yaml.Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: n.Tag}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, v := n.Content[i], n.Content[i+1]
		switch {
		case strings.HasPrefix(key.Value, "x-"):
			out.Content = append(out.Content, key, v)
		case key.Value == "responses":
			out.Content = append(out.Content, key, keepMapping(v, keepHeaderNames))
		}
	}
	return out
}

// keepHeaderNames keeps of a response its "headers" mappings' keys.
func keepHeaderNames(n *yaml.Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: n.Tag}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, v := n.Content[i], n.Content[i+1]
		if key.Value == "headers" {
			out.Content = append(out.Content, key, keepMapping(v, func(h *yaml.Node) *yaml.Node {
				return &yaml.Node{Kind: h.Kind, Tag: h.Tag}
			}))
		}
	}
	return out
}

// collectOrders records in k.orders the keptOrder of n (at the pointer the
// tokens toks make) and of every node below it that nodeAt reaches: a
// mapping's first entry of each non-empty key, a sequence's items.
func (k *kept) collectOrders(n *yaml.Node, toks *[]string) {
	switch n.Kind {
	case yaml.MappingNode:
		var o keptOrder
		found := false
		// A repeated key counts once, its first entry (as mapValue finds
		// it); a long mapping remembers the keys it has seen, as scanning it
		// again for every key is quadratic (a 200,000-key mapping ran for
		// minutes).
		var seen map[string]bool
		if len(n.Content) > 32 {
			seen = make(map[string]bool, len(n.Content)/2)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, v := n.Content[i].Value, n.Content[i+1]
			if seen != nil {
				if seen[key] {
					continue
				}
				seen[key] = true
			} else if mapValue(n, key) != v {
				continue
			}
			switch key {
			case "$ref":
				o.hasRef, o.ref, found = true, v.Value, true
			case "properties":
				if v.Kind == yaml.MappingNode && len(v.Content) > 1 {
					o.props = make([]string, 0, len(v.Content)/2)
					for j := 0; j+1 < len(v.Content); j += 2 {
						o.props = append(o.props, v.Content[j].Value)
					}
					found = true
				}
			case "allOf":
				if v.Kind == yaml.SequenceNode && len(v.Content) > 0 {
					o.allOf, found = len(v.Content), true
				}
			}
			if key == "" {
				continue // nodeAt skips empty tokens: nothing below is reached
			}
			*toks = append(*toks, key)
			k.collectOrders(v, toks)
			*toks = (*toks)[:len(*toks)-1]
		}
		if found {
			k.orders[pointer(*toks...)] = o
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			*toks = append(*toks, strconv.Itoa(i))
			k.collectOrders(c, toks)
			*toks = (*toks)[:len(*toks)-1]
		}
	}
}

// order returns the keptOrder of the mapping at ptr, a JSON pointer read
// as nodeAt reads it (empty reference tokens skipped), and whether there is
// one.
func (k *kept) order(ptr string) (keptOrder, bool) {
	var toks []string
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if tok != "" {
			toks = append(toks, pointerUnescaper.Replace(tok))
		}
	}
	o, ok := k.orders[pointer(toks...)]
	if !ok {
		// A sequence index written with leading zeros ("allOf/01"), which
		// kin-openapi resolves through strconv.Atoi: orders are keyed by
		// the canonical index. Tried only when the pointer as written finds
		// nothing, so a mapping key "01" stays itself.
		changed := false
		for i, tok := range toks {
			if n, err := strconv.Atoi(tok); err == nil && n >= 0 && len(tok) > 1 && tok[0] == '0' {
				toks[i], changed = strconv.Itoa(n), true
			}
		}
		if changed {
			o, ok = k.orders[pointer(toks...)]
		}
	}
	return o, ok
}
