package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/retrygen/retrygen/generator"
	"github.com/retrygen/retrygen/templates"
)

// writeFile writes one generated file; tests replace it to inject failures.
var writeFile = os.WriteFile

// renameFile moves a file into place; tests replace it to inject failures.
var renameFile = os.Rename

// tmpMarker is in the name of every temporary file generate writes beside
// its output (".client.go.retrygen-tmp-123", ".client.go.retrygen-old-123"):
// scans skip such files, so concurrent runs never take one another's for
// their own.
const tmpMarker = ".retrygen-"

// readOwned returns the files of dir that retrygen generated, by name (a
// regular file at the top of dir whose first line is a retrygen header line,
// templates.IsGeneratedLine, any release's), and the names of the other
// entries (hand-written files, subdirectories, an editor's .DS_Store),
// which generate leaves alone. A missing dir is empty.
func readOwned(dir string) (owned map[string][]byte, foreign map[string]bool, err error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string][]byte{}, map[string]bool{}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	owned, foreign = map[string][]byte{}, map[string]bool{}
	for _, e := range entries {
		if strings.Contains(e.Name(), tmpMarker) && strings.HasPrefix(e.Name(), ".") {
			continue // another run's temporary file
		}
		if !e.Type().IsRegular() {
			foreign[e.Name()] = true
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if errors.Is(err, fs.ErrNotExist) {
			continue // moved away by a concurrent run since ReadDir
		}
		if err != nil {
			return nil, nil, err
		}
		if first, _, _ := bytes.Cut(b, []byte("\n")); !templates.IsGeneratedLine(strings.TrimSuffix(string(first), "\r")) {
			foreign[e.Name()] = true
			continue
		}
		owned[e.Name()] = b
	}
	return owned, foreign, nil
}

// collisions is the error for generated file names that dir already holds
// as files retrygen did not write, or nil.
func collisions(dir string, files []generator.File, foreign map[string]bool) error {
	var hit []string
	for _, f := range files {
		if foreign[f.Name] {
			hit = append(hit, filepath.Join(dir, f.Name))
		}
	}
	if len(hit) == 0 {
		return nil
	}
	slices.Sort(hit)
	return fmt.Errorf("refusing to overwrite %d file(s) retrygen did not generate (a generated file starts with %q); rename or move:\n  %s",
		len(hit), templates.GeneratedLine, strings.Join(hit, "\n  "))
}

// packageMismatch is the error for a hand-written Go file in dir whose
// package clause names another package than the generated files' (other
// than that package's external test package, NAME_test), or nil: go build
// would refuse the directory ("found packages …"). A file with a build
// constraint is not checked (it may be excluded from every build).
func packageMismatch(dir string, files []generator.File, foreign map[string]bool) error {
	want := ""
	for _, f := range files {
		if strings.HasSuffix(f.Name, ".go") {
			if pf, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Content, parser.PackageClauseOnly); err == nil {
				want = pf.Name.Name
				break
			}
		}
	}
	if want == "" {
		return nil
	}
	var bad []string
	for _, name := range slices.Sorted(maps.Keys(foreign)) {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil {
			continue // a subdirectory named x.go, or unreadable: not ours to judge
		}
		pf, err := parser.ParseFile(token.NewFileSet(), path, b, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil || hasBuildConstraint(pf) {
			continue
		}
		if got := pf.Name.Name; got != want && got != want+"_test" {
			bad = append(bad, fmt.Sprintf("%s is package %s", path, got))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("the generated package is %s, but the output directory holds other Go packages (go build would refuse it); change their package clause, or -package:\n  %s",
		want, strings.Join(bad, "\n  "))
}

// hasBuildConstraint reports whether f has a //go:build or // +build line
// before its package clause.
func hasBuildConstraint(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if constraint.IsGoBuild(c.Text) || constraint.IsPlusBuild(c.Text) {
				return true
			}
		}
	}
	return false
}

