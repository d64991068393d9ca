package openapi

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/require"
)

// formInput is shaped like a generated Twilio input: a path parameter
// (json:"-") and form fields.
type formInput struct {
	AccountSid          string      `json:"-"`
	To                  string      `json:"To"`
	StatusCallbackEvent []string    `json:"StatusCallbackEvent,omitempty"`
	Timeout             *int32      `json:"Timeout,omitempty"`
	Record              *bool       `json:"Record,omitempty"`
	Colour              paramColour `json:"Colour,omitempty"`
	Nested              *struct {
		A string `json:"a"`
	} `json:"Nested,omitempty"`
	StartTime *time.Time `json:"StartTime,omitempty"`
}

func TestFormBody(t *testing.T) {
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name string
		in   any
		want string
	}{
		{"required field only; parameters (json:\"-\") are left out",
			&formInput{AccountSid: "AC1", To: "+1 555"}, "To=%2B1+555"},
		{"arrays repeat the name; scalars as in JSON; enums by wire value",
			&formInput{To: "x", StatusCallbackEvent: []string{"ringing", "answered"}, Timeout: ptr(int32(30)), Record: ptr(true), Colour: "red"},
			"Colour=red&Record=true&StatusCallbackEvent=ringing&StatusCallbackEvent=answered&Timeout=30&To=x"},
		{"nested objects are deepObject; times RFC 3339",
			&formInput{To: "x", Nested: &struct {
				A string `json:"a"`
			}{A: "b"}, StartTime: &when},
			"Nested%5Ba%5D=b&StartTime=2024-01-02T03%3A04%3A05Z&To=x"},
		{"nil input is an empty body", (*formInput)(nil), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FormBody(tc.in, nil)
			require.NoError(t, err)
			require.Equal(t, tc.want, string(got))
		})
	}
	_, err := FormBody([]int{1}, nil)
	require.EqualError(t, err, "form body: []int is not an object")
}

// stripeCustomer is shaped like the generated input of Stripe's
// POST /v1/customers, whose form body declares every object and array
// property `style: deepObject, explode: true`.
type stripeCustomer struct {
	Email     *string           `json:"email,omitzero"`
	Expand    []string          `json:"expand,omitzero"`
	Metadata  map[string]string `json:"metadata,omitzero"`
	TaxIDData []struct {
		Type  string `json:"type"`
		Value string `json:"value"`
	} `json:"tax_id_data,omitzero"`
	Address *struct {
		City  string   `json:"city"`
		Lines []string `json:"lines,omitzero"`
	} `json:"address,omitzero"`
	Preferred []string       `json:"preferred_locales,omitzero"`
	Raw       map[string]int `json:"raw,omitzero"`
}

var stripeEncoding = map[string]Encoding{
	"address":           {Style: StyleDeepObject, Explode: true},
	"expand":            {Style: StyleDeepObject, Explode: true},
	"metadata":          {Style: StyleDeepObject, Explode: true},
	"tax_id_data":       {Style: StyleDeepObject, Explode: true},
	"preferred_locales": {Style: StyleForm, Explode: false},
	"raw":               {ContentType: "application/json"},
}

