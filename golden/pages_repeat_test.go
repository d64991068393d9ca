package golden_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/pages"
)

// repeating answers every request with the same header and body, whatever
// the query asks for, and records the request URIs.
type repeating struct {
	mu    sync.Mutex
	link  string
	body  string
	paths []string
}

func (s *repeating) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.paths = append(s.paths, r.URL.RequestURI())
	if len(s.paths) > 10 {
		w.WriteHeader(http.StatusGone) // a runaway paginator ends the test with an error
		return
	}
	if s.link != "" {
		w.Header().Set("Link", s.link)
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, s.body)
}

// A server that repeats itself ends the pages of every style after the
// repeated page, as a token repeating the one sent does (aws-sdk-go-v2's
// StopOnDuplicateToken; new-user trial item 5): the same next link, the
// same cursor, or — offset — the same items whatever the offset.
func TestPaginatorsStopWhenTheServerRepeatsItself(t *testing.T) {
	t.Parallel()
	run := func(srv *repeating, items func(c *pages.Client) int) []string {
		hs := httptest.NewServer(srv)
		defer hs.Close()
		c, err := pages.New(hs.URL)
		require.NoError(t, err)
		require.Equal(t, 2, items(c))
		return srv.paths
	}
	count := func(seq func(yield func(error) bool)) int {
		n := 0
		for err := range seq {
			require.NoError(t, err)
			n++
		}
		return n
	}
	link := &repeating{link: `</repos/o/r/issues?page=3>; rel="next"`, body: `[{"number":1}]`}
	require.Equal(t, []string{"/repos/o/r/issues", "/repos/o/r/issues?page=3"}, run(link, func(c *pages.Client) int {
		return count(func(yield func(error) bool) {
			for _, err := range c.ListIssuesItems(context.Background(), &pages.ListIssuesInput{Owner: "o", Repo: "r"}) {
				if !yield(err) {
					return
				}
			}
		})
	}))
	cursor := &repeating{body: `{"object":"list","has_more":true,"url":"/v1/customers","data":[{"id":"same"}]}`}
	require.Equal(t, []string{"/v1/customers", "/v1/customers?starting_after=same"}, run(cursor, func(c *pages.Client) int {
		return count(func(yield func(error) bool) {
			for _, err := range c.ListCustomersItems(context.Background(), nil) {
				if !yield(err) {
					return
				}
			}
		})
	}))
	offset := &repeating{body: `{"data":[{"id":"a"},{"id":"b"}]}`}
	require.Equal(t, []string{"/v1/events", "/v1/events?offset=2"}, run(offset, func(c *pages.Client) int {
		n := 0
		for _, err := range c.ListEventsItems(context.Background(), nil) {
			require.NoError(t, err)
			n++
		}
		return n / 2
	}))
}
