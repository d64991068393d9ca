package openapi

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Response headers a spec declares (OpenAPI 3.0 §4.7.17, the Response
// Object's headers) are read into typed output fields by these functions,
// which generated decoders call before decoding the body. A header absent
// from the response leaves *dst nil, and so does an empty value or "null"
// for a number, boolean or date-time (mock servers such as Prism send
// "null" for a header without an example); any other value that does not
// parse is an error naming the header, which the runtime reports as a
// *runtime.DecodeError. Headers sent several times are read from their
// first line, but strings, which join every line with ", " (RFC 9110 §5.3).

// HeaderString reads header name into *dst (any string type, enums
// included).
func HeaderString[T ~string](h http.Header, name string, dst **T) error {
	vs := h.Values(name)
	if len(vs) == 0 {
		return nil
	}
	v := T(strings.Join(vs, ", "))
	*dst = &v
	return nil
}

// HeaderInt reads header name, a decimal integer (surrounding spaces
// allowed), into *dst; it returns an error naming the header when the value
// is not an integer of T's size.
func HeaderInt[T ~int32 | ~int64](h http.Header, name string, dst **T) error {
	s, ok := firstValue(h, name)
	if !ok {
		return nil
	}
	var zero T
	bits := 64
	if _, small := any(zero).(int32); small {
		bits = 32
	}
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		return fmt.Errorf("response header %s: %q is not an integer of %d bits", name, s, bits)
	}
	v := T(n)
	*dst = &v
	return nil
}

// HeaderFloat reads header name, a decimal number, into *dst; it returns an
// error naming the header when the value is not a number.
func HeaderFloat[T ~float32 | ~float64](h http.Header, name string, dst **T) error {
	s, ok := firstValue(h, name)
	if !ok {
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("response header %s: %q is not a number", name, s)
	}
	v := T(f)
	*dst = &v
	return nil
}

// HeaderBool reads header name, "true" or "false" (any case), into *dst;
// it returns an error naming the header for any other value.
func HeaderBool(h http.Header, name string, dst **bool) error {
	s, ok := firstValue(h, name)
	if !ok {
		return nil
	}
	var v bool
	switch strings.ToLower(s) {
	case "true":
		v = true
	case "false":
	default:
		return fmt.Errorf("response header %s: %q is not true or false", name, s)
	}
	*dst = &v
	return nil
}

// HeaderTime reads header name, a date-time, into *dst: RFC 3339 (the
// format: date-time of OpenAPI) or an HTTP date (RFC 9110 §5.6.7:
// IMF-fixdate, RFC 850, asctime, as http.ParseTime reads them), since
// servers send Last-Modified and Expires that way whatever the spec says.
// It returns an error naming the header for any other value.
func HeaderTime(h http.Header, name string, dst **time.Time) error {
	s, ok := firstValue(h, name)
	if !ok {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		if t, err = http.ParseTime(s); err != nil {
			return fmt.Errorf("response header %s: %q is not an RFC 3339 date-time or an HTTP date", name, s)
		}
	}
	*dst = &t
	return nil
}

// firstValue returns the first line of header name, trimmed; false when
// the header is absent, empty or "null".
func firstValue(h http.Header, name string) (string, bool) {
	vs := h.Values(name)
	if len(vs) == 0 {
		return "", false
	}
	v := strings.TrimSpace(vs[0])
	return v, v != "" && v != "null"
}

// SetHeaderMap sets one header of h per entry of m, named prefix + key,
// with the entry's value: Smithy's @httpPrefixHeaders (S3's
// x-amz-meta-* object metadata, which aws2openapi writes as a body property
// named "x-amz-meta-"). An entry with an empty key is left out (it would
// set the prefix itself). net/http refuses a name or value that is not a
// valid header when the request is sent.
func SetHeaderMap(h http.Header, prefix string, m map[string]string) {
	for k, v := range m {
		if k != "" {
			h.Set(prefix+k, v)
		}
	}
}

// HeaderMap returns the headers of h whose names start with prefix
// (compared case-insensitively), keyed by the rest of the name in lower
// case, several values joined with ", " (RFC 9110 §5.3); nil when there is
// none. It reads Smithy's @httpPrefixHeaders from a response (S3's
// x-amz-meta-* object metadata).
func HeaderMap(h http.Header, prefix string) map[string]string {
	var m map[string]string
	for name, vs := range h {
		if len(name) <= len(prefix) || !strings.EqualFold(name[:len(prefix)], prefix) {
			continue
		}
		if m == nil {
			m = map[string]string{}
		}
		m[strings.ToLower(name[len(prefix):])] = strings.Join(vs, ", ")
	}
	return m
}

// SetHeaderTimestamp sets header name to v (a time.Time or *time.Time; a
// nil pointer sets nothing) in the AWS protocols' header timestamp
// format: "http-date", an IMF-fixdate in GMT (RFC 9110 §5.6.7,
// "Wed, 02 Jan 2030 02:04:05 GMT"), Smithy's default for @httpHeader
// timestamps; or "date-time", RFC 3339 in UTC with milliseconds only when
// not zero ("2030-01-02T02:04:05Z"), as smithy-go writes Smithy's
// @timestampFormat("date-time"). The generator uses it for the header
// parameters of specs aws2openapi converted from a REST protocol (other
// specs' date-time headers are RFC 3339, SetHeader). It returns nothing.
func SetHeaderTimestamp[T time.Time | *time.Time](h http.Header, name string, v T, format string) {
	var t time.Time
	switch x := any(v).(type) {
	case time.Time:
		t = x
	case *time.Time:
		if x == nil {
			return
		}
		t = *x
	}
	if format == "date-time" {
		h.Set(name, t.UTC().Format("2006-01-02T15:04:05.999Z"))
		return
	}
	h.Set(name, t.UTC().Format(http.TimeFormat))
}
