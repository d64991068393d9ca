//go:build realspecs

package golden

import (
	"path/filepath"
	"testing"
)

// TestPrismWire (issue 20, "What must be shown" 2) generates the client of
// testdata/prism/wire/wire.openapi.yaml — a required Accept parameter, a
// Content-Type parameter on a GET, declared response headers and a "#word"
// path key — and runs testdata/prism/wire/calls_test.go in it against
// Prism: every call accepted, every declared response header read back.
func TestPrismWire(t *testing.T) {
	root := moduleRoot(t)
	spec, err := filepath.Abs(filepath.Join("testdata", "prism", "wire", "wire.openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	runPrismCalls(t, root, spec, "wire")
}
