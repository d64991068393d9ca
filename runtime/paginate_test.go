package runtime

import (
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNextLink parses RFC 8288 Link headers as GitHub sends them.
func TestNextLink(t *testing.T) {
	gh := `<https://api.github.com/repositories/1300192/issues?page=2>; rel="next", <https://api.github.com/repositories/1300192/issues?page=515>; rel="last"`
	next, ok := NextLink([]string{gh})
	require.True(t, ok)
	require.Equal(t, "https://api.github.com/repositories/1300192/issues?page=2", next)

	next, ok = NextLink([]string{`<https://x/?a=1>; rel="prev first"`, `<https://x/?a=3>; title="a, b; c"; REL="last Next"`})
	require.True(t, ok, "rel lists, case, quoted commas and a second header line")
	require.Equal(t, "https://x/?a=3", next)

	_, ok = NextLink([]string{`<https://x/?page=1>; rel="prev", <https://x/?page=9>; rel="last"`})
	require.False(t, ok)
	_, ok = NextLink(nil)
	require.False(t, ok)
	_, ok = NextLink([]string{`garbage; rel=next`, `<unterminated; rel=next`})
	require.False(t, ok)
}

// TestNextPageQuery returns the next URL's query, or a located error.
func TestNextPageQuery(t *testing.T) {
	q, err := NextPageQuery("ListIssues", "https://api.github.com/repositories/1/issues?page=2&per_page=30")
	require.NoError(t, err)
	require.Equal(t, url.Values{"page": {"2"}, "per_page": {"30"}}, q)
	_, err = NextPageQuery("ListIssues", "http://[::1")
	var npe *NextPageError
	require.ErrorAs(t, err, &npe)
	require.Equal(t, "ListIssues", npe.Operation)
	e := &NextPageError{Operation: "ListIssues", URL: "https://x/?cursor=1", Param: "cursor", Err: ErrUndeclaredParameter}
	require.Equal(t, `ListIssues: next page https://x/?cursor=1: query parameter "cursor": not a query parameter of the operation`, e.Error())
	require.True(t, errors.Is(e, ErrUndeclaredParameter))
}

// TestKeepHeader stores the header before decoding.
func TestKeepHeader(t *testing.T) {
	var got []string
	resp := &http.Response{Header: http.Header{"Link": {`<a>; rel="next"`}}}
	require.NoError(t, KeepHeader(nil, "Link", &got)(resp))
	require.Equal(t, []string{`<a>; rel="next"`}, got)
	called := false
	dec := func(*http.Response) error { called = true; return nil }
	require.NoError(t, KeepHeader(dec, "Link", nil)(resp))
	require.True(t, called)
}
