package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
)

// MaxReplayBody is the largest request body read from [Request.BodyReader]
// that the runtime buffers so it can send it again on a retry: 8 MiB. A
// longer body is streamed once and the call makes a single attempt (no
// retries).
const MaxReplayBody = 8 << 20

// DecodeJSON returns a decoder of a JSON response body into v (a pointer);
// an empty body leaves v as it is. It returns encoding/json's error for a
// malformed body, which Client.Do wraps in a *DecodeError.
func DecodeJSON(v any) func(*http.Response) error {
	return func(r *http.Response) error {
		if err := json.NewDecoder(r.Body).Decode(v); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		return nil
	}
}

// DecodeBytes returns a decoder that reads a whole response body into *dst,
// for responses that are not JSON (octet-stream, text, images).
func DecodeBytes(dst *[]byte) func(*http.Response) error {
	return func(r *http.Response) error {
		b, err := io.ReadAll(r.Body)
		*dst = b
		return err
	}
}

// bufferBody reads req.BodyReader into req.Body when it holds at most
// MaxReplayBody bytes and returns nil; otherwise it returns a reader of the
// whole body (what was read, then the rest) to be streamed in one attempt.
// A read error ends the call before anything is sent.
func bufferBody(req *Request) (io.Reader, error) {
	if req.BodyReader == nil || req.GetBody != nil {
		return nil, nil
	}
	if rs, ok := req.BodyReader.(io.ReadSeeker); ok {
		// Streamed and rewound for every retry (replay.go).
		sb, err := newSeekBody(rs)
		req.seek = sb
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(req.BodyReader, MaxReplayBody+1))
	if err != nil {
		return nil, fmt.Errorf("reading request body: %w", err)
	}
	if len(b) <= MaxReplayBody {
		req.Body = slices.Clip(b)
		if req.Body == nil {
			req.Body = []byte{}
		}
		return nil, nil
	}
	return io.MultiReader(bytes.NewReader(b), req.BodyReader), nil
}
