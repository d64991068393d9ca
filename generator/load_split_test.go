package generator

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

// opLine renders what a generated method carries: name, method, path,
// parameters (in:name), body (kind, content type), input and output types
// (and how the output is decoded), error shapes by status, and doc.
func opLine(op *Operation) string {
	var ps []string
	for _, p := range op.Params {
		ps = append(ps, p.In+":"+p.Name)
	}
	var es []string
	for _, e := range op.StatusErrors {
		es = append(es, e.Status+":"+e.Name)
	}
	return fmt.Sprintf("%s %s %s params=%v body=%q %q in=%s out=%s/%q errors=%v doc=%q",
		op.Name, op.Method, op.Path, ps, op.Body.Kind, op.Body.ContentType, op.Input, op.Output, op.OutputBody, es, cmp.Or(op.Doc, op.Summary))
}

// TestSplitSpecRedocly loads the split spec of testdata/split/redocly (a
// path item, operation, description, Markdown, component-file, other-file
// component and self-referring schema $ref each) and checks every method
// carries its parameters, body and response, with the real path; then, but
// for -short, generates the client and runs testdata/split/behaviour
// against an httptest server (the real path, not the template, goes on the
// wire).
func TestSplitSpecRedocly(t *testing.T) {
	svc, diags, err := LoadService("testdata/split/redocly/openapi.yaml", nil)
	require.NoError(t, err)
	require.Empty(t, diagLines(diags))
	var got []string
	for _, op := range svc.Operations {
		got = append(got, opLine(op))
	}
	require.Equal(t, []string{
		`CreateThing POST /things params=[] body="json" "application/json" in=NewThing out=CreateThingOutput/"" errors=[] doc="Creates a thing."`,
		`DeleteThing DELETE /things/{id} params=[path:id] body="" "" in=DeleteThingInput out=DeleteThingOutput/"none" errors=[404:ThingNotFound] doc="Deletes a thing. It cannot be undone.\n"`,
		`GetNode GET /nodes/{nodeId} params=[path:nodeId] body="" "" in=GetNodeInput out=GetNodeOutput/"" errors=[404:ThingNotFound] doc="Gets a node of the thing tree."`,
		`GetThing GET /things/{id} params=[path:id header:X-Trace] body="" "" in=GetThingInput out=GetThingOutput/"" errors=[404:ThingNotFound] doc="Gets one thing."`,
		`ListThings GET /things params=[query:limit] body="" "" in=ListThingsInput out=ListThingsOutput/"" errors=[] doc="Lists the things, newest first."`,
	}, got)
	require.Equal(t, "Things, kept in a warehouse. The spec's own words.", svc.Doc)
	require.Equal(t, "things: 5 operations (0 skipped), 12 types, 1 error shape (transient 0, throttling 0, non-retryable 1)", svc.Summary("things"))
	var types []string
	for _, ty := range svc.Types {
		var fs []string
		for _, f := range ty.Fields {
			fs = append(fs, f.Name)
		}
		types = append(types, ty.Name+" "+ty.Embed+fmt.Sprint(fs))
	}
	require.Contains(t, types, "Node [Children Name]")
	require.Contains(t, types, "Thing [Id Name Tags Weight]")
	require.Contains(t, types, "GetThingOutput Thing[]")

	if testing.Short() {
		t.Skip("go test of the generated client")
	}
	files, err := Generate(svc, "things")
	require.NoError(t, err)
	tmp, err := os.MkdirTemp(".", ".tmp-split-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(tmp) })
	for _, f := range files {
		require.NoError(t, os.WriteFile(filepath.Join(tmp, f.Name), f.Content, 0o644))
	}
	test, err := os.ReadFile("testdata/split/behaviour/things_test.go")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "things_test.go"), test, 0o644))
	out, err := exec.Command("go", "test", "-count=1", "./"+filepath.ToSlash(tmp)).CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// splitSpec is a root spec whose GET /a is fine and whose GET /b uses the
// $ref given, at the place given by where ("param", "schema").
func splitSpec(ref, where string) string {
	b := "      responses: {\"200\": {description: ok}}\n"
	switch where {
	case "param":
		b = "      parameters:\n        - $ref: '" + ref + "'\n" + b
	case "schema":
		b = "      responses:\n        \"200\":\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '" + ref + "'}\n"
	case "op":
		return "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses: {\"200\": {description: ok}}\n  /b:\n    get:\n      $ref: '" + ref + "'\n"
	}
	return "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses: {\"200\": {description: ok}}\n  /b:\n    get:\n      operationId: getB\n" + b
}

