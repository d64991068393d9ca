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
// REDACTED; REDACTED alone when s does not parse.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return redacted
	}
	if u.User != nil {
		u.User = url.User(redacted)
	}
	if u.RawQuery != "" {
		var b strings.Builder
		for i, kv := range strings.Split(u.RawQuery, "&") {
			if i > 0 {
				b.WriteByte('&')
			}
			name, _, hasValue := strings.Cut(kv, "=")
			b.WriteString(name)
			if hasValue {
				b.WriteString("=" + redacted)
			}
		}
		u.RawQuery = b.String()
	}
	return u.String()
}
