package wire

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime"
)

// wireRequest is what the loopback server saw: the request line, every
// header but the transport's and the retry engine's own, and the body.
type wireRequest struct {
	line    string
	headers []string
	body    string
}

// ignored are headers the transport or the retry engine add.
var ignored = []string{"Accept-Encoding", "User-Agent", "Content-Length"}

func serve(t *testing.T, respond func(w http.ResponseWriter)) (*Client, *[]wireRequest) {
	var got []wireRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var hs []string
		for k, v := range r.Header {
			if !slices.Contains(ignored, k) {
				hs = append(hs, k+": "+strings.Join(v, ","))
			}
		}
		slices.Sort(hs)
		got = append(got, wireRequest{r.Method + " " + r.RequestURI, hs, string(b)})
		respond(w)
	}))
	t.Cleanup(srv.Close)
	c, err := New(srv.URL+"/v1", func(o *Options) { o.MaxAttempts = 1 })
	if err != nil {
		t.Fatal(err)
	}
	return c, &got
}

func check(t *testing.T, got []wireRequest, want wireRequest) {
	t.Helper()
	if len(got) != 1 {
		t.Fatalf("%d requests", len(got))
	}
	if got[0].line != want.line {
		t.Errorf("request line %q, want %q", got[0].line, want.line)
	}
	if !slices.Equal(got[0].headers, want.headers) {
		t.Errorf("headers\n%s\nwant\n%s", strings.Join(got[0].headers, "\n"), strings.Join(want.headers, "\n"))
	}
	if got[0].body != want.body {
		t.Errorf("body %q, want %q", got[0].body, want.body)
	}
}

func thingResponse(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("ETag", `"v1"`)
	w.Header().Set("X-Total-Count", "7")
	w.Header().Set("Last-Modified", "Tue, 01 Dec 2026 21:00:00 GMT")
	w.Header().Set("X-Ok", "true")
	w.Header().Set("X-Undeclared", "u")
	_, _ = io.WriteString(w, `{"name":"n"}`)
}

// Item 1: Accept from the 2xx media types (JSON first); the declared Accept
// parameter overrides it; a Content-Type parameter on a GET is never sent.
// Item 2: x-amz-acl is a field; X-Amz-Date (the signer's) is not.
// Item 3: "#get-one" is dropped. Item 6: declared headers typed, all in
// ResultMetadata.Header.
func TestGetThing(t *testing.T) {
	c, got := serve(t, thingResponse)
	acl := "private"
	out, err := c.GetThing(context.Background(), &GetThingInput{Id: "a b", XAmzAcl: &acl})
	if err != nil {
		t.Fatal(err)
	}
	check(t, *got, wireRequest{line: "GET /v1/things/a%20b", headers: []string{
		"Accept: application/json, text/plain", "X-Amz-Acl: private"}})
	if *out.ETag != `"v1"` || *out.XTotalCount != 7 || !*out.XOk || !out.LastModified.Equal(time.Date(2026, 12, 1, 21, 0, 0, 0, time.UTC)) {
		t.Fatalf("headers read back %q %d %v %v", *out.ETag, *out.XTotalCount, *out.XOk, out.LastModified)
	}
	if *out.Name != "n" || out.ResultMetadata.Header.Get("X-Undeclared") != "u" {
		t.Fatalf("body %v, metadata header %v", out.Name, out.ResultMetadata.Header)
	}

	c, got = serve(t, thingResponse)
	accept := "text/plain"
	if _, err := c.GetThing(context.Background(), &GetThingInput{Id: "a", Accept: &accept}); err != nil {
		t.Fatal(err)
	}
	if h := (*got)[0].headers[0]; h != "Accept: text/plain" {
		t.Fatalf("the Accept field overrides: %s", h)
	}
}

// A bad declared header value is a *runtime.DecodeError naming the header.
func TestBadResponseHeader(t *testing.T) {
	c, _ := serve(t, func(w http.ResponseWriter) {
		w.Header().Set("X-Total-Count", "many")
		_, _ = io.WriteString(w, `{}`)
	})
	_, err := c.GetThing(context.Background(), &GetThingInput{Id: "a"})
	var de *runtime.DecodeError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), `response header X-Total-Count: "many" is not an integer of 64 bits`) {
		t.Fatalf("got %v", err)
	}
}

// A required one-value Content-Type parameter is no fixed header; a 204's
// declared number header is read.
func TestDeleteThing(t *testing.T) {
	c, got := serve(t, func(w http.ResponseWriter) {
		w.Header().Set("X-Request-Cost", "1.5")
		w.WriteHeader(204)
	})
	out, err := c.DeleteThing(context.Background(), &DeleteThingInput{Id: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if (*got)[0].line != "DELETE /v1/things/a" || slices.ContainsFunc((*got)[0].headers, func(h string) bool { return strings.HasPrefix(h, "Content-Type") || strings.HasPrefix(h, "Accept") }) {
		t.Fatalf("sent %+v", (*got)[0])
	}
	if *out.XRequestCost != 1.5 {
		t.Fatalf("X-Request-Cost %v", *out.XRequestCost)
	}
}

// Item 3: a required boolean enum [true] is a bare flag; the suffix word
// "tagging" is not sent again. The body's media type is the Content-Type.
func TestPutTagging(t *testing.T) {
	c, got := serve(t, func(w http.ResponseWriter) { w.WriteHeader(204) })
	owner := "123"
	name := "t"
	if _, err := c.PutTagging(context.Background(), &PutTaggingInput{Bucket: "b", XAmzExpectedBucketOwner: &owner, Name: &name}); err != nil {
		t.Fatal(err)
	}
	if (*got)[0].line != "PUT /v1/buckets/b?tagging" || (*got)[0].body != `{"name":"t"}` ||
		!slices.Contains((*got)[0].headers, "Content-Type: application/json") || !slices.Contains((*got)[0].headers, "X-Amz-Expected-Bucket-Owner: 123") {
		t.Fatalf("sent %+v", (*got)[0])
	}
}

// Item 3: "#uploadId" names a declared query parameter: sent once, with the
// caller's value; "#list-type=2" is a fixed parameter, after the declared
// ones' merge.
func TestPathKeys(t *testing.T) {
	c, got := serve(t, func(w http.ResponseWriter) { w.WriteHeader(204) })
	if _, err := c.CompleteUpload(context.Background(), &CompleteUploadInput{Bucket: "b", Key: "k", UploadId: "U123"}); err != nil {
		t.Fatal(err)
	}
	if (*got)[0].line != "POST /v1/buckets/b/k?uploadId=U123" {
		t.Fatalf("sent %s", (*got)[0].line)
	}
	c, got = serve(t, func(w http.ResponseWriter) { _, _ = io.WriteString(w, `[]`) })
	p := "a"
	if _, err := c.ListObjects(context.Background(), &ListObjectsInput{Prefix: &p}); err != nil {
		t.Fatal(err)
	}
	if (*got)[0].line != "GET /v1/objects?list-type=2&prefix=a" {
		t.Fatalf("sent %s", (*got)[0].line)
	}
}
