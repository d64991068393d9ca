package golden

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/generator"
)

// requestsTest runs inside the generated client of testdata/ops.openapi.yaml
// against an httptest server and checks the exact requests it sends.
const requestsTest = `package ops

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/openapi"
)

type seen struct{ method, uri, ctype, auth, trace, cookie, body string }

func serve(t *testing.T, status int, body string) (*Client, *[]seen) {
	var got []seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, seen{r.Method, r.RequestURI, r.Header.Get("Content-Type"), r.Header.Get("Authorization"),
			r.Header.Get("X-Trace"), r.Header.Get("Cookie"), string(b)})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	c, err := New(srv.URL+"/v1", WithBasicAuth("AC1", "tok"), func(o *Options) { o.MaxAttempts = 1 })
	if err != nil {
		t.Fatal(err)
	}
	return c, &got
}

func TestCreateCallRequest(t *testing.T) {
	c, got := serve(t, 201, ` + "`" + `{"id":"F1"}` + "`" + `)
	tm := int64(30)
	st := "2024-01-01"
	sess := "s 1"
	trace := "t1"
	out, err := c.CreateCall(context.Background(), &CreateCallInput{AccountSid: "AC/1", StartTimeLt: &st, Tags: []string{"a", "b"},
		XTrace: &trace, Session: &sess, To: "+1 555", Timeout: &tm})
	if err != nil {
		t.Fatal(err)
	}
	if out.Id == nil || *out.Id != "F1" || out.ResultMetadata.Attempts != 1 {
		t.Fatalf("output %+v", out)
	}
	want := seen{"POST", "/v1/accounts/AC%2F1/calls.json?Action=Create&StartTime%3C=2024-01-01&Tags=a|b",
		"application/x-www-form-urlencoded", "Basic QUMxOnRvaw==", "t1", "session=s%201", "Timeout=30&To=%2B1+555"}
	if (*got)[0] != want {
		t.Fatalf("sent %+v\nwant %+v", (*got)[0], want)
	}
}

func TestTypedErrorsByStatus(t *testing.T) {
	for _, tc := range []struct {
		status int
		check  func(error) bool
	}{
		{404, func(err error) bool { var e *Problem; return errors.As(err, &e) && *e.Detail == "d" }},
		{409, func(err error) bool { var e *CreateCall4XXError; return errors.As(err, &e) && e.HTTPStatusCode == 409 }},
		{500, func(err error) bool { var e *Problem; return errors.As(err, &e) && e.HTTPStatusCode == 500 }},
	} {
		c, _ := serve(t, tc.status, ` + "`" + `{"detail":"d","message":"m"}` + "`" + `)
		_, err := c.CreateCall(context.Background(), &CreateCallInput{AccountSid: "a", To: "b"})
		if !tc.check(err) {
			t.Errorf("status %d: error %T %v", tc.status, err, err)
		}
	}
}

// TestFormEncodingObject: a form body written by its Encoding Object
// (deepObject objects and indexed arrays, form non-exploded, JSON), the
// query parameter named like a body property sent too, the readOnly
// property not sent; an empty form body sends nothing.
func TestFormEncodingObject(t *testing.T) {
	c, got := serve(t, 200, ` + "`" + `{"id":"ch_1"}` + "`" + `)
	q := int64(7)
	two := int64(2)
	p1 := "p1"
	one := int64(1)
	_, err := c.CreateCharge(context.Background(), &CreateChargeInput{Amount: 100, Amount2: &q,
		Metadata: map[string]string{"order": "6735"}, Expand: []string{"customer", "invoice"},
		Items: []CreateChargeInputItemsItem{{Price: &p1, Quantity: &two}}, Tags: []string{"a", "b"},
		Extra: &CreateChargeInputExtra{A: &one}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListCharges(context.Background(), &ListChargesInput{}); err != nil {
		t.Fatal(err)
	}
	want := []seen{
		{"POST", "/v1/charges?amount=7", "application/x-www-form-urlencoded", "Basic QUMxOnRvaw==", "", "",
			"amount=100&expand%5B0%5D=customer&expand%5B1%5D=invoice&extra=%7B%22a%22%3A1%7D&items%5B0%5D%5Bprice%5D=p1&items%5B0%5D%5Bquantity%5D=2&metadata%5Border%5D=6735&tags=a,b"},
		{"GET", "/v1/charges", "", "Basic QUMxOnRvaw==", "", "", ""},
	}
	for i := range want {
		if (*got)[i] != want[i] {
			t.Fatalf("request %d: sent %+v\nwant %+v", i, (*got)[i], want[i])
		}
	}
}

// TestMultipartFilePart: a file part with its filename and the content
// type given by the caller, an enum text part, a deepObject part.
func TestMultipartFilePart(t *testing.T) {
	c, got := serve(t, 204, "")
	w := int64(64)
	_, err := c.CreateUpload(context.Background(), &CreateUploadInput{Purpose: "avatar",
		File: &openapi.File{Filename: "me.png", ContentType: "image/png", Body: strings.NewReader("PNG")},
		Meta: &CreateUploadInputMeta{W: &w}})
	if err != nil {
		t.Fatal(err)
	}
	s := (*got)[0]
	_, params, _ := mime.ParseMediaType(s.ctype)
	b := params["boundary"]
	want := "--" + b + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"me.png\"\r\nContent-Type: image/png\r\n\r\nPNG\r\n" +
		"--" + b + "\r\nContent-Disposition: form-data; name=\"meta[w]\"\r\n\r\n64\r\n" +
		"--" + b + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\navatar\r\n" +
		"--" + b + "--\r\n"
	if b == "" || s.body != want {
		t.Fatalf("sent %q (%s)\nwant %q", s.body, s.ctype, want)
	}
}

func TestUploadAndFixedQuery(t *testing.T) {
	c, got := serve(t, 200, "PNG")
	out, err := c.UploadFile(context.Background(), &UploadFileInput{Id: "f 1", Body: strings.NewReader("bytes")})
	if err != nil {
		t.Fatal(err)
	}
	png, err := io.ReadAll(out.Body) // an image is streamed to the caller
	if err != nil || string(png) != "PNG" || out.Body.Close() != nil {
		t.Fatalf("%v %q", err, png)
	}
	if _, err := c.SendMessage(context.Background(), nil); err == nil {
		t.Fatal("a JSON array body decodes into Body; PNG is not JSON")
	}
	want := []seen{
		{"PUT", "/v1/files/.f%201/content", "application/octet-stream", "Basic QUMxOnRvaw==", "", "", "bytes"},
		{"GET", "/v1/?Action=SendMessage&Version=2012-11-05", "", "Basic QUMxOnRvaw==", "", "", ""},
	}
	for i := range want {
		if (*got)[i] != want[i] {
			t.Fatalf("request %d: sent %+v\nwant %+v", i, (*got)[i], want[i])
		}
	}
	if DefaultServerURL != "https://eu.api.test/v1" || ServerURL(map[string]string{"region": "us"}) != "https://us.api.test/v1" {
		t.Fatal(DefaultServerURL)
	}
}

func TestRequiredInputsAreCheckedBeforeSending(t *testing.T) {
	c, got := serve(t, 201, "{}")
	for _, tc := range []struct {
		call func() error
		want string
	}{
		{func() error { _, err := c.CreateCall(context.Background(), nil); return err },
			"ops: CreateCall: 2 validation error(s) found. - empty path parameter, CreateCallInput.AccountSid. - missing required field, CreateCallInput.To."},
		{func() error { _, err := c.CreateCall(context.Background(), &CreateCallInput{To: "b"}); return err },
			"ops: CreateCall: 1 validation error(s) found. - empty path parameter, CreateCallInput.AccountSid."},
		{func() error { _, err := c.UploadFile(context.Background(), &UploadFileInput{}); return err },
			"ops: UploadFile: 1 validation error(s) found. - empty path parameter, UploadFileInput.Id."},
	} {
		err := tc.call()
		var oe *runtime.OperationError
		var ip *runtime.InvalidParamsError
		if err == nil || err.Error() != tc.want || !errors.As(err, &oe) || !errors.As(err, &ip) {
			t.Errorf("error %T %v\nwant %s", err, err, tc.want)
		}
	}
	if len(*got) != 0 {
		t.Fatalf("sent %+v", *got)
	}
}

// TestEncodingErrorIsAnOperationError: a body json.Marshal refuses (NaN) is
// wrapped like every other failure of the call, and nothing is sent.
func TestEncodingErrorIsAnOperationError(t *testing.T) {
	c, got := serve(t, 204, "")
	nan := math.NaN()
	_, err := c.CreateFile(context.Background(), &File{Size: &nan})
	var oe *runtime.OperationError
	var ue *json.UnsupportedValueError
	if !errors.As(err, &oe) || !errors.As(err, &ue) || err.Error() != "ops: CreateFile: json: unsupported value: NaN" {
		t.Fatalf("error %T %v", err, err)
	}
	if len(*got) != 0 {
		t.Fatalf("sent %+v", *got)
	}
}
`

// TestGeneratedRequests generates the client of testdata/ops.openapi.yaml
// into a temporary package inside the module and runs requestsTest in it:
// exact paths, query strings, headers, cookies, form and raw bodies, typed
// errors by status, range and default, auth and server helpers.
func TestGeneratedRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated client")
	}
	svc, diags, err := generator.LoadService("testdata/ops.openapi.yaml", nil)
	require.NoError(t, err)
	for _, d := range diags {
		require.NotContains(t, d.String(), "charges/get", "the empty form body of ListCharges gives no warning")
	}
	files, err := generator.Generate(svc, "ops")
	require.NoError(t, err)
	for _, f := range files {
		if f.Name == "operations.go" {
			require.Contains(t, string(f.Content), "// Create a charge\n//\n// Charges the customer.\n", "summary and description both reach the doc")
		}
	}
	runGenerated(t, files, "requests_test.go", []byte(requestsTest))
}
