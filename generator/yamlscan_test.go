package generator

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// yamlTreeDiff returns where two trees differ in what a yaml.Node holds
// besides comments (which scanYAML leaves out and nothing reads): kind,
// style, tag, value, anchor, alias, line, column and children; "" when
// they are the same.
func yamlTreeDiff(a, b *yaml.Node, at string) string {
	switch {
	case a == nil || b == nil:
		if a != b {
			return at + ": one is nil"
		}
		return ""
	case a.Kind != b.Kind || a.Tag != b.Tag || a.Style != b.Style || a.Value != b.Value || a.Anchor != b.Anchor || (a.Alias == nil) != (b.Alias == nil):
		return fmt.Sprintf("%s: %v %q %v %q != %v %q %v %q", at, a.Kind, a.Tag, a.Style, a.Value, b.Kind, b.Tag, b.Style, b.Value)
	case a.Line != b.Line || a.Column != b.Column:
		return fmt.Sprintf("%s (%q): at %d:%d != %d:%d", at, a.Value, a.Line, a.Column, b.Line, b.Column)
	case len(a.Content) != len(b.Content):
		return fmt.Sprintf("%s: %d children != %d", at, len(a.Content), len(b.Content))
	}
	for i := range a.Content {
		if d := yamlTreeDiff(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", at, i)); d != "" {
			return d
		}
	}
	return ""
}

// checkScanYAML is the oracle of scanYAML: it either leaves raw to yaml.v3
// or builds yaml.v3's tree. It reports whether scanYAML read raw.
func checkScanYAML(t *testing.T, raw []byte) bool {
	t.Helper()
	got, ok := scanYAML(raw)
	if !ok {
		return false
	}
	var want yaml.Node
	err := yaml.Unmarshal(raw, &want)
	require.NoError(t, err, "scanYAML read %q, which yaml.v3 refuses", raw)
	require.Equal(t, "", yamlTreeDiff(&want, got, "#"), "%q", raw)
	return true
}

// yamlOracleFiles lists the YAML files the project reads or tests with:
// the real specs, the project's specs, overlays and configs, and the
// test data of every package.
func yamlOracleFiles(t *testing.T) []string {
	var files []string
	for _, root := range []string{"../../shared/specs", "../specs", "testdata", "../golden", "../internal", "../cmd", "../bench", "../examples"} {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				files = append(files, path)
			}
			return nil
		})
	}
	require.NotEmpty(t, files)
	return files
}

// On every YAML file of the project and of ../shared/specs, scanYAML's tree
// is yaml.v3's; the real specs and their overlays are read by it, not left
// to yaml.v3.
func TestScanYAMLOracleFiles(t *testing.T) {
	read := 0
	var left []string
	for _, f := range yamlOracleFiles(t) {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		raw = decodeSurrogatePairs(raw)
		if checkScanYAML(t, raw) {
			read++
			continue
		}
		left = append(left, f)
		if strings.Contains(f, "shared/specs") || strings.HasPrefix(f, "../specs/") {
			t.Errorf("%s: left to yaml.v3", f)
		}
	}
	t.Logf("read %d files, left %d to yaml.v3: %v", read, len(left), left)
}

// Each case is a rule of YAML 1.2.2 or of yaml.v3; read says whether
// scanYAML reads it (true) or leaves it to yaml.v3 (false). When it reads
// it, the tree must be yaml.v3's (checkScanYAML).
func TestScanYAMLCases(t *testing.T) {
	for _, c := range yamlScanCases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.read, checkScanYAML(t, []byte(c.text)), "read %q", c.text)
		})
	}
}

