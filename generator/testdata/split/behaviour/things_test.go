package things

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestSplitClientSendsRealRequests checks that the client generated from
// the split spec sends the real path (not the template), its parameters
// and its body, and decodes responses and modelled errors.
func TestSplitClientSendsRealRequests(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got = append(got, r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("X-Trace")+" "+string(body))
		w.Header().Set("Content-Type", "application/json")
		switch r.Method + " " + r.URL.Path {
		case "GET /v2/things/abc":
			w.Write([]byte(`{"id":"abc","name":"box","tags":["a"]}`))
		case "POST /v2/things":
			w.WriteHeader(201)
			w.Write([]byte(`{"id":"n1","name":"new"}`))
		case "GET /v2/nodes/root":
			w.Write([]byte(`{"name":"root","children":[{"name":"leaf"}]}`))
		case "GET /v2/things":
			w.Write([]byte(`{"items":[{"id":"abc","name":"box"}],"next":"t2"}`))
		default:
			w.WriteHeader(404)
			w.Write([]byte(`{"code":"ThingNotFound","message":"no such thing"}`))
		}
	}))
	defer srv.Close()
	c, err := New(srv.URL + "/v2")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	thing, err := c.GetThing(ctx, &GetThingInput{Id: "abc", XTrace: ptr("t-1")})
	if err != nil || thing.Id != "abc" || thing.Name != "box" || len(thing.Tags) != 1 {
		t.Fatalf("GetThing: %+v, %v", thing, err)
	}
	created, err := c.CreateThing(ctx, &NewThing{Name: "new"})
	if err != nil || created.Id != "n1" {
		t.Fatalf("CreateThing: %+v, %v", created, err)
	}
	node, err := c.GetNode(ctx, &GetNodeInput{NodeId: "root"})
	if err != nil || node.Name == nil || *node.Name != "root" || len(node.Children) != 1 || *node.Children[0].Name != "leaf" {
		t.Fatalf("GetNode: %+v, %v", node, err)
	}
	list, err := c.ListThings(ctx, &ListThingsInput{Limit: ptr(int32(5))})
	if err != nil || len(list.Items) != 1 || *list.Next != "t2" {
		t.Fatalf("ListThings: %+v, %v", list, err)
	}
	_, err = c.DeleteThing(ctx, &DeleteThingInput{Id: "gone"})
	var nf *ThingNotFound
	if !errors.As(err, &nf) || nf.Message == nil || *nf.Message != "no such thing" {
		t.Fatalf("DeleteThing: %v", err)
	}
	want := []string{
		"GET /v2/things/abc t-1 ",
		`POST /v2/things  {"name":"new"}`,
		"GET /v2/nodes/root  ",
		"GET /v2/things?limit=5  ",
		"DELETE /v2/things/gone  ",
	}
	if g, _ := json.Marshal(got); string(g) != mustJSON(want) {
		t.Fatalf("requests:\n got %s\nwant %s", g, mustJSON(want))
	}
}

func ptr[T any](v T) *T { return &v }

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
