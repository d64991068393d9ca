package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPackageDocSaysWhereRetriesComeFrom: the package doc says "as the
// spec's x-retry extension declares" only when the spec has one (second
// new-user trial F14: go doc said so for a spec without x-retry).
func TestPackageDocSaysWhereRetriesComeFrom(t *testing.T) {
	for _, c := range []struct{ root, want string }{
		{"", "Calls are retried with the settings retrygen derives for this spec (it declares no x-retry"},
		{"x-retry: {version: 1, maxAttempts: 5}", "Calls are retried as the spec's x-retry extension declares"},
	} {
		svc, _, err := load(t, specWith(c.root, ""))
		require.NoError(t, err)
		files, err := Generate(svc, "svc")
		require.NoError(t, err)
		var client string
		for _, f := range files {
			if f.Name == "client.go" {
				client = string(f.Content)
			}
		}
		require.True(t, strings.Contains(client, "// "+c.want), "%q: %s", c.root, client[:400])
	}
}
