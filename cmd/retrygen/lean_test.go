//go:build realspecs

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGoGetToolIsLean checks issue 12's promise that the generator tool stays
// lean: a consumer's `go get -tool github.com/retrygen/retrygen/cmd/retrygen`
// (a temporary module whose replace points at this checkout, GOFLAGS=-mod=mod,
// the real module proxy) adds none of the modules that only the simulator
// (gonum plot) or the optional integrations (go-redis, rueidis,
// OpenTelemetry) need to the consumer's go.mod. Behind the realspecs tag: it
// downloads modules.
//
// go get also asks the proxy whether github.com/retrygen/retrygen/cmd/retrygen
// is a module of its own. proxy.golang.org answers 404 (not found, go get
// goes on); a proxy that answers 403 for unpublished paths makes go get fail
// there. Then the test fills the module cache through the proxy (`go mod
// download` in the checkout) and repeats go get with GOPROXY=off, the
// consumer's go.sum seeded from the checkout's: the requirements written are
// the same, since they come from the checkout's go.mod either way.
func TestGoGetToolIsLean(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	dir := t.TempDir()
	goCmd := func(wd string, env []string, args ...string) (string, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir = wd
		cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off"), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	mustGo := func(wd string, env []string, args ...string) {
		t.Helper()
		out, err := goCmd(wd, env, args...)
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
	}
	mustGo(dir, nil, "mod", "init", "example.com/consumer")
	mustGo(dir, nil, "mod", "edit",
		"-require", "github.com/retrygen/retrygen@v0.0.0-00010101000000-000000000000",
		"-replace", "github.com/retrygen/retrygen="+root)
	get := []string{"get", "-tool", "github.com/retrygen/retrygen/cmd/retrygen"}
	out, err := goCmd(dir, nil, get...)
	if err != nil && strings.Contains(out, "403 Forbidden") && strings.Contains(out, "github.com/retrygen/retrygen/") {
		t.Logf("the proxy refuses the unpublished path (%s); filling the module cache through it and repeating go get offline", strings.TrimSpace(strings.SplitN(out, "\n", 2)[0]))
		mustGo(root, nil, "mod", "download")
		sum, rerr := os.ReadFile(filepath.Join(root, "go.sum"))
		require.NoError(t, rerr)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
		out, err = goCmd(dir, []string{"GOPROXY=off"}, get...)
	}
	require.NoError(t, err, "go %s:\n%s", strings.Join(get, " "), out)
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	require.NoError(t, err)
	gomod := string(data)

	require.Contains(t, gomod, "tool github.com/retrygen/retrygen/cmd/retrygen")
	require.Contains(t, gomod, "github.com/getkin/kin-openapi", "the generator's own dependencies are there (the check can fail)")
	for _, heavy := range []string{
		"gonum.org/",                   // plots of cmd/retrygen-sim
		"golang.org/x/image",           // gonum plot's fonts and rasteriser
		"github.com/redis/",            // go-redis and rueidis (runtime/redisstore)
		"go.opentelemetry.io/",         // OpenTelemetry integrations
		"github.com/aws/aws-sdk-go-v2", // the side-by-side benchmarks' peers
	} {
		require.NotContains(t, gomod, heavy, "go get -tool put %s in the consumer's go.mod:\n%s", heavy, gomod)
	}
}
