//go:build realspecs

// The realspecs tier (issue 5, "What must be shown" 1): every spec in
// ../shared/specs/ next to the checkout, and GitHub's REST API spec, must
// generate a client that builds and vets, twice byte-identically. Run with
// `go test -tags realspecs ./golden/`; each spec's generation time and peak
// memory, warnings, lines out, and the build time and peak memory of the
// generated package are logged as a table and written to
// $RETRYGEN_REALSPECS_REPORT (default: realspecs-report.txt in
// $RETRYGEN_CACHE).
package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/retrygen/retrygen/generator"
	"github.com/retrygen/retrygen/internal/testserver"
)

// realSpec is one spec the tier generates from.
type realSpec struct {
	name string // file name, the subtest's name
	// path returns the spec's absolute path; it may skip or fail t.
	path func(t *testing.T) string
}

func TestRealSpecs(t *testing.T) {
	root := moduleRoot(t)
	specs := append(sharedSpecs(t, root), realSpec{name: "api.github.com.json", path: func(t *testing.T) string {
		return testserver.GitHubSpec(t)
	}}, realSpec{name: "stripe-spec3.json", path: func(t *testing.T) string {
		return testserver.StripeSpec(t) // from the stripe-mock module, issue 10
	}})
	tr := &tier{root: root, cli: buildCLI(t, root), cache: newBuildCache(t, root), meter: newMeter(t, root)}
	rep := &report{}
	t.Cleanup(func() { rep.write(t) })
	for _, s := range specs {
		t.Run(s.name, func(t *testing.T) {
			row := &specRow{spec: s.name, status: "skipped: see the test log"}
			rep.add(row)
			tr.check(t, s.path(t), row)
		})
	}
}

// tier is what every spec's check uses.
type tier struct {
	root  string // module root
	cli   string // the retrygen binary
	cache *buildCache
	meter *meter
}

// check generates spec in process (for its diagnostics) and with the CLI
// (measured), compares the two, then builds (measured) and vets the
// package, filling row as it goes. Failures are reported with t.Errorf and
// end the check.
func (tr *tier) check(t *testing.T, spec string, row *specRow) {
	pkg := packageName(row.spec)
	files, ok := generateInProcess(t, spec, pkg, row)
	if !ok {
		return
	}
	dir, rel := modulePackageDir(t, tr.root, pkg)
	gen := tr.meter.run(tr.root, nil, tr.cli, "generate", "-spec", spec, "-out", dir, "-package", pkg)
	row.genTime, row.genRSS = gen.wall, gen.maxRSS
	if gen.err != nil {
		row.status = "fails: retrygen generate: " + firstLine(gen.stderr)
		t.Errorf("retrygen generate -spec %s failed (%v) although the generator package succeeded:\n%s", spec, gen.err, gen.stderr)
		return
	}
	if !sameFiles(t, files, dir) {
		row.status = "fails: two runs differ"
		return
	}
	for _, f := range files {
		row.lines += bytes.Count(f.Content, []byte("\n"))
	}

	gocache := tr.cache.fresh(t, rel)
	build := tr.meter.run(tr.root, []string{"GOCACHE=" + gocache}, "go", "build", rel)
	if build.err != nil {
		row.status = "fails: go build: " + firstCompileError(build.stderr)
		t.Errorf("go build of the client generated from %s failed:\n%s", spec, head(build.stderr, 40))
		return
	}
	row.buildTime, row.buildRSS = build.wall, build.maxRSS // only a build that succeeded compiled everything
	if vet := runCmd(tr.root, []string{"GOCACHE=" + gocache}, "go", "vet", rel); vet.err != nil {
		row.status = "fails: go vet: " + firstCompileError(vet.stderr)
		t.Errorf("go vet of the client generated from %s failed:\n%s", spec, head(vet.stderr, 40))
		return
	}
	row.status = "ok"
}

