//go:build realspecs

package golden

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// run is what one subprocess cost and said.
type run struct {
	// wall is the wall-clock time from start to exit.
	wall time.Duration
	// maxRSS is the peak resident set size in bytes of the process and of
	// every descendant it waited for, as golden/rusage reports it (wait4's
	// ru_maxrss): for `go build` that includes the compiler. Zero for runs
	// not made through a meter.
	maxRSS int64
	stdout string
	stderr string
	// err is the exec error; nil when the process exited with status 0.
	err error
}

// runCmd runs name with args in dir, the environment being the test's plus
// env ("K=V" entries override).
func runCmd(dir string, env []string, name string, args ...string) run {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	began := time.Now()
	err := cmd.Run()
	return run{wall: time.Since(began), stdout: stdout.String(), stderr: stderr.String(), err: err}
}

// meter measures commands through golden/rusage, built once per test: the
// test binary cannot measure its children itself, their ru_maxrss would
// start at its own peak (see golden/rusage).
type meter struct {
	tool string // the rusage binary
	dir  string // where result files go
}

func newMeter(t *testing.T, root string) *meter {
	dir := t.TempDir()
	m := &meter{tool: filepath.Join(dir, "rusage"), dir: dir}
	if b := runCmd(root, nil, "go", "build", "-o", m.tool, "./golden/rusage"); b.err != nil {
		t.Fatalf("building golden/rusage: %v\n%s", b.err, b.stderr)
	}
	return m
}

// run runs name with args like runCmd and fills wall and maxRSS from
// rusage's result file.
func (m *meter) run(dir string, env []string, name string, args ...string) run {
	result := filepath.Join(m.dir, "result")
	os.Remove(result)
	r := runCmd(dir, env, m.tool, append([]string{result, name}, args...)...)
	var secs float64
	var kib int64
	if b, err := os.ReadFile(result); err == nil {
		if _, err := fmt.Sscan(string(b), &secs, &kib); err == nil {
			r.wall, r.maxRSS = time.Duration(secs*float64(time.Second)), kib*1024
		}
	}
	return r
}

// buildCache gives every measured build a GOCACHE in which everything the
// generated package imports (the standard library, the retrygen runtime) is
// already compiled and the generated package itself is not: a copy of one
// warm cache, extended for each package's dependencies. The measured build
// is then the compile of the generated package alone, not of net/http.
// GOMODCACHE is left as it is.
type buildCache struct {
	root string // module root: go commands run here
	warm string // GOCACHE holding the dependencies built so far
}

func newBuildCache(t *testing.T, root string) *buildCache {
	return &buildCache{root: root, warm: t.TempDir()}
}

// fresh returns a new GOCACHE (removed when t ends) holding the compiled
// dependencies of the package at pkgDir (a path relative to the module
// root, "./…") but not the package itself.
func (c *buildCache) fresh(t *testing.T, pkgDir string) string {
	t.Helper()
	env := []string{"GOCACHE=" + c.warm}
	list := runCmd(c.root, env, "go", "list", "-e", "-deps", "-f", "{{if .DepOnly}}{{.ImportPath}}{{end}}", pkgDir)
	if list.err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkgDir, list.err, list.stderr)
	}
	deps := strings.Fields(list.stdout)
	if b := runCmd(c.root, env, "go", append([]string{"build"}, deps...)...); b.err != nil {
		t.Fatalf("building the dependencies of %s: %v\n%s", pkgDir, b.err, b.stderr)
	}
	dir := filepath.Join(t.TempDir(), "gocache")
	if cp := runCmd(c.root, nil, "cp", "-a", c.warm, dir); cp.err != nil {
		t.Fatalf("copying the warm GOCACHE: %v\n%s", cp.err, cp.stderr)
	}
	return dir
}
