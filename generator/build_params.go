package generator

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/retrygen/retrygen/runtime/openapi"
)

// splitPathKey splits a path key into the URL path, the fixed pairs of its
// "#k=v&…" or "?k=v&…" suffix (the aws2openapi trick:
// "/#Action=SendMessage" → "/", Action=SendMessage) and the suffix's bare
// words, which only tell apart path keys that would otherwise be equal
// ("/{Bucket}#tagging", "/{Bucket}#deprecated!"). Pairs are sorted by
// name, words kept in order; a suffix that is not a query string gives
// neither.
func splitPathKey(key string) (path string, pairs []FixedHeader, words []string) {
	path, suffix := key, ""
	if i := strings.IndexAny(key, "#?"); i >= 0 {
		path, suffix = key[:i], key[i+1:]
	}
	if path == "" {
		path = "/"
	}
	if _, err := url.ParseQuery(suffix); err != nil {
		return path, nil, nil
	}
	for _, item := range strings.Split(suffix, "&") {
		k, v, hasValue := strings.Cut(item, "=")
		k, _ = url.QueryUnescape(k)
		v, _ = url.QueryUnescape(v)
		switch {
		case k == "":
		case hasValue:
			if !slices.ContainsFunc(pairs, func(p FixedHeader) bool { return p.Name == k }) {
				pairs = append(pairs, FixedHeader{Name: k, Value: v})
			}
		default:
			words = append(words, k)
		}
	}
	slices.SortFunc(pairs, func(x, y FixedHeader) int { return strings.Compare(x.Name, y.Name) })
	return path, pairs, words
}

// opParams is what an operation's parameters became.
type opParams struct {
	fields  []Field // input fields, in spec order
	params  []Param
	headers []FixedHeader // fixed headers
	query   []FixedHeader // fixed query parameters
	flags   []string      // fixed query flags, sent bare ("?tagging"), sorted
	// accept and contentType are the input fields overriding the Accept
	// header and the body's media type ("" for none).
	accept, contentType string
}

// Content negotiation headers (OpenAPI 3.0 §4.7.12: header parameters named
// Accept, Content-Type or Authorization are ignored; this generator keeps
// Accept and Content-Type as overrides, see params).
const (
	headerAccept      = "Accept"
	headerContentType = "Content-Type"
)

