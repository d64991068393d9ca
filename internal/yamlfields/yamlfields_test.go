package yamlfields

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

type inner struct {
	Delay int `yaml:"delay"`
}

type outer struct {
	Name  string           `yaml:"name"`
	Steps []inner          `yaml:"steps"`
	Tags  map[string]inner `yaml:"tags"`
	skip  int
}

// TestUnknown: every misspelt key is reported with its path, line, column
// and the keys allowed there; map keys are free; false stops the walk.
func TestUnknown(t *testing.T) {
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte("name: a\nnmae: b\nsteps:\n  - delay: 1\n  - dealy: 2\ntags: {x: {delay: 3}}\n"), &doc))
	var got []string
	Unknown(doc.Content[0], reflect.TypeFor[outer](), "", func(k *yaml.Node, path string, known []string) bool {
		got = append(got, fmt.Sprintf("%d:%d %s %q %v", k.Line, k.Column, path, k.Value, known))
		return true
	})
	require.Equal(t, []string{
		`2:1  "nmae" [name steps tags]`,
		`5:5 steps[1] "dealy" [delay]`,
	}, got)
	n := 0
	Unknown(doc.Content[0], reflect.TypeFor[outer](), "", func(*yaml.Node, string, []string) bool { n++; return false })
	require.Equal(t, 1, n)
	_ = outer{}.skip
}
