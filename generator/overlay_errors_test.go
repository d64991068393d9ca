package generator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// loadWithOverlay loads spec with one overlay (both written to a temporary
// directory, the overlay as overlay.yaml) and returns the diagnostics with
// the directory removed.
func loadWithOverlay(t *testing.T, spec, ov string) (*Service, []string, error) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "spec.yaml"), []byte(spec), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "overlay.yaml"), []byte(ov), 0o644))
	t.Chdir(dir)
	svc, ds, err := LoadService("spec.yaml", []string{"overlay.yaml"})
	var out []string
	for _, d := range ds {
		out = append(out, d.String())
	}
	return svc, out, err
}

const overlaySpec = `openapi: 3.0.3
info: {title: Pets, version: '1'}
x-retry: {version: 1, maxAttempts: 3}
paths:
  /pets:
    get:
      operationId: ListPets
      x-retry: {longPolling: true}
      responses: {'200': {description: ok}}
`

// TestOverlayValueCheckedAsWritten: a value an overlay writes over an
// existing one (the library copies the text, not the YAML tag) is checked as
// if the spec said it, and the error names the overlay that set it; no raw
// go-yaml error follows.
func TestOverlayValueCheckedAsWritten(t *testing.T) {
	for _, tc := range []struct{ update, want string }{
		{`{target: '$.paths["/pets"].get', update: {x-retry: {longPolling: "yes"}}}`,
			`spec.yaml#/paths/~1pets/get/x-retry/longPolling: must be true or false, got "yes" (set by overlay overlay.yaml)`},
		{`{target: '$', update: {x-retry: {maxAttempts: "abc"}}}`,
			`spec.yaml#/x-retry/maxAttempts: must be an integer ≥ 1, got "abc" (set by overlay overlay.yaml)`},
		{`{target: '$', update: {x-retry: {maxAttempts: "4"}}}`,
			`spec.yaml#/x-retry/maxAttempts: must be an integer ≥ 1, got the string "4" (set by overlay overlay.yaml)`},
	} {
		_, ds, err := loadWithOverlay(t, overlaySpec, "overlay: 1.0.0\ninfo: {title: o, version: '1'}\nactions:\n  - "+tc.update+"\n")
		require.EqualError(t, err, "spec.yaml: 1 error(s) in the spec")
		require.Equal(t, []string{tc.want}, ds)
	}
}

// TestOverlayActionFailuresOnePerLine: every action whose target selects
// nothing is reported with its index and line, one per line, in our words.
func TestOverlayActionFailuresOnePerLine(t *testing.T) {
	_, _, err := loadWithOverlay(t, overlaySpec, `overlay: 1.0.0
info: {title: o, version: '1'}
actions:
  - target: $.paths["/nope"].get
    update: {x-retry: {longPolling: true}}
  - target: $.paths["/pets"].get
    update: {summary: fine}
  - target: $.paths["/pets"].put
    remove: true
`)
	require.EqualError(t, err, `overlay.yaml: actions[0] (line 4): target "$.paths[\"/nope\"].get": did not match any node`+"\n"+
		`overlay.yaml: actions[2] (line 8): target "$.paths[\"/pets\"].put": did not match any node`)
}

// TestQuotedNumberNamedAsString: `maxAttempts: "3"` is refused as the string
// it is (the bare "3" read as if the number were wrong).
func TestQuotedNumberNamedAsString(t *testing.T) {
	_, ds, err := load(t, `openapi: 3.0.3
info: {title: Pets, version: '1'}
x-retry: {version: 1, maxAttempts: "3", retrySafe: "true"}
paths: {}
`)
	require.Error(t, err)
	require.Equal(t, []string{
		`spec.yaml#/x-retry/maxAttempts: must be an integer ≥ 1, got the string "3"`,
		`spec.yaml#/x-retry/retrySafe: must be true or false, got the string "true"`,
	}, ds)
}
