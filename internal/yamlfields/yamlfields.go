// Package yamlfields finds the mapping keys of a YAML tree that name no
// field of the Go type it decodes into: what yaml.v3's KnownFields checks,
// which (*yaml.Node).Decode cannot, located by line and column. One rule
// for the files retrygen's tools read (retrygen-sim scenarios, retrygen
// vectors).
package yamlfields

import (
	"fmt"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"
)

// Unknown calls report for each mapping key in n or below it that names no
// field of t (by yaml tag), with the key's path below n (path, then
// ".key" per mapping and "[i]" per sequence item) and the names t's
// mapping allows. Keys of Go maps are free; a merge key ("<<") is checked
// where what it merges is defined; aliases are followed. Walking stops
// when report returns false.
func Unknown(n *yaml.Node, t reflect.Type, path string, report func(key *yaml.Node, path string, known []string) bool) bool {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			if !Unknown(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i), report) {
				return false
			}
		}
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		var known []string
		fields := map[string]reflect.Type{}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if !f.IsExported() || name == "-" || name == "" {
				continue
			}
			known = append(known, name)
			fields[name] = f.Type
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i]
			if key.Value == "<<" {
				continue
			}
			ft, ok := fields[key.Value]
			if !ok {
				if !report(key, path, known) {
					return false
				}
				continue
			}
			sub := key.Value
			if path != "" {
				sub = path + "." + key.Value
			}
			if !Unknown(n.Content[i+1], ft, sub, report) {
				return false
			}
		}
	}
	return true
}
