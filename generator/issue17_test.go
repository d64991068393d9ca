package generator

import (
	"os"
	"path/filepath"
	"slices"
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

// A description or summary $ref that reaches an ancestor of itself (the
// whole document, its own file, #/info) would be copied into itself
// forever: a located error, at once.
func TestDescriptionRefToAncestorIsAnError(t *testing.T) {
	for ref, want := range map[string]string{
		`"#"`:       `error: spec.yaml#/info/description/$ref: $ref "#" names an ancestor of this description (#): its text cannot contain itself`,
		`""`:        `error: spec.yaml#/info/description/$ref: $ref "" names an ancestor of this description (#): its text cannot contain itself`,
		`spec.yaml`: `error: spec.yaml#/info/description/$ref: $ref "spec.yaml" names an ancestor of this description (#): its text cannot contain itself`,
		`"#/info"`:  `error: spec.yaml#/info/description/$ref: $ref "#/info" names an ancestor of this description (#/info): its text cannot contain itself`,
	} {
		_, diags, err := loadSpecText(t, "", "openapi: 3.0.3\ninfo: {title: T, version: '1', description: {$ref: "+ref+"}}\npaths: {}\n")
		require.Error(t, err, ref)
		require.Contains(t, diags, want, ref)
	}
	// Two summaries naming each other's operation: the second copy reaches
	// its own ancestor.
	_, diags, err := loadSpecText(t, "", `openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /a:
    get:
      operationId: a
      summary: {$ref: '#/paths/~1b/get'}
      responses: {'200': {description: ok}}
  /b:
    get:
      operationId: b
      summary: {$ref: '#/paths/~1a/get'}
      responses: {'200': {description: ok}}
`)
	require.Error(t, err)
	require.Contains(t, diags, `error: spec.yaml#/paths/~1a/get/summary/summary/$ref: $ref "#/paths/~1a/get" names an ancestor of this summary (#/paths/~1a/get): its text cannot contain itself`)
}

// Every name the generator declares is reserved before spec names are
// assigned: schemas called ServerURL and DefaultServerURL are renamed, and
// operation UpdateAssociation's status-mapped constructor and operation
// UpdateAssociationStatus's code-mapped one get two names; the client
// type-checks.
func TestGeneratedNamesAreReserved(t *testing.T) {
	svc, diags, err := loadSpecText(t, "", `openapi: 3.0.3
info: {title: T, version: '1'}
servers:
  - url: https://{region}.api.test
    variables: {region: {default: eu}}
components:
  schemas:
    ServerURL: {type: object, properties: {a: {type: string}}}
    DefaultServerURL: {type: object, properties: {a: {type: string}}}
    Fault: {type: object, properties: {code: {type: string}}}
    InvalidThing: {type: object, properties: {message: {type: string}}}
paths:
  /a:
    post:
      operationId: UpdateAssociation
      responses:
        '200': {description: ok}
        '404': {description: gone, content: {application/json: {schema: {$ref: '#/components/schemas/Fault'}}}}
  /b:
    post:
      operationId: UpdateAssociationStatus
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/ServerURL'}}}}
        '480': {description: InvalidThing, content: {application/json: {schema: {$ref: '#/components/schemas/InvalidThing'}}}}
        '481': {description: bad, content: {application/json: {schema: {$ref: '#/components/schemas/DefaultServerURL'}}}}
`)
	require.NoError(t, err, "%v", diags)
	require.Contains(t, diags, "spec.yaml#/components/schemas/ServerURL: Go name ServerURL is taken; using ServerURL2")
	require.Contains(t, diags, "spec.yaml#/components/schemas/DefaultServerURL: Go name DefaultServerURL is taken; using DefaultServerURL2")
	files, err := Generate(svc, "p")
	require.NoError(t, err)
	require.NoError(t, checkGenerated(files))
	ops := string(files[slices.IndexFunc(files, func(f File) bool { return f.Name == "operations.go" })].Content)
	require.Contains(t, ops, "func newUpdateAssociationStatusError(status int) runtime.ModeledError {")
	require.Contains(t, ops, "func newUpdateAssociationStatusError2(code string) runtime.ModeledError {")
}
