package testserver

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

//go:embed npm/package.json
var packageJSON []byte

//go:embed npm/package-lock.json
var packageLock []byte

// doneMarker is the file written, by an atomic rename, into an install
// directory once `npm ci` has succeeded there.
const doneMarker = ".retrygen-installed"

var (
	installMu  sync.Mutex
	installDir string // set once Install has succeeded in this process
)

// Install makes sure the servers pinned by npm/package-lock.json are
// installed and returns the directory holding node_modules (and
// node_modules/.bin).
//
// The directory is $RETRYGEN_CACHE/npm-<first 16 hex digits of the
// lockfile's sha256>, or os.UserCacheDir()/retrygen/npm-<…> when
// RETRYGEN_CACHE is unset, so a changed lockfile gets a fresh install. The
// install runs `npm ci` once per machine: an exclusive flock on
// npm-<…>.lock serialises test binaries running in parallel, and the marker
// file .retrygen-installed (renamed into place after success) tells later
// callers it is complete; a directory without it is wiped and installed
// again.
//
// When node or npm is missing or `npm ci` fails, Install fails the test with
// npm's output. When RETRYGEN_SKIP_SERVERS=1 it skips the test instead,
// without installing anything.
func Install(t testing.TB) string {
	t.Helper()
	if os.Getenv("RETRYGEN_SKIP_SERVERS") == "1" {
		t.Skip("testserver: RETRYGEN_SKIP_SERVERS=1, skipping a test that needs a server from npm")
	}
	installMu.Lock()
	defer installMu.Unlock()
	if installDir != "" {
		return installDir
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("testserver: %s is not on PATH (Node 20 with npm is needed to install the test servers; set RETRYGEN_SKIP_SERVERS=1 to skip these tests): %v", tool, err)
		}
	}
	base, err := cacheBase()
	if err != nil {
		t.Fatalf("testserver: %v", err)
	}
	dir := filepath.Join(base, "npm-"+lockHash())
	if err := installOnce(dir, npmCI); err != nil {
		t.Fatalf("testserver: %v", err)
	}
	installDir = dir
	return dir
}

// CacheDir returns the directory shared by every test binary for installs,
// fetched specs and reports: $RETRYGEN_CACHE (made absolute), else
// os.UserCacheDir()/retrygen. It fails the test when neither is available.
func CacheDir(t testing.TB) string {
	t.Helper()
	dir, err := cacheBase()
	if err != nil {
		t.Fatalf("testserver: %v", err)
	}
	return dir
}

// cacheBase returns $RETRYGEN_CACHE, else os.UserCacheDir()/retrygen.
func cacheBase() (string, error) {
	if dir := os.Getenv("RETRYGEN_CACHE"); dir != "" {
		return filepath.Abs(dir)
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the npm install (set RETRYGEN_CACHE): %w", err)
	}
	return filepath.Join(dir, "retrygen"), nil
}

// lockHash is the first 16 hex digits of the embedded lockfile's sha256.
func lockHash() string {
	sum := sha256.Sum256(packageLock)
	return hex.EncodeToString(sum[:])[:16]
}

// installOnce runs install(dir) unless dir already holds the done marker,
// holding an exclusive flock on dir+".lock" throughout so that concurrent
// callers, in this process or others, install at most once. A failed or
// interrupted install leaves no marker, so the next caller starts over.
func installOnce(dir string, install func(dir string) error) error {
	return withFileLock(dir+".lock", func() error { return installLocked(dir, install) })
}

// withFileLock runs fn holding an exclusive flock on path (created, with its
// directory, when missing), so that callers in this process and in other
// test binaries run one at a time.
func withFileLock(path string, fn func() error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("creating the cache directory: %w", err)
	}
	lock, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("opening the install lock: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("locking %s: %w", lock.Name(), err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing the file unlocks too
	return fn()
}

// installLocked is installOnce's body, run under the lock.
func installLocked(dir string, install func(dir string) error) error {
	marker := filepath.Join(dir, doneMarker)
	if _, err := os.Stat(marker); err == nil {
		return nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("checking %s: %w", marker, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("removing the incomplete install %s: %w", dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	if err := install(dir); err != nil {
		return err
	}
	tmp := marker + ".tmp"
	if err := os.WriteFile(tmp, []byte(lockHash()+"\n"), 0o644); err != nil {
		return fmt.Errorf("writing the install marker: %w", err)
	}
	if err := os.Rename(tmp, marker); err != nil {
		return fmt.Errorf("writing the install marker: %w", err)
	}
	return nil
}

// npmCI writes the embedded package.json and package-lock.json into dir and
// runs `npm ci` there; the error carries npm's combined output.
func npmCI(dir string) error {
	for name, data := range map[string][]byte{"package.json": packageJSON, "package-lock.json": packageLock} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=warn")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("`npm ci` in %s failed (%v); set RETRYGEN_SKIP_SERVERS=1 to skip the tests that need these servers; npm's output:\n%s", dir, err, out.String())
	}
	return nil
}
