package generator

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCrashSpecs loads each spec of testdata/crash, which crashed, ran away
// or misreported a line before issue 11: each either generates with
// exactly the located diagnostics given, or is refused with exactly the
// error given.
func TestCrashSpecs(t *testing.T) {
	tests := []struct {
		file  string
		err   string
		diags []string
	}{{
		file:  "ref-self.yaml",
		diags: []string{`ref-self.yaml#/components/schemas/R/$ref: $ref "#/components/schemas/R" is a chain of $refs that never reaches a value (#/components/schemas/R → #/components/schemas/R); the schema is replaced by {} (json.RawMessage)`},
	}, {
		file:  "ref-cycle.yaml",
		diags: []string{`ref-cycle.yaml#/components/schemas/R1/$ref: $ref "#/components/schemas/R2" is a chain of $refs that never reaches a value (#/components/schemas/R2 → #/components/schemas/R1 → #/components/schemas/R2); the schema is replaced by {} (json.RawMessage)`},
	}, {
		file: "media-null.yaml",
		diags: []string{
			`media-null.yaml#/paths/~1r/post/requestBody/content/application~1json: media type object is null; the body has no schema`,
			`media-null.yaml#/paths/~1r/post/requestBody/content/application~1json/schema: missing schema; typed as json.RawMessage`,
			`media-null.yaml#/paths/~1r/post/responses/200/content/application~1json: media type object is null; the body has no schema`,
		},
	}, {
		// 853 bytes, nine levels of ten aliases under components.schemas:
		// 2 min 39 s and 10 GB before the budget.
		file: "alias-bomb-schemas.yaml",
		err:  "testdata/crash/alias-bomb-schemas.yaml:20:20: alias *e expands the spec past the budget of 262144 YAML nodes and 67108864 bytes (64 MiB) that aliases, referenced files and overlays may add; refusing it",
	}, {
		file: "yaml-line10-key.yaml", // gopkg.in/yaml.v3 said line 5
		err:  "testdata/crash/yaml-line10-key.yaml:10:7: did not find expected key (while parsing a block mapping that begins on line 6)",
	}, {
		file: "yaml-line10-toplevel.yaml", // gopkg.in/yaml.v3 said line 9
		err:  "testdata/crash/yaml-line10-toplevel.yaml:10:1: did not find expected key (while parsing a block mapping that begins on line 1)",
	}, {
		file: "yaml-line10-flow.yaml", // gopkg.in/yaml.v3 said line 8
		err:  "testdata/crash/yaml-line10-flow.yaml:10:18: did not find expected ',' or ']' (while parsing a flow sequence that begins on line 9)",
	}}
	files, err := os.ReadDir("testdata/crash")
	require.NoError(t, err)
	require.Len(t, files, len(tests), "every spec of testdata/crash has a case")
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			svc, diags, err := LoadService("testdata/crash/"+tt.file, nil)
			require.Equal(t, tt.diags, diagLines(diags))
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			_, err = Generate(svc, "crash")
			require.NoError(t, err)
		})
	}
}

// degradeSpec is a spec with a fine GET /a and the operations of extra
// (indented as under paths), and components (indented as under
// components).
func degradeSpec(extra, components string) string {
	return "openapi: 3.0.3\ninfo:\n  title: T\n  version: '1'\n  description: {$ref: '#/info/x-intro'}\n  x-intro: From a $ref.\n" +
		"paths:\n  /a:\n    get:\n      operationId: getA\n      responses: {\"200\": {description: ok}}\n" + extra +
		"components:\n  schemas:\n    Fine: {type: object, properties: {x: {type: string}}}\n" + components
}