// yamlScanCases are TestScanYAMLCases' cases, and seeds of FuzzScanYAML.
var yamlScanCases = []struct {
	name, text string
	read       bool
}{
	{"block mapping (8.2.2)", "a: 1\nb: two\n", true},
	{"nested mappings", "a:\n  b:\n    c: d\n  e: f\ng: h\n", true},
	{"block sequence (8.2.1)", "a:\n  - x\n  - y\n", true},
	{"indentless sequence", "a:\n- x\n- y\nb: 1\n", true},
	{"compact mapping in a sequence", "a:\n  - b: 1\n    c: 2\n  - d: 3\n", true},
	{"compact mapping, more spaces", "a:\n  -   b: 1\n      c: 2\n", true},
	{"compact nested sequence", "a:\n  - - x\n    - y\n  - z\n", true},
	{"root sequence", "- a\n- b: c\n", true},
	{"entry on the next line", "a:\n  -\n    b: 1\n  -\n  - c\n", true},
	{"empty values (null at the indicator)", "a:\nb: \nc:   # c\nd:\n  -\n  - \n", true},
	{"plain scalars resolve", "a: [1, -2, +3, 0x1F, 0o17, 017, 0b101, -0b1, 1_000, 1.5, .5, 1e3, -.inf, .NaN, .nan, true, False, NULL, ~, null, yes, no, on, 2001-12-14, 2001-12-14t21:59:43.10-05:00, 2001-12-14 21:59:43.10, 1.0.0, 9223372036854775808, 18446744073709551616, 0x, 1__0, _1, 0b, 0o, -0o7, 1:20, 'q', \"d\", \"1\"]\n", true},
	{"keys resolve", "1: a\ntrue: b\nnull: c\n~: d\n1.5: e\n", true},
	{"plain with inner indicators", "a: b:c #d\ne: f # comment\ng: h#i\nk: -x\nl: ?y\nm: :z\nn: a - b\no: a, b [c] {d}\n", true},
	{"plain multi-line folds (6.5)", "a: one\n  two\n\n  three\n\n\n   four\nb: x\n", true},
	{"plain continuation at the parent's column+1", "a:\n- one\n two\nb: 1\n", true},
	{"plain ends at a comment line", "a: one\n  # c\nb: 2\n", true},
	{"plain multi-line at the root mapping", "a: one\n two\n", true},
	{"single quotes (7.3.2)", "a: 'it''s'\nb: ''\nc: ' x '\nd: 'a # b'\n", true},
	{"single quotes fold", "a: 'one\n  two\n\n  three  \n   four'\nb: 1\n", true},
	{"double quotes (7.3.1), escapes", `a: "\0\a\b\t\	\n\v\f\r\e\ \"\/\\\N\_\L\P\x41\u00e9\U0001F600"` + "\n", false},
	{"double quotes, yaml.v3's escapes", `a: "\0\a\b\t\	\n\v\f\r\e\ \"\'\\\N\_\L\P\x41\u00e9\U0001F600 tab:	."` + "\n", true},
	{"double quotes fold, escaped break", "a: \"one \\\n  two\n  \n  three\\\n\n  four \"\n", true},
	{"double quotes, a surrogate", `a: "\ud800"` + "\n", false},
	{"double quotes, an escape past U+10FFFF", `a: "\U80000000"` + "\n", false},
	{"double quotes, the last code point", `a: "\U0010FFFF\x7f\u0080"` + "\n", true},
	{"double quotes, unknown escape", `a: "\q"` + "\n", false},
	{"quoted keys", "'a': 1\n\"b c\": 2\n'3': x\n", true},
	{"literal (8.1.2)", "a: |\n  line 1\n\n    more\n  end\n\n\nb: 1\n", true},
	{"literal keep/strip", "a: |+\n  x\n\n\nb: |-\n  y\n\nc: |\n  z\n", true},
	{"folded (8.1.3)", "a: >\n  one\n  two\n\n  three\n    indented\n  four\n\n\nb: >-\n  x\n  y\n", true},
	{"block scalar indentation indicator", "a: |2\n    x\n   y\nb: >1-\n  z\nc: |+2\n   w\n", true},
	{"block scalar, leading empty lines", "a: |\n\n\n  x\nb: >\n \n  y\n", true},
	{"block scalar, comment after header", "a: | # c\n  x\n", true},
	{"block scalar in a sequence", "- |\n  x\n- >-\n  y\n  z\n", true},
	{"block scalar, less indented spaces", "a:\n  b: |\n    x\n  \n    y\n  c: 1\n", true},
	{"block scalar, tab in text", "a: |\n  x\ty\n  \tz\n", true},
	{"block scalar, tab in indentation", "a: |\n\tx\n", false},
	{"block scalar, more-indented spaces line", "a: |\n  x\n     \n  y\n", true},
	{"block scalar at the end without a break", "a: |\n  x", true},
	{"flow sequence (7.4.1)", "a: [1, 'two', \"three\", [4, 5], {b: c}]\n", true},
	{"flow mapping (7.4.2)", "a: {b: 1, 'c': [2], \"d\": {e: f}}\n", true},
	{"flow, JSON-like key", "a: {\"b\":1, \"c\":\"d\"}\n", true},
	{"flow across lines", "a: [\n  1,\n  2  # two\n  ]\nb: {\n c: d,\n e: f }\n", true},
	{"flow, empty", "a: []\nb: {}\n", true},
	{"flow, plain ends at a line break", "a: [x\n  , y]\n", true},
	{"flow, trailing comma", "a: [1, 2, ]\n", false},
	{"flow, a pair in a sequence", "a: [b: c]\n", false},
	{"flow, key without value", "a: {b}\n", false},
	{"flow, plain across lines", "a: [one\n two]\n", false},
	{"document start (9.1.2)", "---\na: 1\n", true},
	{"document start, comment", "# head\n--- # c\na: 1\n", true},
	{"document end (9.1.4)", "a: 1\n...\n", true},
	{"two documents", "a: 1\n---\nb: 2\n", false},
	{"comments everywhere (6.6)", "# c\na: 1 # c\n# c\n  # c\nb:\n  # c\n  - x # c\n  # c\n", true},
	{"root indented", "\n\n  a: 1\n  b: 2\n", true},
	{"non-ASCII columns", "é: [ü, {ö: ä}]\nb: 'ç' # x\n", true},
	{"long key", "a: 1\n" + strings.Repeat("k", 1100) + ": 2\n", false},
	{"key with spaces before the colon", "a   : b\n'c' : d\n", true},
	{"empty entries at the end", "a:\n- b\n-\n-", true},
	{"trailing empty lines, no final break", "a: b\n\n\n", true},
	{"comment at the end without a break", "a: 1 # c", true},
	{"empty block scalar at the end", "a: |\n", true},
	{"block scalars that are empty", "a: |\nb: >-\n\nc: |+\n\nd: 1\n", true},
	{"block scalar then comment", "a: |-\n  x\n\n# c\nb: 1\n", true},
	{"flow collections in a sequence", "- [a, b]\n- {c: d}\n- []\n", true},
	{"indentless sequence in a compact mapping", "- a: 1\n  b:\n  - x\n  - y\n  c: 2\n", true},
	{"numbers that are strings", "a: [1:2, 1.0.0, 0x1G, 2001-13-45, +, -, ., 1e, 0b2, 0o8, 1_, 12-34]\n", true},
	{"non-ASCII keys and values", "ключ: значение\nb: [й, ц]\n\"ä\": {ö: 'ü'}\n", true},
	{"document end without a break", "a: 1\n...", true},
	{"explicit document, then nothing", "---\n", false},
	{"document start with content", "--- |\n  x\n", false},
	{"a second, empty document", "a: 1\n--- \n", false},
	{"plain then a deeper line", "a: b # c\n  d\n", false},
	{"scalar then a key", "a:\n  b\n  c: d\n", false},
	{"quoted then a deeper line", "a: 'b'\n  c\n", false},
	{"tab in a single-line quoted scalar", "a: 'x\ty'\nb: \"\tz\"\n", true},
	{"escaped quotes", `a: "x\"y"` + "\nb: 'it''s ''q'''\n", true},
	{"plain with quotes inside", "a: it's \"q\"\n", true},
	{"sequence of sequences", "- - - a\n    - b\n  - c\n- d\n", true},
	{"mapping values on the next line", "a:\n  b\nc:\n  'd'\ne:\n  [f]\n", true},
	{"block scalar on its own line", "a:\n  |\n   x\n", true},
	{"anchor", "a: &x 1\nb: *x\n", false},
	{"tag", "a: !!str 1\n", false},
	{"merge key", "a: {b: 1}\n<<: {c: 2}\n", false},
	{"complex key", "? a\n: b\n", false},
	{"directive", "%YAML 1.2\n---\na: 1\n", false},
	{"tab indentation", "a:\n\tb: 1\n", false},
	{"tab after value", "a: b\t\n", false},
	{"carriage return", "a: 1\r\nb: 2\r\n", false},
	{"byte order mark", "\ufeffa: 1\n", false},
	{"NEL", "a: x\u0085y\n", false},
	{"invalid UTF-8", "a: \xff\n", false},
	{"control character", "a: \x01\n", false},
	{"scalar document", "a\n", false},
	{"empty document", "# nothing\n", false},
	{"bad indentation", "a:\n    b: 1\n  c: 2\n", false},
	{"mapping value on the key's line", "a: b: c\n", false},
	{"sequence after a value", "a: b\n- c\n", false},
	{"hash right after a quote", "a: 'b'#c\n", false},
	{"multi-line key", "a\nb: c\n", false},
	{"quoted scalar continued at the parent's column", "a: 'x\ny'\n", false},
	{"document marker in a quoted scalar", "a: 'x\n--- y'\n", false},
}

