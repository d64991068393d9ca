//go:build realspecs

package golden

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/retrygen/retrygen/generator"
)

// TestPrismFidelity is the decoding oracle of issue 19 ("What must be
// shown" 2): the Mistral and Discord clients, generated from the shared
// specs, call 30 operations each against `prism mock --dynamic` (seeded),
// and every response must re-marshal from the decoded output member by
// member (testdata/prismfidelity/PKG/calls_test.go, where every difference
// that is not a decoding defect is listed with its reason).
//
// Prism 5.14.2 refuses to start on Mistral's spec: eight `$ref`s point at a
// root `$defs` the spec does not have (the generator degrades each to
// json.RawMessage with a located warning). Prism runs on a copy with that
// `$defs` added, each entry pointing at the component schema of the same
// name ({} when there is none); the client is generated from the spec as
// published.
func TestPrismFidelity(t *testing.T) {
	root := moduleRoot(t)
	specs := filepath.Join(filepath.Dir(root), "shared", "specs")
	for _, c := range []struct{ spec, pkg string }{
		{"discord_openapi.json", "discordfidelity"},
		{"mistral_openapi.yaml", "mistralfidelity"},
	} {
		t.Run(c.pkg, func(t *testing.T) {
			spec := filepath.Join(specs, c.spec)
			svc, _, err := generator.LoadService(spec, nil)
			if err != nil {
				t.Fatal(err)
			}
			files, err := generator.Generate(svc, c.pkg)
			if err != nil {
				t.Fatal(err)
			}
			dir, rel := modulePackageDir(t, root, c.pkg)
			writeFiles(t, dir, files)
			calls, err := os.ReadFile(filepath.Join("testdata", "prismfidelity", strings.TrimSuffix(c.pkg, "fidelity"), "calls_test.go"))
			if err != nil {
				t.Fatal(err)
			}
			calls = []byte(strings.Replace(string(calls), "package "+strings.TrimSuffix(c.pkg, "fidelity"), "package "+c.pkg, 1))
			if err := os.WriteFile(filepath.Join(dir, "prism_calls_test.go"), calls, 0o644); err != nil {
				t.Fatal(err)
			}
			run := runCmd(root, []string{"RETRYGEN_PRISM_SPEC=" + prismableSpec(t, spec)}, "go", "test", "-count=1", "-v", "-run", "TestPrismRoundTrips", rel)
			var summary []string
			for _, l := range strings.Split(run.stdout, "\n") {
				if strings.Contains(l, "calls_test.go") {
					summary = append(summary, strings.TrimSpace(l))
				}
			}
			t.Logf("go test %s (%.1f s):\n%s", rel, run.wall.Seconds(), strings.Join(summary, "\n"))
			if run.err != nil {
				var failed []string // what failed, without the differences listed with their reason
				for _, l := range strings.Split(run.stdout+run.stderr, "\n") {
					if !strings.Contains(l, "(listed:") {
						failed = append(failed, l)
					}
				}
				t.Errorf("the %s round trips against Prism differ (see the log above):\n%s", c.pkg, head(strings.Join(failed, "\n"), 60))
			}
		})
	}
}

// danglingDefs matches a reference to the root $defs.
var danglingDefs = regexp.MustCompile(`#/\$defs/([A-Za-z0-9_.-]+)`)

// prismableSpec returns spec, or for a YAML spec that references a root
// $defs it lacks, a copy with one added (see TestPrismFidelity).
func prismableSpec(t *testing.T, spec string) string {
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if !strings.HasSuffix(spec, ".yaml") || strings.Contains(text, "\n$defs:") {
		return spec
	}
	seen := map[string]bool{}
	var defs strings.Builder
	for _, m := range danglingDefs.FindAllStringSubmatch(text, -1) {
		if seen[m[1]] {
			continue
		}
		seen[m[1]] = true
		if strings.Contains(text, "\n    "+m[1]+":\n") {
			defs.WriteString("  " + m[1] + ": {$ref: '#/components/schemas/" + m[1] + "'}\n")
		} else {
			defs.WriteString("  " + m[1] + ": {}\n")
		}
	}
	if defs.Len() == 0 {
		return spec
	}
	out := filepath.Join(t.TempDir(), filepath.Base(spec))
	if err := os.WriteFile(out, []byte(strings.TrimRight(text, "\n")+"\n$defs:\n"+defs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}
