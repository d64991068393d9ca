package generator

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzGenerate feeds mutated specs (seeded with the hostile and crash corpora) to the
// loader, the model builder and the emitter: whatever the input, they
// return a result or an error and never panic, and what they return
// renders.
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
		if _, err := Generate(svc, "fuzz"); err != nil {
			t.Fatalf("a loaded spec must render: %v", err)
		}
	})
}