// writeDir makes dir hold files, next to whatever else it holds: files
// retrygen did not generate (doc.go with a go:generate line, tests,
// .DS_Store, subdirectories) are never touched; a generated name taken by
// such a file is an error naming it. A symlinked dir is followed. Each new
// file is written to a temporary file in dir first; then each is renamed
// over its old version (kept aside until the end), and generated files no
// longer produced are removed. On any failure every renamed file is put
// back and every temporary file removed, so dir is as it was. Concurrent
// runs each leave a complete output and no temporary file.
func writeDir(dir string, files []generator.File) (err error) {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	owned, foreign, err := readOwned(dir)
	if err != nil {
		return err
	}
	if err := collisions(dir, files, foreign); err != nil {
		return err
	}
	if err := packageMismatch(dir, files, foreign); err != nil {
		return err
	}
	var temps []string // new contents, in files' order
	defer func() {
		for _, t := range temps {
			if t != "" {
				os.Remove(t)
			}
		}
	}()
	for _, f := range files {
		t, err := writeTemp(dir, f.Name, "tmp", f.Content)
		temps = append(temps, t)
		if err != nil {
			return err
		}
	}
	// Swap: old version aside, new one in; undo all on failure.
	type moved struct{ name, old string } // old "" when there was no file
	var done []moved
	rollback := func() {
		for i := len(done) - 1; i >= 0; i-- {
			m := done[i]
			target := filepath.Join(dir, m.name)
			if m.old == "" {
				os.Remove(target)
			} else {
				os.Rename(m.old, target)
			}
		}
	}
	for i, f := range files {
		target := filepath.Join(dir, f.Name)
		m := moved{name: f.Name}
		if _, ok := owned[f.Name]; ok {
			old, err := writeTemp(dir, f.Name, "old", nil) // a unique name to move the old file to
			if err != nil {
				os.Remove(old)
				rollback()
				return err
			}
			m.old = old
			if err := renameFile(target, m.old); err != nil && !errors.Is(err, fs.ErrNotExist) {
				os.Remove(old)
				rollback()
				return err
			} else if err != nil {
				os.Remove(old) // the placeholder: nothing was moved onto it
				m.old = ""     // removed meanwhile by a concurrent run
			}
		}
		done = append(done, m)
		if err := renameFile(temps[i], target); err != nil {
			rollback()
			return err
		}
		temps[i] = ""
	}
	for _, m := range done {
		if m.old != "" {
			os.Remove(m.old)
		}
	}
	for name := range owned {
		if !slices.ContainsFunc(files, func(f generator.File) bool { return f.Name == name }) {
			if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// writeTemp writes content to a new hidden temporary file in dir named
// after name and kind, and returns its path.
func writeTemp(dir, name, kind string, content []byte) (string, error) {
	f, err := os.CreateTemp(dir, "."+name+tmpMarker+kind+"-")
	if err != nil {
		return "", fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	path := f.Name()
	f.Close()
	if err := writeFile(path, content, 0o644); err != nil {
		return path, err
	}
	return path, os.Chmod(path, 0o644)
}

// checkDir compares dir with files without writing, and returns one line
// per difference: "added F" (generation would create it), "removed F"
// (generation would delete it), "changed F: line N: want …, have …" (first
// differing line). Files retrygen did not generate are ignored, except one
// whose name a generated file takes: that is an error naming it.
func checkDir(dir string, files []generator.File) ([]string, error) {
	have, foreign, err := readOwned(dir)
	if err != nil {
		return nil, err
	}
	if err := collisions(dir, files, foreign); err != nil {
		return nil, err
	}
	want := map[string][]byte{}
	for _, f := range files {
		want[f.Name] = f.Content
	}
	var names []string
	for n := range have {
		names = append(names, n)
	}
	for n := range want {
		if _, ok := have[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var diff []string
	for _, n := range names {
		h, inHave := have[n]
		w, inWant := want[n]
		switch {
		case !inHave:
			diff = append(diff, "added "+n)
		case !inWant:
			diff = append(diff, "removed "+n)
		case !bytes.Equal(h, w):
			diff = append(diff, "changed "+n+": "+firstDiff(w, h))
		}
	}
	return diff, nil
}

// firstDiff describes the first line where want and have differ.
func firstDiff(want, have []byte) string {
	ws, hs := bufio.NewScanner(bytes.NewReader(want)), bufio.NewScanner(bytes.NewReader(have))
	ws.Buffer(nil, 1<<20)
	hs.Buffer(nil, 1<<20)
	for line := 1; ; line++ {
		wOK, hOK := ws.Scan(), hs.Scan()
		if !wOK && !hOK {
			return "differs in line endings"
		}
		if wOK != hOK || ws.Text() != hs.Text() {
			return fmt.Sprintf("line %d: want %s, have %s", line, excerpt(ws.Text(), wOK), excerpt(hs.Text(), hOK))
		}
	}
}

// excerpt quotes a line, shortened to 60 bytes, or says the file ended.
func excerpt(s string, ok bool) string {
	if !ok {
		return "end of file"
	}
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return fmt.Sprintf("%q", s)
}
