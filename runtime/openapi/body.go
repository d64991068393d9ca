package openapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime/multipart"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/retrygen/retrygen/runtime/internal/querymark"
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

// Encoding is the Encoding Object of one property of a form or multipart
// request body (OpenAPI 3.0 §4.7.15). The zero value is the specification's
// default for that property.
type Encoding struct {
	// ContentType is the part's media type (multipart) or, in a form body,
	// "application/json" (or any JSON type) to send an object or array as
	// one JSON-encoded parameter. "": the default (text for primitives,
	// application/json for objects and arrays in multipart;
	// application/octet-stream for files).
	ContentType string
	// Headers are extra headers of a multipart part (the Encoding
	// Object's headers, with the values the spec fixes).
	Headers map[string]string
	// Style is the parameter style ([StyleForm], [StyleSpaceDelimited],
	// [StylePipeDelimited] or [StyleDeepObject]; "" for the default,
	// form); Explode its explode flag as given or defaulted by the
	// generator (true for form).
	Style   string
	Explode bool
}

// FormBody encodes v as an application/x-www-form-urlencoded body
// (OpenAPI 3.0 §4.7.14.4 and §4.7.15): each JSON property of v (its json
// tag names, so fields tagged "-" are left out and omitzero is honoured)
// is written by enc[name]:
//
//   - style deepObject: objects as name[k]=v, nested name[k][k2]=v; arrays
//     indexed, name[0]=x, arrays of objects name[0][k]=v (OpenAPI 3.0
//     leaves arrays undefined; this is what Stripe's API expects);
//   - style form, spaceDelimited, pipeDelimited: as the query parameter of
//     that style ([AppendQuery]);
//   - a JSON ContentType: the value as one compact JSON parameter;
//   - no entry: arrays repeat the name (form, exploded); objects are written
//     deepObject-style.
//
// Values render as in JSON (RFC 3339 times, enum wire values); JSON null is
// left out. Properties are written in sorted order, members of nested
// objects sorted, array elements in order, each name and value escaped with
// url.QueryEscape. A nil v gives an empty body. It returns encoding/json's
// error, or an error when v is not an object.
func FormBody(v any, enc map[string]Encoding) ([]byte, error) {
	p, err := jsonObject(v)
	if err != nil {
		return nil, err
	}
	var kvs []string // alternating names and values
	for _, k := range p.keys {
		val := p.obj[k]
		e, ok := enc[k]
		switch _, composite := val.(map[string]any); {
		case val == nil:
		case ok && isJSONMedia(e.ContentType) && (composite || isArray(val)):
			kvs = append(kvs, k, primitive(val))
		case ok && e.Style != "" && e.Style != StyleDeepObject:
			q := url.Values{}
			AppendQuery(q, k, val, e.Style, e.Explode)
			for _, name := range sortedKeys(q) {
				for _, s := range q[name] {
					kvs = append(kvs, name, s)
				}
			}
		case !ok && isArray(val):
			for _, x := range val.([]any) {
				kvs = append(kvs, k, primitive(x))
			}
		default:
			kvs = flattenDeep(kvs, k, val)
		}
	}
	var b strings.Builder
	for i := 0; i < len(kvs); i += 2 {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(kvs[i]))
		b.WriteByte('=')
		b.WriteString(querymark.Literal(url.QueryEscape(kvs[i+1]))) // AppendQuery's separators stay literal
	}
	return []byte(b.String()), nil
}

// flattenDeep appends the deepObject form of the decoded JSON value v under
// name to kvs: objects name[k] (keys sorted), arrays name[i], primitives
// name itself; null and empty objects and arrays add nothing.
func flattenDeep(kvs []string, name string, v any) []string {
	switch t := v.(type) {
	case nil:
	case map[string]any:
		for _, k := range sortedKeys(t) {
			kvs = flattenDeep(kvs, name+"["+k+"]", t[k])
		}
	case []any:
		for i, x := range t {
			kvs = flattenDeep(kvs, name+"["+strconv.Itoa(i)+"]", x)
		}
	default:
		kvs = append(kvs, name, primitive(t))
	}
	return kvs
}

func isArray(v any) bool {
	_, ok := v.([]any)
	return ok
}

// isJSONMedia reports a JSON media type (application/json, …+json).
func isJSONMedia(ct string) bool {
	return strings.Contains(strings.ToLower(ct), "json")
}

