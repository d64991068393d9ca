package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRunsAsGoTool checks that `go tool retrygen` works in this module (the
// go.mod tool directive), as the README promises.
func TestRunsAsGoTool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	out, err := exec.Command("go", "tool", "retrygen", "help").CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.True(t, strings.HasPrefix(string(out), "usage: retrygen <command> [flags]"), "%s", out)
}
