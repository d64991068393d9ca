package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// countDir returns the exported package-level names and methods of the
// non-test Go files in dir.
func countDir(t *testing.T, dir string) (names, methods int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		n, m, err := count(f)
		if err != nil {
			t.Fatal(err)
		}
		names, methods = names+n, methods+m
	}
	return names, methods
}

// TestRuntimeSurfaceBudget keeps package runtime, what generated code and
// its users read, at most 90 exported package-level names (issue 18,
// "Surface by audience"; aws-sdk-go-v2's aws/retry exports 89). A name for
// programs that drive or plug into the engine belongs in runtime/engine.
func TestRuntimeSurfaceBudget(t *testing.T) {
	names, methods := countDir(t, "../../runtime")
	t.Logf("runtime: %d names, %d methods", names, methods)
	if names > 90 {
		t.Fatalf("runtime exports %d package-level names, more than 90: move what only the simulator, the vectors runner or a shared store needs to runtime/engine", names)
	}
	if names < 40 {
		t.Fatalf("runtime exports %d names: the counter is broken", names)
	}
}
