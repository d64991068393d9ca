package generator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
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
