package wire

import (
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/openapi"
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

// parts serves one request and returns its multipart parts, each as
// "disposition | content type | data".
func parts(t *testing.T, call func(c *Client) error) []string {
	t.Helper()
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
			got = append(got, "bad Content-Type: "+r.Header.Get("Content-Type"))
			w.WriteHeader(400)
			return
		}
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			b, _ := io.ReadAll(p)
			got = append(got, p.Header.Get("Content-Disposition")+" | "+p.Header.Get("Content-Type")+" | "+string(b))
		}
		w.WriteHeader(204)
	}))
	t.Cleanup(srv.Close)
	c, err := New(srv.URL, func(o *Options) { o.MaxAttempts = 1 })
	if err != nil {
		t.Fatal(err)
	}
	if err := call(c); err != nil {
		t.Fatal(err)
	}
	return got
}

// Item 4: arrays as one part per element, objects as JSON parts, the
// Encoding Object's contentType on each element, the file as a file part.
func TestUploadParts(t *testing.T) {
	n1, n2 := "a", "b"
	got := parts(t, func(c *Client) error {
		_, err := c.Upload(context.Background(), &UploadInput{File: &openapi.File{Filename: "f.txt", Body: strings.NewReader("F")},
			Granularity: []string{"word", "segment"}, Things: []Thing{{Name: &n1}, {Name: &n2}}, Meta: &Thing{Name: &n1}, Ids: []int64{1, 2}})
		return err
	})
	want := []string{
		`form-data; name="file"; filename="f.txt" | application/octet-stream | F`,
		`form-data; name="granularity" |  | word`,
		`form-data; name="granularity" |  | segment`,
		`form-data; name="ids" | text/csv | 1`,
		`form-data; name="ids" | text/csv | 2`,
		`form-data; name="meta" | application/json | {"name":"a"}`,
		`form-data; name="things" | application/json | {"name":"a"}`,
		`form-data; name="things" | application/json | {"name":"b"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("parts\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Item 4: a required binary part left nil is refused before the first
// attempt; nothing is sent.
func TestUploadRequiresTheFile(t *testing.T) {
	c, got := serve(t, func(w http.ResponseWriter) { w.WriteHeader(204) })
	_, err := c.Upload(context.Background(), &UploadInput{Granularity: []string{"word"}})
	var invalid *runtime.InvalidParamsError
	if !errors.As(err, &invalid) || !strings.Contains(err.Error(), "UploadInput.File") || len(*got) != 0 {
		t.Fatalf("got %v, %d requests", err, len(*got))
	}
}

// Item 4: a multipart body whose schema has no properties is built from the
// caller's parts, with a boundary.
func TestRawUploadHasABoundary(t *testing.T) {
	got := parts(t, func(c *Client) error {
		_, err := c.RawUpload(context.Background(), &RawUploadInput{Parts: []openapi.Part{{Name: "a", Value: "1"}, {Name: "f", Value: []byte("B")}}})
		return err
	})
	want := []string{`form-data; name="a" |  | 1`, `form-data; name="f"; filename="f" | application/octet-stream | B`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("parts\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Item 7: every server, root, path and operation, as constants and a typed
// URL builder; DefaultServerURL prefers https.
func TestServers(t *testing.T) {
	if DefaultServerURL != "https://api.example.com/v1" || Server1Default != "http://localhost:8080/v1" || Server1Template != "http://{host}:{port}/v1" {
		t.Fatalf("%s %s %s", DefaultServerURL, Server1Default, Server1Template)
	}
	u, err := Server1URL(Server1Vars{Host: "h", Port: Server1Port9090})
	if err != nil || u != "http://h:9090/v1" {
		t.Fatalf("%s %v", u, err)
	}
	if _, err := Server1URL(Server1Vars{Port: "7070"}); err == nil || err.Error() != `server variable "port": "7070" is not one of 8080, 9090` {
		t.Fatalf("enum: %v", err)
	}
	u, err = GetThingServer1URL(GetThingServer1Vars{Stage: GetThingServer1StageBeta})
	if err != nil || u != "https://things.example.com/beta" || GetThingServer1Default != "https://things.example.com/prod" {
		t.Fatalf("path-level server: %s %v", u, err)
	}
	if u, err := PutTaggingServer1URL(PutTaggingServer1Vars{}); err != nil || u != "https://b.s3.example.com" {
		t.Fatalf("operation-level server: %s %v", u, err)
	}
}

// A streamed response reads its declared headers into the output's fields
// as a decoded one does (new-user trial: they stayed nil); a bad value is
// a *runtime.DecodeError naming the header, and the stream is closed.
func TestDownloadFileReadsItsHeaders(t *testing.T) {
	size := "5"
	c, _ := serve(t, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("ETag", `"f1"`)
		w.Header().Set("X-Size", size)
		_, _ = io.WriteString(w, "bytes")
	})
	out, err := c.DownloadFile(context.Background(), &DownloadFileInput{Id: "f"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(out.Body)
	_ = out.Body.Close()
	if err != nil || string(b) != "bytes" || out.ETag == nil || *out.ETag != `"f1"` || out.XSize == nil || *out.XSize != 5 {
		t.Fatalf("body %q (%v), ETag %v, X-Size %v", b, err, out.ETag, out.XSize)
	}
	size = "many"
	out, err = c.DownloadFile(context.Background(), &DownloadFileInput{Id: "f"})
	var de *runtime.DecodeError
	if out != nil || !errors.As(err, &de) || err.Error() != `wire: DownloadFile: decoding the HTTP 200 response: response header X-Size: "many" is not an integer of 64 bits` {
		t.Fatalf("got %v, %v", out, err)
	}
}

// Trial F1: a union path parameter that would render empty ("/connectors//tools")
// and a required union body with no variant set (sent as nothing) are refused
// before the first attempt, as a "" string and a nil pointer are; a set union
// is sent as its variant.
func TestEmptyUnionsAreRefused(t *testing.T) {
	c, got := serve(t, func(w http.ResponseWriter) { w.WriteHeader(204) })
	empty, name := "", "a"
	body := CallConnectorInputBody{CallConnectorInputBodyVariant1: &CallConnectorInputBodyVariant1{Name: "n"}}
	for _, tc := range []struct {
		in   *CallConnectorInput
		want string
	}{
		{&CallConnectorInput{Body: body}, "wire: CallConnector: 1 validation error(s) found. - empty path parameter, CallConnectorInput.Ref."},
		{&CallConnectorInput{Ref: CallConnectorRef{String: &empty}, Body: body}, "wire: CallConnector: 1 validation error(s) found. - empty path parameter, CallConnectorInput.Ref."},
		{&CallConnectorInput{Ref: CallConnectorRef{String: &name}}, "wire: CallConnector: 1 validation error(s) found. - missing required field, CallConnectorInput.Body."},
	} {
		_, err := c.CallConnector(context.Background(), tc.in)
		var invalid *runtime.InvalidParamsError
		if !errors.As(err, &invalid) || err.Error() != tc.want {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}
	if len(*got) != 0 {
		t.Fatalf("%d requests sent", len(*got))
	}
	if _, err := c.CallConnector(context.Background(), &CallConnectorInput{Ref: CallConnectorRef{String: &name}, Body: body}); err != nil {
		t.Fatal(err)
	}
	check(t, *got, wireRequest{line: "POST /v1/connectors/a/tools", headers: []string{"Content-Type: application/json"}, body: `{"name":"n"}`})
}
