package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/retrygen/retrygen/runtime/internal/querymark"
)

// Parameter styles of OpenAPI 3.0 §4.7.12.4 ("Style Values"). Generated code
// passes them to [PathParam], [AppendQuery], [SetHeader] and [AddCookie].
const (
	// StyleSimple: path and header parameters; "a,b,c", objects "k,v" or,
	// exploded, "k=v".
	StyleSimple = "simple"
	// StyleLabel: path parameters prefixed with "."; ".a.b" exploded,
	// ".a,b" not.
	StyleLabel = "label"
	// StyleMatrix: path parameters ";name=a;name=b" exploded, ";name=a,b"
	// not.
	StyleMatrix = "matrix"
	// StyleForm: query and cookie parameters; "name=a&name=b" exploded,
	// "name=a,b" not; exploded objects put each property as its own
	// parameter.
	StyleForm = "form"
	// StyleSpaceDelimited: query arrays "name=a b" (exploded: as form).
	StyleSpaceDelimited = "spaceDelimited"
	// StylePipeDelimited: query arrays "name=a|b" (exploded: as form).
	StylePipeDelimited = "pipeDelimited"
	// StyleDeepObject: query objects "name[k]=v", nested "name[k][k2]=v".
	StyleDeepObject = "deepObject"
)

// paramValue is a parameter value reduced to what the styles distinguish:
// absent, a primitive, an array of primitives or an object (keys sorted).
type paramValue struct {
	absent bool
	prim   string
	isArr  bool
	arr    []string
	isObj  bool
	keys   []string
	obj    map[string]any
	// decoded is the value's JSON form decoded (numbers as json.Number);
	// nil when absent or when encoding/json cannot marshal it.
	decoded any
}

// toParam reduces v through its JSON form, so enums, time.Time (RFC 3339),
// EpochSeconds and pointers serialise as they do in JSON bodies. A nil
// pointer, nil slice or map, or JSON null is absent. A value encoding/json
// cannot marshal is written with fmt.Sprint.
func toParam(v any) paramValue {
	x, err := decodeJSON(v)
	if err != nil {
		return paramValue{prim: fmt.Sprint(v)}
	}
	return paramFromJSON(x)
}

// decodeJSON returns v's JSON form decoded (numbers as json.Number, JSON
// null as nil), or encoding/json's error when v cannot be marshalled.
func decodeJSON(v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var x any
	_ = dec.Decode(&x) // json.Marshal's output always decodes
	return x, nil
}

// paramFromJSON reduces the decoded JSON value x (see [decodeJSON]).
func paramFromJSON(x any) paramValue {
	switch t := x.(type) {
	case nil:
		return paramValue{absent: true}
	case []any:
		p := paramValue{isArr: true, decoded: x}
		for _, e := range t {
			p.arr = append(p.arr, primitive(e))
		}
		return p
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return paramValue{isObj: true, keys: keys, obj: t, decoded: x}
	}
	return paramValue{prim: primitive(x), decoded: x}
}

// primitive renders one decoded JSON value: strings as they are, numbers as
// written, booleans as "true"/"false", null as "", arrays and objects as
// compact JSON.
func primitive(x any) string {
	switch t := x.(type) {
	case string:
		return t
	case json.Number:
		return t.String()
	case bool:
		if t {
			return "true"
		}
		return "false"
	case nil:
		return ""
	}
	b, _ := json.Marshal(x) // decoded JSON always re-encodes
	return string(b)
}

// pairs returns an object's properties as alternating key, value strings.
func (p paramValue) pairs() []string {
	var out []string
	for _, k := range p.keys {
		out = append(out, k, primitive(p.obj[k]))
	}
	return out
}

// PathParam renders a path parameter for substitution into the path template
// (OpenAPI 3.0 §4.7.12.4, styles simple, label and matrix; anything else is
// treated as simple). Every value is escaped with url.PathEscape and "+"
// as %2B (pathEscape); the separators the style adds ("," "." ";" "=")
// are not. An absent value (nil,
// nil pointer) renders as "" (matrix: ";name").
//
// Examples for name "id" and the array [3, 4]: simple "3,4"; label ".3,4",
// exploded ".3.4"; matrix ";id=3,4", exploded ";id=3;id=4". For the object
// {"a": 1, "b": 2} (keys sorted): simple "a,1,b,2", exploded "a=1,b=2".
func PathParam(name string, v any, style string, explode bool) string {
	p := toParam(v)
	esc := func(ss []string) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = pathEscape(s)
		}
		return out
	}
	var vals []string // escaped values, or "k=v" pairs when exploding an object
	switch {
	case p.isArr:
		vals = esc(p.arr)
	case p.isObj && explode:
		kv := esc(p.pairs())
		for i := 0; i < len(kv); i += 2 {
			vals = append(vals, kv[i]+"="+kv[i+1])
		}
	case p.isObj:
		vals = esc(p.pairs())
	case !p.absent:
		vals = []string{pathEscape(p.prim)}
	}
	ename := pathEscape(name)
	switch style {
	case StyleLabel:
		if explode {
			return "." + strings.Join(vals, ".")
		}
		return "." + strings.Join(vals, ",")
	case StyleMatrix:
		switch {
		case p.absent:
			return ";" + ename
		case p.isObj && explode:
			return ";" + strings.Join(vals, ";")
		case p.isArr && explode:
			return ";" + ename + "=" + strings.Join(vals, ";"+ename+"=")
		}
		return ";" + ename + "=" + strings.Join(vals, ",")
	}
	return strings.Join(vals, ",")
}

