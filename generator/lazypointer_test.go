package generator

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// The walks that keep a pointer's tokens instead of its string decide as
// the string did: exampleDataPath is exampleData and namedMapPath is
// namedMap at every mapping key of the repository's specs and of odd
// pointers (escaped tokens, "examples" as a name).
func TestPathDecisionsAreThePointers(t *testing.T) {
	check := func(path []string, k string, v *yaml.Node) {
		ptr := pointer(path...)
		require.Equal(t, namedMap(ptr), namedMapPath(path), "%q", ptr)
		require.Equal(t, exampleData(ptr, k, v), exampleDataPath(path, namedMapPath(path), k, v), "%q %q", ptr, k)
	}
	scalar, seq := &yaml.Node{Kind: yaml.ScalarNode}, &yaml.Node{Kind: yaml.SequenceNode}
	for _, path := range [][]string{nil, {""}, {"examples"}, {"examples", "a"}, {"a/examples", "x"}, {"x~examples", "y"}, {"properties"},
		{"a", "properties"}, {"a", "examples", "b"}, {"examples", ""}, {"content"}, {"a~1b", "headers"}} {
		for _, k := range []string{"example", "examples", "value", "x"} {
			check(path, k, scalar)
			check(path, k, seq)
		}
	}
	specs, err := filepath.Glob("../specs/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, specs)
	for _, spec := range specs {
		raw, err := os.ReadFile(spec)
		require.NoError(t, err)
		doc, err := parseYAML(spec, raw)
		require.NoError(t, err)
		var walk func(n *yaml.Node, path []string)
		walk = func(n *yaml.Node, path []string) {
			switch n.Kind {
			case yaml.DocumentNode:
				walk(n.Content[0], path)
			case yaml.SequenceNode:
				for i, c := range n.Content {
					walk(c, append(path, strconv.Itoa(i)))
				}
			case yaml.MappingNode:
				for i := 0; i+1 < len(n.Content); i += 2 {
					check(path, n.Content[i].Value, n.Content[i+1])
					walk(n.Content[i+1], append(path, n.Content[i].Value))
				}
			}
		}
		walk(doc, nil)
	}
}

// namesOtherFiles sends a spec to the bundler's walk when a $ref or a
// discriminator mapping names another file, and passes one-file specs by.
func TestNamesOtherFiles(t *testing.T) {
	for src, want := range map[string]bool{
		"a: {$ref: '#/b'}\nb: {type: string}": false,
		"a: [{$ref: 'other.yaml#/b'}]":        true,
		"a: {$ref: ''}":                       true,
		"a: {discriminator: {mapping: {dog: Dog, cat: '#/components/schemas/Cat'}}}": false,
		"a: {discriminator: {mapping: {dog: dog.yaml}}}":                             true,
		"a: {discriminator: {mapping: {dog: 'pets.json#/Dog'}}}":                     true,
		"a: {x: {y: [1, {z: {$ref: 'x/y'}}]}}":                                       true,
	} {
		var doc yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(src), &doc))
		require.Equal(t, want, namesOtherFiles(&doc), src)
	}
	for _, spec := range []string{"../specs/mistral_openapi.yaml", "../specs/aws-dynamodb-2012-08-10.openapi.yaml"} {
		raw, err := os.ReadFile(spec)
		require.NoError(t, err)
		doc, err := parseYAML(spec, raw)
		require.NoError(t, err)
		require.False(t, namesOtherFiles(doc), spec)
	}
}
