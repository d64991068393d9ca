// Command apicount prints how many names each Go package under the given
// directories exports (issue 18, "Surface by audience"): package-level
// types, functions, constants and variables, and separately the methods of
// exported types. Test files are not counted.
//
//	go run ./internal/apicount runtime
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	roots := os.Args[1:]
	if len(roots) == 0 {
		roots = []string{"runtime"}
	}
	counts := map[string][2]int{}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			names, methods, err := count(path)
			if err != nil {
				return err
			}
			c := counts[filepath.Dir(path)]
			counts[filepath.Dir(path)] = [2]int{c[0] + names, c[1] + methods}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	dirs := make([]string, 0, len(counts))
	for d := range counts {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	fmt.Printf("%-28s %6s %8s\n", "package", "names", "methods")
	for _, d := range dirs {
		fmt.Printf("%-28s %6d %8d\n", d, counts[d][0], counts[d][1])
	}
}

// count returns the exported package-level names of one file and the
// exported methods it declares on exported types.
func count(path string) (names, methods int, err error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return 0, 0, err
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv == nil {
				names++
			} else if ast.IsExported(recvName(d.Recv.List[0].Type)) {
				methods++
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						names++
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							names++
						}
					}
				}
			}
		}
	}
	return names, methods, nil
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}
