package generator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// sameTree returns "" when a and b are the same tree (kind, tag, style,
// value, line, column, children), else the pointer of the first difference.
func sameTree(a, b *yaml.Node, at string) string {
	switch {
	case a == nil || b == nil:
		if a != b {
			return at + ": one is nil"
		}
		return ""
	case a.Kind != b.Kind || a.Tag != b.Tag || a.Style != b.Style || a.Value != b.Value:
		return fmt.Sprintf("%s: %v %q %v %q != %v %q %v %q", at, a.Kind, a.Tag, a.Style, a.Value, b.Kind, b.Tag, b.Style, b.Value)
	case a.Line != b.Line || a.Column != b.Column:
		return fmt.Sprintf("%s: at %d:%d != %d:%d", at, a.Line, a.Column, b.Line, b.Column)
	case len(a.Content) != len(b.Content):
		return fmt.Sprintf("%s: %d children != %d", at, len(a.Content), len(b.Content))
	}
	for i := range a.Content {
		if d := sameTree(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", at, i)); d != "" {
			return d
		}
	}
	return ""
}

// checkParseJSON is the oracle of FuzzParseJSON: parseJSON takes what
// json.Valid takes (an object at the top) and builds the tree the
// encoding/json token parser it replaced built.
func checkParseJSON(t *testing.T, raw []byte) {
	t.Helper()
	got, ok := parseJSON(raw)
	trimmed := bytes.TrimLeft(raw, " \t\r\n")
	want := len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(raw)
	require.Equal(t, want, ok, "parseJSON accepts %q: %v, encoding/json: %v", raw, ok, want)
	if !ok {
		return
	}
	old, oldOK, err := parseJSONTokens("f.json", raw)
	require.True(t, oldOK)
	require.NoError(t, err)
	require.Equal(t, "", sameTree(old, got, "#"), "%q", raw)
}

func TestParseJSONIsEncodingJSONs(t *testing.T) {
	for _, raw := range []string{
		`{}`, ` {} `, "\r\n{\n}\n", `{"a":1}`, `{"a":[]}`, `{"a":{}}`, `{"a":[1,2.5,-0,1e9,1E-2,-3.25e+2,true,false,null,"x"]}`,
		"{\n  \"a\": {\n\t\"b\": [ \"c\" ,\n \"d\"]},\r\n \"e\" : \"\"}",
		`{"esc":"\"\\\/\b\f\n\r\t\u0041\u00e9\u4e2d\ud83d\ude00"}`,
		`{"lone high":"\ud83d", "lone low":"\ude00x", "high then text":"\ud83dab", "high high":"\ud83d\ud83d", "high then escape":"\ud83d\n"}`,
		"{\"raw utf8\":\"é中😀\u2028\", \"bad utf8\":\"a\xffb\xc3\", \"fffd\":\"\xef\xbf\xbd\"}",
		"{\"nel\":\"a\u0085b\"}",
		`{"k":"v","k2":{"k":"v"}}`, // interned keys
		strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100),
		strings.Repeat("[", 50) + "]",
		// not JSON: refused (then read as YAML)
		``, ` `, `[]`, `"x"`, `1`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":[1,]}`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`,
		`{"a":-}`, `{"a":1e}`, `{"a":tru}`, `{"a":nul}`, `{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"\u12g4"}`, "{\"a\":\"\t\"}",
		`{"a":1} x`, `{"a":1}{}`, `{a:1}`, `{'a':1}`, "\ufeff{}", `{"a":1 "b":2}`, `{"a" 1}`, `{"a":"x`,
	} {
		checkParseJSON(t, []byte(raw))
	}
}

