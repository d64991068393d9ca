package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/retrygen/retrygen/generator"
)

// yieldPackageDoc returns files with the package comment of each generated
// Go file detached from its package clause (a blank line between them, the
// text kept as a plain comment) when a hand-written Go file of dir of the
// same package, not a test and without a build constraint, has a package
// comment of its own: go doc would print both (new-user trial: "Package
// api is a client for … Package api is generated." from the README's
// doc.go layout). Otherwise files is returned as it is. Hand-written files
// are those readOwned does not own; a file that does not parse is left to
// the compiler.
func yieldPackageDoc(dir string, files []generator.File) ([]generator.File, error) {
	_, foreign, err := readOwned(dir)
	if err != nil {
		return nil, err
	}
	pkg := ""
	for _, f := range files {
		if strings.HasSuffix(f.Name, ".go") {
			if pf, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Content, parser.PackageClauseOnly); err == nil {
				pkg = pf.Name.Name
				break
			}
		}
	}
	own := false
	for name := range foreign {
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue // a subdirectory named x.go, or unreadable
		}
		pf, err := parser.ParseFile(token.NewFileSet(), name, b, parser.PackageClauseOnly|parser.ParseComments)
		if err == nil && pf.Doc != nil && pf.Name.Name == pkg && !hasBuildConstraint(pf) {
			own = true
			break
		}
	}
	if !own {
		return files, nil
	}
	out := slices.Clone(files)
	for i, f := range out {
		if !strings.HasSuffix(f.Name, ".go") {
			continue
		}
		fset := token.NewFileSet()
		pf, err := parser.ParseFile(fset, f.Name, f.Content, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil || pf.Doc == nil {
			continue
		}
		end := fset.Position(pf.Doc.End()).Offset
		out[i].Content = slices.Concat(f.Content[:end], []byte("\n"), f.Content[end:])
	}
	return out, nil
}
