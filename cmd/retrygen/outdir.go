package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/retrygen/retrygen/generator"
	"github.com/retrygen/retrygen/templates"
)

// writeFile writes one generated file; tests replace it to inject failures.
var writeFile = os.WriteFile

// readOwned returns the files of dir by name, or an error when dir holds
// anything retrygen did not generate: a subdirectory, a non-regular file, or
// a file whose first line is not a retrygen header line
// (templates.IsGeneratedLine; any release's). The error lists every foreign
// entry, sorted, so one run says all that must move. A missing dir is empty.
func readOwned(dir string) (map[string][]byte, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string][]byte{}, nil
	}
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	var foreign []string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if !e.Type().IsRegular() {
			foreign = append(foreign, path+" (not a regular file)")
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if first, _, _ := strings.Cut(string(b), "\n"); !templates.IsGeneratedLine(strings.TrimSuffix(first, "\r")) {
			foreign = append(foreign, path)
			continue
		}
		files[e.Name()] = b
	}
	if len(foreign) > 0 {
		return nil, fmt.Errorf("refusing to touch %s: it holds %d file(s) retrygen did not generate (retrygen owns the directory and writes only files starting with %q):\n  %s",
			dir, len(foreign), templates.GeneratedLine, strings.Join(foreign, "\n  "))
	}
	return files, nil
}

// writeDir replaces dir with exactly files. It writes into a temporary
// sibling and swaps it in (old dir renamed aside, new renamed in, old
// removed); on any error dir is left as it was and no temporary directory
// remains.
func writeDir(dir string, files []generator.File) (err error) {
	if _, err := readOwned(dir); err != nil {
		return err
	}
	dir = filepath.Clean(dir)
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	mode := fs.FileMode(0o755)
	if fi, err := os.Stat(dir); err == nil {
		// Replacing dir deletes its files: refuse before touching anything
		// when that is not allowed, and keep dir's permissions.
		if err := syscall.Access(dir, 2 /* W_OK */); err != nil {
			return fmt.Errorf("%s is not writable (%v): retrygen replaces the files in it", dir, err)
		}
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		return fmt.Errorf("cannot create the new %s beside it (its parent directory must be writable): %w", dir, err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	for _, f := range files {
		if err := writeFile(filepath.Join(tmp, f.Name), f.Content, 0o644); err != nil {
			return err
		}
	}
	return swapDir(tmp, dir)
}

// swapDir moves tmp to dir, replacing any existing dir; on failure dir is
// restored.
func swapDir(tmp, dir string) error {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, dir)
	}
	old, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".old-")
	if err != nil {
		return err
	}
	if err := os.Remove(old); err != nil {
		return err
	}
	if err := os.Rename(dir, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if rerr := os.Rename(old, dir); rerr != nil {
			return fmt.Errorf("%w (and restoring %s from %s failed: %v)", err, dir, old, rerr)
		}
		return err
	}
	return os.RemoveAll(old)
}

// checkDir compares dir with files without writing, and returns one line
// per difference: "added F" (generation would create it), "removed F"
// (generation would delete it), "changed F: line N: want …, have …" (first
// differing line). It returns an error when dir holds foreign files.
func checkDir(dir string, files []generator.File) ([]string, error) {
	have, err := readOwned(dir)
	if err != nil {
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
