package generator

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// Example values are data: a "$ref", "type" or "description" member inside
// one is not checked as a spec keyword (it used to skip the operation with
// a warning, and -strict refused the spec); a $ref to an Example Object is
// still a reference (issue 19).
func TestExamplesAreData(t *testing.T) {
	spec, err := os.ReadFile("testdata/fidelity/examples.yaml")
	require.NoError(t, err)
	_, diags, err := load(t, string(spec))
	require.Error(t, err, "its one operation skipped, the spec has none left (newuser4 G8)")
	require.Equal(t, []string{
		`spec.yaml#/paths/~1a/get/responses/200/content/application~1json/examples/two/$ref: $ref "#/components/examples/missing" names nothing in the spec; operation GET /a skipped`,
		`spec.yaml#/paths: none of the spec's 1 operation is left to generate (1 skipped for a defect of its own, warned of above); a client without operations is not written`,
	}, diags)

	fixed := []byte(string(spec[:len(spec)-len("                  $ref: '#/components/examples/missing'\n")]) + "                  value: {}\n")
	svc, diags, err := load(t, string(fixed))
	require.NoError(t, err)
	require.Empty(t, diags)
	require.Len(t, svc.Operations, 1)
}
