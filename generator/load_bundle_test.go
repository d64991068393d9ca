package generator

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

// requireSameFiles fails unless a and b hold the same files, byte for byte.
func requireSameFiles(t *testing.T, a, b []File) {
	t.Helper()
	require.Equal(t, len(a), len(b))
	for i := range a {
		require.Equal(t, a[i].Name, b[i].Name)
		if !bytes.Equal(a[i].Content, b[i].Content) {
			require.Equal(t, string(b[i].Content), string(a[i].Content), a[i].Name)
		}
	}
}

// TestSplitSpecSameAsOneFile (issue 17 item 3): the pet store split over
// files that refer to each other (testdata/split/pets: schema files and
// fragments referenced from many places, a component of another file, a
// discriminator whose mapping names schemas of other files, relative paths
// from nested directories) generates byte for byte the code of the same
// spec written in one file: each schema once, named after its file or
// fragment, and the mapping's tags on the right variants.
func TestSplitSpecSameAsOneFile(t *testing.T) {
	split, diags, err := LoadService("testdata/split/pets/openapi.yaml", nil)
	require.NoError(t, err)
	require.Empty(t, diagLines(diags))
	one, diags, err := LoadService("testdata/split/pets-onefile/openapi.yaml", nil)
	require.NoError(t, err)
	require.Empty(t, diagLines(diags))
	require.Equal(t, typeNames(one), typeNames(split))
	for _, ty := range split.Types {
		if ty.Name == "Pet" {
			var tags []string
			for _, v := range ty.Variants {
				tags = append(tags, v.Name+":"+strings.Join(v.Tags, ","))
			}
			require.Equal(t, []string{"Dog:Dog,dog", "Cat:Cat,cat", "Lizard:Lizard,lizard"}, tags)
		}
	}
	a, err := Generate(split, "pets")
	require.NoError(t, err)
	b, err := Generate(one, "pets")
	require.NoError(t, err)
	requireSameFiles(t, a, b)
	require.NoError(t, checkGenerated(a))
}

// bigSplitSpec returns a spec split over 32 files (the root, 10 path items,
// 20 schemas, one enum of 700 values that the schemas' properties
// reference 400 times, and unions whose discriminator maps to schema files)
// and the same spec in one file.
func bigSplitSpec() (root []byte, files fstest.MapFS, onefile []byte) {
	files = fstest.MapFS{}
	var enum strings.Builder
	enum.WriteString("type: string\nenum:\n")
	for i := range 700 {
		fmt.Fprintf(&enum, "  - s%d\n", i)
	}
	files["enums/Status.yaml"] = &fstest.MapFile{Data: []byte(enum.String())}
	var one, comps strings.Builder
	one.WriteString("openapi: 3.0.3\ninfo: {title: Big, version: \"1\"}\npaths:\n")
	comps.WriteString("components:\n  schemas:\n")
	var r strings.Builder
	r.WriteString("openapi: 3.0.3\ninfo: {title: Big, version: \"1\"}\npaths:\n")
	for i := range 10 {
		a, b := 2*i, 2*i+1
		fmt.Fprintf(&r, "  /p%d:\n    $ref: paths/p%d.yaml\n", i, i)
		op := "get:\n  operationId: get%d\n  responses:\n    \"200\":\n      description: ok\n      content:\n        application/json:\n          schema:\n" +
			"            oneOf: [{$ref: %s}, {$ref: %s}]\n            discriminator:\n              propertyName: kind\n              mapping: {a: %s, b: %s}\n"
		files[fmt.Sprintf("paths/p%d.yaml", i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf(op, i,
			fmt.Sprintf("../schemas/M%d.yaml", a), fmt.Sprintf("'../schemas/M%d.yaml#'", b),
			fmt.Sprintf("../schemas/M%d.yaml", a), fmt.Sprintf("./../schemas/M%d.yaml", b)))}
		fmt.Fprintf(&one, "  /p%d:\n    %s", i, strings.ReplaceAll(fmt.Sprintf(op, i,
			fmt.Sprintf("'#/components/schemas/M%d'", a), fmt.Sprintf("'#/components/schemas/M%d'", b),
			fmt.Sprintf("'#/components/schemas/M%d'", a), fmt.Sprintf("'#/components/schemas/M%d'", b)), "\n", "\n    "))
		one.WriteString("\n")
	}
	for i := range 20 {
		var m strings.Builder
		m.WriteString("type: object\nrequired: [kind]\nproperties:\n  kind: {type: string}\n")
		comps.WriteString(fmt.Sprintf("    M%d:\n      type: object\n      required: [kind]\n      properties:\n        kind: {type: string}\n", i))
		for p := range 20 {
			fmt.Fprintf(&m, "  p%d: {$ref: ../enums/Status.yaml}\n", p)
			fmt.Fprintf(&comps, "        p%d: {$ref: '#/components/schemas/Status'}\n", p)
		}
		files[fmt.Sprintf("schemas/M%d.yaml", i)] = &fstest.MapFile{Data: []byte(m.String())}
	}
	comps.WriteString("    Status:\n      " + strings.ReplaceAll(strings.TrimSuffix(enum.String(), "\n"), "\n", "\n      ") + "\n")
	return []byte(r.String()), files, []byte(one.String() + comps.String())
}

