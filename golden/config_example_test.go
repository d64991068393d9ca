package golden

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGoGenerateConfigExample runs the //go:generate line of generate.go
// that reads dynamodblite.retrygen.yaml (a subset of four DynamoDB
// operations, GetItem renamed FetchItem), with -out pointing at a temporary
// directory (a flag overrides the file), and requires the result to be
// byte-identical to golden/dynamodblite. With -update it rewrites
// golden/dynamodblite instead.
func TestGoGenerateConfigExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	src, err := os.ReadFile("generate.go")
	require.NoError(t, err)
	var args []string
	for line := range strings.SplitSeq(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "//go:generate "); ok && strings.Contains(rest, "-config dynamodblite.retrygen.yaml") {
			args = strings.Fields(rest)
		}
	}
	require.NotEmpty(t, args, "generate.go has the go:generate line of the config example")
	out := filepath.Join(t.TempDir(), "dynamodblite")
	if *update {
		out = "dynamodblite"
	}
	cmd := exec.Command(args[0], append(args[1:], "-out", out)...)
	stdout, err := cmd.Output()
	require.NoError(t, err, "%s", stdout)
	require.Equal(t, "dynamodblite: 4 operations (0 skipped), 20 types, 7 error shapes (transient 0, throttling 2, non-retryable 5)\n", string(stdout))

	got, want := readDir(t, out), readDir(t, "dynamodblite")
	require.Equal(t, len(want), len(got), "file set differs from golden/dynamodblite; run go test ./golden/ -update")
	for name, w := range want {
		require.Equal(t, string(w), string(got[name]), "%s differs from golden/dynamodblite; run go test ./golden/ -update", name)
	}
	ops := string(want["operations.go"])
	require.Contains(t, ops, "func (c *Client) FetchItem(ctx context.Context, in *GetItemInput")
	require.NotContains(t, ops, "func (c *Client) GetItem(")
	require.NotContains(t, ops, "func (c *Client) Scan(")
}
