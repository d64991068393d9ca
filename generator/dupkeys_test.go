package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// A mapping key written twice is an error naming both places: YAML 1.2
// forbids it and RFC 8259 says JSON names SHOULD be unique, and keeping the
// last silently dropped the first's operations (newuser.md item 6).
func TestDuplicateKeysAreLocatedErrors(t *testing.T) {
	tests := []struct{ name, file, doc, want string }{
		{"YAML path keys", "dup.yaml",
			"openapi: 3.0.3\ninfo: {title: s, version: \"1\"}\npaths:\n  /a:\n    get: {operationId: a, responses: {\"200\": {description: x}}}\n  /a:\n    post: {operationId: b, responses: {\"200\": {description: x}}}\n",
			`dup.yaml:6:3: duplicate key "/a" at #/paths (first at dup.yaml:4:3); YAML and JSON specs may hold each key once`},
		{"YAML flow mapping", "flow.yaml",
			"openapi: 3.0.3\ninfo: {title: s, version: \"1\", title: t}\npaths: {}\n",
			`flow.yaml:2:32: duplicate key "title" at #/info (first at flow.yaml:2:8); YAML and JSON specs may hold each key once`},
		{"JSON path keys", "dup.json",
			"{\"openapi\": \"3.0.3\", \"info\": {\"title\": \"s\", \"version\": \"1\"},\n \"paths\": {\"/a\": {\"get\": {\"operationId\": \"a\", \"responses\": {\"200\": {\"description\": \"x\"}}}},\n  \"/a\": {\"post\": {\"operationId\": \"b\", \"responses\": {\"200\": {\"description\": \"x\"}}}}}}\n",
			`dup.json:3:3: duplicate key "/a" at #/paths (first at dup.json:2:12); YAML and JSON specs may hold each key once`},
		{"JSON key with a slash in the pointer", "deep.json",
			`{"openapi": "3.0.3", "info": {"title": "s", "version": "1"}, "paths": {"/a/{id}": {"get": {"responses": {"200": {"description": "x", "description": "y"}}}}}}`,
			`deep.json:1:134: duplicate key "description" at #/paths/~1a~1{id}/get/responses/200 (first at deep.json:1:114); YAML and JSON specs may hold each key once`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.doc), 0o644))
			wd, err := os.Getwd()
			require.NoError(t, err)
			require.NoError(t, os.Chdir(dir))
			defer func() { require.NoError(t, os.Chdir(wd)) }()
			_, _, err = LoadService(tt.file, nil)
			require.EqualError(t, err, tt.want)
		})
	}
}

// The same key in two different mappings, and a YAML merge key, are not
// duplicates.
func TestKeysRepeatedAcrossMappingsLoad(t *testing.T) {
	doc := "openapi: 3.0.3\ninfo: {title: s, version: \"1\"}\npaths:\n  /a:\n    get: {operationId: a, responses: {\"200\": {description: x}}}\n  /b:\n    get: {operationId: b, responses: {\"200\": {description: x}}}\n"
	svc, _, err := load(t, doc)
	require.NoError(t, err)
	require.Len(t, svc.Operations, 2)
}

// duplicateKey finds the same first duplicate, and its first occurrence,
// by comparing keys below duplicateKeySetFrom keys and through the set from
// there; merge keys and keys that are not scalars are not compared.
func TestDuplicateKeyBothWays(t *testing.T) {
	seen := map[string]*yaml.Node{}
	mapping := func(keys ...string) []*yaml.Node {
		var c []*yaml.Node
		for i, k := range keys {
			kn := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Line: i + 1}
			switch k {
			case "<<":
				kn.Tag = "!!merge"
			case "[x]":
				kn.Kind = yaml.SequenceNode
			}
			c = append(c, kn, &yaml.Node{Kind: yaml.ScalarNode})
		}
		return c
	}
	for _, pad := range []int{0, duplicateKeySetFrom} {
		var filler []string
		for i := range pad {
			filler = append(filler, fmt.Sprintf("k%d", i))
		}
		line := func(i int) int { return pad + i }
		first, again := duplicateKey(mapping(append(filler, "a", "b", "a", "b", "a")...), seen)
		require.Equal(t, line(1), first.Line, "pad %d", pad)
		require.Equal(t, line(3), again.Line, "pad %d", pad)
		first, again = duplicateKey(mapping(append(filler, "<<", "<<", "[x]", "[x]", "c")...), seen)
		require.Nil(t, first, "pad %d", pad)
		require.Nil(t, again, "pad %d", pad)
	}
}
