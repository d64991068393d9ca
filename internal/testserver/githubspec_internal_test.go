package testserver

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// writeTarball writes a gzipped tarball holding members (name → contents)
// into dir and returns its path.
func writeTarball(t *testing.T, dir string, members map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range members {
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}))
		_, err := tw.Write([]byte(body))
		require.NoError(t, err)
	}
	require.NoError(t, tw.Close())
	require.NoError(t, gz.Close())
	path := filepath.Join(dir, "octokit-openapi-23.0.2.tgz")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

func TestFetchGitHubSpec(t *testing.T) {
	tests := []struct {
		name string
		// members of the tarball pack returns; nil: pack fails with packErr.
		members map[string]string
		packErr error
		wantErr string
		wantIs  error
	}{
		{
			name:    "an unreachable registry is reported as such so the test can skip",
			packErr: errRegistryUnreachable, wantIs: errRegistryUnreachable,
		},
		{
			name:    "a tarball without the spec names the missing member",
			members: map[string]string{"package/README.md": "x"}, wantErr: "no member package/generated/api.github.com.json",
		},
		{
			name:    "a spec with another sha256 is refused",
			members: map[string]string{githubSpecMember: "{}"}, wantErr: "sha256 44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a, want " + githubSpecSHA256,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			pack := func(d, pkg string) (string, error) {
				require.Equal(t, GitHubSpecPackage, pkg)
				if tc.members == nil {
					return "", tc.packErr
				}
				return writeTarball(t, d, tc.members), nil
			}
			err := fetchGitHubSpec(dir, pack)
			require.Error(t, err)
			if tc.wantIs != nil {
				require.True(t, errors.Is(err, tc.wantIs), "%v", err)
			}
			require.ErrorContains(t, err, tc.wantErr)
			require.NoFileExists(t, filepath.Join(dir, githubSpecFile))
		})
	}
}

func TestExtractMemberReturnsTheRegularFile(t *testing.T) {
	path := writeTarball(t, t.TempDir(), map[string]string{"package/a": "A", githubSpecMember: `{"openapi":"3.0.3"}`})
	got, err := extractMember(path, githubSpecMember)
	require.NoError(t, err)
	require.Equal(t, `{"openapi":"3.0.3"}`, string(got))
}

func TestUnreachableRegistryOutput(t *testing.T) {
	tests := []struct {
		name   string
		output string
		want   bool
	}{
		{"DNS failure is unreachable", "npm error code ENOTFOUND\nnpm error network request to https://registry.npmjs.org/@octokit%2fopenapi failed", true},
		{"temporary DNS failure is unreachable", "npm error code EAI_AGAIN", true},
		{"refused connection is unreachable", "npm error errno ECONNREFUSED", true},
		{"timeout is unreachable", "npm error code ETIMEDOUT", true},
		{"a missing version is not unreachable", "npm error code ETARGET\nnpm error notarget No matching version found for @octokit/openapi@23.0.2.", false},
		{"an integrity failure is not unreachable", "npm error code EINTEGRITY", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, unreachable.MatchString(tc.output))
		})
	}
}
