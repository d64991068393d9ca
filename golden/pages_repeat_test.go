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
	"github.com/retrygen/retrygen/runtime"
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
			if err != nil {
				require.EqualError(t, err, repeatedAt4)
				break
			}
			n++
		}
		return n / 2
	}))
}

// repeatedAt4 is the error ending ListEvents' pages when the page at offset
// 2 holds the page at offset 0's items.
const repeatedAt4 = "ListEvents: the page holds the same items as the page before it, as a server ignoring Offset would send forever; the pages stop here (to read on, call again with Offset = 4)"

// An offset paginator computes the next offset itself, so only the items
// can show a server ignoring it; pages that legitimately hold the same
// items look the same. The pages then end with a *runtime.RepeatedPageError
// naming where to read on, never silently (they stopped silently, losing
// the pages after).
func TestOffsetPagesWithIdenticalItemsEndWithAnError(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var sent []string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent = append(sent, r.URL.RequestURI())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Query().Get("offset") {
		case "", "2":
			io.WriteString(w, `{"data":[{"id":"a"},{"id":"b"}]}`)
		case "4":
			io.WriteString(w, `{"data":[{"id":"c"}]}`)
		default:
			io.WriteString(w, `{"data":[]}`)
		}
	}))
	defer hs.Close()
	c, err := pages.New(hs.URL)
	require.NoError(t, err)
	var got []string
	var end error
	for item, err := range c.ListEventsItems(context.Background(), nil) {
		if err != nil {
			end = err
			break
		}
		got = append(got, item.Id)
	}
	require.Equal(t, []string{"a", "b", "a", "b"}, got)
	var rp *runtime.RepeatedPageError
	require.ErrorAs(t, end, &rp)
	require.Equal(t, runtime.RepeatedPageError{Operation: "ListEvents", Field: "Offset", Next: 4}, *rp)
	require.EqualError(t, end, repeatedAt4)

	offset := int64(rp.Next) // reading on from where the error says
	got = nil
	for item, err := range c.ListEventsItems(context.Background(), &pages.ListEventsInput{Offset: &offset}) {
		require.NoError(t, err)
		got = append(got, item.Id)
	}
	require.Equal(t, []string{"c"}, got)
	require.Equal(t, []string{"/v1/events", "/v1/events?offset=2", "/v1/events?offset=4", "/v1/events?offset=5"}, sent)
}