// jsonObject reduces v to its JSON object form.
func jsonObject(v any) (paramValue, error) {
	x, err := decodeJSON(v)
	if err != nil {
		return paramValue{}, err
	}
	p := paramFromJSON(x)
	if p.absent {
		return paramValue{isObj: true}, nil
	}
	if !p.isObj {
		return paramValue{}, fmt.Errorf("form body: %T is not an object", v)
	}
	return p, nil
}

// File is a file sent as one part of a multipart/form-data body: generated
// inputs use *File for properties of type string, format binary.
type File struct {
	// Filename is the part's Content-Disposition filename; "" sends the
	// property's name.
	Filename string
	// ContentType is the part's media type; "" sends the Encoding Object's
	// contentType, else application/octet-stream.
	ContentType string
	// Body is the file's content, read from where it stands to its end.
	// MultipartBody buffers the whole body, so retries send the same bytes.
	// MultipartReader (a streamed upload) reads it as the body is sent: when
	// every file's Body is an io.Seeker (*os.File, *bytes.Reader) each retry
	// rewinds it, whatever its size; otherwise the runtime buffers a body of
	// at most runtime.MaxReplayBody (8 MiB) and replays it, and sends a
	// longer one in a single attempt (a failure that would have been
	// retried returns a *runtime.NotRetrySafeError).
	Body io.Reader
}

// Part is one property of a multipart/form-data body.
type Part struct {
	// Name is the form field's name (Content-Disposition name).
	Name string
	// Value is the part's content. nil (or a nil pointer, slice or map, or
	// an absent Nullable) is left out; a Nullable set to [Null] is an error
	// naming the part (multipart/form-data has no null, RFC 7578), unless
	// Encoding's ContentType is JSON, which sends null. File and *File are file parts; []byte and io.Reader are
	// file parts named Name. Strings, numbers, booleans and enums are text
	// parts. Objects are application/json parts unless Encoding says
	// otherwise. An array is one part per element, all named Name, each
	// as its element's type says (OpenAPI 3.1 §4.8.15: the Encoding Object
	// applies to each element); an array inside an element is one JSON part.
	Value any
	// Encoding is the property's Encoding Object: ContentType and Headers
	// apply to each part; style deepObject writes an object or array as one
	// text part per member (name[k], name[0]), as Stripe's API expects.
	Encoding Encoding
}

// MultipartBody encodes parts as a multipart/form-data body (RFC 7578, with
// mime/multipart) in the order given and returns the body and its
// Content-Type ("multipart/form-data; boundary=…"). The boundary is derived
// from a SHA-256 hash of the parts' contents, so the same parts always give
// the same bytes. It returns a reader's error or encoding/json's error.
func MultipartBody(parts ...Part) ([]byte, string, error) {
	var all []multipartPart
	for _, p := range parts {
		ps, err := renderPart(p)
		if err != nil {
			return nil, "", err
		}
		all = append(all, ps...)
	}
	return writeMultipart(all)
}

// multipartPart is one part of a multipart/form-data body, ready to write.
type multipartPart struct {
	name, filename, contentType string
	header                      map[string]string
	data                        []byte
}

// renderPart returns the parts p is sent as (OpenAPI 3.1 §4.8.14.4 and
// §4.8.15, the Encoding Object's defaults): none when its value is absent;
// for an array, one part per element, each rendered as a property of the
// element's type would be (renderValue), unless style deepObject writes it
// as one text part per element (name[0]); otherwise one part. It returns a
// reader's error or encoding/json's error, naming the part.
func renderPart(p Part) ([]multipartPart, error) {
	if p.Encoding.Style != StyleDeepObject {
		if rv, ok := sliceValue(p.Value); ok {
			var out []multipartPart
			for i := range rv.Len() {
				ps, err := renderValue(Part{Name: p.Name, Value: rv.Index(i).Interface(), Encoding: p.Encoding}, false)
				if err != nil {
					return nil, err
				}
				out = append(out, ps...)
			}
			return out, nil
		}
	}
	return renderValue(p, true)
}

// sliceValue returns v (through pointers) as a slice or array that is not
// bytes, reporting whether it is one.
func sliceValue(v any) (reflect.Value, bool) {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array) && rv.Type().Elem().Kind() != reflect.Uint8 {
		return rv, true
	}
	return reflect.Value{}, false
}