// pathEscape escapes s for a path segment: url.PathEscape, and "+" as %2B.
// RFC 3986 allows a literal "+" in a path, but S3 (and other servers that
// decode paths as forms) read it as a space, so the client would name
// another object; aws-sdk-go-v2 escapes it in path labels too, and %2B
// decodes to "+" everywhere (third new-user trial F15).
func pathEscape(s string) string {
	e := url.PathEscape(s)
	if strings.IndexByte(e, '+') < 0 {
		return e
	}
	return strings.ReplaceAll(e, "+", "%2B")
}

// AppendQuery adds query parameter name with value v to q (OpenAPI 3.0
// §4.7.12.4; styles form, spaceDelimited, pipeDelimited and deepObject;
// anything else is treated as form). An absent value adds nothing. q must
// not be nil.
//
// For name "id": the array [3, 4] gives id=3&id=4 (form, exploded), id=3,4
// (form), "id=3 4" (spaceDelimited) or id=3|4 (pipeDelimited); the object
// {"a": 1, "b": 2} gives a=1&b=2 (form, exploded), id=a,1,b,2 (form) or
// id[a]=1&id[b]=2 (deepObject, nested objects as id[a][c]=…, arrays indexed
// as id[0]=3&id[1]=4, as Stripe's API expects: OpenAPI 3.0 leaves arrays
// under deepObject undefined). Escaping is url.Values.Encode's, but for the
// separators a style adds between values (form's ",", pipeDelimited's "|",
// spaceDelimited's "%20"), which stay literal on the wire while the same
// characters inside values are escaped (RFC 6570 §3.2.8): ["a,b", "c"] is
// id=a%2Cb,c, not the bytes of ["a", "b", "c"]. AppendQuery marks each such
// separator with [SeparatorMark] in q; [EncodeQuery] and the runtime turn
// the mark and the escaped separator after it back into the separator.
func AppendQuery(q url.Values, name string, v any, style string, explode bool) {
	p := toParam(v)
	sep := map[string]string{StyleSpaceDelimited: " ", StylePipeDelimited: "|"}[style]
	if sep == "" {
		sep = ","
	}
	sep = SeparatorMark + sep // kept literal by EncodeQuery (and the runtime)
	key := QuoteSeparatorMarks(name)
	switch {
	case p.absent:
	case style == StyleDeepObject && (p.isObj || p.isArr):
		kvs := flattenDeep(nil, name, p.decoded)
		for i := 0; i < len(kvs); i += 2 {
			q.Add(QuoteSeparatorMarks(kvs[i]), QuoteSeparatorMarks(kvs[i+1]))
		}
	case p.isArr && explode:
		for _, e := range p.arr {
			q[key] = append(q[key], QuoteSeparatorMarks(e))
		}
	case p.isArr:
		q.Add(key, joinQuoted(p.arr, sep))
	case p.isObj && explode:
		for _, k := range p.keys {
			q.Add(QuoteSeparatorMarks(k), QuoteSeparatorMarks(primitive(p.obj[k])))
		}
	case p.isObj:
		q.Add(key, joinQuoted(p.pairs(), sep))
	default:
		q.Add(key, QuoteSeparatorMarks(p.prim))
	}
}

// joinQuoted joins elems with the marked separator sep, each element's own
// marks quoted (QuoteSeparatorMarks); elems is left as it is.
func joinQuoted(elems []string, sep string) string {
	var b strings.Builder
	for i, e := range elems {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(QuoteSeparatorMarks(e))
	}
	return b.String()
}

// SeparatorMark precedes, in the url.Values AppendQuery fills, each
// separator a style adds between values (form explode=false ",",
// pipeDelimited "|", spaceDelimited " "), so that encoding can keep the
// separator literal while escaping the same character inside a value. It is
// U+FDD0, a Unicode noncharacter (reserved for a program's internal use,
// never meaningful text). [EncodeQuery] and runtime.Client remove it; the
// rule has one definition, in runtime/internal/querymark.
const SeparatorMark = querymark.Mark