// TestSplitSpecSharedEnum (issue 17 item 3): a split layout of 32 files
// whose enum file is referenced 400 times loads within the node budget
// (each copy used to be charged: 400 × 700 values) and is one Go type,
// Status, named after its file; the discriminators' mappings to schema
// files tag the right variants; and the code is byte for byte that of the
// same spec in one file.
func TestSplitSpecSharedEnum(t *testing.T) {
	root, files, onefile := bigSplitSpec()
	require.Len(t, files, 31)
	split, diags, err := loadData("openapi.yaml", root, nil, files)
	require.NoError(t, err)
	require.Empty(t, diagLines(diags))
	one, diags, err := loadData("openapi.yaml", onefile, nil, nil)
	require.NoError(t, err)
	require.Empty(t, diagLines(diags))
	names := typeNames(split)
	require.Equal(t, typeNames(one), names)
	require.Len(t, names, 20+1+3*10) // M0…M19, Status, GetNInput, GetNOutput, GetNOutputBody (the union)
	enums := 0
	for _, ty := range split.Types {
		if ty.Kind == KindEnum {
			enums++
			require.Equal(t, "Status", ty.Name)
		}
	}
	require.Equal(t, 1, enums)
	a, err := Generate(split, "big")
	require.NoError(t, err)
	b, err := Generate(one, "big")
	require.NoError(t, err)
	requireSameFiles(t, a, b)
}

// TestDiscriminatorMappingAcrossFilesLocated: a mapping value naming a file
// that does not exist is a warning located at the value in the file that
// holds it, and the entry is ignored; a URL or a path leaving the spec's
// directory is an error located there (it was an error with no location:
// "encountered disallowed external reference").
func TestDiscriminatorMappingAcrossFilesLocated(t *testing.T) {
	spec := func(mapping string) []byte {
		return []byte(`openapi: 3.0.3
info: {title: M, version: "1"}
paths:
  /p:
    get:
      operationId: getP
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: schemas/Pet.yaml}
`)
	}
	pet := func(mapping string) fstest.MapFS {
		return fstest.MapFS{
			"schemas/Pet.yaml": {Data: []byte("oneOf: [{$ref: Dog.yaml}]\ndiscriminator:\n  propertyName: kind\n  mapping:\n    dog: " + mapping + "\n")},
			"schemas/Dog.yaml": {Data: []byte("type: object\nproperties:\n  kind: {type: string}\n")},
		}
	}
	tests := []struct {
		mapping, err string
		diags        []string
	}{
		{mapping: "Gone.yaml", diags: []string{`Pet.yaml#/discriminator/mapping/dog: discriminator mapping "Gone.yaml" cannot be resolved: file schemas/Gone.yaml does not exist; the entry is ignored`}},
		{mapping: "Dog.yaml#/nope", diags: []string{`Pet.yaml#/discriminator/mapping/dog: discriminator mapping "Dog.yaml#/nope" cannot be resolved: schemas/Dog.yaml has nothing at #/nope; the entry is ignored`}},
		{mapping: "https://example.com/Dog.yaml", err: "spec.yaml: 1 error(s) in the spec",
			diags: []string{`error: Pet.yaml#/discriminator/mapping/dog: discriminator mapping "https://example.com/Dog.yaml": is a URL; only files under the spec's directory . are read`}},
		{mapping: "../../Dog.yaml", err: "spec.yaml: 1 error(s) in the spec",
			diags: []string{`error: Pet.yaml#/discriminator/mapping/dog: discriminator mapping "../../Dog.yaml": leaves the spec's directory .; only files under it are read`}},
		{mapping: "Dog"}, // a schema name: left as written; it names the component Dog.yaml became
	}
	for _, tt := range tests {
		t.Run(tt.mapping, func(t *testing.T) {
			svc, diags, err := loadData("spec.yaml", spec(tt.mapping), nil, pet(tt.mapping))
			require.Equal(t, tt.diags, diagLines(diags))
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			_, err = Generate(svc, "m")
			require.NoError(t, err)
		})
	}
}
