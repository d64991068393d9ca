package openapi

import (
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

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }
