package generator

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// splitPathKey splits a path key into the URL path and the fixed pairs of
// its "#k=v&…" or "?k=v&…" suffix (the aws2openapi trick:
// "/#Action=SendMessage" → "/", Action=SendMessage). Pairs are sorted by
// name; a suffix that is not a query string gives no pairs.
func splitPathKey(key string) (string, []FixedHeader) {
	path, suffix := key, ""
	if i := strings.IndexAny(key, "#?"); i >= 0 {
		path, suffix = key[:i], key[i+1:]
	}
	if path == "" {
		path = "/"
	}
	values, err := url.ParseQuery(suffix)
	if err != nil {
		return path, nil
	}
	var pairs []FixedHeader
	for _, k := range sortedKeys(values) {
		if k != "" && len(values[k]) > 0 {
			pairs = append(pairs, FixedHeader{Name: k, Value: values[k][0]})
		}
	}
	return path, pairs
}

// opParams is what an operation's parameters became.
type opParams struct {
	fields  []Field // input fields, in spec order
	params  []Param
	headers []FixedHeader // fixed headers
	query   []FixedHeader // fixed query parameters
}

// ignoredHeaders are header parameters OpenAPI 3.0 §4.7.12 says to ignore:
// the body's media type and authentication are set elsewhere.
var ignoredHeaders = []string{"Accept", "Content-Type", "Authorization"}

// params collects the parameters of the operation at path (path-level ones
// first; an operation-level parameter replaces a path-level one with the
// same name and location). Required one-value string enums in a header or
// the query are sent automatically (X-Amz-Target, Action, Version), as are
// the pairs of the path key's suffix unless a header parameter has that
// name; optional X-Amz-* headers belong to the request signer (the
// BeforeAttempt hook) and are skipped; every other parameter becomes an
// input field named after it.
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
	for _, l := range all {
		p := l.p
		if v, ok := fixedValue(p); ok && (p.In == "header" || p.In == "query") {
			if p.In == "header" {
				out.headers = append(out.headers, FixedHeader{Name: http.CanonicalHeaderKey(p.Name), Value: v})
			} else {
				out.query = append(out.query, FixedHeader{Name: p.Name, Value: v})
			}
			continue
		}
		switch {
		case p.In == "header" && !p.Required && strings.HasPrefix(strings.ToLower(p.Name), "x-amz-"):
			continue // signing header: the request hook sets it
		case p.In == "header" && slices.Contains(ignoredHeaders, http.CanonicalHeaderKey(p.Name)):
			continue
		case p.In != "path" && p.In != "query" && p.In != "header" && p.In != "cookie":
			b.d.warnf(l.ptr, "parameter location %q is not path, query, header or cookie; skipped", p.In)
			continue
		case p.Schema == nil:
			b.d.warnf(l.ptr, "parameter %q has no schema (content parameters are not supported); skipped", p.Name)
			continue
		}
		f, prm := b.paramField(p, l.ptr, opName, ns)
		out.fields = append(out.fields, f)
		out.params = append(out.params, prm)
	}
	_, keyPairs := splitPathKey(path)
	for _, kp := range keyPairs {
		clash := func(h FixedHeader) bool { return strings.EqualFold(h.Name, kp.Name) }
		if slices.ContainsFunc(out.headers, clash) || slices.ContainsFunc(out.query, clash) ||
			slices.ContainsFunc(all, func(l located) bool { return l.p.In == "header" && strings.EqualFold(l.p.Name, kp.Name) }) {
			continue
		}
		out.query = append(out.query, kp)
	}
	sortFixed := func(x, y FixedHeader) int { return strings.Compare(x.Name, y.Name) }
	slices.SortFunc(out.headers, sortFixed)
	slices.SortFunc(out.query, sortFixed)
	return out
}

// fixedValue returns the value of a required parameter whose schema is a
// one-value string enum.
func fixedValue(p *openapi3.Parameter) (string, bool) {
	if !p.Required || p.Schema == nil || p.Schema.Value == nil || len(p.Schema.Value.Enum) != 1 {
		return "", false
	}
	v, ok := p.Schema.Value.Enum[0].(string)
	return v, ok
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
	doc := "Sent as the " + p.In + " parameter " + strconv.Quote(p.Name) + "."
	if p.Description != "" {
		doc += "\n\n" + p.Description
	}
	f := Field{
		Name:     name,
		JSONName: p.Name,
		Doc:      doc,
		Type:     b.schemaRef(p.Schema, child(ptr, "schema"), opName+base),
		Required: p.Required || p.In == "path",
		In:       p.In,
	}
	return f, Param{Field: name, Name: p.Name, In: p.In, Style: style, Explode: explode}
}
