package generator

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/require"
)

// wholeTypesFile renders types.go the way it was rendered before pieces:
// one jen.File, one go/format call.
func wholeTypesFile(t *testing.T, svc *Service, pkg string) []byte {
	t.Helper()
	out, err := emitFile(svc, pkg, "types.go", func(f *jen.File, svc *Service) error {
		emitTypes(&pieces{f: f}, svc)
		return nil
	})
	require.NoError(t, err)
	return out
}

// TestTypesInPiecesIsTheWholeFile: types.go rendered in pieces of 1, 2, 7
// and piecesOf types is byte for byte types.go rendered whole, on the real
// specs of the repository (every kind of type: structs, enums, unions, XML
// types, additional properties) and on a spec without types.
func TestTypesInPiecesIsTheWholeFile(t *testing.T) {
	specs, err := filepath.Glob("../specs/*.openapi.yaml")
	require.NoError(t, err)
	specs = append(specs, "../specs/mistral_openapi.yaml")
	require.GreaterOrEqual(t, len(specs), 5)
	for _, spec := range specs {
		svc, _, err := LoadService(spec, nil)
		require.NoError(t, err, spec)
		want := wholeTypesFile(t, svc, "gen")
		for _, per := range []int{1, 2, 7, piecesOf} {
			p := newPieces("gen", "types.go")
			p.per = per
			emitTypes(p, svc)
			got, err := p.render(svc, func() ([]byte, error) { t.Fatal("pieces clash"); return nil, nil })
			require.NoError(t, err)
			require.True(t, bytes.Equal(want, got), "%s in pieces of %d differs from the whole file", spec, per)
		}
	}
	svc, _, err := load(t, specWith("", ""))
	require.NoError(t, err)
	svc.Types = nil
	got, err := emitTypesFile(svc, "gen")
	require.NoError(t, err)
	require.Equal(t, string(wholeTypesFile(t, svc, "gen")), string(got))
}

// TestPiecesImportClashRendersWhole: when two pieces import different
// paths under one name (jennifer names imports per file, so the whole file
// would rename one), the file is rendered whole instead; pieces that agree
// give the whole file's bytes, imports grouped and sorted.
func TestPiecesImportClashRendersWhole(t *testing.T) {
	svc := &Service{SpecFile: "s.yaml", Title: "T"}
	emit := func(p *pieces, paths ...string) {
		for i, path := range paths {
			p.next().Func().Id("F" + string(rune('A'+i))).Params().Add(jen.Qual(path, "X")).Block(jen.Return(jen.Nil()))
			p.next().Line()
		}
	}
	whole := func(paths ...string) []byte {
		out, err := emitFile(svc, "gen", "x.go", func(f *jen.File, _ *Service) error {
			emit(&pieces{f: f}, paths...)
			return nil
		})
		require.NoError(t, err)
		return out
	}
	agree := []string{"net/http", openapiPath, "encoding/json", runtimePath, "net/http", "fmt"}
	p := newPieces("gen", "x.go")
	p.per = 1
	emit(p, agree...)
	got, err := p.render(svc, func() ([]byte, error) { t.Fatal("no clash here"); return nil, nil })
	require.NoError(t, err)
	require.Equal(t, string(whole(agree...)), string(got))

	clash := []string{"a.example/json", "b.example/json"}
	p = newPieces("gen", "x.go")
	p.per = 1
	emit(p, clash...)
	redone := false
	got, err = p.render(svc, func() ([]byte, error) { redone = true; return whole(clash...), nil })
	require.NoError(t, err)
	require.True(t, redone)
	require.Contains(t, string(got), `json1 "b.example/json"`) // what jennifer does in one file
}
