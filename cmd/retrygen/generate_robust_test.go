package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/retrygen/retrygen/generator"
	"github.com/stretchr/testify/require"
)

// warnSpec is tinySpec with a null media type object: one warning.
const warnSpec = `openapi: 3.0.0
info: {title: Tiny, version: '1'}
paths:
  /things:
    post:
      operationId: PutThing
      requestBody:
        content:
          application/json:
      responses:
        '200': {description: ok}
`

// TestGenerateStrict: a warning is printed and generation goes on, but
// with -strict it fails with exit status 1 and writes nothing.
func TestGenerateStrict(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "warn.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(warnSpec), 0o644))
	out := filepath.Join(dir, "client")
	warning := spec + "#/paths/~1things/post/requestBody/content/application~1json: media type object is null; the body has no schema\n"

	code, stdout, stderr := cli("generate", "-spec", spec, "-out", out, "-package", "tiny", "-strict")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.True(t, strings.HasPrefix(stderr, warning), stderr)
	require.True(t, strings.HasSuffix(stderr, "retrygen generate: -strict: 2 warning(s) in the spec; nothing written\n"), stderr)
	require.NoDirExists(t, out)

	code, stdout, stderr = cli("generate", "-spec", spec, "-out", out, "-package", "tiny")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "tiny: 1 operation (0 skipped), 2 types, 0 error shapes (transient 0, throttling 0, non-retryable 0)\n", stdout)
	require.True(t, strings.HasPrefix(stderr, warning), stderr)
	require.FileExists(t, filepath.Join(out, "operations.go"))
}

// TestGeneratePanicIsInternalError: a panic while generating is exit
// status 1 with "internal error" and the spec (or, from the generator,
// the spec location being built), never 2.
func TestGeneratePanicIsInternalError(t *testing.T) {
	spec, out := setup(t)
	t.Cleanup(func() { loadService = generator.LoadSelected })

	loadService = func(string, []string, *generator.Selection) (*generator.Service, []generator.Diagnostic, error) {
		panic("boom")
	}
	code, stdout, stderr := cli("generate", "-spec", spec, "-out", out, "-package", "tiny")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.True(t, strings.HasPrefix(stderr, "retrygen generate: internal error while generating from "+spec+": boom (please report this with the spec)\n"), stderr)
	require.Contains(t, stderr, "TestGeneratePanicIsInternalError")
	require.NoDirExists(t, out)

	loadService = func(string, []string, *generator.Selection) (*generator.Service, []generator.Diagnostic, error) {
		return nil, nil, &generator.InternalError{File: spec, Pointer: "/paths/~1things/post", Panic: "boom", Stack: "stack\n"}
	}
	code, _, stderr = cli("generate", "-spec", spec, "-out", out, "-package", "tiny")
	require.Equal(t, 1, code)
	require.Equal(t, "retrygen generate: internal error while building "+spec+"#/paths/~1things/post: boom (please report this with the spec)\nstack\n", stderr)
}

// TestGenerateForeignXProtocol: another tool's x-protocol ("https") is a
// warning and ignored; -strict makes it fail with nothing written.
func TestGenerateForeignXProtocol(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "proto.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(`openapi: 3.0.0
info: {title: Tiny, version: '1'}
x-protocol: https
paths:
  /things:
    get:
      operationId: GetThing
      responses:
        '200': {description: ok}
`), 0o644))
	out := filepath.Join(dir, "client")
	warning := spec + `#/x-protocol: is "https", not retrygen's x-protocol (a mapping of jsonContentType, timestampFormat, xmlResultWrapper); ignored, using the defaults` + "\n"

	code, stdout, stderr := cli("generate", "-spec", spec, "-out", out, "-package", "tiny", "-strict")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, warning+"retrygen generate: -strict: 1 warning(s) in the spec; nothing written\n", stderr)
	require.NoDirExists(t, out)

	code, _, stderr = cli("generate", "-spec", spec, "-out", out, "-package", "tiny")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, warning, stderr)
	require.FileExists(t, filepath.Join(out, "operations.go"))
}

// TestGenerateLoadsWithLeanGC: the spec loads with the collector's GOGC at
// loadingGCPercent, or above it up to the heap floor's (gcFloor.gogc),
// and the setting is put back afterwards (also after a panic); a GOGC
// environment variable is left in charge.
func TestGenerateLoadsWithLeanGC(t *testing.T) {
	spec, out := setup(t)
	t.Cleanup(func() { loadService = generator.LoadSelected })
	gcPercent := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	before := gcPercent()
	var during int
	loadService = func(spec string, overlays []string, sel *generator.Selection) (*generator.Service, []generator.Diagnostic, error) {
		during = gcPercent()
		return generator.LoadSelected(spec, overlays, sel)
	}
	t.Setenv("GOGC", "")
	code, _, stderr := cli("generate", "-spec", spec, "-out", out, "-package", "tiny")
	require.Equal(t, 0, code, stderr)
	require.GreaterOrEqual(t, during, loadingGCPercent)
	require.LessOrEqual(t, during, 100*heapFloor/defaultHeapMinimum)
	require.Equal(t, before, gcPercent())

	loadService = func(string, []string, *generator.Selection) (*generator.Service, []generator.Diagnostic, error) {
		during = gcPercent()
		panic("boom")
	}
	code, _, _ = cli("generate", "-spec", spec, "-out", out, "-package", "tiny")
	require.Equal(t, 1, code)
	require.GreaterOrEqual(t, during, loadingGCPercent)
	require.LessOrEqual(t, during, 100*heapFloor/defaultHeapMinimum)
	require.Equal(t, before, gcPercent())

	t.Setenv("GOGC", "80")
	debug.SetGCPercent(80)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	code, _, _ = cli("generate", "-spec", spec, "-out", out, "-package", "tiny")
	require.Equal(t, 1, code)
	require.Equal(t, 80, during)
	require.Equal(t, 80, gcPercent())
}