// TestDegradePerOperation checks that a defect of one operation skips that
// operation, or keeps its body raw, with a warning located at the $ref or
// operation, and the rest is generated; the summary counts the skipped.
func TestDegradePerOperation(t *testing.T) {
	tests := []struct {
		name, extra, components string
		diags                   []string
		ops                     []string
		summary                 string
	}{{
		name:    "dangling parameter $ref",
		extra:   "  /b:\n    get:\n      operationId: getB\n      parameters: [{$ref: '#/components/parameters/Nope'}]\n      responses: {\"200\": {description: ok}}\n",
		diags:   []string{`spec.yaml#/paths/~1b/get/parameters/0/$ref: $ref "#/components/parameters/Nope" names nothing in the spec; operation GET /b skipped`},
		ops:     []string{"GetA"},
		summary: "p: 1 operation (1 skipped), 3 types, 0 error shapes (transient 0, throttling 0, non-retryable 0)",
	}, {
		name:  "dangling schema $ref keeps the operation, its body raw JSON",
		extra: "  /b:\n    post:\n      operationId: postB\n      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Nope'}}}}\n      responses: {\"200\": {description: ok}}\n",
		diags: []string{`spec.yaml#/paths/~1b/post/requestBody/content/application~1json/schema/$ref: $ref "#/components/schemas/Nope" names nothing in the spec; the schema is replaced by {} (json.RawMessage)`},
		ops:   []string{"GetA", "PostB"},
	}, {
		name:       "response $ref into requestBodies with the shape of a response",
		extra:      "  /b:\n    get:\n      operationId: getB\n      responses: {\"200\": {$ref: '#/components/requestBodies/Thing'}}\n",
		components: "  requestBodies:\n    Thing:\n      description: A thing.\n      content: {application/json: {schema: {$ref: '#/components/schemas/Fine'}}}\n",
		diags:      []string{`spec.yaml#/paths/~1b/get/responses/200/$ref: $ref "#/components/requestBodies/Thing" names a request body where a response belongs; it has the shape of a response, so it is read as one`},
		ops:        []string{"GetA", "GetB"},
	}, {
		name:       "response $ref into requestBodies that is not a response",
		extra:      "  /b:\n    get:\n      operationId: getB\n      responses: {\"200\": {$ref: '#/components/requestBodies/Thing'}}\n",
		components: "  requestBodies:\n    Thing:\n      required: true\n      content: {application/json: {schema: {$ref: '#/components/schemas/Fine'}}}\n",
		diags:      []string{`spec.yaml#/paths/~1b/get/responses/200/$ref: $ref "#/components/requestBodies/Thing" names a request body where a response belongs; operation GET /b skipped`},
		ops:        []string{"GetA"},
	}, {
		name:    "dangling path-level parameter skips every operation of the path",
		extra:   "  /b:\n    parameters: [{$ref: '#/components/parameters/Nope'}]\n    get:\n      operationId: getB\n      responses: {\"200\": {description: ok}}\n    delete:\n      operationId: deleteB\n      responses: {\"204\": {description: ok}}\n",
		diags:   []string{`spec.yaml#/paths/~1b/parameters/0/$ref: $ref "#/components/parameters/Nope" names nothing in the spec; every operation of path /b skipped`},
		ops:     []string{"GetA"},
		summary: "p: 1 operation (2 skipped), 3 types, 0 error shapes (transient 0, throttling 0, non-retryable 0)",
	}, {
		name:  "operation $ref that loops",
		extra: "  /b:\n    get: {$ref: '#/paths/~1b/get'}\n",
		diags: []string{`spec.yaml#/paths/~1b/get/$ref: $ref "#/paths/~1b/get" is a chain of $refs that never reaches a value (#/paths/~1b/get → #/paths/~1b/get); operation GET /b skipped`},
		ops:   []string{"GetA"},
	}, {
		name:  "operation $ref inside the spec",
		extra: "  /b:\n    get: {$ref: '#/x-operations/getB'}\nx-operations:\n  getB:\n    operationId: getB\n    parameters: [{name: q, in: query, schema: {type: string}}]\n    responses: {\"200\": {description: ok}}\n",
		ops:   []string{"GetA", "GetB"},
	}, {
		name:       "removed response component skips its users",
		extra:      "  /b:\n    get:\n      operationId: getB\n      responses: {\"404\": {$ref: '#/components/responses/Gone'}}\n",
		components: "  responses:\n    Gone: {$ref: '#/components/responses/Gone'}\n",
		diags: []string{
			`spec.yaml#/components/responses/Gone/$ref: $ref "#/components/responses/Gone" is a chain of $refs that never reaches a value (#/components/responses/Gone → #/components/responses/Gone); component #/components/responses/Gone removed (operations that refer to it are skipped)`,
			`spec.yaml#/paths/~1b/get/responses/404/$ref: $ref "#/components/responses/Gone" names a null value (a component removed above?); operation GET /b skipped`,
		},
		ops: []string{"GetA"},
	}, {
		// FuzzGenerate crasher 6b6d126166736458: the key went into the
		// generated code as it was, which then did not parse.
		name:  "response key that is not an HTTP status",
		extra: "  /b:\n    get:\n      operationId: getB\n      responses:\n        '0\"': {description: x, content: {application/json: {schema: {$ref: '#/components/schemas/Fine'}}}}\n",
		diags: []string{`spec.yaml#/paths/~1b/get/responses/0%22: response key "0\"" is not an HTTP status (100–599, 1XX–5XX or default); ignored`},
		ops:   []string{"GetA", "GetB"},
	}, {
		name:  "unknown media type keeps the body raw",
		extra: "  /b:\n    post:\n      operationId: postB\n      requestBody: {content: {json: {schema: {$ref: '#/components/schemas/Fine'}}}}\n      responses: {\"200\": {description: ok}}\n",
		diags: []string{`spec.yaml#/paths/~1b/post/requestBody/content/json: "json" is not a media type (type/subtype); the body is kept raw (bytes as they are)`},
		ops:   []string{"GetA", "PostB"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, diags, err := loadData("spec.yaml", []byte(degradeSpec(tt.extra, tt.components)), nil, nil)
			require.NoError(t, err)
			var got []string
			for _, d := range diagLines(diags) {
				if !strings.Contains(d, "spec validation (ignored)") {
					got = append(got, d)
				}
			}
			require.Equal(t, tt.diags, got)
			var ops []string
			for _, op := range svc.Operations {
				ops = append(ops, op.Name)
			}
			require.Equal(t, tt.ops, ops)
			require.Equal(t, "From a $ref.", svc.Doc)
			if tt.summary != "" {
				require.Equal(t, tt.summary, svc.Summary("p"))
			}
			_, err = Generate(svc, "p")
			require.NoError(t, err)
		})
	}
}