// TestSplitSpecRefs checks each kind of $ref to another file, and each
// refusal, with the exact located diagnostics: a missing file or pointer
// skips its operation (the rest is generated); a URL, a path outside the
// spec's directory, an absolute path are errors located at the $ref; a
// syntax error or an alias bomb in a referenced file names that file and
// line; a schema that refers to itself only through files is typed as
// JSON.
func TestSplitSpecRefs(t *testing.T) {
	tree := "type: object\nproperties:\n  kids:\n    type: array\n    items: {$ref: 'tree.yaml'}\n"
	tests := []struct {
		name    string
		spec    string
		files   fstest.MapFS
		err     string   // "" when loading succeeds
		diags   []string // exact
		skipped []string
		types   []string // names of the types
	}{{
		name:  "recursive schema through a file becomes a component",
		spec:  splitSpec("schemas/tree.yaml", "schema"),
		files: fstest.MapFS{"schemas/tree.yaml": {Data: []byte(tree)}},
		types: []string{"GetAInput", "GetAOutput", "GetBInput", "GetBOutput", "Tree"},
	}, {
		name:    "missing file skips the operation",
		spec:    splitSpec("params/missing.yaml", "param"),
		files:   fstest.MapFS{},
		diags:   []string{`spec.yaml#/paths/~1b/get/parameters/0/$ref: $ref "params/missing.yaml" cannot be resolved: file params/missing.yaml does not exist; operation GET /b skipped`},
		skipped: []string{"GET /b"},
		types:   []string{"GetAInput", "GetAOutput"},
	}, {
		name:    "missing pointer in a file, located in the file that holds the $ref",
		spec:    splitSpec("ops/b.yaml", "op"),
		files:   fstest.MapFS{"ops/b.yaml": {Data: []byte("operationId: getB\nparameters:\n  - $ref: 'common.yaml#/components/parameters/Nope'\nresponses: {\"200\": {description: ok}}\n")}, "ops/common.yaml": {Data: []byte("components: {}\n")}},
		diags:   []string{`b.yaml#/parameters/0/$ref: $ref "common.yaml#/components/parameters/Nope" cannot be resolved: ops/common.yaml has nothing at #/components/parameters/Nope; operation GET /b skipped`},
		skipped: []string{"GET /b"},
		types:   []string{"GetAInput", "GetAOutput"},
	}, {
		name:  "missing schema file keeps the operation, the body typed as JSON",
		spec:  splitSpec("schemas/gone.yaml", "schema"),
		files: fstest.MapFS{},
		diags: []string{`spec.yaml#/paths/~1b/get/responses/200/content/application~1json/schema/$ref: $ref "schemas/gone.yaml" cannot be resolved: file schemas/gone.yaml does not exist; the schema is replaced by {} (json.RawMessage)`},
		types: []string{"GetAInput", "GetAOutput", "GetBInput", "GetBOutput"},
	}, {
		name:  "URL",
		spec:  splitSpec("https://example.com/p.yaml", "param"),
		err:   "spec.yaml: 1 error(s) in the spec",
		diags: []string{`error: spec.yaml#/paths/~1b/get/parameters/0/$ref: $ref "https://example.com/p.yaml": is a URL; only files under the spec's directory . are read`},
	}, {
		name:  "protocol-relative URL",
		spec:  splitSpec("//example.com/p.yaml", "param"),
		err:   "spec.yaml: 1 error(s) in the spec",
		diags: []string{`error: spec.yaml#/paths/~1b/get/parameters/0/$ref: $ref "//example.com/p.yaml": is a URL; only files under the spec's directory . are read`},
	}, {
		name:  "outside the directory",
		spec:  splitSpec("../secret.yaml", "param"),
		err:   "spec.yaml: 1 error(s) in the spec",
		diags: []string{`error: spec.yaml#/paths/~1b/get/parameters/0/$ref: $ref "../secret.yaml": leaves the spec's directory .; only files under it are read`},
	}, {
		name:  "outside the directory from a referenced file",
		spec:  splitSpec("ops/b.yaml", "op"),
		files: fstest.MapFS{"ops/b.yaml": {Data: []byte("operationId: getB\nparameters:\n  - $ref: '../../p.yaml'\nresponses: {\"200\": {description: ok}}\n")}},
		err:   "spec.yaml: 1 error(s) in the spec",
		diags: []string{`error: b.yaml#/parameters/0/$ref: $ref "../../p.yaml": leaves the spec's directory .; only files under it are read`},
	}, {
		name:  "absolute path",
		spec:  splitSpec("/etc/passwd", "param"),
		err:   "spec.yaml: 1 error(s) in the spec",
		diags: []string{`error: spec.yaml#/paths/~1b/get/parameters/0/$ref: $ref "/etc/passwd": is an absolute path; only relative paths under the spec's directory . are read`},
	}, {
		name:  "syntax error in a referenced file names its line",
		spec:  splitSpec("ops/b.yaml", "op"),
		files: fstest.MapFS{"ops/b.yaml": {Data: []byte("operationId: getB\nresponses:\n  \"200\": {description: ok}\n  bad: [1, 2\n")}},
		err:   "ops/b.yaml:5:1: did not find expected ',' or ']' (while parsing a flow sequence that begins on line 4)",
	}, {
		name:  "alias bomb in a referenced file",
		spec:  splitSpec("schemas/bomb.yaml", "schema"),
		files: fstest.MapFS{"schemas/bomb.yaml": {Data: []byte(aliasBomb("", 12, 8))}},
		err:   "schemas/bomb.yaml:6:24: alias *e expands the spec past the budget of 262144 YAML nodes and 67108864 bytes (64 MiB) that aliases, referenced files and overlays may add; refusing it",
	}, {
		name:  "files that refer to each other and nothing else",
		spec:  splitSpec("a.yaml", "schema"),
		files: fstest.MapFS{"a.yaml": {Data: []byte("$ref: b.yaml\n")}, "b.yaml": {Data: []byte("$ref: a.yaml\n")}},
		diags: []string{`b.yaml#/$ref: $ref "a.yaml" is a chain of $refs that never reaches a value (#/components/schemas/a → #/components/schemas/b → #/components/schemas/a); the schema is replaced by {} (json.RawMessage)`},
		types: []string{"GetAInput", "GetAOutput", "GetBInput", "GetBOutput"},
	}, {
		name: "same-named files and a component of that name are numbered with a located warning",
		spec: "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n" +
			"  /a:\n    get:\n      operationId: getA\n      responses: {\"200\": {description: ok, content: {application/json: {schema: {$ref: 'a/Pet.yaml'}}}}}\n" +
			"  /b:\n    get:\n      operationId: getB\n      responses: {\"200\": {description: ok, content: {application/json: {schema: {$ref: 'b/Pet.yaml'}}}}}\n" +
			"components:\n  schemas:\n    Pet: {type: object, properties: {id: {type: string}}}\n",
		files: fstest.MapFS{"a/Pet.yaml": {Data: []byte("type: object\nproperties: {name: {type: string}}\n")}, "b/Pet.yaml": {Data: []byte("type: object\nproperties: {tag: {type: string}}\n")}},
		diags: []string{
			`spec.yaml#/paths/~1a/get/responses/200/content/application~1json/schema/$ref: $ref "a/Pet.yaml": component name Pet is taken; using Pet2 (#/components/schemas/Pet2)`,
			`spec.yaml#/paths/~1b/get/responses/200/content/application~1json/schema/$ref: $ref "b/Pet.yaml": component name Pet is taken; using Pet3 (#/components/schemas/Pet3)`,
		},
		types: []string{"GetAInput", "GetBInput", "Pet", "Pet2", "Pet3"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, diags, err := loadData("spec.yaml", []byte(tt.spec), nil, tt.files)
			require.Equal(t, tt.diags, diagLines(diags))
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.skipped, svc.Skipped)
			var types []string
			for _, ty := range svc.Types {
				types = append(types, ty.Name)
			}
			require.Equal(t, tt.types, types)
			_, err = Generate(svc, "p")
			require.NoError(t, err)
		})
	}
}

