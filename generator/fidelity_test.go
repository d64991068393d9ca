package generator

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFidelity generates testdata/fidelity/spec.yaml (issue 19: every
// construct modelled exactly or kept raw with a located warning), checks
// the warnings and the generated doc text exactly, then runs
// testdata/fidelity/behaviour against the generated client: exact JSON
// round trips of nulls in every form, oneOf-of-const enums, enum-told
// unions and dates, and a request sending explicit null.
func TestFidelity(t *testing.T) {
	spec, err := os.ReadFile("testdata/fidelity/spec.yaml")
	require.NoError(t, err)
	svc, diags, err := load(t, string(spec))
	require.NoError(t, err)
	require.Equal(t, []string{
		`spec.yaml#/components/schemas/Pet/discriminator/mapping/pet: discriminator mapping "pet" names #/components/schemas/Pet, which adds no member to the base schema; such a value sets no field of Pet but stays whole in its Raw`,
		`spec.yaml#/components/schemas/Todo/required/4: required property "kind" has no definition; field Kind is json.RawMessage`,
	}, diags)
	files, err := Generate(svc, "fidelity")
	require.NoError(t, err)
	var types string
	for _, f := range files {
		if f.Name == "types.go" {
			types = string(f.Content)
		}
	}
	for _, want := range []string{
		"\t// Maximum length: 64. Pattern: \"^[a-z]+$\".\n\t//\n\t// Deprecated: the spec marks this member deprecated.\n\tLegacy *string `json:\"legacy,omitzero\"`\n",
		"\t// See [the guide] and [limits].\n\t// Default: 20. Minimum: 1. Maximum: 100.\n\t//\n\t// [limits]: https://example.com/limits\n\t// [the guide]: https://example.com/guide\n\tLimit    *int64              `json:\"limit,omitzero\"`\n",
		"\tBorn           *openapi.Date               `json:\"born,omitzero\"`\n",
		"\tDueAt          openapi.Nullable[time.Time] `json:\"due_at,omitzero\"`\n",
		"\tOwner    *Owner              `json:\"owner\"` // Required; nil is sent as null.\n",
		"\tRatings  map[string]*float64 `json:\"ratings,omitzero\"`\n\tScores   []*int64            `json:\"scores,omitzero\"`\n",
		"\tPriorityLow Priority = 1\n\n\t// Done first.\n\tPriorityHigh Priority = 2\n",
		"Enum: []string{\"type\", \"[\\\"klarna\\\",\\\"klarna_account\\\"]\"}, Properties:",
	} {
		require.Contains(t, types, want)
	}

	if testing.Short() {
		t.Skip("go test of the generated client")
	}
	tmp, err := os.MkdirTemp(".", ".tmp-fidelity-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(tmp) })
	for _, f := range files {
		require.NoError(t, os.WriteFile(filepath.Join(tmp, f.Name), f.Content, 0o644))
	}
	test, err := os.ReadFile("testdata/fidelity/behaviour/fidelity_test.go")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "fidelity_test.go"), test, 0o644))
	out, err := exec.Command("go", "test", "-count=1", "./"+filepath.ToSlash(tmp)).CombinedOutput()
	require.NoError(t, err, "%s", strings.TrimSpace(string(out)))
}
