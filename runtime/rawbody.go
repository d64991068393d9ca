package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// DecodeJSONKeep returns a decoder that reads the whole response body,
// stores its bytes in *raw (a generated operation then puts them in
// ResponseMetadata.Body, so members the spec does not declare are never
// lost) and decodes its first JSON value into v, as [DecodeJSON] does: an
// empty body leaves v as it is. It returns the read error or
// encoding/json's error; *raw is set in both cases when anything was read.
func DecodeJSONKeep(v any, raw *[]byte) func(*http.Response) error {
	return func(r *http.Response) error {
		b, err := io.ReadAll(r.Body)
		*raw = b
		if err != nil {
			return err
		}
		if err := json.NewDecoder(bytes.NewReader(b)).Decode(v); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		return nil
	}
}
