package schemaadditionalproperties

import (
	"encoding/json"
	"testing"
)

func TestFixedAndAdditionalPropertiesRoundTrip(t *testing.T) {
	in := `{"AdditionalProperties":"a","MarshalJSON":"m","id":"x","n1":1,"n2":2}`
	var v Mixed
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if v.Id != "x" || *v.AdditionalProperties2 != "a" || *v.MarshalJSON2 != "m" || len(v.AdditionalProperties) != 2 || v.AdditionalProperties["n2"] != 2 {
		t.Fatalf("decoded %+v", v)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Fatalf("round trip: got %s, want %s", out, in)
	}
}

func TestAdditionalPropertiesNilWithoutExtraMembers(t *testing.T) {
	var v MixedAny
	if err := json.Unmarshal([]byte(`{"id":"x"}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.AdditionalProperties != nil {
		t.Fatalf("got %v, want nil", v.AdditionalProperties)
	}
	var m MixedAny
	if err := json.Unmarshal([]byte(`{"id":"x","o":{"k":[1]}}`), &m); err != nil {
		t.Fatal(err)
	}
	if string(m.AdditionalProperties["o"]) != `{"k":[1]}` {
		t.Fatalf("got %s", m.AdditionalProperties["o"])
	}
}
