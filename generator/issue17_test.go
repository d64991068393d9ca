package generator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// loadSpecText writes spec to a temporary spec.yaml (or the name given) and
// loads it, returning its diagnostics as diagLines renders them.
func loadSpecText(t *testing.T, name, spec string) (*Service, []string, error) {
	t.Helper()
	if name == "" {
		name = "spec.yaml"
	}
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(spec), 0o644))
	svc, diags, err := LoadService(p, nil)
	return svc, diagLines(diags), err
}

// A path key that does not start with "/" would be appended to the
// endpoint as is ("@evil.example/steal" sends the request and its
// credentials to evil.example); a "." or ".." segment names another
// resource. Both are located errors.
func TestPathKeyMustStartWithSlash(t *testing.T) {
	for key, want := range map[string]string{
		"@evil.example/steal": `error: spec.yaml#/paths/@evil.example~1steal: path "@evil.example/steal" must start with "/": appended to the endpoint, it could send requests (and credentials) to another host`,
		"/a/../admin":         `error: spec.yaml#/paths/~1a~1..~1admin: path "/a/../admin" has a ".." segment: it would name another resource`,
	} {
		_, diags, err := loadSpecText(t, "", "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  '"+key+"':\n    get:\n      operationId: steal\n      responses: {'200': {description: ok}}\n")
		require.Error(t, err, key)
		require.Contains(t, diags, want)
	}
}

// Security schemes no requirement names get a warning: their options send
// nothing.
func TestUnrequiredSchemeWarns(t *testing.T) {
	_, diags, err := loadSpecText(t, "", `openapi: 3.0.3
info: {title: T, version: '1'}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
paths:
  /x:
    get:
      operationId: x
      responses: {'200': {description: ok}}
`)
	require.NoError(t, err)
	require.Equal(t, []string{"spec.yaml#/components/securitySchemes/bearer: no operation's security requirement (nor the root's) names bearer: WithBearerToken sends nothing; add a security requirement to send it"}, diags)
}
