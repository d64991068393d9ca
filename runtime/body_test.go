package runtime

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

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
