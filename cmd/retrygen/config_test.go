package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/generator"
)

// petsSpec has three operations in two tags; Pet is used by two of them,
// Owner only by GetOwner.
const petsSpec = `openapi: 3.0.0
info: {title: Pets, version: '1'}
paths:
  /pets/{id}:
    get:
      operationId: getPet
      tags: [pets]
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
    delete:
      operationId: deletePet
      tags: [pets]
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '204': {description: gone}
  /owners/{id}:
    get:
      operationId: getOwner
      tags: [owners]
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Owner'}}}}
components:
  schemas:
    Pet:
      type: object
      properties: {name: {type: string}, tag: {type: string}}
    Owner:
      type: object
      properties: {name: {type: string}}
`

// writeConfig writes the pets spec and a config file into a fresh directory
// and returns the config's path.
func writeConfig(t *testing.T, config string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pets.yaml"), []byte(petsSpec), 0o644))
	path := filepath.Join(dir, "retrygen.yaml")
	require.NoError(t, os.WriteFile(path, []byte(config), 0o644))
	return path
}

func TestGenerateConfigSelectsAndRenames(t *testing.T) {
	cfg := writeConfig(t, `spec: pets.yaml
output: client
package: pets
include:
  tags: [pets]
exclude:
  operations: [deletePet]
rename:
  operations: {GetPet: FetchPet}
  types: {Pet: Animal}
  fields: {Animal.Tag: Label}
`)
	code, stdout, stderr := cli("generate", "-config", cfg)
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr)
	require.Equal(t, "pets: 1 operation (0 skipped), 2 types, 0 error shapes (transient 0, throttling 0, non-retryable 0)\n", stdout)
	out := filepath.Join(filepath.Dir(cfg), "client")
	ops, err := os.ReadFile(filepath.Join(out, "operations.go"))
	require.NoError(t, err)
	require.Contains(t, string(ops), "func (c *Client) FetchPet(ctx context.Context, in *FetchPetInput")
	require.NotContains(t, string(ops), "DeletePet")
	require.NotContains(t, string(ops), "GetOwner")
	types, err := os.ReadFile(filepath.Join(out, "types.go"))
	require.NoError(t, err)
	require.Contains(t, string(types), "type Animal struct")
	require.Regexp(t, "\n\tLabel +\\*string +`json:\"tag,omitzero\"`", string(types))
	require.NotContains(t, string(types), "Owner", "components no kept operation reaches are left out")
}

func TestGenerateConfigFlagsOverride(t *testing.T) {
	cfg := writeConfig(t, "spec: pets.yaml\noutput: client\npackage: pets\n")
	other := filepath.Join(t.TempDir(), "other")
	code, stdout, stderr := cli("generate", "-config", cfg, "-out", other, "-package", "animals")
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(stdout, "animals: 3 operations"), stdout)
	_, err := os.Stat(filepath.Join(other, "client.go"))
	require.NoError(t, err, "-out wins over output:")
	_, err = os.Stat(filepath.Join(filepath.Dir(cfg), "client"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestGenerateConfigErrorsAreLocated(t *testing.T) {
	cfg := writeConfig(t, `spec: pets.yaml
outptu: client
package: pets
strict: "yes"
include:
  operation: [getPet]
rename:
  types: {Pet: animal}
`)
	code, stdout, stderr := cli("generate", "-config", cfg)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, "retrygen generate: "+cfg+": 4 error(s) in the config file:\n"+
		"  "+cfg+":2:1: #/outptu: unknown key \"outptu\"\n"+
		"  "+cfg+":4:9: #/strict: got string, want boolean\n"+
		"  "+cfg+":6:3: #/include/operation: unknown key \"operation\"\n"+
		"  "+cfg+":8:16: #/rename/types/Pet: '"+"animal' does not match pattern '^[A-Z][A-Za-z0-9_]*$'\n", stderr)
}

func TestGenerateConfigWarnsAboutUnmatchedEntries(t *testing.T) {
	cfg := writeConfig(t, `spec: pets.yaml
output: client
package: pets
include:
  operations: [getPet, getPte]
rename:
  types: {Dog: Hound}
`)
	code, _, stderr := cli("generate", "-config", cfg)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, cfg+"#/include/operations/1: no operation has operationId or Go method name \"getPte\"\n"+
		cfg+"#/rename/types/Dog: no generated type is named Dog; nothing renamed\n", stderr)

	code, _, stderr = cli("generate", "-config", cfg, "-strict")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "retrygen generate: -strict: 2 warning(s) in the spec; nothing written\n")
}

