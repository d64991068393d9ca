package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCommentLines(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"HTML elements are removed, paragraphs kept", "<p>Returns the <code>Item</code>.</p><p>Second.</p>",
			[]string{"Returns the Item.", "", "Second."}},
		{"block elements separate words", "one<br>two<li>three</li>", []string{"one two three"}},
		{"a placeholder in angle brackets is kept", "Every operation is `GET /?Action=<Op>`.",
			[]string{"Every operation is `GET /?Action=<Op>`."}},
		{"HTML comments are removed", "a <!-- hidden --> b", []string{"a b"}},
		{"entities are decoded", "a &lt;b&gt; &amp; c", []string{"a <b> & c"}},
		{"a line cannot open a comment", "x\n\n// y", []string{"x", "", " // y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, commentLines(tt.in))
		})
	}
}

func TestDocComment(t *testing.T) {
	render := func(spec, notes []string, source string) string {
		return docComment(spec, notes, source).GoString()
	}
	require.Equal(t, "// Get a pet.\n//\n// Returns the pet.\n//\n// GetPet sends GET /pets/{id}.\n//\n// Source: #/paths/~1pets~1%7Bid%7D/get",
		render([]string{"Get a pet.", "Returns the pet."}, []string{"GetPet sends GET /pets/{id}."}, "/paths/~1pets~1{id}/get"),
		"spec text first (summary, then description), generated notes, the source last")
	require.Equal(t, "// Pet is an object of the spec.\n//\n// Source: #/components/schemas/Pet",
		render([]string{"", " "}, []string{"Pet is an object of the spec."}, "/components/schemas/Pet"),
		"without spec text the generated sentence leads")
	require.Equal(t, "// Same.", render([]string{"Same.", "Same."}, nil, ""), "a description repeating the summary is left out")
}
