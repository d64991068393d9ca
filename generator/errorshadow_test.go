package generator

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// An error schema's own code/message properties are Go fields Code and
// Message that hide the promoted runtime.ErrorMetadata fields of the same
// names (fresh-user review finding 2): the generated type says so and
// names the accessors of the response's metadata, ErrorCode() and
// ErrorMessage(). A type with no such field gets no such paragraph.
func TestErrorFieldsShadowingMetadataAreDocumented(t *testing.T) {
	spec, err := os.ReadFile("testdata/errorshadow.yaml")
	require.NoError(t, err)
	svc, diags, err := load(t, string(spec))
	require.NoError(t, err)
	require.Empty(t, diags)
	files, err := Generate(svc, "shop")
	require.NoError(t, err)
	var src string
	for _, f := range files {
		if f.Name == "errors.go" {
			src = string(f.Content)
		}
	}
	require.Contains(t, src, `// NotFound is a modelled error response, matched by HTTP status.
//
// Its fields Code and Message are the body's members "code" and "message": they hide the promoted
// runtime.ErrorMetadata fields of the same names. The metadata the runtime read from the response
// stays in e.ErrorMetadata; ErrorCode() and ErrorMessage() return its code (from the service's
// error-code header or field, normalised) and message.
// Source: #/components/schemas/NotFound
type NotFound struct {`)
	require.Contains(t, src, "// GetItem409Error is a modelled error response, matched by HTTP status.\n// Source:")
	require.Equal(t, 1, strings.Count(src, "they hide the"))
}