func TestFormBodyEncodingObject(t *testing.T) {
	in := stripeCustomer{Email: ptr("a@b.c"), Expand: []string{"tax_ids", "sources"},
		Metadata:  map[string]string{"order": "6735", "a b": "x&y"},
		Preferred: []string{"en", "fr"}, Raw: map[string]int{"n": 1}}
	in.TaxIDData = append(in.TaxIDData, struct {
		Type  string `json:"type"`
		Value string `json:"value"`
	}{"eu_vat", "DE123456789"}, struct {
		Type  string `json:"type"`
		Value string `json:"value"`
	}{"gb_vat", "GB123"})
	in.Address = &struct {
		City  string   `json:"city"`
		Lines []string `json:"lines,omitzero"`
	}{City: "Berlin", Lines: []string{"1", "2"}}
	got, err := FormBody(&in, stripeEncoding)
	require.NoError(t, err)
	require.Equal(t, "address%5Bcity%5D=Berlin&address%5Blines%5D%5B0%5D=1&address%5Blines%5D%5B1%5D=2"+
		"&email=a%40b.c"+
		"&expand%5B0%5D=tax_ids&expand%5B1%5D=sources"+
		"&metadata%5Ba+b%5D=x%26y&metadata%5Border%5D=6735"+
		"&preferred_locales=en,fr"+
		"&raw=%7B%22n%22%3A1%7D"+
		"&tax_id_data%5B0%5D%5Btype%5D=eu_vat&tax_id_data%5B0%5D%5Bvalue%5D=DE123456789"+
		"&tax_id_data%5B1%5D%5Btype%5D=gb_vat&tax_id_data%5B1%5D%5Bvalue%5D=GB123", string(got))

	got, err = FormBody(&stripeCustomer{Expand: make([]string, 12)}, stripeEncoding)
	require.NoError(t, err)
	require.Contains(t, string(got), "expand%5B9%5D=&expand%5B10%5D=&expand%5B11%5D=", "indexes stay in array order past 9")

	got, err = FormBody(&stripeCustomer{}, stripeEncoding)
	require.NoError(t, err)
	require.Empty(t, got, "no properties set: an empty body")
}

func TestMultipartBody(t *testing.T) {
	body, ct, err := MultipartBody(
		Part{Name: "attributes", Value: map[string]string{"name": "a.txt"}},
		Part{Name: "file", Value: []byte("hello")},
		Part{Name: "stream", Value: strings.NewReader("data")},
		Part{Name: "count", Value: ptr(int64(2))},
		Part{Name: "skipped", Value: (*string)(nil)},
		Part{Name: "none", Value: []byte(nil)},
		Part{Name: "nofile", Value: (*File)(nil)},
	)
	require.NoError(t, err)
	const b = "retrygend8f3580c1662ffcb8325297678c0f535"
	require.Equal(t, "multipart/form-data; boundary="+b, ct)
	require.Equal(t, "--"+b+"\r\n"+
		"Content-Disposition: form-data; name=\"attributes\"\r\nContent-Type: application/json\r\n\r\n{\"name\":\"a.txt\"}\r\n"+
		"--"+b+"\r\n"+
		"Content-Disposition: form-data; name=\"file\"; filename=\"file\"\r\nContent-Type: application/octet-stream\r\n\r\nhello\r\n"+
		"--"+b+"\r\n"+
		"Content-Disposition: form-data; name=\"stream\"; filename=\"stream\"\r\nContent-Type: application/octet-stream\r\n\r\ndata\r\n"+
		"--"+b+"\r\n"+
		"Content-Disposition: form-data; name=\"count\"\r\n\r\n2\r\n"+
		"--"+b+"--\r\n", string(body))
	again, _, err := MultipartBody(Part{Name: "attributes", Value: map[string]string{"name": "a.txt"}},
		Part{Name: "file", Value: []byte("hello")}, Part{Name: "stream", Value: strings.NewReader("data")},
		Part{Name: "count", Value: ptr(int64(2))})
	require.NoError(t, err)
	require.Equal(t, body, again, "the same parts give the same bytes")
}

