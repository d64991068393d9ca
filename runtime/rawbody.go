package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/retrygen/retrygen/runtime/internal/exactjson"
)

// DecodeJSONKeep returns a decoder that reads the whole response body,
// stores its bytes in *raw (a generated operation then puts them in
// ResponseMetadata.Body, so members the spec does not declare are never
// lost) and decodes its first JSON value into v, as [DecodeJSON] does: an
// empty body leaves v as it is. It returns the read error or
// encoding/json's error; *raw is set in both cases when anything was read.
func DecodeJSONKeep(v any, raw *[]byte) func(*http.Response) error {
	return func(r *http.Response) error {
		b, err := readAllSized(r.Body, r.ContentLength)
		*raw = b
		if err != nil {
			return err
		}
		return decodeFirstJSON(b, v)
	}
}

// maxBodyHint is the largest Content-Length readAllSized trusts for its
// first allocation: 1 MiB (a longer body grows as it arrives).
const maxBodyHint = 1 << 20

// readAllSized is io.ReadAll with a first buffer of size+1 bytes when size
// (a Content-Length; -1 when unknown) is between 0 and maxBodyHint, so a
// body of the declared length is read into one allocation of its size
// (io.ReadAll starts at 512 bytes and doubles).
func readAllSized(r io.Reader, size int64) ([]byte, error) {
	if size < 0 || size > maxBodyHint {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, size+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // let append pick the next size
		}
	}
}

// decodeFirstJSON decodes the first JSON value of b into v as
// json.Decoder.Decode does (an empty body leaves v as it is and is no
// error; bytes after the first value are not read), with the cost of
// json.Unmarshal when b is one whole value, the common case: Unmarshal
// checks the syntax of all of b before it stores anything, so on a
// *json.SyntaxError v is untouched and the Decoder decides (empty, trailing
// bytes, or a value that breaks off: io.ErrUnexpectedEOF, as before).
func decodeFirstJSON(b []byte, v any) error {
	b = exactjson.Names(b, v) // member names matched exactly (README "Limits")
	err := json.Unmarshal(b, v)
	if _, syntax := errors.AsType[*json.SyntaxError](err); !syntax {
		return err
	}
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(v); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}
