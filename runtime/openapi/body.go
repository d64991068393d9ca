package openapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/textproto"
	"net/url"
	"strings"
)

// JSONBody marshals v as a JSON request body; a nil v (or nil pointer)
// gives a nil body, so nothing is sent. It returns encoding/json's error.
func JSONBody(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return nil, err
	}
	return b, nil
}

// FormBody encodes v as an application/x-www-form-urlencoded body
// (OpenAPI 3.0 §4.7.14.4, the defaults of the Encoding Object): each JSON
// property of v (its json tag names, so fields tagged "-" are left out and
// omitempty is honoured) becomes one parameter; arrays repeat the name
// (form style, exploded); nested objects are written deepObject-style
// (name[k]=v). Values render as in JSON (RFC 3339 times, enum wire values).
// Parameters are sorted by name (url.Values.Encode). It returns
// encoding/json's error, or an error when v is not an object.
func FormBody(v any) ([]byte, error) {
	p, err := jsonObject(v)
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	for _, k := range p.keys {
		AppendQuery(q, k, p.obj[k], StyleDeepObject, true)
	}
	return []byte(q.Encode()), nil
}

// jsonObject reduces v to its JSON object form.
func jsonObject(v any) (paramValue, error) {
	if _, err := json.Marshal(v); err != nil {
		return paramValue{}, err
	}
	p := toParam(v)
	if p.absent {
		return paramValue{isObj: true}, nil
	}
	if !p.isObj {
		return paramValue{}, fmt.Errorf("form body: %T is not an object", v)
	}
	return p, nil
}

// Part is one part of a multipart/form-data body.
type Part struct {
	// Name is the form field's name (Content-Disposition name).
	Name string
	// Value is the part's content. nil (or a nil pointer, slice or map) is
	// left out. []byte and io.Reader are file parts (filename = Name,
	// Content-Type application/octet-stream; a reader is read to its end).
	// Strings, numbers, booleans and enums are text parts. Objects and
	// arrays are application/json parts (OpenAPI 3.0 §4.7.14.4 defaults).
	Value any
}

// MultipartBody encodes parts as a multipart/form-data body (RFC 7578) in the
// order given and returns the body and its Content-Type
// ("multipart/form-data; boundary=…"). The boundary is derived from a SHA-256
// hash of the parts' contents, so the same parts always give the same bytes.
// It returns a reader's error or encoding/json's error.
func MultipartBody(parts ...Part) ([]byte, string, error) {
	type rendered struct {
		name, filename, contentType string
		data                        []byte
	}
	var all []rendered
	h := sha256.New()
	for _, p := range parts {
		r := rendered{name: p.Name}
		switch v := p.Value.(type) {
		case nil:
			continue
		case []byte:
			if v == nil {
				continue
			}
			r.filename, r.contentType, r.data = p.Name, "application/octet-stream", v
		case io.Reader:
			b, err := io.ReadAll(v)
			if err != nil {
				return nil, "", fmt.Errorf("multipart part %q: %w", p.Name, err)
			}
			r.filename, r.contentType, r.data = p.Name, "application/octet-stream", b
		default:
			pv := toParam(v)
			switch {
			case pv.absent:
				continue
			case pv.isArr || pv.isObj:
				b, err := json.Marshal(v)
				if err != nil {
					return nil, "", fmt.Errorf("multipart part %q: %w", p.Name, err)
				}
				r.contentType, r.data = "application/json", b
			default:
				r.data = []byte(pv.prim)
			}
		}
		fmt.Fprintf(h, "%d:%s%d:", len(r.name), r.name, len(r.data))
		h.Write(r.data)
		all = append(all, r)
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.SetBoundary("retrygen" + hex.EncodeToString(h.Sum(nil))[:32]); err != nil {
		return nil, "", err
	}
	for _, r := range all {
		hdr := textproto.MIMEHeader{}
		disp := `form-data; name="` + escapeQuotes(r.name) + `"`
		if r.filename != "" {
			disp += `; filename="` + escapeQuotes(r.filename) + `"`
		}
		hdr.Set("Content-Disposition", disp)
		if r.contentType != "" {
			hdr.Set("Content-Type", r.contentType)
		}
		pw, err := w.CreatePart(hdr)
		if err != nil {
			return nil, "", err
		}
		_, _ = pw.Write(r.data) // writes to a bytes.Buffer cannot fail
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// escapeQuotes escapes '\\' and '"' in a Content-Disposition parameter, as
// mime/multipart does.
func escapeQuotes(s string) string {
	return strings.NewReplacer("\\", "\\\\", `"`, "\\\"").Replace(s)
}