// generateInProcess runs the generator package on spec, recording the
// operation count and warnings in row; on failure it reports every error
// diagnostic, located, and returns false.
func generateInProcess(t *testing.T, spec, pkg string, row *specRow) ([]generator.File, bool) {
	svc, diags, err := generator.LoadService(spec, nil)
	var errs []string
	for _, d := range diags {
		if d.Severity == generator.SeverityWarning {
			row.warnings++
		} else {
			errs = append(errs, d.String())
		}
	}
	if err != nil {
		row.status = "fails: generate: " + firstLine(err.Error())
		t.Errorf("generating from %s: %v\n%s", spec, err, head(strings.Join(errs, "\n"), 40))
		return nil, false
	}
	row.ops = opsCount(svc.Summary(pkg))
	t.Logf("summary: %s; skipped: %v", svc.Summary(pkg), svc.Skipped)
	files, err := generator.Generate(svc, pkg)
	if err != nil {
		row.status = "fails: generate: " + firstLine(err.Error())
		t.Errorf("generating from %s: %v", spec, err)
		return nil, false
	}
	return files, true
}

// sameFiles reports whether dir holds exactly files, byte for byte,
// reporting the first difference.
func sameFiles(t *testing.T, files []generator.File, dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Errorf("reading the generated package: %v", err)
		return false
	}
	var got, want []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	for _, f := range files {
		want = append(want, f.Name)
		b, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil || !bytes.Equal(b, f.Content) {
			t.Errorf("two runs differ: %s written by the CLI is not what the generator package returned (%v)", f.Name, err)
			return false
		}
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("two runs differ: the CLI wrote %v, the generator package returned %v", got, want)
		return false
	}
	return true
}

// moduleRoot returns the repository root: the test runs in golden/.
func moduleRoot(t *testing.T) string {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod in %s: %v", root, err)
	}
	return root
}

// sharedSpecs lists the .json, .yaml and .yml files of ../shared/specs
// beside the checkout.
func sharedSpecs(t *testing.T, root string) []realSpec {
	dir := filepath.Join(filepath.Dir(root), "shared", "specs")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("the realspecs tier needs the real specs in %s (../shared/specs next to the checkout; CI clones shared/ beside the repository): %v", dir, err)
	}
	var out []realSpec
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".json", ".yaml", ".yml":
			path := filepath.Join(dir, e.Name())
			out = append(out, realSpec{name: e.Name(), path: func(*testing.T) string { return path }})
		}
	}
	if len(out) == 0 {
		t.Fatalf("no specs (*.json, *.yaml) in %s", dir)
	}
	return out
}

// buildCLI builds cmd/retrygen once for the test and returns its path.
func buildCLI(t *testing.T, root string) string {
	bin := filepath.Join(t.TempDir(), "retrygen")
	if b := runCmd(root, nil, "go", "build", "-o", bin, "./cmd/retrygen"); b.err != nil {
		t.Fatalf("building cmd/retrygen: %v\n%s", b.err, b.stderr)
	}
	return bin
}

// modulePackageDir returns a directory for a generated package inside the
// module (so it can import the runtime) that does not exist yet, as an
// absolute path and as "./golden/testdata/realspecs-…/pkg" for go commands
// run at root. It lives under golden/testdata/, which ./... patterns skip,
// and is removed when t ends.
func modulePackageDir(t *testing.T, root, pkg string) (abs, rel string) {
	parent := filepath.Join(root, "golden", "testdata")
	if err := os.MkdirAll(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(parent, "realspecs-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	abs = filepath.Join(tmp, pkg)
	r, err := filepath.Rel(root, abs)
	if err != nil {
		t.Fatal(err)
	}
	return abs, "./" + filepath.ToSlash(r)
}

// packageName derives a Go package name from a spec's file name: the
// letters and digits before the first dot, lower-cased
// ("aws-dynamodb-2012-08-10.openapi.yaml" → "awsdynamodb20120810").
func packageName(file string) string {
	base, _, _ := strings.Cut(file, ".")
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" || !unicode.IsLetter(rune(name[0])) {
		name = "spec" + name
	}
	return name
}

// opsCount returns N of the summary's "N operations".
func opsCount(summary string) string {
	_, rest, _ := strings.Cut(summary, ": ")
	n, _, _ := strings.Cut(rest, " ")
	return n
}

// firstCompileError returns the first line of go build's output that is
// not a "# package" header.
func firstCompileError(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			return line
		}
	}
	return firstLine(out)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// head returns the first n lines of s, saying how many were left out.
func head(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= n {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:n], "\n") + "\n… " + strconv.Itoa(len(lines)-n) + " more lines"
}
