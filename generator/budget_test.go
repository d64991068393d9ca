package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// TestByteBudgetAfterAliasExpansion (issue 17 item 2): 5,000 aliases of a
// mapping holding a 96 KiB string are 5,000 nodes, well within the node
// budget, but 480 MB once expanded (it ran out of memory); the byte budget
// refuses the first alias past 64 MiB — the 683rd, on line 688: 683 × 98,315 bytes
// (the string, the key "description") > 67,108,864 ≥ 682 × 98,315 — at its
// line and column.
func TestByteBudgetAfterAliasExpansion(t *testing.T) {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: B, version: \"1\"}\npaths: {}\n")
	b.WriteString("x-big: &s {description: " + strings.Repeat("x", 96<<10) + "}\nx-uses:\n")
	for range 5000 {
		b.WriteString("  - *s\n")
	}
	_, _, err := loadData("bytes.yaml", []byte(b.String()), nil, nil)
	require.EqualError(t, err, "bytes.yaml:688:5: alias *s expands the spec past the budget of 262144 YAML nodes and 67108864 bytes (64 MiB) that aliases, referenced files and overlays may add; refusing it")
	doc, err := parseYAML("m.yaml", []byte("{description: "+strings.Repeat("x", 96<<10)+"}"))
	require.NoError(t, err)
	require.Equal(t, treeSize{3, 98315}, expandedSize(doc.Content[0], map[*yaml.Node]treeSize{}))
}

// TestOverlayOutputBudget (issue 17 item 2): 8 overlay actions on
// "$.x-tree..*" compound (each matches what the ones before added: the
// library merges the update into every match, 2 → 10 → … → 39,062
// matches); the budget refuses the first action whose writes would take
// the spec past it, naming the overlay, the action, its line and target and
// the sizes, before it is applied.
func TestOverlayOutputBudget(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(degradeSpec("x-tree: {a: {b: {}}}\n", "")), 0o644))
	var o strings.Builder
	o.WriteString("overlay: 1.0.0\ninfo: {title: grow, version: '1'}\nactions:\n")
	for range 8 {
		o.WriteString("  - target: $.x-tree..*\n    update: {x-a: {b: {}, c: {}}, x-d: {e: {}}}\n")
	}
	overlay := filepath.Join(dir, "grow.overlay.yaml")
	require.NoError(t, os.WriteFile(overlay, []byte(o.String()), 0o644))
	_, _, err := LoadService(spec, []string{overlay})
	require.EqualError(t, err, fmt.Sprintf("%s: actions[6] (line 16): target \"$.x-tree..*\": writing its update (11 nodes, 9 bytes) to each of the 39062 nodes it matches takes the spec past the budget of 262144 YAML nodes and 67108864 bytes (64 MiB) that aliases, referenced files and overlays may add; refusing it", overlay))
}

// TestMediaTypeKeyNotRepaired (issue 17 item 9): a media type keyed
// "description" (a spec typo: the response's description written one level
// too deep) is not taken for a description and blanked — loading failed
// then — but dropped with a warning located at it, and the client neither
// decodes it nor asks for it; a property called "content" keeps its
// "description" property; a content map with no media type is left to the
// builder (kept raw).
func TestMediaTypeKeyNotRepaired(t *testing.T) {
	svc, diags, err := loadData("spec.yaml", []byte(`openapi: 3.0.3
info: {title: M, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            description: {schema: {type: string}}
            application/json:
              schema:
                type: object
                properties:
                  content:
                    type: object
                    properties:
                      description: {type: object, properties: {x: {type: string}}}
  /b:
    get:
      operationId: getB
      responses:
        "200":
          description: ok
          content:
            description: {schema: {type: string}}
`), nil, nil)
	require.NoError(t, err)
	require.Equal(t, []string{
		`spec.yaml#/paths/~1a/get/responses/200/content/description: "description" is not a media type (type/subtype); dropped`,
		`spec.yaml#/paths/~1b/get/responses/200/content/description: "description" is not a media type (type/subtype); the body is kept raw (bytes as they are)`,
	}, diagLines(diags))
	require.Equal(t, "[{Accept application/json}]", fmt.Sprint(svc.Operations[0].Headers))
	files, err := Generate(svc, "m")
	require.NoError(t, err)
	require.NoError(t, checkGenerated(files))
}
