package schemaoneofdiscriminator

import (
	"encoding/json"
	"testing"
)

func TestDiscriminatorSelectsTheVariant(t *testing.T) {
	tests := []struct {
		name, in string
		cat, dog bool
	}{
		{"mapping key selects Cat", `{"petType":"kitty","barks":true}`, true, false},
		{"schema name selects Dog", `{"petType":"Dog","meows":true}`, false, true},
		{"unknown value: no variant, even one it fits", `{"petType":"x","barks":true}`, false, false},
		{"unknown value with other members", `{"petType":"bird","wings":2}`, false, false},
		{"no petType: the variant declaring the members wins", `{"barks":true}`, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Pet
			if err := json.Unmarshal([]byte(tt.in), &p); err != nil {
				t.Fatal(err)
			}
			if (p.Cat != nil) != tt.cat || (p.Dog != nil) != tt.dog || p.Lizard != nil || string(p.Raw) != tt.in {
				t.Fatalf("got %+v", p)
			}
			if tt.cat || tt.dog {
				return
			}
			b, err := json.Marshal(p) // no variant: Raw, byte for byte
			if err != nil || string(b) != tt.in {
				t.Fatalf("re-encoded as %s, %v; want %s", b, err, tt.in)
			}
		})
	}
}

// TestUnionMarshalsTheSetVariantElseRaw: the variant set is written with
// the discriminator value naming it when the caller left it unset (trial
// F11), else Raw.
func TestUnionMarshalsTheSetVariantElseRaw(t *testing.T) {
	yes := true
	b, err := json.Marshal(Pet{Dog: &Dog{Barks: &yes}})
	if err != nil || string(b) != `{"petType":"dog","barks":true}` {
		t.Fatalf("got %s, %v", b, err)
	}
	b, err = json.Marshal(Pet{Raw: json.RawMessage(`{"x":1}`)})
	if err != nil || string(b) != `{"x":1}` {
		t.Fatalf("got %s, %v", b, err)
	}
}
