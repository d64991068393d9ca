package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDiagnosticEscapesControls: spec text in a diagnostic reaches the
// terminal with its control characters escaped (issue 17 item 9).
func TestDiagnosticEscapesControls(t *testing.T) {
	d := Diagnostic{File: "s\x1b.yaml", Pointer: "/paths/~1a\x07", Message: "bell \a esc \x1b[31m nl \n del \x7f csi \u009b bad \xff é ok"}
	require.Equal(t, `s\x1b.yaml#/paths/~1a%07: bell \x07 esc \x1b[31m nl \x0a del \x7f csi \u009b bad \xff é ok`, d.String())

	_, diags, err := load(t, `openapi: 3.0.0
info: {title: T, version: '1'}
paths:
  "/red\e[31m\a":
    get:
      responses: {'200': {description: ok}}
`)
	require.NoError(t, err)
	require.Equal(t, []string{`spec.yaml#/paths/~1red%1B%5B31m%07/get: no operationId; the method is named GETRed31m (from GET /red\x1b[31m\x07)`}, diags)
}