// Hostile input: nesting past yamlMaxDepth goes to yaml.v3, and time grows
// linearly with the input (1 MB lines of flow entries, of a plain or
// quoted scalar, 4 MB block scalars, 256 Ki sequence entries): a tenth of
// a second each, 3 s under -race on a loaded machine; anything quadratic in
// them would take minutes, past the 10 s allowed.
func TestScanYAMLHostile(t *testing.T) {
	deepFlow := "a: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n"
	_, ok := scanYAML([]byte(deepFlow))
	require.False(t, ok)
	var deepBlock strings.Builder
	for i := range 2000 {
		deepBlock.WriteString(strings.Repeat(" ", i) + "a:\n")
	}
	_, ok = scanYAML([]byte(deepBlock.String()))
	require.False(t, ok)
	atLimit := "a: " + strings.Repeat("[", yamlMaxDepth-2) + strings.Repeat("]", yamlMaxDepth-2) + "\n"
	require.True(t, checkScanYAML(t, []byte(atLimit)))

	for _, text := range []string{
		"a: [" + strings.Repeat("é, ", 1<<18) + "x]\n",
		"a: " + strings.Repeat("x ", 2<<20) + "\n",
		"a: '" + strings.Repeat("x''", 1<<20) + "'\n",
		"a: |\n" + strings.Repeat("  x\n", 1<<20),
		strings.Repeat("- a\n", 1<<18),
		"a: " + strings.Repeat("b", 4<<20) + "\n",
	} {
		start := time.Now()
		_, ok := scanYAML([]byte(text))
		require.True(t, ok)
		require.Less(t, time.Since(start), 10*time.Second, "%.40q", text)
	}
}

