package schemauniontags

import (
	"encoding/json"
	"testing"
)

// TestUnionWritesVariantTags: a variant marshalled through its union carries
// its tag when the caller left it unset (second new-user trial F11: Mistral's
// UserMessage went out without "role", Discord's components with "type":0,
// and the server could not tell the variants apart). A tag the caller set is
// kept.
func TestUnionWritesVariantTags(t *testing.T) {
	tool := "tool-x"
	for _, c := range []struct {
		v    any
		want string
	}{
		{Message{UserMessage: &UserMessage{Content: "hi"}}, `{"role":"user","content":"hi"}`},
		{Message{SystemMessage: &SystemMessage{Content: "be brief"}}, `{"role":"system","content":"be brief"}`},
		{Message{ToolMessage: &ToolMessage{Content: "x"}}, `{"role":"tool","content":"x"}`},
		{Message{ToolMessage: &ToolMessage{Content: "x", Role: &tool}}, `{"content":"x","role":"tool-x"}`},
		{Component{ActionRow: &ActionRow{}}, `{"type":1}`},
		{Component{Button: &Button{Style: 1}}, `{"style":1,"type":2}`},
		{[]Component{{ActionRow: &ActionRow{}}, {Button: &Button{Style: 4}}}, `[{"type":1},{"style":4,"type":2}]`},
	} {
		b, err := json.Marshal(c.v)
		if err != nil || string(b) != c.want {
			t.Errorf("got %s, %v; want %s", b, err, c.want)
		}
	}
	// What is written decodes back into the same variant.
	var m Message
	if err := json.Unmarshal([]byte(`{"role":"system","content":"be brief"}`), &m); err != nil || m.SystemMessage == nil {
		t.Fatalf("%+v, %v", m, err)
	}
}
