package generator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// writeSpec writes text as spec.yaml in a temporary directory and returns its
// path.
func writeSpec(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "spec.yaml")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

// load loads an inline spec and returns the model and the diagnostics as
// strings with the temporary directory removed ("spec.yaml#/…: …").
func load(t *testing.T, text string) (*Service, []string, error) {
	t.Helper()
	p := writeSpec(t, text)
	svc, ds, err := LoadService(p, nil)
	var out []string
	for _, d := range ds {
		d.File = filepath.Base(d.File)
		out = append(out, d.String())
	}
	return svc, out, err
}

// specWith returns a minimal spec with one operation and extra YAML at the
// root (extensions) and under components/schemas.
func specWith(root, schemas string) string {
	return `openapi: 3.0.0
info: {title: Test Service, version: '1'}
` + root + `
paths:
  /#X-Amz-Target=Svc.Op:
    post:
      operationId: Op
      parameters:
        - name: X-Amz-Target
          in: header
          required: true
          schema: {type: string, enum: [Svc.Op]}
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/OpInput'}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/OpOutput'}
        '480':
          description: err
          content:
            application/json:
              schema: {$ref: '#/components/schemas/NotFound'}
    parameters:
      - $ref: '#/components/parameters/X-Amz-Date'
components:
  parameters:
    X-Amz-Date: {name: X-Amz-Date, in: header, required: false, schema: {type: string}}
  schemas:
    NotFound: {}
    OpOutput:
      type: object
      properties:
        Name: {type: string}
    OpInput:
      type: object
      required: [Name]
      properties:
        Name: {type: string}
` + schemas
}

func typeNamed(svc *Service, name string) *Type {
	for _, t := range svc.Types {
		if t.Name == name {
			return t
		}
	}
	return nil
}

func fieldNamed(t *Type, name string) *Field {
	for i := range t.Fields {
		if t.Fields[i].Name == name {
			return &t.Fields[i]
		}
	}
	return nil
}