// TestInternalErrorNamesLocation makes the builder panic on one operation:
// loading returns an *InternalError naming that operation, not a crash.
func TestInternalErrorNamesLocation(t *testing.T) {
	testHookBuilding = func(ptr string) {
		if ptr == "/paths/~1a/get" {
			panic("boom")
		}
	}
	t.Cleanup(func() { testHookBuilding = nil })
	_, _, err := loadData("spec.yaml", []byte(degradeSpec("", "")), nil, nil)
	var ie *InternalError
	require.True(t, errors.As(err, &ie), "%v", err)
	require.Equal(t, "internal error while building spec.yaml#/paths/~1a/get: boom (please report this with the spec)", err.Error())
	require.Contains(t, ie.Stack, "TestInternalErrorNamesLocation")
}

// BenchmarkAliasBombRefused measures refusing the 853-byte alias bomb of
// testdata/crash (issue 11 target: under 1 s and 100 MiB; it took 2 min
// 39 s and 10 GB before the node budget).
func BenchmarkAliasBombRefused(b *testing.B) {
	raw, err := os.ReadFile("testdata/crash/alias-bomb-schemas.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := loadData("bomb.yaml", raw, nil, nil); err == nil {
			b.Fatal("the alias bomb loaded")
		}
	}
}

// BenchmarkAliasesWithinBudget measures loading and building a spec whose
// aliases under components.schemas add 207,585 nodes, 79% of the node
// budget.
func BenchmarkAliasesWithinBudget(b *testing.B) {
	raw := []byte("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n" + aliasBomb("    ", 9, 5))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := loadData("big.yaml", raw, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAliasBudgetAfterOverlay: an overlay whose update brings an alias bomb
// into the spec is refused by the node budget too (the overlay library
// copies updates with aliases expanded: it ran out of time before).
func TestAliasBudgetAfterOverlay(t *testing.T) {
	dir := t.TempDir()
	spec := dir + "/spec.yaml"
	require.NoError(t, os.WriteFile(spec, []byte(degradeSpec("", "")), 0o644))
	overlay := dir + "/bomb.overlay.yaml"
	require.NoError(t, os.WriteFile(overlay, []byte("overlay: 1.0.0\ninfo: {title: bomb, version: '1'}\nactions:\n  - target: $.components.schemas\n    update:\n"+aliasBomb("      ", 12, 8)), 0o644))
	_, _, err := LoadService(spec, []string{overlay})
	require.EqualError(t, err, "overlay "+overlay+":11:30: alias *e expands the spec past the budget of 262144 YAML nodes and 67108864 bytes (64 MiB) that aliases, referenced files and overlays may add; refusing it")
}
