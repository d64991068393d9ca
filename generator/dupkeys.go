package generator

import (
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"
)

// checkDuplicateKeys returns an error naming the first mapping key of doc
// written twice in the same mapping, with the file, line and column of both
// and the JSON pointer of the mapping. YAML 1.2 forbids duplicate keys and
// RFC 8259 says JSON names SHOULD be unique; yaml.v3 and encoding/json keep
// the last silently, which dropped a path's operations with no word
// (newuser.md item 6), so both are refused. A YAML merge key ("<<") is not
// checked (duplicateKey).
//
// The same walk bounds the tree before anything builds on it: a mapping or
// sequence nested deeper than maxNestingDepth (the builder's memory grows
// with the square of the depth: 4,000 levels of a 130 KB spec took
// 1.4 GB), and a mapping of more than maxMappingKeys keys (kin-openapi's
// YAML decoder checks a mapping's keys in quadratic time: 200,000 keys ran
// for minutes), are refused with their place.
func checkDuplicateKeys(file string, doc *yaml.Node) error {
	seen := map[string]*yaml.Node{}
	var path []string
	var walk func(n *yaml.Node) error
	walk = func(n *yaml.Node) error {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				if err := walk(c); err != nil {
					return err
				}
			}
			return nil
		case yaml.SequenceNode:
			if err := checkNesting(file, n, path); err != nil {
				return err
			}
			for i, c := range n.Content {
				path = append(path, strconv.Itoa(i))
				if err := walk(c); err != nil {
					return err
				}
				path = path[:len(path)-1]
			}
			return nil
		case yaml.MappingNode:
		default:
			return nil // a scalar; an alias is checked where its anchor is
		}
		if err := checkNesting(file, n, path); err != nil {
			return err
		}
		if keys := len(n.Content) / 2; keys > maxMappingKeys {
			return fmt.Errorf("%s:%d:%d: the mapping at #%s holds %d keys; at most %d (README \"Limits\")", file, n.Line, n.Column, pointer(path...), keys, maxMappingKeys)
		}
		if first, k := duplicateKey(n.Content, seen); k != nil {
			ptr := "#" + pointer(path...)
			return fmt.Errorf("%s:%d:%d: duplicate key %q at %s (first at %s:%d:%d); YAML and JSON specs may hold each key once",
				file, k.Line, k.Column, k.Value, ptr, file, first.Line, first.Column)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			path = append(path, n.Content[i].Value)
			if err := walk(n.Content[i+1]); err != nil {
				return err
			}
			path = path[:len(path)-1]
		}
		return nil
	}
	return walk(doc)
}

// duplicateKeySetFrom is the number of keys from which duplicateKey looks
// keys up in a set; below it, comparing each key with those before it is
// quicker (issue 24: hashing every key and clearing the set per mapping was
// a third of parseYAML's time on S3's spec, whose mappings mostly hold a
// few keys).
const duplicateKeySetFrom = 16

// duplicateKey returns the first key of a mapping's content written again
// in it, and its first occurrence; nil when every key is once. Keys that
// are not scalars, and merge keys, are not compared. seen is the set used
// for a mapping of duplicateKeySetFrom keys or more (cleared first).
func duplicateKey(content []*yaml.Node, seen map[string]*yaml.Node) (first, again *yaml.Node) {
	checked := func(k *yaml.Node) bool { return k.Kind == yaml.ScalarNode && k.Tag != "!!merge" }
	if len(content)/2 < duplicateKeySetFrom {
		for i := 0; i+1 < len(content); i += 2 {
			k := content[i]
			if !checked(k) {
				continue
			}
			for j := 0; j < i; j += 2 {
				if c := content[j]; c.Value == k.Value && checked(c) {
					return c, k
				}
			}
		}
		return nil, nil
	}
	clear(seen)
	for i := 0; i+1 < len(content); i += 2 {
		k := content[i]
		if !checked(k) {
			continue
		}
		if f, ok := seen[k.Value]; ok {
			return f, k
		}
		seen[k.Value] = k
	}
	return nil, nil
}

const (
	// maxNestingDepth is the deepest a mapping or sequence may sit in an
	// input file: 38× the deepest real spec (Stripe's spec3.json, 26),
	// about 90 MB of building at worst; the pointer and name bounds of
	// loadbounds.go refuse most such schemas after the build.
	maxNestingDepth = 1000
	// maxMappingKeys is the most keys one mapping may hold: 8.7× the
	// largest real one (GitHub's components.schemas, 1,876). The decoder's
	// quadratic key check takes about 1 s at this size (13 s at 65,536).
	maxMappingKeys = 16384
)

// checkNesting refuses n, a mapping or sequence at the pointer path, when
// it sits deeper than maxNestingDepth.
func checkNesting(file string, n *yaml.Node, path []string) error {
	if len(path) <= maxNestingDepth {
		return nil
	}
	return fmt.Errorf("%s:%d:%d: nested %d levels deep at #%s; at most %d (README \"Limits\")", file, n.Line, n.Column, len(path), pointer(path[:16]...)+"/…", maxNestingDepth)
}
