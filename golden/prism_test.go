//go:build realspecs

package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/retrygen/retrygen/generator"
)

// TestPrismClients (issue 5, "What must be shown" 2) generates the Twilio
// and Box clients into packages inside the module, copies the calls in
// testdata/prism/PKG/calls_test.go into them, and runs them: each starts
// `prism mock` on the spec (internal/testserver) and makes at least 20 calls
// through the generated client, every request checked by Prism; Box's also
// shows typed errors and retries on `Prefer: code=429` and `code=503`.
//
// While the generator cannot produce a client that compiles for a spec, the
// spec's subtest is skipped naming what failed (TestRealSpecs fails for the
// same spec). Once the client compiles, calls that no longer match its API
// fail the test: adapt testdata/prism/PKG/calls_test.go.
func TestPrismClients(t *testing.T) {
	root := moduleRoot(t)
	specs := filepath.Join(filepath.Dir(root), "shared", "specs")
	for _, c := range []struct{ spec, pkg string }{
		{"twilio_api_v2010.json", "twilio"},
		{"box_openapi.json", "box"},
	} {
		t.Run(c.pkg, func(t *testing.T) {
			runPrismCalls(t, root, filepath.Join(specs, c.spec), c.pkg)
		})
	}
}

// runPrismCalls generates spec as package pkg, adds the calls and runs
// `go test` on the package.
func runPrismCalls(t *testing.T, root, spec, pkg string) {
	svc, diags, err := generator.LoadService(spec, nil)
	if err != nil {
		t.Skipf("generator: cannot generate the %s client yet (%s); TestRealSpecs reports it", pkg, firstLine(err.Error()))
	}
	if missing := unsupportedParams(diags); missing != "" {
		t.Log(missing)
	}
	files, err := generator.Generate(svc, pkg)
	if err != nil {
		t.Skipf("generator: cannot generate the %s client yet (%s); TestRealSpecs reports it", pkg, firstLine(err.Error()))
	}
	dir, rel := modulePackageDir(t, root, pkg)
	writeFiles(t, dir, files)
	if b := runCmd(root, nil, "go", "build", rel); b.err != nil {
		t.Skipf("generator: the generated %s client does not compile yet (%s); TestRealSpecs reports it. %s",
			pkg, firstCompileError(b.stderr), unsupportedParams(diags))
	}
	calls, err := os.ReadFile(filepath.Join("testdata", "prism", pkg, "calls_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prism_calls_test.go"), calls, 0o644); err != nil {
		t.Fatal(err)
	}
	run := runCmd(root, []string{"RETRYGEN_PRISM_SPEC=" + spec}, "go", "test", "-count=1", "-v", rel)
	t.Logf("go test %s (%.1f s):\n%s%s", rel, run.wall.Seconds(), run.stdout, run.stderr)
	switch {
	case run.err == nil:
	case strings.Contains(run.stdout+run.stderr, "[build failed]") || strings.Contains(run.stdout+run.stderr, "[setup failed]"):
		t.Errorf("testdata/prism/%s/calls_test.go does not compile against the generated client; adapt the calls to its API: %s",
			pkg, firstCompileError(run.stderr+run.stdout))
	default:
		t.Errorf("the %s calls against Prism failed (see the log above)", pkg)
	}
}

// unsupportedParam matches the generator's warning for a parameter it
// skips ("path parameter \"file_id\" is not supported yet; skipped").
var unsupportedParam = regexp.MustCompile(`^(\w+) parameter .* is not supported yet`)

// unsupportedParams summarises the parameters the generator skipped as not
// supported yet, by location ("", when none were): the calls need them.
func unsupportedParams(diags []generator.Diagnostic) string {
	count := map[string]int{}
	total := 0
	for _, d := range diags {
		if m := unsupportedParam.FindStringSubmatch(d.Message); m != nil {
			count[m[1]]++
			total++
		}
	}
	if total == 0 {
		return ""
	}
	var parts []string
	for _, in := range []string{"path", "query", "header", "cookie"} {
		if count[in] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", in, count[in]))
		}
	}
	return fmt.Sprintf("Missing generator feature: %d parameters are skipped as not supported yet (%s).", total, strings.Join(parts, ", "))
}
