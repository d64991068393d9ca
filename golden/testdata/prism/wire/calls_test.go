// Issue 20's calls against Prism ("What must be shown" 2): the realspecs
// tier (golden/prism_wire_test.go) copies this file into the package it
// generates from wire.openapi.yaml (next to this file) and runs it there
// with RETRYGEN_PRISM_SPEC set to the spec's path. Every call must be
// accepted (testserver.PrismTransport fails the test on a rejection) and
// every declared response header read back typed.
package wire

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/retrygen/retrygen/internal/testserver"
)

// prismSpec is the spec with the "#get-one" suffix of its path key removed:
// Prism 5.14 routes a path key literally (it expects a request for
// "/items/1#get-one", which no HTTP request can carry), while the client,
// generated from the spec as written, drops the suffix and sends "/items/1".
func prismSpec(t *testing.T) string {
	b, err := os.ReadFile(os.Getenv("RETRYGEN_PRISM_SPEC"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "wire.openapi.yaml")
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), "/items/{id}#get-one:", "/items/{id}:", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPrismWire(t *testing.T) {
	endpoint := testserver.StartPrism(t, prismSpec(t))
	c, err := New(endpoint, func(o *Options) {
		o.HTTPClient = &http.Client{Transport: testserver.PrismTransport(t, nil)}
		o.MaxAttempts = 1
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	acl := GetThingXAmzAclPrivate
	got, err := c.GetThing(ctx, &GetThingInput{Id: "1", XAmzAcl: &acl})
	if err != nil {
		t.Fatal(err)
	}
	if got.ETag == nil || *got.ETag != `"v1"` || got.XTotalCount == nil || *got.XTotalCount != 7 ||
		got.LastModified == nil || !got.LastModified.Equal(time.Date(2026, 12, 1, 21, 0, 0, 0, time.UTC)) || got.Name != "n" {
		t.Fatalf("GetThing: %+v", got)
	}
	accept := "application/json"
	got, err = c.GetThing(ctx, &GetThingInput{Id: "2", Accept: &accept})
	if err != nil || got.ETag == nil {
		t.Fatalf("GetThing with the Accept field: %v %+v", err, got)
	}
	created, err := c.CreateThing(ctx, &CreateThingInput{Name: "n"})
	if err != nil || created.Location == nil || *created.Location != "/things/1" || created.Name != "n" {
		t.Fatalf("CreateThing: %v %+v", err, created)
	}
	deleted, err := c.DeleteThing(ctx, &DeleteThingInput{Id: "1"})
	if err != nil || deleted.XRequestCost == nil || *deleted.XRequestCost != 1.5 {
		t.Fatalf("DeleteThing: %v %+v", err, deleted)
	}
	if deleted.ResultMetadata.Header.Get("X-Request-Cost") != "1.5" {
		t.Fatalf("ResultMetadata.Header %v", deleted.ResultMetadata.Header)
	}
}
