package exactjson

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

type (
	inner struct {
		V string `json:"v"`
	}
	custom struct{ got string }
	base   struct {
		ID string `json:"id"`
	}
	outer struct {
		base
		V      string            `json:"v"`
		Kelvin int               `json:"k"`
		Items  []inner           `json:"items"`
		ByKey  map[string]inner  `json:"by_key"`
		Tags   map[string]string `json:"tags"`
		Ptr    *inner            `json:"ptr"`
		Own    custom            `json:"own"`
		Any    any               `json:"any"`
		NoTag  string
	}
)

func (c *custom) UnmarshalJSON(b []byte) error { c.got = string(b); return nil }

// TestNamesMatchExactly: a member that equals a field's JSON name only
// ignoring case is ignored, at every level of plain structs, slices, maps
// and pointers (second new-user trial F16: an undeclared "V" filled, or
// overwrote, the declared "v"); exact members, map keys, a type's own
// UnmarshalJSON and untyped values are left alone; the bytes are copied
// only when a member is renamed.
func TestNamesMatchExactly(t *testing.T) {
	body := `{"v":"real","V":"undeclared","K":1,"\u212a":2,"k":3,"ID":"no","id":"yes",` +
		`"items":[{"V":"no"},{"v":"yes","\u0056":"no"}],"by_key":{"V":{"V":"no","v":"yes"}},` +
		`"tags":{"V":"kept"},"ptr":{"V":"no"},"own":{"V":"own"},"any":{"V":"any"},"notag":"folded","Items":[{"v":"no"}]}`
	var got outer
	require.NoError(t, Unmarshal([]byte(body), &got))
	require.Equal(t, outer{
		base: base{ID: "yes"}, V: "real", Kelvin: 3,
		Items: []inner{{}, {V: "yes"}}, ByKey: map[string]inner{"V": {V: "yes"}},
		Tags: map[string]string{"V": "kept"}, Ptr: &inner{}, Own: custom{`{"V":"own"}`},
		Any: map[string]any{"V": "any"},
	}, got)

	var plain outer
	require.NoError(t, json.Unmarshal([]byte(`{"V":"undeclared"}`), &plain))
	require.Equal(t, "undeclared", plain.V, "encoding/json alone folds")

	exact := []byte(`{"v":"a","items":[{"v":"b"}],"tags":{"V":"c"}}`)
	require.Same(t, &exact[0], &Names(exact, &got)[0], "nothing renamed: b itself")
	require.Zero(t, testing.AllocsPerRun(100, func() { _ = Names(exact, &got) }))
	require.Equal(t, `{"\u0000V":1,"v":2}`, string(Names([]byte(`{"V":1,"v":2}`), &inner{})))
	for _, bad := range []string{`{"V":1`, `{"V" 1}`, `[{"V":1}`, `{"V":"x}`, ``} {
		require.Equal(t, bad, string(Names([]byte(bad), &inner{})), "malformed: as it is")
	}
}

// BenchmarkUnmarshal compares a 100-item body decoded by encoding/json
// alone and with exact names (the walk's cost on a body with no member to
// rename).
func BenchmarkUnmarshal(b *testing.B) {
	body := []byte(`{"v":"x","items":[` + strings.TrimSuffix(strings.Repeat(`{"v":"some text here"},`, 100), ",") + `],"tags":{"a":"b"}}`)
	for _, c := range []struct {
		name string
		f    func([]byte, any) error
	}{{"encoding-json", json.Unmarshal}, {"exact", Unmarshal}, {"walk-only", func(b []byte, v any) error { Names(b, v); return nil }}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var v outer
				if err := c.f(body, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
