package generator

import (
	"testing"

	"github.com/speakeasy-api/openapi-overlay/pkg/overlay"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// TestNarrowedUpdateIsTheLibrarys: an update applied through
// updateMapping (the library given only the entries the update names)
// leaves the spec exactly as the library applied to the whole selected
// node does, and reports "changes nothing" exactly when the library does:
// keys merged in place, keys appended in order, values of another kind
// replaced, sequences appended to, repeated keys, and updates that write
// what is already there.
func TestNarrowedUpdateIsTheLibrarys(t *testing.T) {
	const spec = `openapi: 3.0.3
info: {title: Pets, version: '1'}
x-retry: {version: 1, maxAttempts: 3, retryOn: [503]}
dup: 1
dup: 2
paths:
  /pets:
    get:
      operationId: ListPets
      x-retry: {longPolling: true}
      tags: [a]
      responses: {'200': {description: ok}}
`
	for _, tc := range []struct {
		target, update string
		nothing        bool
	}{
		{"$", `{x-retry: {maxAttempts: 5}}`, false},
		{"$", `{x-retry: {maxAttempts: 3}}`, true},
		{"$", `{x-new: {a: 1}, x-other: [1, 2]}`, false},
		{"$", `{x-retry: {retryOn: [429]}}`, false},
		{"$", `{x-retry: {retryOn: []}}`, true},
		{"$", `{x-retry: 7}`, false},
		{"$", `{dup: 3}`, false},
		{"$", `{dup: 1}`, true},
		{"$", `{info: {title: Pets}, x-z: 1, info2: {a: b}}`, false},
		{"$", `{}`, true},
		{"$.paths['/pets'].get", `{x-retry: {longPolling: false}, summary: s}`, false},
		{"$.paths['/pets'].get", `{tags: [b], x-retry: {longPolling: true}}`, false},
		{"$.paths['/pets'].get", `{operationId: ListPets}`, true},
		{"$.paths['/pets'].*", `{x-pagination: {style: cursor}}`, false},
		{"$.paths['/pets'].get.tags", `[c]`, false},
		{"$.info.title", `New`, false},
	} {
		t.Run(tc.target+" "+tc.update, func(t *testing.T) {
			var ov overlay.Overlay
			require.NoError(t, yaml.Unmarshal([]byte("overlay: 1.0.0\ninfo: {title: o, version: '1'}\nactions:\n  - {target: \""+tc.target+"\", update: "+tc.update+"}\n"), &ov))
			var ours, theirs yaml.Node
			require.NoError(t, yaml.Unmarshal([]byte(spec), &ours))
			require.NoError(t, yaml.Unmarshal([]byte(spec), &theirs))

			q, err := ov.NewPath(ov.Actions[0].Target, nil)
			require.NoError(t, err)
			nothing := applyAction(&ov, ov.Actions[0], &ours, q.Query(&ours))

			_, warnings := ov.ApplyToStrict(&theirs)
			want, err := yaml.Marshal(&theirs)
			require.NoError(t, err)
			got, err := yaml.Marshal(&ours)
			require.NoError(t, err)
			require.Equal(t, string(want), string(got))
			require.Equal(t, doesNothing(warnings), nothing)
			require.Equal(t, tc.nothing, nothing)
		})
	}
}
