package generator

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A mapping or sequence nested past maxNestingDepth, and a mapping of more
// than maxMappingKeys keys, are refused with their place before anything
// builds on them (a review found 4,000 levels taking 1.4 GB and a
// 200,000-key extension running for minutes).
func TestTreeBounds(t *testing.T) {
	deep := `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-deep":` + strings.Repeat("[", maxNestingDepth+1) + strings.Repeat("]", maxNestingDepth+1) + "}"
	_, _, err := loadData("deep.json", []byte(deep), nil, nil)
	require.EqualError(t, err, `deep.json:1:1075: nested 1001 levels deep at #/x-deep/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/…; at most 1000 (README "Limits")`)
	ok := `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-deep":` + strings.Repeat("[", maxNestingDepth) + strings.Repeat("]", maxNestingDepth) + "}"
	_, _, err = loadData("ok.json", []byte(ok), nil, nil)
	require.NoError(t, err)

	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx-big:\n")
	for i := range maxMappingKeys + 1 {
		fmt.Fprintf(&b, "  k%d: 1\n", i)
	}
	_, _, err = loadData("big.yaml", []byte(b.String()), nil, nil)
	require.EqualError(t, err, `big.yaml:5:3: the mapping at #/x-big holds 16385 keys; at most 16384 (README "Limits")`)
}