// TestMultipartBodyStripeFile is Stripe's POST /v1/files: a file part with
// its filename and content type from an io.Reader, an enum text part, and
// deepObject properties as one text part per member.
func TestMultipartBodyStripeFile(t *testing.T) {
	deep := Encoding{Style: StyleDeepObject, Explode: true}
	body, ct, err := MultipartBody(
		Part{Name: "expand", Value: []string{"links"}, Encoding: deep},
		Part{Name: "file", Value: &File{Filename: "receipt.pdf", ContentType: "application/pdf", Body: strings.NewReader("%PDF-1.4")}},
		Part{Name: "file_link_data", Value: map[string]any{"create": true, "metadata": map[string]string{"k": "v"}}, Encoding: deep},
		Part{Name: "purpose", Value: paramColour("dispute_evidence")},
		Part{Name: "note", Value: "x", Encoding: Encoding{ContentType: "text/plain; charset=utf-8", Headers: map[string]string{"X-Note": "1"}}},
	)
	require.NoError(t, err)
	const b = "retrygen76fee17dc6a913cd2bcc16c4d4afb4a1"
	require.Equal(t, "multipart/form-data; boundary="+b, ct)
	require.Equal(t, "--"+b+"\r\n"+
		"Content-Disposition: form-data; name=\"expand[0]\"\r\n\r\nlinks\r\n"+
		"--"+b+"\r\n"+
		"Content-Disposition: form-data; name=\"file\"; filename=\"receipt.pdf\"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n"+
		"--"+b+"\r\n"+
		"Content-Disposition: form-data; name=\"file_link_data[create]\"\r\n\r\ntrue\r\n"+
		"--"+b+"\r\n"+
		"Content-Disposition: form-data; name=\"file_link_data[metadata][k]\"\r\n\r\nv\r\n"+
		"--"+b+"\r\n"+
		"Content-Disposition: form-data; name=\"purpose\"\r\n\r\ndispute_evidence\r\n"+
		"--"+b+"\r\n"+
		"Content-Disposition: form-data; name=\"note\"\r\nContent-Type: text/plain; charset=utf-8\r\nX-Note: 1\r\n\r\nx\r\n"+
		"--"+b+"--\r\n", string(body))
	_, _, err = MultipartBody(Part{Name: "file", Value: &File{Body: iotest.ErrReader(errors.New("disk gone"))}})
	require.EqualError(t, err, `multipart part "file": disk gone`)
}

func TestJSONBody(t *testing.T) {
	b, err := JSONBody((*formInput)(nil))
	require.NoError(t, err)
	require.Nil(t, b, "a nil body sends nothing")
	b, err = JSONBody(map[string]int{"a": 1})
	require.NoError(t, err)
	require.Equal(t, `{"a":1}`, string(b))
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }

// TestMultipartArraysRepeatParts: OpenAPI 3.1 §4.8.15, an array property is
// one part per element (strings as text, objects as JSON, files as files),
// objects one JSON part, the Encoding Object applying to each element.
func TestMultipartArraysRepeatParts(t *testing.T) {
	type seg struct {
		Word string `json:"word"`
	}
	body, ct, err := MultipartBody(
		Part{Name: "granularity", Value: []string{"word", "segment"}},
		Part{Name: "segs", Value: []seg{{"a"}, {"b"}}},
		Part{Name: "meta", Value: &seg{"m"}},
		Part{Name: "files", Value: []*File{{Filename: "a.txt", Body: strings.NewReader("A")}, nil, {Body: strings.NewReader("B"), ContentType: "text/plain"}}},
		Part{Name: "ids", Value: []int{1, 2}, Encoding: Encoding{ContentType: "text/csv", Headers: map[string]string{"X-Part": "1"}}},
		Part{Name: "nested", Value: [][]string{{"x", "y"}}},
		Part{Name: "none", Value: []string(nil)},
	)
	if err != nil {
		t.Fatal(err)
	}
	_, params, _ := mime.ParseMediaType(ct)
	r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var got []string
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(p)
		got = append(got, p.Header.Get("Content-Disposition")+" | "+p.Header.Get("Content-Type")+" | "+p.Header.Get("X-Part")+" | "+string(data))
	}
	want := []string{
		`form-data; name="granularity" |  |  | word`,
		`form-data; name="granularity" |  |  | segment`,
		`form-data; name="segs" | application/json |  | {"word":"a"}`,
		`form-data; name="segs" | application/json |  | {"word":"b"}`,
		`form-data; name="meta" | application/json |  | {"word":"m"}`,
		`form-data; name="files"; filename="a.txt" | application/octet-stream |  | A`,
		`form-data; name="files"; filename="files" | text/plain |  | B`,
		`form-data; name="ids" | text/csv | 1 | 1`,
		`form-data; name="ids" | text/csv | 1 | 2`,
		`form-data; name="nested" | application/json |  | ["x","y"]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("parts\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