// TestGenerateConfigTakesBothNameKinds checks that include, exclude and
// rename.operations accept an operationId ("getOwner") and a Go method name
// ("GetPet") alike, and that an entry naming neither warns saying both were
// tried.
func TestGenerateConfigTakesBothNameKinds(t *testing.T) {
	cfg := writeConfig(t, `spec: pets.yaml
output: client
package: pets
include:
  operations: [GetPet, getOwner, DeletePet]
exclude:
  operations: [deletePet]
rename:
  operations: {getOwner: FetchOwner, GetPet: FetchPet, getNothing: X}
`)
	code, stdout, stderr := cli("generate", "-config", cfg)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, cfg+"#/rename/operations/getNothing: no generated operation (Go method name or operationId) is named getNothing; nothing renamed\n", stderr)
	require.True(t, strings.HasPrefix(stdout, "pets: 2 operations"), stdout)
	client, err := os.ReadFile(filepath.Join(filepath.Dir(cfg), "client", "operations.go"))
	require.NoError(t, err)
	require.Contains(t, string(client), "func (c *Client) FetchPet(")
	require.Contains(t, string(client), "func (c *Client) FetchOwner(")
	require.NotContains(t, string(client), "DeletePet")
}

// TestLoadConfigSelection pins every include, exclude and rename key to its
// generator.Selection field, and relative paths to the file's directory.
func TestLoadConfigSelection(t *testing.T) {
	cfg := writeConfig(t, `spec: pets.yaml
overlays: [a.yaml, /abs/b.yaml]
output: client
package: pets
strict: true
include: {operations: [getPet], tags: [pets], paths: ["/pets/*"]}
exclude: {operations: [deletePet], tags: [owners], paths: [/owners]}
rename:
  operations: {GetPet: FetchPet}
  types: {Pet: Animal}
  fields: {Animal.Tag: Label}
`)
	c, err := loadConfig(cfg)
	require.NoError(t, err)
	dir := filepath.Dir(cfg)
	require.Equal(t, filepath.Join(dir, "pets.yaml"), c.Spec)
	require.Equal(t, []string{filepath.Join(dir, "a.yaml"), "/abs/b.yaml"}, c.Overlays)
	require.Equal(t, filepath.Join(dir, "client"), c.Output)
	require.Equal(t, "pets", c.Package)
	require.True(t, c.Strict)
	require.Equal(t, &generator.Selection{
		File:    cfg,
		Include: generator.Selector{Operations: []string{"getPet"}, Tags: []string{"pets"}, Paths: []string{"/pets/*"}},
		Exclude: generator.Selector{Operations: []string{"deletePet"}, Tags: []string{"owners"}, Paths: []string{"/owners"}},
		Rename: generator.Renames{
			Operations: map[string]string{"GetPet": "FetchPet"},
			Types:      map[string]string{"Pet": "Animal"},
			Fields:     map[string]string{"Animal.Tag": "Label"},
		},
	}, c.selection(cfg))
}

// TestGenerateConfigAliasBomb (issue 17 item 2): a 643-byte config file of
// nested aliases expanded to gigabytes when checked; it is refused under
// the spec's alias budget at the alias that exhausts it (x4 is 66,430
// nodes; x1…x4 add 74,718, and the third *a4 of x5, line 9 column 20, takes
// the total to 274,008 > 262,144), exit 1, before anything is read or
// written.
func TestGenerateConfigAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("spec: pets.yaml\noutput: client\npackage: pets\nx0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "x%d: &a%d [", i, i)
		for j := range 9 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	require.Less(t, b.Len(), 700)
	cfg := writeConfig(t, b.String())
	code, stdout, stderr := cli("generate", "-config", cfg)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, "retrygen generate: "+cfg+":9:20: alias *a4 expands the spec past the budget of 262144 YAML nodes and 67108864 bytes (64 MiB) that aliases, referenced files and overlays may add; refusing it\n", stderr)
}