// QuoteSeparatorMarks returns s with each [SeparatorMark] in it doubled, as
// every key and value a query gets must be, unless it is AppendQuery's own
// mark before a separator: encoding turns a doubled mark back into one
// (sent escaped, as data) and leaves the escaped character after it
// escaped, so a value holding U+FDD0 before a "," is sent as it is, never as
// a literal separator. [AppendQuery] and [Credentials.Apply] quote what they
// add; so does the runtime for the endpoint's query and a next-page link's.
// s itself is returned (no allocation) when it holds no mark.
func QuoteSeparatorMarks(s string) string { return querymark.Quote(s) }

// EncodeQuery is url.Values.Encode with the separators [AppendQuery]
// marked kept literal: ",", "|", and a space as "%20" (a space inside a
// value stays "+"). runtime.Client encodes every request's query the same
// way (one rule, runtime/internal/querymark).
func EncodeQuery(q url.Values) string { return querymark.Encode(q) }

// SetHeader sets header parameter name to v in simple style (OpenAPI 3.0
// §4.7.12.4): arrays "a,b", objects "k,v" or, exploded, "k=v". An absent
// value sets nothing. h must not be nil.
func SetHeader(h http.Header, name string, v any, explode bool) {
	p := toParam(v)
	if p.absent {
		return
	}
	h.Set(name, headerValue(p, explode))
}

func headerValue(p paramValue, explode bool) string {
	switch {
	case p.isArr:
		return strings.Join(p.arr, ",")
	case p.isObj && explode:
		kv := p.pairs()
		parts := make([]string, 0, len(kv)/2)
		for i := 0; i < len(kv); i += 2 {
			parts = append(parts, kv[i]+"="+kv[i+1])
		}
		return strings.Join(parts, ",")
	case p.isObj:
		return strings.Join(p.pairs(), ",")
	}
	return p.prim
}

// AddCookie adds cookie parameter name with value v to h's Cookie header in
// form style (OpenAPI 3.0 §4.7.12.4): "name=a,b" for arrays and "name=k,v"
// for objects; exploded arrays repeat the cookie ("name=a; name=b"). Each
// value is percent-encoded (url.QueryEscape, a space as %20), so it holds
// no ';', ',', space or quote.
// An absent value adds nothing. h must not be nil.
func AddCookie(h http.Header, name string, v any, explode bool) {
	p := toParam(v)
	if p.absent {
		return
	}
	var vals []string
	switch {
	case p.isArr:
		vals = p.arr
	case p.isObj:
		vals = p.pairs()
	default:
		vals = []string{p.prim}
	}
	for i, s := range vals {
		vals[i] = cookieEscape(s)
	}
	var crumbs []string
	if p.isArr && explode {
		for _, s := range vals {
			crumbs = append(crumbs, name+"="+s)
		}
	} else {
		crumbs = []string{name + "=" + strings.Join(vals, ",")}
	}
	if old := h.Get("Cookie"); old != "" {
		crumbs = append([]string{old}, crumbs...)
	}
	h.Set("Cookie", strings.Join(crumbs, "; "))
}

// cookieEscape percent-encodes a cookie value as RFC 6570 does (a space is
// %20, never "+": cookies are not form-decoded, so a server would read a
// literal "+"), leaving no ';', ',', space, quote or backslash.
func cookieEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

// signerHeaders are the request headers a request signer sets on every
// attempt, in canonical form: Authorization and AWS Signature Version 4's
// own (the date, the session token, the payload hash, and the algorithm,
// credential, signed headers and signature that aws2openapi specs declare
// as headers; https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html).
var signerHeaders = []string{"Authorization", "X-Amz-Algorithm", "X-Amz-Content-Sha256", "X-Amz-Credential",
	"X-Amz-Date", "X-Amz-Security-Token", "X-Amz-Signature", "X-Amz-Signedheaders"}

// IsSignerHeader reports whether name (any case) is a header the request
// signer owns: Authorization, X-Amz-Algorithm, X-Amz-Content-Sha256,
// X-Amz-Credential, X-Amz-Date, X-Amz-Security-Token, X-Amz-Signature or
// X-Amz-SignedHeaders (AWS SigV4). A spec declaring one as a header
// parameter gets no input field for it: the BeforeAttempt hook (the signer)
// sets it on each attempt, so a retry is signed afresh. Every other
// declared header, x-amz-* included, is an input field.
func IsSignerHeader(name string) bool {
	return slices.Contains(signerHeaders, http.CanonicalHeaderKey(name))
}
