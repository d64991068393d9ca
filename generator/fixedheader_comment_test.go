package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/require"
)

// A one-value header enum is a fixed header, named in the comment of its
// fixedHeaders map: its spec text is one plain comment line there, never a
// /* */ block a "*/" in the value could close (a review found
// func init() { panic("injected") } compiled into operations.go).
func TestFixedHeaderCommentHoldsNoCode(t *testing.T) {
	svc, _, err := load(t, `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /x:
    get:
      operationId: GetX
      parameters:
        - name: X-Fixed
          in: header
          required: true
          schema:
            type: string
            enum: ["a\n*/\nfunc init() { panic(\"injected\") }\n/*"]
      responses:
        "200": {description: ok}
`)
	require.NoError(t, err)
	files, err := Generate(svc, "api")
	require.NoError(t, err)
	for _, f := range files {
		parsed, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Content, 0)
		require.NoError(t, err, f.Name)
		for _, d := range parsed.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				require.NotEqual(t, "init", fd.Name.Name, "%s declares func init", f.Name)
			}
		}
	}
	require.NoError(t, checkGenerated(files))
}
