package safetystructtags

import (
	"encoding/json"
	"testing"
)

// Every member, those no struct tag can hold included, decodes into its
// field and encodes back byte for byte.
func TestUntaggableNamesRoundTrip(t *testing.T) {
	in := `{"-":"1","@type":"2","a:b":"3","apos'trophe":"4","back\\slash":"5","back` + "`" + `tick":"6","com,ma":"7","ctl\tchar":"8","new\nline":"9","ok":"10","quo\"te":"11","sp ace":"12"}`
	var v Tags
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if *v.X != "1" || *v.AposTrophe != "4" || *v.BackSlash != "5" || *v.BackTick != "6" || *v.ComMa != "7" || *v.CtlChar != "8" || *v.NewLine != "9" || *v.QuoTe != "11" {
		t.Fatalf("decoded %+v", v)
	}
	out, err := json.Marshal(v)
	if err != nil || string(out) != in {
		t.Fatalf("round trip: got %s, %v\nwant %s", out, err, in)
	}
}

// With additionalProperties, a member no struct tag can hold is its field,
// not an additional property; unknown members stay in AdditionalProperties.
func TestUntaggableNameBesideAdditionalProperties(t *testing.T) {
	in := `{"ok":"a","other":"b","quo\"te":"c"}`
	var v TagsAdditional
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if *v.QuoTe != "c" || *v.Ok != "a" || len(v.AdditionalProperties) != 1 || v.AdditionalProperties["other"] != "b" {
		t.Fatalf("decoded %+v", v)
	}
	out, err := json.Marshal(v)
	if err != nil || string(out) != in {
		t.Fatalf("round trip: got %s, %v\nwant %s", out, err, in)
	}
}
