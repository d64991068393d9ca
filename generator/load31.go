package generator

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// OpenAPI 3.1 support. kin-openapi v0.153.0 parses most of what 3.1 (JSON
// Schema 2020-12) adds, and the builder reads it directly: type lists
// ("type: [string, 'null']" is a nullable string), const (a one-value
// enum), examples, $defs and references into them, numeric
// exclusiveMinimum/exclusiveMaximum (the client checks no bounds, so
// nothing is lost). What kin-openapi does not resolve is converted on the
// YAML tree before loading, each with a located warning because dynamic
// scope is approximated statically:
//
//   - $recursiveRef (2019-09) becomes a $ref to the nearest enclosing schema
//     with $recursiveAnchor: true, else to the enclosing component schema;
//   - $dynamicRef: "#name" becomes a $ref to the first schema in document
//     order with $dynamicAnchor: name (one in the same component first),
//     else to the enclosing component schema; a $dynamicRef that is a plain
//     JSON pointer ("#/components/…") is a $ref without a warning.
//
// A reference that cannot be resolved this way is removed (the schema is
// then untyped: json.RawMessage) with a warning.
//
// A schema's $ref applies beside its sibling keywords (JSON Schema 2020-12
// §8.2.3.1), which kin-openapi drops: a $ref with assertion or applicator
// siblings (properties, required, items, …) becomes allOf [{$ref}, {the
// siblings}] (refSiblingsToAllOf), which the builder's allOf flattener
// applies; annotations (description, title, …) stay beside the $ref.

// convert31 rewrites the 3.1 constructs above in the spec's root mapping.
func convert31(root *yaml.Node, d *diags) {
	if v := mapValue(root, "openapi"); v == nil || !strings.HasPrefix(v.Value, "3.1") {
		return
	}
	c := &conv31{d: d, anchors: map[string][]string{}}
	c.collect(root, nil)
	c.rewrite(root, nil, nil)
}

// conv31 holds the $dynamicAnchor locations found by collect.
type conv31 struct {
	d       *diags
	anchors map[string][]string // anchor → JSON pointers, document order
}

// collect records every $dynamicAnchor's JSON pointer; path holds the
// tokens of n's pointer, built only for an anchor (issue 24: a string per
// node was this walk's time), a child's appended to it (siblings share its
// backing array).
func (c *conv31) collect(n *yaml.Node, path []string) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			if k == "$dynamicAnchor" && v.Kind == yaml.ScalarNode {
				c.anchors[v.Value] = append(c.anchors[v.Value], pointer(path...))
			}
			c.collect(v, append(path, k))
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			c.collect(v, append(path, strconv.Itoa(i)))
		}
	}
}

// rewrite converts $recursiveRef and $dynamicRef below n; recursive lists
// the pointers of the enclosing schemas with $recursiveAnchor: true,
// innermost last. path holds the tokens of n's pointer (as in collect).
func (c *conv31) rewrite(n *yaml.Node, path []string, recursive []string) {
	switch n.Kind {
	case yaml.MappingNode:
		if mapValue(n, "$ref") != nil && isSchemaPosition(path) {
			refSiblingsToAllOf(n)
		}
		if v := mapValue(n, "$recursiveAnchor"); v != nil && v.Value == "true" {
			recursive = append(recursive[:len(recursive):len(recursive)], pointer(path...))
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch k.Value {
			case "$recursiveRef":
				target := ""
				if len(recursive) > 0 {
					target = recursive[len(recursive)-1]
				}
				if c.replace(n, i, pointer(append(path, k.Value)...), "$recursiveRef", target, pointer(path...)) {
					i -= 2
				}
				continue
			case "$dynamicRef":
				if strings.HasPrefix(v.Value, "#/") {
					k.Value = "$ref"
					continue
				}
				ptr := pointer(path...)
				if c.replace(n, i, pointer(append(path, k.Value)...), "$dynamicRef", c.anchor(strings.TrimPrefix(v.Value, "#"), ptr), ptr) {
					i -= 2
				}
				continue
			}
			c.rewrite(v, append(path, k.Value), recursive)
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			c.rewrite(v, append(path, strconv.Itoa(i)), recursive)
		}
	}
}

// anchor returns the pointer of the schema with $dynamicAnchor name,
// preferring one in the same component as from; "" when there is none.
func (c *conv31) anchor(name, from string) string {
	list := c.anchors[name]
	comp := enclosingComponent(from)
	for _, p := range list {
		if comp != "" && strings.HasPrefix(p+"/", comp+"/") {
			return p
		}
	}
	if len(list) > 0 {
		return list[0]
	}
	return ""
}

// replace turns the key at n.Content[i] into a $ref to target (falling back
// to the component enclosing at), or removes it, with a warning at ptr. It
// reports whether the key was removed.
func (c *conv31) replace(n *yaml.Node, i int, ptr, keyword, target, at string) bool {
	if target == "" {
		target = enclosingComponent(at)
	}
	if target == "" {
		c.d.warnf(ptr, "%s %q has no schema it can stand for; removed (the schema is untyped)", keyword, n.Content[i+1].Value)
		n.Content = append(n.Content[:i], n.Content[i+2:]...)
		return true
	}
	c.d.warnf(ptr, "%s %q resolved statically to #%s (OpenAPI 3.1 dynamic scope is not modelled)", keyword, n.Content[i+1].Value, target)
	n.Content[i].Value = "$ref"
	n.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "#" + target}
	return false
}

// enclosingComponent returns the pointer of the component schema that ptr
// is inside ("/components/schemas/Node"), or "".
func enclosingComponent(ptr string) string {
	const prefix = "/components/schemas/"
	rest, ok := strings.CutPrefix(ptr, prefix)
	if !ok || rest == "" {
		return ""
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		rest = rest[:i]
	}
	return prefix + rest
}

// refSiblingAnnotations are the keywords beside a $ref that annotate it
// (JSON Schema 2020-12 §7.7, OpenAPI 3.1's example, xml, externalDocs,
// discriminator and 3.0's nullable, which the loader reads beside a $ref):
// they stay beside it; every other keyword but an x- extension asserts or
// applies, and moves into the allOf.
var refSiblingAnnotations = map[string]bool{
	"$ref": true, "description": true, "title": true, "default": true, "examples": true, "example": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true, "externalDocs": true,
	"xml": true, "discriminator": true, "nullable": true, "$id": true, "$schema": true, "$anchor": true,
	"$dynamicAnchor": true, "$recursiveAnchor": true, "$defs": true,
}

// refSiblingsToAllOf rewrites the schema mapping n, which holds a $ref,
// into allOf [{$ref}, {its siblings that are neither annotations nor x-
// extensions}] (an allOf of its own is appended to, not nested) when it
// has any; the builder's allOf flattener then applies them (maxLength,
// format, enum, properties, …). Other keys stay in n.
func refSiblingsToAllOf(n *yaml.Node) {
	var keep, moved []*yaml.Node
	var allOf, ref *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case k.Value == "$ref":
			ref = v
		case k.Value == "allOf" && v.Kind == yaml.SequenceNode:
			allOf = v
		case refSiblingAnnotations[k.Value] || strings.HasPrefix(k.Value, "x-"):
			keep = append(keep, k, v)
		default:
			moved = append(moved, k, v)
		}
	}
	if len(moved) == 0 && allOf == nil {
		return
	}
	key := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	items := []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{key("$ref"), ref}}}
	if allOf != nil {
		items = append(items, allOf.Content...)
	}
	if len(moved) > 0 {
		items = append(items, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: moved})
	}
	n.Content = append(keep, key("allOf"), &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items})
}
