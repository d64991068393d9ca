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

// allOfChain returns a spec of n component schemas, each an allOf of the
// one before and one property of its own.
func allOfChain(n int) []byte {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: C, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    S0: {type: object, properties: {f0: {type: string}}}\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "    S%d: {allOf: [{$ref: '#/components/schemas/S%d'}, {type: object, properties: {f%d: {type: string}}}]}\n", i, i-1, i)
	}
	return []byte(b.String())
}

// TestAllOfChainBound (issue 17 item 4): flattening an allOf chain of n
// schemas copies n(n+1)/2 properties (2,000 schemas ran out of memory); the
// limit of 262,144 admits 723 (S0…S722: the allOf schemas S1…S722 copy
// Σ(k+1) for k = 1…722 = 261,725) and refuses 724 at the schema that
// passes it, S723 (+724 = 262,449), before anything is built.
func TestAllOfChainBound(t *testing.T) {
	_, _, err := loadData("chain.yaml", allOfChain(723), nil, nil)
	require.NoError(t, err)
	_, _, err = loadData("chain.yaml", allOfChain(724), nil, nil)
	require.EqualError(t, err, "chain.yaml#/components/schemas/S723: flattening this schema's allOf takes the spec past the limit of 262144 properties that allOf flattening may copy (an allOf chain of n schemas copies n(n+1)/2); refusing it")
	_, _, err = loadData("chain.yaml", allOfChain(2000), nil, nil)
	require.ErrorContains(t, err, "chain.yaml#/components/schemas/S698: flattening") // S1000 … are visited first (sorted names)
}

// The allOf bound counts the schemas of parameters and response headers
// too (they were not visited: a parameter's inline allOf of a big schema
// copied its properties unbounded). A chain of 600 copies 180,299; each
// parameter or header {allOf: [{$ref: S599}]} 600 more: 136 fit
// (261,899), the 137th passes the limit at its place.
func TestAllOfBoundCountsParametersAndHeaders(t *testing.T) {
	spec := func(params, headers int) []byte {
		var b strings.Builder
		b.Write(allOfChain(600))
		s := strings.Replace(b.String(), "paths: {}\n", "", 1)
		b.Reset()
		b.WriteString(s)
		b.WriteString("paths:\n  /a:\n    get:\n      operationId: getA\n      parameters:\n")
		for i := range params {
			fmt.Fprintf(&b, "        - {name: p%d, in: query, schema: {allOf: [{$ref: '#/components/schemas/S599'}]}}\n", i)
		}
		b.WriteString("      responses:\n        \"200\":\n          description: ok\n          headers:\n")
		for i := range headers {
			fmt.Fprintf(&b, "            H%03d: {schema: {allOf: [{$ref: '#/components/schemas/S599'}]}}\n", i)
		}
		if headers == 0 {
			b.WriteString("            X: {schema: {type: string}}\n")
		}
		return []byte(b.String())
	}
	_, _, err := loadData("p.yaml", spec(136, 0), nil, nil)
	require.NoError(t, err)
	_, _, err = loadData("p.yaml", spec(137, 0), nil, nil)
	require.EqualError(t, err, "p.yaml#/paths/~1a/get/parameters/136/schema: flattening this schema's allOf takes the spec past the limit of 262144 properties that allOf flattening may copy (an allOf chain of n schemas copies n(n+1)/2); refusing it")
	_, _, err = loadData("p.yaml", spec(100, 37), nil, nil)
	require.EqualError(t, err, "p.yaml#/paths/~1a/get/responses/200/headers/H036/schema: flattening this schema's allOf takes the spec past the limit of 262144 properties that allOf flattening may copy (an allOf chain of n schemas copies n(n+1)/2); refusing it")
}

// nestedInline returns a spec whose one operation returns an object
// nested depth levels deep, each level one property called key.
func nestedInline(depth int, key string) []byte {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: N, version: \"1\"}\npaths:\n  /n:\n    get:\n      operationId: getN\n      responses:\n        \"200\":\n          description: ok\n          content:\n            application/json:\n              schema: ")
	for range depth {
		b.WriteString("{type: object, properties: {" + key + ": ")
	}
	b.WriteString("{type: string}")
	for range depth {
		b.WriteString("}}")
	}
	b.WriteString("\n")
	return []byte(b.String())
}

// TestInlineNameAndSourceBounds (issue 17 item 5): an inline type is named
// after its ancestors and documented with its JSON pointer, so nesting
// made names and pointers grow with depth (204 KB of input gave 191 MB of
// Go); a name past 512 bytes or a pointer past 4,096 is an error located
// at the schema.
func TestInlineNameAndSourceBounds(t *testing.T) {
	_, _, err := loadData("n.yaml", nestedInline(90, "deeper"), nil, nil)
	require.EqualError(t, err, "n.yaml#/paths/~1n/get/responses/200/content/application~1json/schema/properties/deeper/properties/deeper/properties/deeper/properties/deeper/properties/deeper/properties/deeper/properties/deeper/properties/d…: the type generated here would be named with 514 bytes (GetNOutputDeeperDeeperDeeperDeeperDeeper…), past the limit of 512 (inline schemas nested too deep; give the schema a title or make it a component); refusing it")
	_, _, err = loadData("n.yaml", nestedInline(320, "d"), nil, nil)
	require.EqualError(t, err, "n.yaml#/paths/~1n/get/responses/200/content/application~1json/schema/properties/d/properties/d/properties/d/properties/d/properties/d/properties/d/properties/d/properties/d/properties/d/properties/d/properti…: the JSON pointer of this schema is 4104 bytes, past the limit of 4096 for a generated type's source (inline schemas nested too deep); refusing it")
}

// TestJSONSpecKeepsExactStrings (issue 17 item 7): a JSON spec is read as
// JSON, not YAML: a raw U+0085 inside a string stays U+0085 (a YAML parser
// folded it to a space), a key of 1,100 characters is a property (it was
// refused with no location: "did not find expected ',' or '}'"), and both
// reach the generated code byte for byte; a syntax error still names line
// and column.
func TestJSONSpecKeepsExactStrings(t *testing.T) {
	long := strings.Repeat("k", 1100)
	spec := "{\"openapi\": \"3.0.3\",\n \"info\": {\"title\": \"T\", \"version\": \"1\", \"description\": \"a\u0085b\u2028c\"},\n \"paths\": {},\n" +
		" \"components\": {\"schemas\": {\"S\": {\"type\": \"object\", \"properties\": {\"" + long + "\": {\"type\": \"string\"}}}}}}"
	svc, diags, err := loadData("j.json", []byte(spec), nil, nil)
	require.NoError(t, err)
	require.Empty(t, diagLines(diags))
	require.Equal(t, "a\u0085b\u2028c", svc.Doc)
	require.Len(t, svc.Types, 1)
	require.Len(t, svc.Types[0].Fields, 1)
	require.Equal(t, long, svc.Types[0].Fields[0].JSONName)
	files, err := Generate(svc, "j")
	require.NoError(t, err)
	require.NoError(t, checkGenerated(files))
	_, _, err = loadData("bad.json", []byte("{\"openapi\": \"3.0.3\",\n  \"info\": {\"title\": 1,,}}"), nil, nil)
	require.EqualError(t, err, "bad.json:2:23: did not find expected node content")
}
