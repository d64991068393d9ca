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
