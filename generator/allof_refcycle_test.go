package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAllOfRefCycleThroughSiblings: 3.1 $ref siblings become allOf
// members; components whose $refs lead to each other, each with a sibling
// that retypes the flattened value, made the flattener build a new merged
// schema per turn until the stack overflowed (a fatal error, no recover).
// The cycle is refused with located errors, and the inline use of it is
// cut by depth with a located warning (review).
func TestAllOfRefCycleThroughSiblings(t *testing.T) {
	_, diags, err := LoadService("testdata/review/schema-allof-ref-cycle.yaml", nil)
	require.Error(t, err)
	require.Equal(t, []string{
		"error: schema-allof-ref-cycle.yaml#/components/schemas/A: allOf cycle A → A",
		"error: schema-allof-ref-cycle.yaml#/components/schemas/B: allOf cycle B → C → B",
		"error: schema-allof-ref-cycle.yaml#/components/schemas/D: allOf cycle D → D",
		"schema-allof-ref-cycle.yaml#/paths/~1x/post/responses/200/content/application~1json/schema/type: type [integer] has no value in common with type [string] (allOf member 0); the type follows the first",
		"schema-allof-ref-cycle.yaml#/paths/~1x/post/responses/200/content/application~1json/schema: allOf leads back to itself through its members, each adding a format, enum or type; typed as json.RawMessage",
	}, diagLines(diags))
}
