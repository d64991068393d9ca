package generator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"gopkg.in/yaml.v3"
)

// SchemaFinding is one place where a YAML document breaks a JSON Schema.
type SchemaFinding struct {
	// Pointer is the JSON pointer (RFC 6901) of the offending value; for an
	// unknown key, of the key itself.
	Pointer string
	// Line and Column locate it in the YAML text (1-based; 0 when unknown).
	Line, Column int
	// Message says what is wrong ("unknown key \"outptu\"", "must be
	// boolean").
	Message string
}

// compiledSchemas caches the schemas CheckSchema compiled, by $id.
var compiledSchemas sync.Map // string → *jsonschema.Schema

// CheckSchema validates the YAML value n against the JSON Schema (draft
// 2020-12) schemaJSON, whose $id names it, and returns one finding per
// failing leaf, sorted by position. def, when not "", validates against
// schemaJSON's $defs/def instead of its root. It returns an error only when
// the schema itself does not compile (a bug in the embedded schema).
func CheckSchema(schemaJSON []byte, def string, n *yaml.Node) ([]SchemaFinding, error) {
	sch, err := compileSchema(schemaJSON, def)
	if err != nil {
		return nil, err
	}
	err = sch.Validate(yamlValue(n, 0))
	if err == nil {
		return nil, nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return nil, err
	}
	var out []SchemaFinding
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		if ap, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
			for _, p := range ap.Properties {
				f := SchemaFinding{Pointer: pointer(append(slices.Clone(e.InstanceLocation), p)...), Message: fmt.Sprintf("unknown key %q", p)}
				f.Line, f.Column = keyPosition(n, e.InstanceLocation, p)
				out = append(out, f)
			}
			return
		}
		msg := e.Error()
		if _, rest, ok := strings.Cut(msg, "': "); ok && strings.HasPrefix(msg, "at '") {
			msg = rest
		}
		f := SchemaFinding{Pointer: pointer(e.InstanceLocation...), Message: msg}
		if v := schemaNodeAt(n, e.InstanceLocation); v != nil {
			f.Line, f.Column = v.Line, v.Column
		}
		out = append(out, f)
	}
	walk(ve)
	slices.SortStableFunc(out, func(a, b SchemaFinding) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
	return out, nil
}

func compileSchema(schemaJSON []byte, def string) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("embedded JSON Schema: %w", err)
	}
	m, _ := doc.(map[string]any)
	id, _ := m["$id"].(string)
	if id == "" {
		return nil, fmt.Errorf("embedded JSON Schema has no $id")
	}
	loc := id
	if def != "" {
		loc += "#/$defs/" + def
	}
	if s, ok := compiledSchemas.Load(loc); ok {
		return s.(*jsonschema.Schema), nil
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(id, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("embedded JSON Schema %s: %w", loc, err)
	}
	compiledSchemas.Store(loc, s)
	return s, nil
}

// maxAliasDepth bounds alias following in yamlValue and schemaNodeAt.
const maxAliasDepth = 32

// yamlValue converts a YAML node to the JSON value a JSON Schema sees:
// mappings to map[string]any, sequences to []any, and scalars by their
// resolved tag (!!int to int64 or, past int64, json.Number; !!float to
// float64; !!bool; !!null; anything else a string).
func yamlValue(n *yaml.Node, depth int) any {
	if n == nil || depth > maxAliasDepth {
		return nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 1 {
			return yamlValue(n.Content[0], depth)
		}
		return nil
	case yaml.AliasNode:
		return yamlValue(n.Alias, depth+1)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = yamlValue(n.Content[i+1], depth)
		}
		return m
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			s[i] = yamlValue(c, depth)
		}
		return s
	}
	switch n.Tag {
	case "!!int":
		if v, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
			return v
		}
		return json.Number(n.Value)
	case "!!float":
		if v, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return v
		}
		return n.Value
	case "!!bool":
		return n.Value == "true"
	case "!!null":
		return nil
	}
	return n.Value
}

// schemaNodeAt returns the node at the JSON pointer tokens inside n, or nil.
func schemaNodeAt(n *yaml.Node, tokens []string) *yaml.Node {
	for depth := 0; n != nil && (n.Kind == yaml.DocumentNode || n.Kind == yaml.AliasNode) && depth <= maxAliasDepth; depth++ {
		if n.Kind == yaml.AliasNode {
			n = n.Alias
		} else if len(n.Content) == 1 {
			n = n.Content[0]
		} else {
			return nil
		}
	}
	if len(tokens) == 0 || n == nil {
		return n
	}
	switch n.Kind {
	case yaml.MappingNode:
		return schemaNodeAt(mapValue(n, tokens[0]), tokens[1:])
	case yaml.SequenceNode:
		i, err := strconv.Atoi(tokens[0])
		if err != nil || i < 0 || i >= len(n.Content) {
			return nil
		}
		return schemaNodeAt(n.Content[i], tokens[1:])
	}
	return nil
}

// keyPosition returns the line and column of key in the mapping at tokens.
func keyPosition(n *yaml.Node, tokens []string, key string) (int, int) {
	m := schemaNodeAt(n, tokens)
	if m == nil || m.Kind != yaml.MappingNode {
		return 0, 0
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i].Line, m.Content[i].Column
		}
	}
	return m.Line, m.Column
}
