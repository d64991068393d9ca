package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGenerateTagsErrors (new-user trial 3, F14): an error line looked
// exactly like the warnings around it. Errors start with "error: ";
// warnings stay as they were.
func TestGenerateTagsErrors(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "e.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(`openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /a/{b:
    get:
      operationId: x
      responses: {'200': {description: ok}}
  /c:
    get:
      operationId: y
      parameters: [{name: z, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
`), 0o644))
	code, _, stderr := cli("generate", "-spec", spec, "-out", filepath.Join(dir, "out"), "-package", "e")
	require.Equal(t, 1, code)
	require.Equal(t, spec+`#/paths/~1c/get/parameters/0: path parameter "z" is not in the path template /c: it would never be sent; skipped
error: `+spec+`#/paths/~1a~1%7Bb: path "/a/{b" has an unbalanced "{" or "}": it is not a path template (RFC 6570) and would be sent literally
retrygen generate: `+spec+`: 1 error(s) in the spec
`, stderr)
}
