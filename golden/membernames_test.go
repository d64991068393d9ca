package golden

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/generator"
)

// memberNamesTest runs inside the generated client of
// testdata/membernames.openapi.yaml: property names no struct tag can hold
// ("a,b", `q"`, "", a backquote, a backslash, a tab) decode into their
// fields and encode back byte for byte; unknown members are kept where the
// type keeps them (additionalProperties); the fields beside a oneOf and an
// error body's members too; a required one is still checked before
// sending, and the request body carries the exact names.
const memberNamesTest = `package membernames

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/retrygen/retrygen/runtime"
)

func TestOddRoundTrip(t *testing.T) {
	body := ` + "`" + `{"":true,"a,b":7,"back\\slash":"s","back` + "` + \"`\" + `" + `tick":"b","id":"x","q\"":"q","tab\there":"t"}` + "`" + `
	var v Odd
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	if !*v.X || v.AB != 7 || *v.BackSlash != "s" || *v.BackTick != "b" || v.Id != "x" || *v.Q != "q" || *v.TabHere != "t" {
		t.Fatalf("decoded %+v", v)
	}
	got, err := json.Marshal(v)
	if err != nil || string(got) != body {
		t.Fatalf("re-marshalled %s, %v\nwant %s", got, err, body)
	}
	// An unknown member is dropped (Odd keeps none); optional ones unset are left out.
	v = Odd{}
	if err := json.Unmarshal([]byte(` + "`" + `{"a,b":1,"id":"y","zz":2}` + "`" + `), &v); err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(v); string(got) != ` + "`" + `{"a,b":1,"id":"y"}` + "`" + ` {
		t.Fatalf("got %s", got)
	}
}

func TestOpenKeepsUnknownMembers(t *testing.T) {
	body := ` + "`" + `{"":"e","a,b":3,"id":"x","other,one":[1],"zz":{"k":null}}` + "`" + `
	var v Open
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	if *v.X != "e" || *v.AB != 3 || *v.Id != "x" || len(v.AdditionalProperties) != 2 || string(v.AdditionalProperties["other,one"]) != "[1]" {
		t.Fatalf("decoded %+v", v)
	}
	got, err := json.Marshal(v)
	if err != nil || string(got) != body {
		t.Fatalf("re-marshalled %s, %v\nwant %s", got, err, body)
	}
}

func TestMixedRoundTrip(t *testing.T) {
	for _, body := range []string{` + "`" + `{"kind":"k","m,n":"x","plain":"p"}` + "`" + `, ` + "`" + `"s"` + "`" + `} {
		var v Mixed
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(v)
		if err != nil || string(got) != body {
			t.Fatalf("re-marshalled %s, %v\nwant %s", got, err, body)
		}
	}
	var v Mixed
	if err := json.Unmarshal([]byte(` + "`" + `{"m,n":"x"}` + "`" + `), &v); err != nil || v.MN == nil || *v.MN != "x" {
		t.Fatalf("decoded %+v, %v", v, err)
	}
}

func TestOddOverTheWire(t *testing.T) {
	var sent []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		sent = append(sent, r.Method+" "+string(b))
		if r.Method == "PUT" && len(sent) == 3 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(409)
			_, _ = io.WriteString(w, ` + "`" + `{"message":"m","why,not":"busy"}` + "`" + `)
			return
		}
		if r.Method == "PUT" {
			w.WriteHeader(204)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, ` + "`" + `{"a,b":5,"id":"z","q\"":"w"}` + "`" + `)
	}))
	defer srv.Close()
	c, err := New(srv.URL, func(o *Options) { o.MaxAttempts = 1 })
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.GetOdd(context.Background(), &GetOddInput{})
	if err != nil || out.AB != 5 || out.Id != "z" || *out.Q != "w" {
		t.Fatalf("GetOdd: %+v, %v", out, err)
	}
	// "x,y" is required: a nil one is refused before sending.
	_, err = c.PutOdd(context.Background(), &PutOddInput{Id: "i"})
	var ve *runtime.InvalidParamsError
	if !errors.As(err, &ve) || len(ve.Errs) != 1 || ve.Errs[0] != (runtime.InvalidParamError{Field: "PutOddInput.XY", Reason: runtime.MissingRequiredField}) || len(sent) != 1 {
		t.Fatalf("PutOdd without x,y: %v", err)
	}
	q := "q"
	if _, err := c.PutOdd(context.Background(), &PutOddInput{Id: "i", Q: &q, XY: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"GET ", ` + "`" + `PUT {"id":"i","q\"":"q","x,y":["a"]}` + "`" + `}
	if len(sent) != 2 || sent[0] != want[0] || sent[1] != want[1] {
		t.Fatalf("sent %q, want %q", sent, want)
	}
	// An error body's member no struct tag can hold reaches the error type.
	_, err = c.PutOdd(context.Background(), &PutOddInput{Id: "i", XY: []string{}})
	var conflict *PutOdd409Error
	if !errors.As(err, &conflict) || conflict.WhyNot == nil || *conflict.WhyNot != "busy" || *conflict.Message != "m" {
		t.Fatalf("PutOdd 409: %v", err)
	}
}
`

// TestMemberNamesRoundTrip generates the client of
// testdata/membernames.openapi.yaml into a temporary package inside the
// module and runs memberNamesTest in it; no property is skipped.
func TestMemberNamesRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated client")
	}
	svc, diags, err := generator.LoadService("testdata/membernames.openapi.yaml", nil)
	require.NoError(t, err)
	require.Empty(t, diags)
	files, err := generator.Generate(svc, "membernames")
	require.NoError(t, err)
	runGenerated(t, files, "membernames_test.go", []byte(memberNamesTest))
}
