//go:build realspecs

package golden

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/retrygen/retrygen/generator"
	"github.com/retrygen/retrygen/internal/testserver"
)

// TestStripeMock (issue 10) generates the Stripe client from the spec inside
// the stripe-mock module (github.com/stripe/stripe-mock v0.203.0,
// embedded/openapi/spec3.json, installed by internal/testserver) with
// specs/stripe.overlay.yaml, into a package inside the module, copies the
// calls in testdata/stripe/calls_test.go into it and runs them against
// stripe-mock, which validates every request against the same spec: at
// least 25 operations, every request accepted, every response decoded with
// every member present, and a POST retried with the same Idempotency-Key
// through the fault proxy. It logs the counts: operations generated, calls
// made, calls accepted.
func TestStripeMock(t *testing.T) {
	root := moduleRoot(t)
	spec := testserver.StripeSpec(t)
	overlay := filepath.Join(root, "specs", "stripe.overlay.yaml")
	svc, _, err := generator.LoadService(spec, []string{overlay})
	if err != nil {
		t.Fatalf("loading Stripe's spec: %v", err)
	}
	files, err := generator.Generate(svc, "stripe")
	if err != nil {
		t.Fatalf("generating the Stripe client: %v", err)
	}
	dir, rel := modulePackageDir(t, root, "stripe")
	writeFiles(t, dir, files)
	calls, err := os.ReadFile(filepath.Join("testdata", "stripe", "calls_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stripe_calls_test.go"), calls, 0o644); err != nil {
		t.Fatal(err)
	}
	run := runCmd(root, nil, "go", "test", "-count=1", "-v", rel)
	t.Logf("go test %s (%.1f s):\n%s%s", rel, run.wall.Seconds(), run.stdout, run.stderr)
	if run.err != nil {
		if strings.Contains(run.stdout+run.stderr, "[build failed]") || strings.Contains(run.stdout+run.stderr, "[setup failed]") {
			t.Fatalf("testdata/stripe/calls_test.go does not compile against the generated client; adapt the calls to its API: %s",
				firstCompileError(run.stderr+run.stdout))
		}
		t.Fatalf("the Stripe calls against stripe-mock failed (see the log above)")
	}
	m := stripeCounts.FindStringSubmatch(run.stdout)
	if m == nil {
		t.Fatalf("the calls printed no counts")
	}
	t.Logf("Stripe: %d operations generated, %s calls made, %s accepted by stripe-mock %s", len(svc.Operations), m[1], m[2], testserver.StripeMockVersion)
}

// stripeCounts matches the line TestStripeOperations prints.
var stripeCounts = regexp.MustCompile(`STRIPE calls made (\d+), accepted by stripe-mock (\d+)`)