func FuzzScanYAML(f *testing.F) {
	for _, path := range []string{"../../shared/specs/aws-sqs-2012-11-05.openapi.yaml", "../specs/mistral_openapi.yaml", "../specs/dynamodb.overlay.yaml"} {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// Fragments of real specs: runs of lines, whole.
		lines := strings.SplitAfter(string(raw), "\n")
		for i := 0; i+40 < len(lines) && i < 4000; i += 397 {
			f.Add([]byte(strings.Join(lines[i:i+40], "")))
		}
	}
	for _, c := range yamlScanCases {
		f.Add([]byte(c.text))
	}
	for _, s := range []string{"a: 1\n", "a:\n- b: |\n    x\n  c: [1, {d: e}]\n", "a: 'x\n\n  y'\nb: \"\\x41\\\n c\"\n", "a: >+2\n   x\n\n\n", "---\n- a\n- - b\n...\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkScanYAML(t, raw)
	})
}

// BenchmarkParseYAML reads S3's spec (752 KB) with parseYAML (scanYAML)
// and, for comparison, as parseYAML did before it: yaml.v3 and the
// duplicate-key check.
func BenchmarkParseYAML(b *testing.B) {
	raw, err := os.ReadFile("../../shared/specs/aws-s3-2006-03-01.openapi.yaml")
	if err != nil {
		b.Skip("no S3 spec")
	}
	b.Run("scanYAML", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := parseYAML("s3.yaml", raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("yaml.v3", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			var doc yaml.Node
			if err := yaml.Unmarshal(decodeSurrogatePairs(raw), &doc); err != nil {
				b.Fatal(err)
			}
			if err := checkDuplicateKeys("s3.yaml", &doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}
