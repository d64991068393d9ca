package runtime

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/retrygen/retrygen/runtime/internal/querymark"
)

// This file holds what generated paginators of style link need: the
// response's Link header kept from a call, and the next page's URL parsed
// from it (RFC 8288, Web Linking) or from an output member (Azure's
// x-ms-pageable nextLink). A page is one call of the operation through
// Client.Do; nothing here sends requests.

// KeepHeader returns decode wrapped so that a 2xx response's values of the
// header name are stored in *dst before decode runs (decode nil: the body is
// not read). A nil dst returns decode unchanged.
func KeepHeader(decode func(*http.Response) error, name string, dst *[]string) func(*http.Response) error {
	if dst == nil {
		return decode
	}
	return func(resp *http.Response) error {
		*dst = resp.Header.Values(name)
		if decode == nil {
			return nil
		}
		return decode(resp)
	}
}

// NextLink returns the target of the first link whose rel includes "next"
// in the Link header values (RFC 8288 §3: `<URI>; rel="next"`, several links
// comma-separated, rel a space-separated list, compared case-insensitively),
// and whether there is one.
func NextLink(values []string) (string, bool) {
	for _, v := range values {
		for len(v) > 0 {
			v = strings.TrimLeft(v, " \t,")
			if !strings.HasPrefix(v, "<") {
				break
			}
			end := strings.IndexByte(v, '>')
			if end < 0 {
				break
			}
			target := v[1:end]
			v = v[end+1:]
			// Parameters up to the next link (a comma outside quotes).
			params, rest := splitLinkParams(v)
			v = rest
			for _, p := range params {
				name, val, _ := strings.Cut(p, "=")
				if !strings.EqualFold(strings.TrimSpace(name), "rel") {
					continue
				}
				for _, rel := range strings.Fields(strings.Trim(strings.TrimSpace(val), `"`)) {
					if strings.EqualFold(rel, "next") {
						return target, true
					}
				}
			}
		}
	}
	return "", false
}

// splitLinkParams splits `; a=b; c="d,e", <next>…` into the parameters of
// the current link and the rest after its comma.
func splitLinkParams(s string) (params []string, rest string) {
	inQuote := false
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			inQuote = !inQuote
		case ';':
			if !inQuote {
				if p := strings.TrimSpace(s[start:i]); p != "" {
					params = append(params, p)
				}
				start = i + 1
			}
		case ',':
			if !inQuote {
				if p := strings.TrimSpace(s[start:i]); p != "" {
					params = append(params, p)
				}
				return params, s[i+1:]
			}
		}
	}
	if p := strings.TrimSpace(s[start:]); p != "" {
		params = append(params, p)
	}
	return params, ""
}

// NextPageQuery returns the query parameters of the next page's URL, which
// a link-style paginator sets on the operation's input by name. It returns
// a *NextPageError when the URL does not parse.
func NextPageQuery(op, next string) (url.Values, error) {
	u, err := url.Parse(next)
	if err != nil {
		return nil, &NextPageError{Operation: op, URL: next, Err: err}
	}
	return querymark.QuoteValues(u.Query()), nil
}

// RepeatedPageError ends the pages of an offset or page-number paginator
// (one that computes the next page's parameter itself, so no repeated token
// can show a server repeating itself) after a page whose items equal the
// page's before it: a server that ignores the parameter would send that
// page forever. Pages that legitimately hold the same items end here too,
// never silently: the error names the input field and the value that
// reads on. The iterator stops after yielding it; every page before it,
// the repeated one included, was yielded.
type RepeatedPageError struct {
	// Operation is the operation's name; Field the input field the
	// paginator advances (Go name); Next its value for the page after the
	// repeated one (an offset in items, or a page number).
	Operation, Field string
	Next             int64
}

// Error names the operation, the field and where to read on.
func (e *RepeatedPageError) Error() string {
	return fmt.Sprintf("%s: the page holds the same items as the page before it, as a server ignoring %s would send forever; the pages stop here (to read on, call again with %s = %d)", e.Operation, e.Field, e.Field, e.Next)
}

// NextPageError is returned by a link-style paginator when the next page's
// URL cannot be followed: it does not parse, it carries a query parameter
// the operation does not declare (Param set), or a value does not convert
// to the parameter's type. The iterator stops after yielding it; the pages
// before it were good.
type NextPageError struct {
	// Operation is the operation's name; URL the next page's URL; Param
	// the query parameter concerned ("" when the URL does not parse).
	Operation, URL, Param string
	Err                   error
}

// Error names the waiter (or operation), what happened and the cause.
func (e *NextPageError) Error() string {
	if e.Param != "" {
		return fmt.Sprintf("%s: next page %s: query parameter %q: %v", e.Operation, e.URL, e.Param, e.Err)
	}
	return fmt.Sprintf("%s: next page %s: %v", e.Operation, e.URL, e.Err)
}

// Unwrap returns the cause.
func (e *NextPageError) Unwrap() error { return e.Err }

// ErrUndeclaredParameter is the cause of a *NextPageError whose URL carries
// a query parameter the operation does not declare: the paginator cannot
// send it, so it stops rather than fetch a different page.
var ErrUndeclaredParameter = fmt.Errorf("not a query parameter of the operation")