// aliasBomb returns YAML lines, each indented by indent: a mapping
// schema "a", then levels schemas each an allOf of fan aliases to the one
// before.
func aliasBomb(indent string, fan, levels int) string {
	var b strings.Builder
	b.WriteString(indent + "a: &a {type: string}\n")
	prev := "a"
	for l := range levels {
		name := string(rune('b' + l))
		b.WriteString(indent + name + ": &" + name + " {allOf: [")
		for i := range fan {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*" + prev)
		}
		b.WriteString("]}\n")
		prev = name
	}
	return b.String()
}

// TestSplitSpecSymlinkOutside: a $ref to a symbolic link that leaves the
// spec's directory is refused with an error located at the $ref (the
// directory is read through os.Root), not read.
func TestSplitSpecSymlinkOutside(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "spec")
	require.NoError(t, os.Mkdir(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(base, "secret.yaml"), []byte("name: id\nin: query\n"), 0o644))
	require.NoError(t, os.Symlink("../secret.yaml", filepath.Join(dir, "p.yaml")))
	spec := filepath.Join(dir, "spec.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(splitSpec("p.yaml", "param")), 0o644))
	_, diags, err := LoadService(spec, nil)
	require.EqualError(t, err, spec+": 1 error(s) in the spec")
	require.Len(t, diags, 1)
	require.Equal(t, SeverityError, diags[0].Severity)
	require.Equal(t, "/paths/~1b/get/parameters/0/$ref", diags[0].Pointer)
	require.Equal(t, `$ref "p.yaml": file `+filepath.Join(dir, "p.yaml")+` cannot be read: statat p.yaml: path escapes from parent`, diags[0].Message)
}
