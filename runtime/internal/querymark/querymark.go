// Package querymark holds the one definition of the query separator mark
// that runtime/openapi's AppendQuery puts before each separator a parameter
// style adds between values (form explode=false ",", pipeDelimited "|",
// spaceDelimited " "), and of the encoding that turns a marked separator
// into the literal separator on the wire while the same character inside a
// value stays escaped (RFC 6570 §3.2.8). Both runtime (the endpoint's and a
// next-page link's query, the merged query of every attempt) and
// runtime/openapi (AppendQuery, EncodeQuery, Credentials.Apply) use it. It
// imports only the standard library; generated code never imports it (it
// calls runtime/openapi).
package querymark

import (
	"net/url"
	"strings"
)

// Mark is U+FDD0, a Unicode noncharacter (reserved for a program's internal
// use, never meaningful text). In a url.Values it precedes each separator a
// style adds; a mark that is data is doubled (Quote).
const Mark = "\uFDD0"

// escaped is Mark as url.QueryEscape writes it.
const escaped = "%EF%B7%90"

// Quote returns s with each Mark doubled, as every key and value a query
// gets must be unless it is AppendQuery's own mark before a separator:
// encoding turns a doubled mark back into one (sent escaped, as data) and
// leaves the escaped character after it escaped. s itself is returned (no
// allocation) when it holds no mark.
func Quote(s string) string {
	if !strings.Contains(s, Mark) {
		return s
	}
	return strings.ReplaceAll(s, Mark, Mark+Mark)
}

// QuoteValues returns q with Quote applied to each key and value, for a
// query that did not come from AppendQuery (an endpoint's, a next-page
// link's): there a mark is data and must reach the wire as it is. q itself
// is returned when it holds no mark.
func QuoteValues(q url.Values) url.Values {
	found := false
	for k, vs := range q {
		found = found || strings.Contains(k, Mark)
		for _, v := range vs {
			found = found || strings.Contains(v, Mark)
		}
	}
	if !found {
		return q
	}
	out := make(url.Values, len(q))
	for k, vs := range q {
		qs := make([]string, len(vs))
		for i, v := range vs {
			qs[i] = Quote(v)
		}
		out[Quote(k)] = qs
	}
	return out
}

// Literal returns the query-encoded s with each escaped Mark and the
// escaped separator after it ("%2C", "%7C", "+") replaced with the literal
// separator (",", "|", "%20"), and each escaped doubled mark (a mark that
// is data) with one escaped mark. s itself is returned (no allocation) when
// it holds no mark.
func Literal(s string) string {
	if !strings.Contains(s, escaped) {
		return s
	}
	return replacer.Replace(s)
}

// replacer is Literal's rule.
var replacer = strings.NewReplacer(escaped+escaped, escaped, escaped+"%2C", ",", escaped+"%7C", "|", escaped+"+", "%20")

// Encode is url.Values.Encode with the marked separators literal (Literal).
func Encode(q url.Values) string {
	return Literal(q.Encode())
}