// renderValue returns the part p's value is sent as: a file part for File,
// *File, []byte and io.Reader; a JSON part (application/json unless the
// Encoding Object names another type) for objects, and for arrays nested
// in an array element; a text part for primitives. top is false for the
// elements of an array property.
func renderValue(p Part, top bool) ([]multipartPart, error) {
	switch v := p.Value.(type) {
	case nil:
		return nil, nil
	case *File:
		if v == nil || v.Body == nil {
			return nil, nil
		}
		return filePart(p, *v)
	case File:
		if v.Body == nil {
			return nil, nil
		}
		return filePart(p, v)
	case []byte:
		if v == nil {
			return nil, nil
		}
		return filePart(p, File{Body: bytes.NewReader(v)})
	case io.Reader:
		return filePart(p, File{Body: v})
	}
	v, e := p.Value, p.Encoding
	if isNull(v) && !isJSONMedia(e.ContentType) {
		return nil, fmt.Errorf("multipart part %q: openapi.Null cannot be sent: multipart/form-data has no null (RFC 7578); leave the field absent or give a value", p.Name)
	}
	pv := toParam(v)
	switch {
	case pv.absent && isNull(v): // a JSON part: null is JSON
		return []multipartPart{{name: p.Name, contentType: e.ContentType, header: e.Headers, data: []byte("null")}}, nil
	case pv.absent:
		return nil, nil
	case top && (pv.isArr || pv.isObj) && e.Style == StyleDeepObject:
		kvs := flattenDeep(nil, p.Name, pv.decoded)
		out := make([]multipartPart, 0, len(kvs)/2)
		for i := 0; i < len(kvs); i += 2 {
			out = append(out, multipartPart{name: kvs[i], header: e.Headers, data: []byte(kvs[i+1])})
		}
		return out, nil
	case pv.isArr || pv.isObj || isJSONMedia(e.ContentType):
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("multipart part %q: %w", p.Name, err)
		}
		ct := e.ContentType
		if ct == "" {
			ct = "application/json"
		}
		return []multipartPart{{name: p.Name, contentType: ct, header: e.Headers, data: b}}, nil
	default:
		return []multipartPart{{name: p.Name, contentType: e.ContentType, header: e.Headers, data: []byte(pv.prim)}}, nil
	}
}

// isNull reports whether v is a [Nullable] (or a pointer to one) set to
// [Null]: explicit null, which a form has no way to write, unlike absent.
// Read by reflection, as Nullable has no method to ask (nullable.go).
func isNull(v any) bool {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct || rv.Type().PkgPath() != nullablePkg || !strings.HasPrefix(rv.Type().Name(), "Nullable[") {
		return false
	}
	state := rv.FieldByName("state")
	return state.IsValid() && nullableState(state.Uint()) == nullableNull
}

// filePart reads f.Body to its end and returns it as p's one file part: its
// filename is f.Filename, else p.Name; its media type is f.ContentType, else
// the Encoding Object's when that names one type, else
// application/octet-stream.
func filePart(p Part, f File) ([]multipartPart, error) {
	b, err := io.ReadAll(f.Body)
	if err != nil {
		return nil, fmt.Errorf("multipart part %q: %w", p.Name, err)
	}
	ct := f.ContentType
	if ct == "" {
		ct = p.Encoding.ContentType
	}
	if ct == "" || strings.Contains(ct, "*") || strings.Contains(ct, ",") {
		ct = "application/octet-stream"
	}
	filename := f.Filename
	if filename == "" {
		filename = p.Name
	}
	return []multipartPart{{name: p.Name, filename: filename, contentType: ct, header: p.Encoding.Headers, data: b}}, nil
}

// writeMultipart writes all with a boundary derived from a SHA-256 hash of
// their names, filenames and contents, and returns the body and its
// Content-Type.
func writeMultipart(all []multipartPart) ([]byte, string, error) {
	h := sha256.New()
	for _, r := range all {
		fmt.Fprintf(h, "%d:%s%d:%s%d:", len(r.name), r.name, len(r.filename), r.filename, len(r.data))
		h.Write(r.data)
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.SetBoundary("retrygen" + hex.EncodeToString(h.Sum(nil))[:32]); err != nil {
		return nil, "", err
	}
	for _, r := range all {
		hdr, err := partHeader(r)
		if err != nil {
			return nil, "", err
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

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// quoteEscaper is mime/multipart's (Go 1.21+): backslash escapes for '\\'
// and '"', percent-encoding for CR and LF.
var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "%0D", "\n", "%0A")

// escapeQuotes escapes a Content-Disposition parameter (a part's name or
// filename) as mime/multipart's escapeQuotes does, so CR and LF cannot end
// the header line (WHATWG's form-data encoding percent-encodes them too).
func escapeQuotes(s string) string {
	return quoteEscaper.Replace(s)
}
