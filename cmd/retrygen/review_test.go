package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/generator"
)

// The usage line of each command names every flag the command has (review
// finding 6: generate's omitted -link-pagination), and so does the package
// doc of cmd/retrygen.
func TestUsageLineNamesEveryFlag(t *testing.T) {
	doc, err := os.ReadFile("main.go")
	require.NoError(t, err)
	for _, cmd := range []string{"generate", "explain"} {
		code, _, stderr := cli(cmd, "-h")
		require.Equal(t, 0, code)
		usage, _, _ := strings.Cut(stderr, "\n")
		flags := regexp.MustCompile(`(?m)^  (-[a-z-]+)`).FindAllStringSubmatch(stderr, -1)
		require.NotEmpty(t, flags)
		docLine := regexp.MustCompile(`(?m)^//\tretrygen ` + cmd + ` .*$`).FindString(string(doc))
		for _, f := range flags {
			require.Regexp(t, regexp.QuoteMeta(f[1])+`\b`, usage, "%s: usage line", cmd)
			require.Regexp(t, regexp.QuoteMeta(f[1])+`\b`, docLine, "%s: main.go doc", cmd)
		}
	}
}

// -check names no program: the user may have run go tool retrygen, go run
// or an installed retrygen (review finding 8: it said "run: retrygen
// generate …" in a module that runs "go tool retrygen generate …").
func TestCheckSuggestsTheSameCommand(t *testing.T) {
	spec, out := setup(t)
	code, _, stderr := cli("generate", "-spec", spec, "-out", out, "-package", "tiny", "-check")
	require.Equal(t, 1, code)
	require.True(t, strings.HasSuffix(stderr, "\nto update it, run the same command without -check (its arguments: generate -spec "+spec+" -out "+out+" -package tiny)\n"), stderr)
}

// Text that reaches an error message from data — a config file's spec
// path, a panic value — is printed with its control characters escaped
// (\x1b), never raw, by generate and explain alike (issue 17 item 9, the
// Fprintf sites old/i17b.md left).
func TestErrorsEscapeControlCharacters(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "retrygen.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("spec: \"\\e[31mnope.yaml\\a\"\noutput: out\npackage: x\n"), 0o644))
	for _, cmd := range []string{"generate", "explain"} {
		code, _, stderr := cli(cmd, "-config", cfg)
		require.Equal(t, 1, code, stderr)
		require.NotContains(t, stderr, "\x1b")
		require.NotContains(t, stderr, "\a")
		require.Contains(t, stderr, `\x1b[31mnope.yaml\x07`, cmd)
		require.True(t, strings.HasPrefix(stderr, "retrygen "+cmd+": "), stderr)
	}

	spec, out := setup(t)
	t.Cleanup(func() { loadService = generator.LoadSelected })
	loadService = func(string, []string, *generator.Selection) (*generator.Service, []generator.Diagnostic, error) {
		panic("boom\x1b[2J")
	}
	code, _, stderr := cli("generate", "-spec", spec, "-out", out, "-package", "tiny")
	require.Equal(t, 1, code)
	require.True(t, strings.HasPrefix(stderr, "retrygen generate: internal error while generating from "+spec+`: boom\x1b[2J (please report this with the spec)`+"\n"), stderr)
}
