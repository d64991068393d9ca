package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The raw body stays reachable beside the decoded value: a member the
// struct does not declare is in the bytes, exactly as received.
func TestDecodeJSONKeep(t *testing.T) {
	var v struct {
		Name string `json:"name"`
	}
	var raw []byte
	body := `{"name":"a","undeclared":[1,2]}`
	err := DecodeJSONKeep(&v, &raw)(&http.Response{Body: io.NopCloser(strings.NewReader(body))})
	require.NoError(t, err)
	require.Equal(t, "a", v.Name)
	require.Equal(t, body, string(raw))

	raw = nil
	require.NoError(t, DecodeJSONKeep(&v, &raw)(&http.Response{Body: io.NopCloser(strings.NewReader(""))}))
	require.Empty(t, raw)

	err = DecodeJSONKeep(&v, &raw)(&http.Response{Body: io.NopCloser(strings.NewReader(`{"name":1}`))})
	require.Error(t, err)
	require.Equal(t, `{"name":1}`, string(raw))
}

// DecodeJSONKeep decodes as json.Decoder.Decode does (its first
// implementation), whatever the body: one value, nothing, blanks, bytes
// after the first value, a second value, a value that breaks off, a type
// mismatch, a syntax error; with the Content-Length right, unknown (-1),
// 0, or wrong. The bytes kept are the body's.
func TestDecodeJSONKeepDecodesAsDecoder(t *testing.T) {
	type item struct {
		Name string         `json:"name"`
		N    int            `json:"n"`
		Tags []string       `json:"tags"`
		M    map[string]int `json:"m"`
	}
	bodies := []string{
		`{"name":"a","n":1,"tags":["x"],"m":{"k":2}}`,
		"", "  \n\t", ` {"name":"a"} `,
		`{"name":"a"} trailing`, `{"name":"a"}{"name":"b"}`, `{"name":"a"}]`,
		`{"name":"a","n":`, `{"name":"a"`, `{"n":"one","name":"b"}`, `{"name":1,"n":2}`,
		`{"name":"a",}`, `nul`, `null`, `[1]`, `"s"`, `{"tags":[1,"y"],"m":{"k":"v"}}`,
		strings.Repeat(" ", 600) + `{"name":"` + strings.Repeat("z", 2000) + `"}`,
	}
	for _, body := range bodies {
		for _, length := range []int64{int64(len(body)), -1, 0, int64(len(body)) + 7, 1} {
			want := item{Name: "before", M: map[string]int{"old": 1}}
			wantErr := json.NewDecoder(strings.NewReader(body)).Decode(&want)
			if errors.Is(wantErr, io.EOF) {
				wantErr = nil
			}
			got := item{Name: "before", M: map[string]int{"old": 1}}
			var raw []byte
			gotErr := DecodeJSONKeep(&got, &raw)(&http.Response{ContentLength: length, Body: io.NopCloser(strings.NewReader(body))})
			require.Equal(t, want, got, "body %q, Content-Length %d", body, length)
			require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(gotErr), "body %q, Content-Length %d", body, length)
			require.Equal(t, errors.Is(wantErr, io.ErrUnexpectedEOF), errors.Is(gotErr, io.ErrUnexpectedEOF))
			require.Equal(t, body, string(raw))
		}
	}
}

// A body of a declared length is read into one buffer of that length (+1
// to see its end): io.ReadAll would start at 512 bytes and double.
func TestReadAllSizedAllocatesTheDeclaredLength(t *testing.T) {
	body := strings.Repeat("x", 3000)
	r := strings.NewReader(body)
	var b []byte
	allocs := testing.AllocsPerRun(20, func() {
		r.Reset(body)
		b, _ = readAllSized(r, int64(len(body)))
	})
	require.Equal(t, 1.0, allocs)
	require.Equal(t, body, string(b))
	require.Equal(t, len(body)+1, cap(b))
}