func TestParseJSONPositions(t *testing.T) {
	doc, ok := parseJSON([]byte("{\n  \"a\": [1,\n\t\"é\", {\"b\": null}],\r\n  \"c\":true}"))
	require.True(t, ok)
	root := doc.Content[0]
	at := func(n *yaml.Node) string { return fmt.Sprintf("%d:%d", n.Line, n.Column) }
	require.Equal(t, "1:1", at(root))
	require.Equal(t, "2:3", at(root.Content[0])) // "a"
	seq := root.Content[1]
	require.Equal(t, "2:8", at(seq))
	require.Equal(t, "2:9", at(seq.Content[0]))
	require.Equal(t, "3:2", at(seq.Content[1]))             // columns count bytes
	require.Equal(t, "3:8", at(seq.Content[2]))             // after the two bytes of é
	require.Equal(t, "3:14", at(seq.Content[2].Content[1])) // null
	require.Equal(t, "4:3", at(root.Content[2]))            // after \r\n
	require.Equal(t, "4:7", at(root.Content[3]))
	require.Equal(t, "!!bool", root.Content[3].Tag)
}

func TestParseJSONNestingIsEncodingJSONs(t *testing.T) {
	for _, depth := range []int{jsonMaxDepth - 1, jsonMaxDepth, jsonMaxDepth + 1} {
		raw := []byte(strings.Repeat(`{"a":`, depth-1) + "[]" + strings.Repeat("}", depth-1))
		_, ok := parseJSON(raw)
		require.Equal(t, json.Valid(raw), ok, "depth %d", depth)
		require.Equal(t, depth <= jsonMaxDepth, ok, "depth %d", depth)
	}
}

// The load walk's errors keep their places on a tree parseJSON built: a
// duplicate key, nesting past maxNestingDepth; invalid JSON gets the YAML
// parser's located error.
func TestParseJSONErrorsAreLocated(t *testing.T) {
	_, err := parseYAML("s.json", []byte("{\"paths\": {\n  \"/a\": {},\n  \"/a\": {}\n}}"))
	require.EqualError(t, err, `s.json:3:3: duplicate key "/a" at #/paths (first at s.json:2:3); YAML and JSON specs may hold each key once`)

	deep := strings.Repeat(`{"a":`, maxNestingDepth+1) + "{}" + strings.Repeat("}", maxNestingDepth+1)
	_, err = parseYAML("s.json", []byte(deep))
	require.ErrorContains(t, err, fmt.Sprintf("s.json:1:%d: nested %d levels deep at #/a/a/", 5*(maxNestingDepth+1)+1, maxNestingDepth+1))

	_, err = parseYAML("s.json", []byte("{\n  \"a\": [1,\n  \"b\": 2\n}"))
	require.Error(t, err)
	require.Regexp(t, `^s\.json:\d+:\d+: `, err.Error())
}

// On the real JSON specs (those of ../shared/specs that are present, and
// Stripe's and GitHub's when the realspecs tier has fetched them), the tree
// is the encoding/json parser's, node for node.
func TestParseJSONOnRealSpecs(t *testing.T) {
	files, _ := filepath.Glob("../../shared/specs/*.json")
	if cache, err := os.UserCacheDir(); err == nil {
		more, _ := filepath.Glob(filepath.Join(cache, "retrygen", "*", "*.json"))
		files = append(files, more...)
	}
	if len(files) == 0 {
		t.Skip("no JSON spec present")
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		got, ok := parseJSON(raw)
		old, oldOK, err := parseJSONTokens(f, raw)
		require.NoError(t, err)
		require.Equal(t, oldOK, ok, f)
		if ok {
			require.Equal(t, "", sameTree(old, got, "#"), f)
		}
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2.5e3,"x\u00e9\ud83d\ude00",true,null]}`, "{\"a\":\"\xff\\ud800\"}", `{"a":{"b":-0.0}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkParseJSON(t, raw)
	})
}

// hasDocumentMarker is the regular expression it replaced.
func TestHasDocumentMarkerIsTheRegexp(t *testing.T) {
	re := regexp.MustCompile(`(?m)^(---|\.\.\.)([ \t\r]|$)`)
	for _, s := range []string{"", "---", "...", "--", "a: 1\n---\nb: 2", "a\n--- x", "a\n---x", "a\n...\n", "a\n....", " ---", "a\n---\r\n",
		"a\n---\t", "x---", "a\n\n...", "a\n-- -"} {
		require.Equal(t, re.MatchString(s), hasDocumentMarker([]byte(s)), "%q", s)
	}
}
