package runtime

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
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
			got, err := FormBody(tc.in)
			require.NoError(t, err)
			require.Equal(t, tc.want, string(got))
		})
	}
	_, err := FormBody([]int{1})
	require.EqualError(t, err, "form body: []int is not an object")
}

func TestMultipartBody(t *testing.T) {
	body, ct, err := MultipartBody(
		Part{Name: "attributes", Value: map[string]string{"name": "a.txt"}},
		Part{Name: "file", Value: []byte("hello")},
		Part{Name: "stream", Value: strings.NewReader("data")},
		Part{Name: "count", Value: ptr(int64(2))},
		Part{Name: "skipped", Value: (*string)(nil)},
		Part{Name: "none", Value: []byte(nil)},
	)
	require.NoError(t, err)
	const boundary = "retrygena65d03b02c3c6d667e2e95eecc384093"
	b := boundary
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

func TestJSONBody(t *testing.T) {
	b, err := JSONBody((*formInput)(nil))
	require.NoError(t, err)
	require.Nil(t, b, "a nil body sends nothing")
	b, err = JSONBody(map[string]int{"a": 1})
	require.NoError(t, err)
	require.Equal(t, `{"a":1}`, string(b))
}

// onceReader is a reader that fails the test when read after EOF was
// reached (a reader body cannot be rewound).
type onceReader struct {
	r    io.Reader
	done bool
	t    *testing.T
}

func (o *onceReader) Read(p []byte) (int, error) {
	if o.done {
		o.t.Error("reader body read again after EOF")
	}
	n, err := o.r.Read(p)
	if errors.Is(err, io.EOF) {
		o.done = true
	}
	return n, err
}

func TestBodyReader(t *testing.T) {
	small := strings.Repeat("a", 100)
	big := strings.Repeat("b", MaxReplayBody+1)
	for _, tc := range []struct {
		name         string
		body         string
		wantAttempts int
		wantErr      bool
	}{
		{"a reader body up to MaxReplayBody is buffered and replayed on retries", small, 2, false},
		{"a reader body of exactly MaxReplayBody is still replayed", big[:MaxReplayBody], 2, false},
		{"a reader body above MaxReplayBody is sent once and not retried", big, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil, 0, script(status(503), status(200)), nil)
			req := &Request{Method: http.MethodPut, Path: "/f", BodyReader: &onceReader{r: strings.NewReader(tc.body), t: t}, ContentType: "application/octet-stream"}
			md, err := h.c.Do(context.Background(), opGet, req, nil, nil)
			require.Equal(t, tc.wantAttempts, md.Attempts)
			if tc.wantErr {
				var apiErr *APIError
				require.ErrorAs(t, err, &apiErr)
				require.Equal(t, 503, apiErr.HTTPStatusCode)
			} else {
				require.NoError(t, err)
			}
			sent := h.http.requests()
			require.Len(t, sent, tc.wantAttempts)
			for _, s := range sent {
				require.True(t, bytes.Equal([]byte(tc.body), s.body), "every attempt sends the whole body")
				require.Equal(t, "application/octet-stream", s.header.Get("Content-Type"))
			}
		})
	}
}

func TestDecodeBytes(t *testing.T) {
	var got []byte
	require.NoError(t, DecodeBytes(&got)(&http.Response{Body: io.NopCloser(strings.NewReader("raw\x00"))}))
	require.Equal(t, []byte("raw\x00"), got)
}

func TestDecodeJSON(t *testing.T) {
	resp := func(body string) *http.Response { return &http.Response{Body: io.NopCloser(strings.NewReader(body))} }
	var v struct{ A int }
	require.NoError(t, DecodeJSON(&v)(resp(`{"A":7}`)))
	require.Equal(t, 7, v.A)
	require.NoError(t, DecodeJSON(&v)(resp("")), "an empty body leaves v as it is")
	require.Equal(t, 7, v.A)
	require.EqualError(t, DecodeJSON(&v)(resp(`{"A":`)), "unexpected EOF")
}
