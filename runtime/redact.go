package runtime

import (
	"errors"
	"net/url"
	"strings"
)

// redacted replaces a credential, or what may be one, in the errors the
// runtime returns and logs.
const redacted = "REDACTED"

// redactTransportError rewrites, in place, the URL of the *url.Error in
// err's chain (net/http's error for a failed request) so that no query
// value and no userinfo appear in its text: a security scheme may put an
// API key in the query (OpenAPI 3.0 §4.7.27, in: query), a presigned
// signature rides there too, and the runtime cannot tell them from other
// parameters, so every value is replaced with REDACTED (names and the order
// sent are kept; bare flags such as S3's "?tagging" stay). The chain is
// untouched: errors.As still finds the *url.Error and errors.Is its cause
// (a context's error). It returns err.
func redactTransportError(err error) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		ue.URL = redactURL(ue.URL)
	}
	return err
}

// redactURL returns s with its userinfo and each query value replaced with
// REDACTED. When s does not parse, the same parts are found by their
// delimiters instead (userinfo: up to the last "@" of the authority after
// "://"; the query: after the first "?", up to a "#"), so an error can
// still show the rest of what was given.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return redactUnparsed(s)
	}
	if u.User != nil {
		u.User = url.User(redacted)
	}
	if u.RawQuery != "" {
		u.RawQuery = redactQuery(u.RawQuery)
	}
	return u.String()
}

// redactQuery replaces each value of a raw query with REDACTED, keeping
// the names, their order and bare flags.
func redactQuery(q string) string {
	var b strings.Builder
	for i, kv := range strings.Split(q, "&") {
		if i > 0 {
			b.WriteByte('&')
		}
		name, _, hasValue := strings.Cut(kv, "=")
		b.WriteString(name)
		if hasValue {
			b.WriteString("=" + redacted)
		}
	}
	return b.String()
}

// redactUnparsed is redactURL for a string url.Parse refuses. Where the
// parse failed is unknown, so it assumes the worst: everything between the
// scheme's "://" (or the start) and the last "@" of the whole string is
// userinfo (a password may hold "#", "?" or "/"), and a fragment is
// REDACTED whole (it may carry a token).
func redactUnparsed(s string) string {
	start := 0
	if i := strings.Index(s, "://"); i >= 0 {
		start = i + 3
	}
	if at := strings.LastIndexByte(s, '@'); at >= start {
		s = s[:start] + redacted + s[at:]
	}
	rest, _, hasFragment := strings.Cut(s, "#")
	rest, query, hasQuery := strings.Cut(rest, "?")
	if hasQuery {
		rest += "?" + redactQuery(query)
	}
	if hasFragment {
		rest += "#" + redacted
	}
	return rest
}
