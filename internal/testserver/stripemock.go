package testserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// StripeMockModule and StripeMockVersion pin Stripe's own mock server,
// github.com/stripe/stripe-mock: a Go program that serves Stripe's REST API
// from the OpenAPI spec embedded in its module and rejects every request
// that does not validate against it.
const (
	StripeMockModule  = "github.com/stripe/stripe-mock"
	StripeMockVersion = "v0.203.0"
)

// stripeSpecInModule is the path of Stripe's OpenAPI 3.0 spec inside the
// stripe-mock module.
const stripeSpecInModule = "embedded/openapi/spec3.json"

var (
	stripeMu  sync.Mutex
	stripeDir string // set once InstallStripeMock has succeeded in this process
)

// InstallStripeMock makes sure stripe-mock StripeMockVersion is built and
// its spec copied, and returns the directory holding bin/stripe-mock and
// spec3.json: $RETRYGEN_CACHE/stripe-mock-<version> (see [CacheDir]).
//
// The install runs once per machine, under the same file lock and done
// marker as the npm install ([Install]): `go install
// github.com/stripe/stripe-mock@<version>` with GOBIN=<dir>/bin through the
// Go module proxy, then `go mod download -json` of the same module version
// for the directory its spec3.json is copied from. When the go command
// fails, the test fails with its output; RETRYGEN_SKIP_SERVERS=1 skips the
// test instead.
func InstallStripeMock(t testing.TB) string {
	t.Helper()
	if os.Getenv("RETRYGEN_SKIP_SERVERS") == "1" {
		t.Skip("testserver: RETRYGEN_SKIP_SERVERS=1, skipping a test that needs stripe-mock")
	}
	stripeMu.Lock()
	defer stripeMu.Unlock()
	if stripeDir != "" {
		return stripeDir
	}
	base, err := cacheBase()
	if err != nil {
		t.Fatalf("testserver: %v", err)
	}
	dir := filepath.Join(base, "stripe-mock-"+StripeMockVersion)
	if err := installOnce(dir, goInstallStripeMock); err != nil {
		t.Fatalf("testserver: %v", err)
	}
	stripeDir = dir
	return dir
}

// StripeSpec returns the path of Stripe's OpenAPI spec (spec3.json, 8 MB,
// about 590 operations) from the stripe-mock module, installing it first
// (see [InstallStripeMock]).
func StripeSpec(t testing.TB) string {
	t.Helper()
	return filepath.Join(InstallStripeMock(t), "spec3.json")
}

// goInstallStripeMock builds stripe-mock into dir/bin and copies its spec
// into dir. The go commands run in dir, outside any module, with
// GOFLAGS and GOWORK cleared so the caller's settings cannot change what
// is built.
func goInstallStripeMock(dir string) error {
	mod := StripeMockModule + "@" + StripeMockVersion
	env := append(os.Environ(), "GOBIN="+filepath.Join(dir, "bin"), "GOFLAGS=", "GOWORK=off")
	run := func(args ...string) ([]byte, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("`go %v` in %s failed (%v); set RETRYGEN_SKIP_SERVERS=1 to skip the tests that need stripe-mock; output:\n%s%s",
				args, dir, err, stdout.String(), stderr.String())
		}
		return stdout.Bytes(), nil
	}
	if _, err := run("install", mod); err != nil {
		return err
	}
	out, err := run("mod", "download", "-json", mod)
	if err != nil {
		return err
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return fmt.Errorf("`go mod download -json %s`: no module directory in %q (%v) %s", mod, out, err, info.Error)
	}
	spec, err := os.ReadFile(filepath.Join(info.Dir, stripeSpecInModule))
	if err != nil {
		return fmt.Errorf("reading Stripe's spec from the module: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, "spec3.json"), spec, 0o644)
}

// StartStripeMock runs `stripe-mock -http-addr 127.0.0.1:P -https-addr
// 127.0.0.1:` (version StripeMockVersion, installed by [InstallStripeMock])
// on free 127.0.0.1 ports for the rest of the test and returns its HTTP endpoint,
// "http://127.0.0.1:P". stripe-mock serves the spec embedded in its binary
// (the same spec3.json as [StripeSpec]), answers every operation from its
// fixtures, and answers a request that breaks the spec with HTTP 400 and
// {"error":{"message":"Request validation error: …"}}; send
// `Authorization: Bearer sk_test_123`. It fails the test when the server
// cannot be installed or does not answer HTTP within 60 s.
func StartStripeMock(t testing.TB) string {
	t.Helper()
	return start(t, server{
		name:    "stripe-mock",
		install: InstallStripeMock,
		exe:     func(dir string) string { return filepath.Join(dir, "bin", "stripe-mock") },
		// -http-addr/-https-addr instead of -http-port/-https-port: those
		// listen on every interface. An empty HTTPS port lets the system
		// choose a free one (stripe-mock always serves HTTPS too).
		args: func(_ string, port int) []string {
			return []string{"-http-addr", "127.0.0.1:" + strconv.Itoa(port), "-https-addr", "127.0.0.1:"}
		},
		startTimeout: 60 * time.Second,
	})
}