// params collects the parameters of the operation at path (path-level ones
// first; an operation-level parameter replaces a path-level one with the
// same name and location).
//
//   - Required one-value enums in a header or the query are sent
//     automatically (X-Amz-Target, Action, Version); a query one whose value
//     is the boolean true is sent as a bare flag ("?tagging", S3's
//     subresources).
//   - The "k=v" pairs of the path key's suffix are sent as fixed query
//     parameters unless a parameter (header or query) has that name: then
//     the parameter alone is sent. The suffix's bare words are dropped.
//   - Accept is sent with the 2xx response media types (acceptValue); a
//     declared Accept header parameter becomes an optional input field
//     overriding it, with a warning naming the field. A declared
//     Content-Type header parameter becomes an optional field overriding
//     the request body's media type when the operation has a body, and is
//     ignored (with a warning) when it has none: Content-Type is never a
//     fixed header and is sent only with a body.
//   - Authorization and the other headers a request signer owns
//     (openapi.IsSignerHeader) get no field: the auth options or the
//     BeforeAttempt hook set them on each attempt.
//   - Every other parameter, x-amz-* headers included, becomes an input
//     field named after it.
func (b *builder) params(path, opPtr, opName string, op *openapi3.Operation) opParams {
	type located struct {
		p   *openapi3.Parameter
		ptr string
	}
	var all []located
	add := func(params openapi3.Parameters, ptr string) {
		for i, pr := range params {
			pptr := child(ptr, strconv.Itoa(i))
			if pr == nil || pr.Value == nil {
				b.d.warnf(pptr, "parameter cannot be resolved; skipped")
				continue
			}
			idx := slices.IndexFunc(all, func(l located) bool { return l.p.In == pr.Value.In && l.p.Name == pr.Value.Name })
			if idx >= 0 {
				all[idx] = located{pr.Value, pptr}
				continue
			}
			all = append(all, located{pr.Value, pptr})
		}
	}
	add(b.api.Paths.Value(path).Parameters, pointer("paths", path, "parameters"))
	add(op.Parameters, child(opPtr, "parameters"))

	var out opParams
	ns := namespace{}
	path0, _, _ := splitPathKey(path)
	names := placeholders(path0)
	accept := acceptValue(op)
	hasBody := op.RequestBody != nil && op.RequestBody.Value != nil && len(op.RequestBody.Value.Content) > 0
	for _, l := range all {
		p := l.p
		canon := http.CanonicalHeaderKey(p.Name)
		if p.In == "header" && !b.checkHeaderName(p.Name, l.ptr) ||
			p.In == "cookie" && !b.checkCookieName(p.Name, l.ptr, "the parameter is skipped") {
			continue
		}
		if p.In == "header" {
			switch {
			case canon == headerContentType && !hasBody:
				b.d.warnf(l.ptr, "header parameter Content-Type on an operation without a request body is ignored: Content-Type is sent only with a body")
				continue
			case canon == headerAccept || canon == headerContentType:
				if p.Schema == nil {
					b.d.warnf(l.ptr, "header parameter %q has no schema; ignored", p.Name)
					continue
				}
				f, prm := b.paramField(p, l.ptr, opName, ns)
				f.Required, f.Type = false, TypeRef{Kind: RefScalar, Scalar: ScalarString}
				what, dflt := "the Accept header", accept
				if canon == headerContentType {
					what, dflt = "the request body's media type", ""
					out.contentType = f.Name
				} else {
					out.accept = f.Name
				}
				switch {
				case dflt != "":
					f.Doc += "\n\nOverrides " + what + "; nil sends " + strconv.Quote(dflt) + "."
				default:
					f.Doc += "\n\nOverrides " + what + " when set."
				}
				if d := schemaDefault(p); d != "" {
					f.Doc += " The spec's default, " + strconv.Quote(d) + ", is not sent."
				}
				b.d.warnf(l.ptr, "header parameter %q (OpenAPI says to ignore it) is the optional input field %s.%s, overriding %s", p.Name, opName+"Input", f.Name, what)
				out.fields = append(out.fields, f)
				if canon == headerAccept {
					out.params = append(out.params, prm)
				}
				continue
			case openapi.IsSignerHeader(canon):
				continue // the auth options or the signer (BeforeAttempt) set it
			}
		}
		if v, ok := fixedValue(p); ok && (p.In == "header" || p.In == "query") {
			switch {
			case p.In == "header":
				out.headers = append(out.headers, FixedHeader{Name: canon, Value: v})
			case v == "true" && isBooleanSchema(p):
				out.flags = append(out.flags, p.Name)
			default:
				out.query = append(out.query, FixedHeader{Name: p.Name, Value: v})
			}
			continue
		}
		switch {
		case p.In != "path" && p.In != "query" && p.In != "header" && p.In != "cookie":
			b.d.warnf(l.ptr, "parameter location %q is not path, query, header or cookie; skipped", p.In)
			continue
		case p.Schema == nil:
			b.d.warnf(l.ptr, "parameter %q has no schema (content parameters are not supported); skipped", p.Name)
			continue
		case p.In == "path" && !slices.Contains(names, p.Name):
			continue // skipUnfilledPlaceholders warned: it would never be sent
		}
		f, prm := b.paramField(p, l.ptr, opName, ns)
		out.fields = append(out.fields, f)
		out.params = append(out.params, prm)
	}
	if accept != "" {
		out.headers = append(out.headers, FixedHeader{Name: headerAccept, Value: accept})
	}
	_, keyPairs, _ := splitPathKey(path)
	for _, kp := range keyPairs {
		if slices.ContainsFunc(all, func(l located) bool {
			return (l.p.In == "header" || l.p.In == "query") && strings.EqualFold(l.p.Name, kp.Name)
		}) {
			continue // the declared parameter is sent, once
		}
		out.query = append(out.query, kp)
	}
	sortFixed := func(x, y FixedHeader) int { return strings.Compare(x.Name, y.Name) }
	slices.SortFunc(out.headers, sortFixed)
	slices.SortFunc(out.query, sortFixed)
	slices.Sort(out.flags)
	return out
}

// acceptValue is the Accept header an operation sends: the media types of
// its 2xx responses, the one there is, or all of them, JSON first (pickMedia's
// order), joined with ", "; "" when no 2xx response has content.
func acceptValue(op *openapi3.Operation) string {
	if op.Responses == nil {
		return ""
	}
	all := openapi3.Content{}
	for code, r := range op.Responses.Map() {
		if is2xx(code) && r != nil && r.Value != nil {
			for mt, m := range r.Value.Content {
				all[mt] = m
			}
		}
	}
	first, _, others := pickMedia(all)
	if first == "" {
		return ""
	}
	return strings.Join(append([]string{first}, others...), ", ")
}

// schemaDefault renders a parameter schema's default ("" for none).
func schemaDefault(p *openapi3.Parameter) string {
	if p.Schema == nil || p.Schema.Value == nil || p.Schema.Value.Default == nil {
		return ""
	}
	return fmt.Sprint(p.Schema.Value.Default)
}

