package schemanullable

import (
	"encoding/json"
	"testing"
)

func TestRequiredNullableIsSentAsNull(t *testing.T) {
	b, err := json.Marshal(Item{})
	if err != nil || string(b) != `{"ro":null,"rs":null}` {
		t.Fatalf("got %s, %v", b, err)
	}
}
