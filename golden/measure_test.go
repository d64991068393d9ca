//go:build realspecs

package golden

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// run is what one measured subprocess cost and said.
type run struct {
	// wall is the wall-clock time from start to exit.
	wall time.Duration
	// maxRSS is the peak resident set size in bytes of the process and of
	// every descendant it waited for (wait4's ru_maxrss, KiB on Linux): for
	// `go build` that includes the compiler it starts.
	maxRSS int64
	stdout string
	stderr string
	// err is the exec error; nil when the process exited with status 0.
	err error
}

// runMeasured runs name with args in dir, the environment being the test's
// plus env ("K=V" entries override), and measures it.
func runMeasured(dir string, env []string, name string, args ...string) run {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	began := time.Now()
	err := cmd.Run()
	r := run{wall: time.Since(began), stdout: stdout.String(), stderr: stderr.String(), err: err}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.maxRSS = ru.Maxrss * 1024
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
	list := runMeasured(c.root, env, "go", "list", "-e", "-deps", "-f", "{{if .DepOnly}}{{.ImportPath}}{{end}}", pkgDir)
	if list.err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkgDir, list.err, list.stderr)
	}
	deps := strings.Fields(list.stdout)
	if b := runMeasured(c.root, env, "go", append([]string{"build"}, deps...)...); b.err != nil {
		t.Fatalf("building the dependencies of %s: %v\n%s", pkgDir, b.err, b.stderr)
	}
	dir := filepath.Join(t.TempDir(), "gocache")
	if cp := runMeasured(c.root, nil, "cp", "-a", c.warm, dir); cp.err != nil {
		t.Fatalf("copying the warm GOCACHE: %v\n%s", cp.err, cp.stderr)
	}
	return dir
}

// mib renders bytes as MiB with one decimal.
func mib(b int64) float64 { return float64(b) / (1 << 20) }