// isBooleanSchema reports a parameter whose schema's type is boolean.
func isBooleanSchema(p *openapi3.Parameter) bool {
	if p.Schema == nil || p.Schema.Value == nil {
		return false
	}
	typ, _ := schemaType(p.Schema.Value)
	return typ == "boolean"
}

// fixedValue returns the value of a required parameter whose schema is a
// one-value enum of a string or a boolean (rendered "true"/"false").
func fixedValue(p *openapi3.Parameter) (string, bool) {
	if !p.Required || p.Schema == nil || p.Schema.Value == nil || len(p.Schema.Value.Enum) != 1 {
		return "", false
	}
	switch v := p.Schema.Value.Enum[0].(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	}
	return "", false
}

// paramField makes the input field of a parameter and its serialisation:
// style and explode as given, else OpenAPI's defaults (path and header:
// simple; query and cookie: form, exploded).
func (b *builder) paramField(p *openapi3.Parameter, ptr, opName string, ns namespace) (Field, Param) {
	base := goName(p.Name, false)
	name, renamed := ns.claim(base)
	if renamed {
		b.d.warnf(ptr, "Go field name %s is taken by another parameter; using %s", base, name)
	}
	style := p.Style
	if style == "" {
		style = map[string]string{"path": "simple", "header": "simple", "query": "form", "cookie": "form"}[p.In]
	}
	explode := style == "form"
	if p.Explode != nil {
		explode = *p.Explode
	}
	if p.AllowReserved {
		b.d.warnf(child(ptr, "allowReserved"), "allowReserved is not supported: reserved characters in %q are percent-encoded", p.Name)
	}
	doc := "Sent as the " + p.In + " parameter " + strconv.Quote(p.Name) + "."
	if p.In == "header" && http.CanonicalHeaderKey(p.Name) == "Content-Length" {
		doc += " It is the request body's length on the wire: a body that cannot seek is sent with it rather than chunked, and a body of another length, over or under, ends the call with a *runtime.ContentLengthError before the server has a complete request."
	}
	if p.Description != "" {
		doc += "\n\n" + p.Description
	}
	f := Field{
		Name:     name,
		JSONName: p.Name,
		Doc:      doc,
		Type:     nonNull(b.schemaRef(p.Schema, child(ptr, "schema"), opName+base)),
		Required: p.Required || p.In == "path",
		In:       p.In,
	}
	prm := Param{Field: name, Name: p.Name, In: p.In, Style: style, Explode: explode}
	if b.aws && p.In == "header" && f.Type.Kind == RefScalar && f.Type.Scalar == ScalarTime {
		// Smithy's rule for @httpHeader timestamps, which aws2openapi's
		// format: date-time does not carry (new-user trial 3, F2).
		prm.TimeFormat = "http-date"
		f.Doc += "\n\nSent as an HTTP date (\"Wed, 02 Jan 2030 02:04:05 GMT\"), the AWS protocols' header timestamp format."
		if awsDateTimeHeader(p.Name) {
			prm.TimeFormat = "date-time"
			f.Doc = strings.Replace(f.Doc, "as an HTTP date (\"Wed, 02 Jan 2030 02:04:05 GMT\"), the AWS protocols' header timestamp format.",
				"in RFC 3339 in UTC (\"2030-01-02T02:04:05Z\"), as the service's Smithy model says (@timestampFormat(\"date-time\")).", 1)
		}
	}
	return f, prm
}

// awsDateTimeHeader reports the header timestamps that Smithy models of
// AWS REST services mark @timestampFormat("date-time"), which aws2openapi
// drops: S3's ObjectLockRetainUntilDate (x-amz-object-lock-retain-until-date,
// also forwarded by WriteGetObjectResponse). Every other header timestamp
// of an aws2openapi REST spec is an HTTP date, Smithy's default.
func awsDateTimeHeader(name string) bool {
	return strings.HasSuffix(strings.ToLower(name), "x-amz-object-lock-retain-until-date")
}

// checkCookieName reports whether name can be a cookie's name (RFC 6265
// §4.1.1 cookie-name: an RFC 9110 token); if not, a located warning says
// what is skipped: sent raw, "tok;en=v" is two cookies to the server
// (third new-user trial F6).
func (b *builder) checkCookieName(name, ptr, skipped string) bool {
	if isToken(name) {
		return true
	}
	b.d.warnf(ptr, "cookie name %q is not an RFC 6265 cookie-name (a token: no ; = , space or quote); %s", name, skipped)
	return false
}

// checkHeaderName reports whether name can be an HTTP header name (an RFC
// 9110 token); if not, a located error refuses it: no request could carry
// it, so every call would fail at run time (trial F14).
func (b *builder) checkHeaderName(name, ptr string) bool {
	if isToken(name) {
		return true
	}
	b.d.errorf(ptr, "header name %q is not an HTTP header name (RFC 9110 token); no request could carry it", name)
	return false
}
