package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	yaml4 "go.yaml.in/yaml/v4"
	"gopkg.in/yaml.v3"
)

// treeOrder is propertyOrder read from the whole YAML tree, as the builder
// read it before the tree was released (the oracle for keepForBuild).
func treeOrder(root *yaml.Node, ptr string, depth int) []string {
	n := root
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if tok == "" {
			continue
		}
		tok = pointerUnescaper.Replace(tok)
		switch {
		case n == nil:
			return nil
		case n.Kind == yaml.MappingNode:
			n = mapValue(n, tok)
		case n.Kind == yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Content) {
				return nil
			}
			n = n.Content[i]
		default:
			return nil
		}
	}
	if n == nil || depth > 8 {
		return nil
	}
	if ref := mapValue(n, "$ref"); ref != nil {
		if p, ok := strings.CutPrefix(ref.Value, "#"); ok {
			return treeOrder(root, p, depth+1)
		}
		return nil
	}
	var out []string
	if props := mapValue(n, "properties"); props != nil && props.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(props.Content); i += 2 {
			out = append(out, props.Content[i].Value)
		}
	}
	if all := mapValue(n, "allOf"); all != nil && all.Kind == yaml.SequenceNode {
		for i := range all.Content {
			for _, k := range treeOrder(root, child(child(ptr, "allOf"), strconv.Itoa(i)), depth+1) {
				if !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// allPointers returns the JSON pointer of every node of the tree.
func allPointers(n *yaml.Node, ptr string, out *[]string) {
	*out = append(*out, ptr)
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			allPointers(n.Content[i+1], child(ptr, n.Content[i].Value), out)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			allPointers(c, child(ptr, strconv.Itoa(i)), out)
		}
	}
}

const keptSpec = `openapi: 3.0.3
info: {title: T, version: '1'}
x-retry: {version: 1, idempotencyKey: {header: Idem}}
x-other: [1, {a: b}]
paths:
  /a:
    x-path-ext: 1
    get:
      operationId: A
      x-retry: {longPolling: true}
      x-pagination: {style: cursor}
      responses:
        '200':
          description: ok
          headers: {Link: {schema: {type: string}}, X-Rate: {schema: {type: integer}}}
        default: {$ref: '#/components/responses/Err'}
    parameters: []
  /b: 3
components:
  schemas:
    A: {type: object, properties: {z: {type: string}, a: {type: string}, "k/~": {type: string}}}
    B: {allOf: [{$ref: '#/components/schemas/A'}, {properties: {m: {type: string}, z: {type: string}}}], properties: {first: {type: string}}}
    C: {$ref: '#/components/schemas/B'}
    D: {$ref: 'other.yaml#/X', properties: {no: {}}}
    "E/~x": {properties: {r: {}, q: {}}}
    F: {allOf: {not: a sequence}, properties: [not, a, mapping]}
    G: {$ref: '#/components/schemas/G'}
    "": {properties: {hidden: {}}}
    H: {allOf: [{properties: {h: {}}}], $ref: {a: mapping}}
    I: {$ref: '#/components/schemas/B/allOf/01'}
    J: {properties: {"01": {properties: {x: {}, w: {}}}, "1": {properties: {v: {}}}}}
    K: {$ref: '#/components/schemas/J/properties/01'}
  responses:
    Err: {description: e, headers: {Retry-After: {schema: {type: integer}}}}
`

// TestKeptOrderIsTheTrees: what keepForBuild keeps gives propertyOrder the
// order the whole tree gave it, at every pointer of the repository's specs
// and of a spec with the odd cases (escaped and empty keys; a repeated key is
// refused by parseYAML since duplicate keys are an error;
// $refs that are not local or not text, cycles, allOf of one and of none;
// a $ref writing a sequence index with a leading zero, "allOf/01", which
// kin-openapi resolves as index 1, while a mapping key "01" stays itself).
func TestKeptOrderIsTheTrees(t *testing.T) {
	specs, err := filepath.Glob("../specs/*.yaml")
	require.NoError(t, err)
	texts := map[string][]byte{"kept.yaml": []byte(keptSpec)}
	for _, s := range specs {
		raw, err := os.ReadFile(s)
		require.NoError(t, err)
		texts[s] = raw
	}
	checked := 0
	for name, raw := range texts {
		doc, err := parseYAML(name, raw)
		require.NoError(t, err, name)
		root := doc.Content[0]
		b := &builder{kept: keepForBuild(root)}
		var ptrs []string
		allPointers(root, "", &ptrs)
		ptrs = append(ptrs, "/components/schemas/A/", "components/schemas/A", "/components//schemas/B", "/components/schemas/E~1~0x", "/nope", "/components/schemas/B/allOf/01", "/components/schemas/B/allOf/001", "/components/schemas/J/properties/01")
		for _, p := range ptrs {
			want := treeOrder(root, p, 0)
			got := b.propertyOrder(p, 0)
			if len(want) > 0 {
				checked++
			}
			require.Equal(t, want, got, "%s#%s", name, p)
		}
	}
	require.Greater(t, checked, 1000)
}

// TestKeptRootLooksUpAsTheSpec: the root keepForBuild keeps finds what
// the builder looks up (root and operation extensions, as the same nodes;
// response header names) where the spec has it, and nothing else.
func TestKeptRootLooksUpAsTheSpec(t *testing.T) {
	doc, err := parseYAML("kept.yaml", []byte(keptSpec))
	require.NoError(t, err)
	root := doc.Content[0]
	k := keepForBuild(root)
	op := mapValue(mapValue(mapValue(root, "paths"), "/a"), "get")
	kop := mapValue(mapValue(mapValue(k.root, "paths"), "/a"), "get")
	require.Same(t, mapValue(root, "x-retry"), mapValue(k.root, "x-retry"))
	require.Same(t, mapValue(root, "x-other"), mapValue(k.root, "x-other"))
	require.Same(t, mapValue(op, "x-retry"), mapValue(kop, "x-retry"))
	require.Same(t, mapValue(op, "x-pagination"), mapValue(kop, "x-pagination"))
	require.Equal(t, rootIdempotencyHeader(root), rootIdempotencyHeader(k.root))
	require.Equal(t, "Idem", rootIdempotencyHeader(k.root))
	require.True(t, declaresLinkHeader(kop))
	require.Nil(t, mapValue(kop, "operationId"))
	require.Nil(t, mapValue(k.root, "components"))
	require.Nil(t, mapValue(mapValue(mapValue(k.root, "paths"), "/b"), "get"))
	require.Nil(t, mapValue(mapValue(mapValue(k.root, "paths"), "/a"), "parameters").Content)

	nolink := strings.Replace(keptSpec, "Link:", "Lank:", 1)
	doc, err = parseYAML("kept.yaml", []byte(nolink))
	require.NoError(t, err)
	require.False(t, declaresLinkHeader(mapValue(mapValue(mapValue(keepForBuild(doc.Content[0]).root, "paths"), "/a"), "get")))
}

// TestKinTreeReleasesTheSpec: the copy kin-openapi decodes is the same with
// and without release; with it, the spec tree is let go of except the
// extension values (kept for the builder, unchanged).
func TestKinTreeReleasesTheSpec(t *testing.T) {
	raw, err := os.ReadFile("../specs/aws-sqs-2012-11-05.openapi.yaml")
	require.NoError(t, err)
	for name, text := range map[string][]byte{"kept.yaml": []byte(keptSpec), "sqs": raw} {
		keepDoc, err := parseYAML(name, text)
		require.NoError(t, err)
		want, err := kinTree(keepDoc, false)
		require.NoError(t, err)
		doc, err := parseYAML(name, text)
		require.NoError(t, err)
		kept := keepForBuild(doc.Content[0])
		before, err := yaml.Marshal(kept.root)
		require.NoError(t, err)
		got, err := kinTree(doc, true)
		require.NoError(t, err)
		require.True(t, reflect.DeepEqual(want, got), name)
		require.Equal(t, []*yaml.Node{nil}, doc.Content, name)
		after, err := yaml.Marshal(kept.root)
		require.NoError(t, err)
		require.Equal(t, string(before), string(after), name)
	}
}

// TestKinTreeSlabs: kinTree's copy, its nodes and children lists cut from
// shared blocks (kinSlab), is node for node the spec tree (kind, style,
// tag, value, place), over more than one block of each, and every
// children list has no room past its length, so an append to one cannot
// overwrite the next.
func TestKinTreeSlabs(t *testing.T) {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\nitems:\n")
	for i := range 400 {
		fmt.Fprintf(&b, "  - {name: n%d, tags: [a, b, c], x-n: %d}\n", i, i)
	}
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(b.String()), &doc))
	got, err := kinTree(&doc, false)
	require.NoError(t, err)
	nodes := 0
	var same func(a *yaml.Node, c *yaml4.Node)
	same = func(a *yaml.Node, c *yaml4.Node) {
		nodes++
		require.Equal(t, int(a.Kind), int(c.Kind))
		require.Equal(t, int(a.Style), int(c.Style))
		require.Equal(t, []any{a.Tag, a.Value, a.Line, a.Column}, []any{c.Tag, c.Value, c.Line, c.Column})
		require.Len(t, c.Content, len(a.Content))
		require.Equal(t, len(c.Content), cap(c.Content))
		for i := range a.Content {
			same(a.Content[i], c.Content[i])
		}
	}
	same(&doc, got)
	require.Greater(t, nodes, 3*kinSlabNodes)
}
