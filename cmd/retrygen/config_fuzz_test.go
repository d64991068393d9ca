package main

import (
	"errors"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrygen/retrygen/generator"
)

// FuzzConfig reads a mutated retrygen.yaml (seeded with include, exclude,
// rename and bad keys) and, when it is valid, generates petsSpec with its
// selection: loadConfig never panics and its errors name the file; the
// generator returns a result or an error (never an InternalError, a
// recovered panic); and every generated Go file parses (renames never make
// an identifier Go rejects). The spec the file names is ignored: petsSpec
// is always used, so nothing outside the temporary directory is read.
func FuzzConfig(f *testing.F) {
	for _, s := range []string{
		"spec: openapi.yaml\npackage: pets\n",
		"include: {tags: [pets]}\nexclude: {operations: [deletePet]}\n",
		"rename: {operations: {getPet: FetchPet}, types: {Pet: Animal}, fields: {Pet.name: Title}}\n",
		"rename: {types: {Pet: 'func'}}\n",
		"include: {paths: ['/pets/*']}\nlinkPagination: true\nstrict: true\n",
		"a: &a [*a]\n",
		"overlays: [x.yaml, 3]\nunknown: 1\n",
		"{\"spec\": \"openapi.yaml\", \"rename\": {\"types\": {\"Owner\": \"Pet\"}}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, cfg []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "retrygen.yaml")
		spec := filepath.Join(dir, "openapi.yaml")
		if err := os.WriteFile(path, cfg, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(spec, []byte(petsSpec), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := loadConfig(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error does not name the config file: %v", err)
			}
			return
		}
		svc, _, err := generator.LoadSelected(spec, nil, c.selection(path))
		var ie *generator.InternalError
		if errors.As(err, &ie) {
			t.Fatalf("panic: %v\n%s", ie.Panic, ie.Stack)
		}
		if err != nil {
			return
		}
		files, err := generator.Generate(svc, "pets")
		if err != nil {
			t.Fatalf("a loaded spec must render: %v", err)
		}
		for _, file := range files {
			if !strings.HasSuffix(file.Name, ".go") {
				continue
			}
			if _, err := parser.ParseFile(token.NewFileSet(), file.Name, file.Content, parser.SkipObjectResolution); err != nil {
				t.Fatalf("%v\n%s", err, file.Content)
			}
		}
	})
}
