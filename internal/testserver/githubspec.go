package testserver

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// GitHub's REST API spec (OpenAPI 3.0.3, 13 MB, 1,223 operations) is too
// large to commit; /work/shared/specs/README.md names where it comes from.
const (
	// GitHubSpecPackage is the npm package spec `npm pack` fetches.
	GitHubSpecPackage = "@octokit/openapi@23.0.2"
	// githubSpecMember is the spec's path inside the package tarball.
	githubSpecMember = "package/generated/api.github.com.json"
	// githubSpecSHA256 is the sha256 of githubSpecMember in version 23.0.2.
	githubSpecSHA256 = "829b4bebb19a53133289f7b0bc819f4f1118115821db2ca9f25e9ee995a7da2a"
	// githubSpecFile is the name the spec is stored under in the cache.
	githubSpecFile = "api.github.com.json"
)

// errRegistryUnreachable marks an `npm pack` that failed because the npm
// registry could not be reached.
var errRegistryUnreachable = errors.New("the npm registry is unreachable")

// GitHubSpec returns the path of GitHub's REST API spec,
// package/generated/api.github.com.json of [GitHubSpecPackage], fetched
// once per machine with `npm pack` into $RETRYGEN_CACHE/octokit-openapi-23.0.2/
// (see [Install] for the cache and its flock) and checked against its
// sha256. It skips the test, saying why, when the npm registry cannot be
// reached (npm reports ENOTFOUND, EAI_AGAIN, ECONNREFUSED, ECONNRESET,
// ETIMEDOUT or ENETUNREACH); any other failure fails the test.
func GitHubSpec(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatalf("testserver: npm is not on PATH (needed to fetch %s): %v", GitHubSpecPackage, err)
	}
	base, err := cacheBase()
	if err != nil {
		t.Fatalf("testserver: %v", err)
	}
	dir := filepath.Join(base, "octokit-openapi-23.0.2")
	err = installOnce(dir, func(dir string) error { return fetchGitHubSpec(dir, npmPack) })
	switch {
	case errors.Is(err, errRegistryUnreachable):
		t.Skipf("testserver: skipping GitHub's spec: %v", err)
	case err != nil:
		t.Fatalf("testserver: %v", err)
	}
	return filepath.Join(dir, githubSpecFile)
}

// npmPack runs `npm pack PKG` in dir and returns the tarball's path.
func npmPack(dir, pkg string) (string, error) {
	cmd := exec.Command("npm", "pack", pkg, "--silent", "--no-audit", "--no-fund")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		out := stderr.String()
		if unreachable.MatchString(out) {
			return "", fmt.Errorf("`npm pack %s`: %w: %s", pkg, errRegistryUnreachable, firstLine(out))
		}
		return "", fmt.Errorf("`npm pack %s` in %s failed (%v); npm's output:\n%s", pkg, dir, err, out)
	}
	lines := strings.Fields(stdout.String())
	if len(lines) == 0 {
		return "", fmt.Errorf("`npm pack %s` printed no tarball name", pkg)
	}
	return filepath.Join(dir, lines[len(lines)-1]), nil
}

// unreachable matches the npm error codes of a registry that cannot be
// reached (DNS failure, refused or reset connection, timeout, no route).
var unreachable = regexp.MustCompile(`\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH)\b`)

// fetchGitHubSpec packs [GitHubSpecPackage] into dir with pack, extracts
// githubSpecMember as dir/api.github.com.json, checks its sha256 and
// removes the tarball.
func fetchGitHubSpec(dir string, pack func(dir, pkg string) (string, error)) error {
	tgz, err := pack(dir, GitHubSpecPackage)
	if err != nil {
		return err
	}
	data, err := extractMember(tgz, githubSpecMember)
	if err != nil {
		return err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != githubSpecSHA256 {
		return fmt.Errorf("%s in %s: sha256 %x, want %s", githubSpecMember, tgz, sum, githubSpecSHA256)
	}
	if err := os.WriteFile(filepath.Join(dir, githubSpecFile), data, 0o644); err != nil {
		return fmt.Errorf("writing GitHub's spec: %w", err)
	}
	return os.Remove(tgz)
}

// extractMember returns the contents of the regular file member in the
// gzipped tarball at path.
func extractMember(path, member string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: no member %s", path, member)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if h.Name == member && h.Typeflag == tar.TypeReg {
			data, err := io.ReadAll(tr)
			if err != nil {
				return nil, fmt.Errorf("%s: reading %s: %w", path, member, err)
			}
			return data, nil
		}
	}
}

// firstLine returns s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
