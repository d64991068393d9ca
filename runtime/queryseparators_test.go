package runtime

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/retrygen/retrygen/runtime/openapi"
	"github.com/stretchr/testify/require"
)

// The separators a parameter style adds between values stay literal on the
// wire while the same characters inside values are escaped (RFC 6570;
// new-user trial item 10: ["a,b","c"] and ["a","b","c"] were the same
// bytes): the runtime encodes Request.Query as openapi.EncodeQuery does,
// also merged with the endpoint's own query.
func TestQuerySeparatorsStayLiteralOnTheWire(t *testing.T) {
	q := url.Values{}
	openapi.AppendQuery(q, "tags", []string{"a,b", "c"}, openapi.StyleForm, false)
	openapi.AppendQuery(q, "pipes", []string{"p|q", "r"}, openapi.StylePipeDelimited, false)
	openapi.AppendQuery(q, "ids", []int{1, 2}, openapi.StyleSpaceDelimited, false)
	openapi.AppendQuery(q, "s", "x y", openapi.StyleForm, true)
	const want = "ids=1%202&pipes=p%7Cq|r&s=x+y&tags=a%2Cb,c"
	require.Equal(t, want, openapi.EncodeQuery(q))
	for _, endpoint := range []string{"http://svc.test", "http://svc.test/?k=v"} {
		sc := script(status(200))
		c, err := NewClient(testService(), endpoint, Options{HTTPClient: sc})
		require.NoError(t, err)
		_, err = c.Do(context.Background(), opGet, &Request{Method: http.MethodGet, Path: "/items", Query: q}, nil, nil)
		require.NoError(t, err)
		got := "http://svc.test/items?" + want
		if endpoint != "http://svc.test" {
			got = "http://svc.test/items?ids=1%202&k=v&pipes=p%7Cq|r&s=x+y&tags=a%2Cb,c"
		}
		require.Equal(t, got, sc.requests()[0].url)
	}
}

// A U+FDD0 (openapi.SeparatorMark) that is data, in a value the runtime did
// not get from openapi.AppendQuery (the endpoint's query, a next-page
// link's query), goes out escaped and leaves the escaped separator after it
// escaped: only AppendQuery's own marks become literal separators.
func TestQueryMarksFromElsewhereStayData(t *testing.T) {
	next, err := NextPageQuery("ListItems", "http://svc.test/items?after=x%EF%B7%90%2Cy")
	require.NoError(t, err)
	sc := script(status(200))
	c, err := NewClient(testService(), "http://svc.test/?k=a%EF%B7%90%7Cb", Options{HTTPClient: sc})
	require.NoError(t, err)
	_, err = c.Do(context.Background(), opGet, &Request{Method: http.MethodGet, Path: "/items", Query: next}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, "http://svc.test/items?after=x%EF%B7%90%2Cy&k=a%EF%B7%90%7Cb", sc.requests()[0].url)
}

// On the wire, a query API key (openapi.APIKey, a BeforeAttempt hook) is
// added to the query as the runtime built it: the style's literal
// separators stay literal on that path too (it used to re-encode the query,
// sending "tags=a%2Cb%2Cc"), and every attempt carries the key once.
func TestQueryAPIKeyKeepsLiteralSeparatorsOnTheWire(t *testing.T) {
	q := url.Values{}
	openapi.AppendQuery(q, "tags", []string{"a,b", "c"}, openapi.StyleForm, false)
	openapi.AppendQuery(q, "ids", []int{1, 2}, openapi.StyleSpaceDelimited, false)
	sc := script(status(503), status(200))
	c, err := NewClient(testService(), "http://svc.test/?k=v", Options{HTTPClient: sc, BeforeAttempt: openapi.APIKey(openapi.APIKeyInQuery, "api_key", "s3cr3t")})
	require.NoError(t, err)
	_, err = c.Do(context.Background(), opGet, &Request{Method: http.MethodGet, Path: "/items", Query: q}, nil, nil)
	require.NoError(t, err)
	reqs := sc.requests()
	require.Len(t, reqs, 2)
	for _, r := range reqs {
		require.Equal(t, "http://svc.test/items?ids=1%202&k=v&tags=a%2Cb,c&api_key=s3cr3t", r.url)
	}
}
