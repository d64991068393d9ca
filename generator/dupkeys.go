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
// checked. One set, cleared per mapping, serves the whole walk.
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
		clear(seen)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				continue
			}
			if first, ok := seen[k.Value]; ok {
				ptr := "#" + pointer(path...)
				return fmt.Errorf("%s:%d:%d: duplicate key %q at %s (first at %s:%d:%d); YAML and JSON specs may hold each key once",
					file, k.Line, k.Column, k.Value, ptr, file, first.Line, first.Column)
			}
			seen[k.Value] = k
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
