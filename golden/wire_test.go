package golden

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/generator"
)

// TestWireFidelity (issue 20, "What must be shown" 1) generates the client
// of testdata/wire.openapi.yaml into a temporary package inside the module
// and runs testdata/wire/calls_test.go in it: exact request lines, headers
// and bodies on a loopback server, and response headers read back typed.
func TestWireFidelity(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated client")
	}
	svc, _, err := generator.LoadService("testdata/wire.openapi.yaml", nil)
	require.NoError(t, err)
	files, err := generator.Generate(svc, "wire")
	require.NoError(t, err)
	calls, err := os.ReadFile(filepath.Join("testdata", "wire", "calls_test.go"))
	require.NoError(t, err)
	runGenerated(t, files, "calls_test.go", calls)
}
