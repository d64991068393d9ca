package generator

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// FuzzGenerate feeds mutated specs (seeded with the hostile and crash corpora) to the
// loader, the model builder and the emitter: whatever the input, they
// return a result or an error and never panic, and what they return
// renders, holds no directive or build constraint and type-checks
// (checkGenerated).
func FuzzGenerate(f *testing.F) {
	var seeds []string
	for _, glob := range []string{"testdata/hostile/*.yaml", "testdata/crash/*.yaml"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, m...)
	}
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, spec []byte) {
		svc, _, err := loadData("fuzz.yaml", spec, nil, nil)
		if err != nil {
			return
		}
		requireBuilds(t, svc)
	})
}

// FuzzSplitSpec feeds a small split spec whose path item file and one $ref
// are mutated (seeded with the files of testdata/split/redocly): the
// bundler, the $ref checks and the builder return a result or an error,
// never panic, never read outside the spec's directory (an fstest.MapFS
// holds it), and what they return renders and passes checkGenerated.
func FuzzSplitSpec(f *testing.F) {
	root := []byte(`openapi: 3.0.3
info:
  title: Split
  version: "1"
  description: {$ref: "text/intro.md"}
paths:
  /things/{id}:
    $ref: paths/item.yaml
components:
  schemas:
    Thing: {$ref: schemas/Thing.yaml}
    Fuzzed: {$ref: paths/ref.yaml}
`)
	thing := []byte("type: object\nproperties:\n  id: {type: string}\n  parent: {$ref: Thing.yaml}\n")
	seeds, err := filepath.Glob("testdata/split/redocly/*/*.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "../schemas/Thing.yaml")
	}
	f.Add([]byte("get:\n  operationId: getThing\n  parameters: [{$ref: '../params.yaml#/id'}]\n  responses:\n    '200': {description: ok, content: {application/json: {schema: {$ref: '../schemas/Thing.yaml'}}}}\n"), "../schemas/Thing.yaml#/properties/parent")
	f.Fuzz(func(t *testing.T, item []byte, ref string) {
		fsys := fstest.MapFS{
			"paths/item.yaml":    {Data: item},
			"paths/ref.yaml":     {Data: []byte("$ref: '" + strings.ReplaceAll(ref, "'", "''") + "'\n")},
			"schemas/Thing.yaml": {Data: thing},
			"params.yaml":        {Data: []byte("id: {name: id, in: path, required: true, schema: {type: string}}\n")},
			"text/intro.md":      {Data: []byte("Intro.")},
		}
		svc, _, err := loadData("openapi.yaml", root, nil, fsys)
		if err != nil {
			return
		}
		requireBuilds(t, svc)
	})
}

// FuzzOverlay applies a mutated OpenAPI Overlay (seeded with the kinds of
// action the overlay tests use: update, remove, wildcards, a bad target, an
// alias) to a small spec: whatever the overlay, the loader returns a result
// or an error and never panics (an InternalError is a recovered panic); an
// error names the overlay or the spec; and what loads renders and passes
// checkGenerated.
func FuzzOverlay(f *testing.F) {
	spec := []byte(`openapi: 3.0.3
info: {title: Pets, version: '1'}
x-retry: {version: 1, maxAttempts: 3}
paths:
  /pets:
    get:
      operationId: ListPets
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
components:
  schemas:
    Pet: {type: object, required: [id], properties: {id: {type: string}, tag: {type: string}}}
`)
	head := "overlay: 1.0.0\ninfo: {title: o, version: '1'}\nactions:\n"
	for _, a := range []string{
		"  - {target: '$.paths[\"/pets\"].get', update: {x-retry: {longPolling: true}}}\n",
		"  - {target: '$', update: {x-retry: {maxAttempts: \"abc\"}}}\n",
		"  - {target: '$.components.schemas.Pet.properties', update: {'a,b': {type: string}, 'q\"': {type: integer}}}\n",
		"  - {target: '$.components.schemas.Pet.properties.tag', remove: true}\n",
		"  - {target: '$..*', update: {description: '+build ignore'}}\n",
		"  - {target: '$.paths[*][*].responses', update: {'503': {description: busy}}}\n",
		"  - {target: 'not a path', update: {}}\n",
		"  - &a {target: '$.info', update: {description: x}}\n  - *a\n",
	} {
		f.Add([]byte(head + a))
	}
	f.Fuzz(func(t *testing.T, ov []byte) {
		path := filepath.Join(t.TempDir(), "overlay.yaml")
		if err := os.WriteFile(path, ov, 0o644); err != nil {
			t.Fatal(err)
		}
		svc, _, err := loadData("fuzz.yaml", spec, []string{path}, nil)
		var ie *InternalError
		if errors.As(err, &ie) {
			t.Fatalf("panic: %v\n%s", ie.Panic, ie.Stack)
		}
		if err != nil {
			if msg := err.Error(); !strings.Contains(msg, "overlay.yaml") && !strings.Contains(msg, "fuzz.yaml") {
				t.Fatalf("error names neither the overlay nor the spec: %v", err)
			}
			return
		}
		requireBuilds(t, svc)
	})
}

// requireBuilds is every fuzz target's oracle for a spec that loaded: it
// renders, and the generated files hold no build constraint or directive
// and type-check as one package (checkGenerated).
func requireBuilds(t *testing.T, svc *Service) {
	t.Helper()
	files, err := Generate(svc, "fuzz")
	if err != nil {
		t.Fatalf("a loaded spec must render: %v", err)
	}
	if err := checkGenerated(files); err != nil {
		t.Fatal(err)
	}
}
