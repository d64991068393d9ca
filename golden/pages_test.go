package golden_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/pages"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// Stripe- and GitHub-style pagination on loopback servers that page for
// real (issue 23, "What must be shown" 3): golden/pages is generated from
// testdata/pages.openapi.yaml.

// customers serves GET /v1/customers like Stripe: limit (default 10),
// starting_after, has_more; the answers queued in faults come first.
type customers struct {
	mu     sync.Mutex
	n      int
	faults []int // statuses to answer the next requests with
	after  []string
}

func (s *customers) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := r.URL.Query()
	s.after = append(s.after, q.Get("starting_after"))
	if len(s.faults) > 0 {
		status := s.faults[0]
		s.faults = s.faults[1:]
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"type":"api_error","message":"status %d"}}`, status)
		return
	}
	limit := 10
	if v := q.Get("limit"); v != "" {
		limit, _ = strconv.Atoi(v)
	}
	start := 0
	if a := q.Get("starting_after"); a != "" {
		fmt.Sscanf(a, "cus_%03d", &start)
	}
	var data []map[string]string
	for i := start + 1; i <= s.n && len(data) < limit; i++ {
		data = append(data, map[string]string{"id": fmt.Sprintf("cus_%03d", i), "name": "Customer " + strconv.Itoa(i)})
	}
	last := start + len(data)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "has_more": last < s.n, "url": "/v1/customers"})
}

func TestStripeStylePagination(t *testing.T) {
	t.Parallel()
	srv := &customers{n: 25, faults: nil}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	var rec attempts
	c, err := pages.New(hs.URL, func(o *pages.Options) {
		o.Clock, o.Rand, o.OnAttempt = clocktest.New(time.Unix(0, 0)), func() float64 { return 0.5 }, rec.record
	})
	require.NoError(t, err)
	limit := int64(10)
	var sizes []int
	for page, err := range c.ListCustomersPages(context.Background(), &pages.ListCustomersInput{Limit: &limit}) {
		require.NoError(t, err)
		sizes = append(sizes, len(page.Data))
		if len(sizes) == 1 {
			srv.mu.Lock()
			srv.faults = []int{429} // the 2nd page is throttled once, then retried
			srv.mu.Unlock()
		}
	}
	require.Equal(t, []int{10, 10, 5}, sizes)
	require.Equal(t, []string{"", "cus_010", "cus_010", "cus_020"}, srv.after, "the throttled page is retried with the same cursor")
	require.Equal(t, engine.ClassThrottling, rec.all()[1].Class)

	var ids []string
	for cust, err := range c.ListCustomersItems(context.Background(), &pages.ListCustomersInput{Limit: &limit}) {
		require.NoError(t, err)
		ids = append(ids, cust.Id)
	}
	require.Len(t, ids, 25)
	require.Equal(t, "cus_001", ids[0])
	require.Equal(t, "cus_025", ids[24])

	// A page that fails for good stops the iterator after the error; the
	// caller resumes from the last good page's last item.
	srv.mu.Lock()
	srv.after, srv.faults = nil, nil
	srv.mu.Unlock()
	var got []string
	var lastGood *pages.ListCustomersOutput
	for page, err := range c.ListCustomersPages(context.Background(), &pages.ListCustomersInput{Limit: &limit}) {
		if err != nil {
			require.Nil(t, page)
			var api *runtime.APIError
			require.ErrorAs(t, err, &api)
			require.Equal(t, 400, api.HTTPStatusCode)
			break
		}
		lastGood = page
		for _, cust := range page.Data {
			got = append(got, cust.Id)
		}
		srv.mu.Lock()
		srv.faults = []int{400}
		srv.mu.Unlock()
	}
	require.Len(t, got, 10)
	resume := lastGood.Data[len(lastGood.Data)-1].Id
	for page, err := range c.ListCustomersPages(context.Background(), &pages.ListCustomersInput{Limit: &limit, StartingAfter: &resume}) {
		require.NoError(t, err)
		for _, cust := range page.Data {
			got = append(got, cust.Id)
		}
	}
	require.Len(t, got, 25)
	require.Equal(t, "cus_011", got[10])
}

// issues serves GET /repos/{owner}/{repo}/issues like GitHub: per_page,
// page, and a Link header whose next URL names the repository by ID.
type issues struct {
	mu    sync.Mutex
	n     int
	paths []string
	extra string // an extra query parameter added to next links
}

func (s *issues) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.paths = append(s.paths, r.URL.RequestURI())
	q := r.URL.Query()
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per == 0 {
		per = 30
	}
	page, _ := strconv.Atoi(q.Get("page"))
	if page == 0 {
		page = 1
	}
	var out []map[string]any
	for i := (page-1)*per + 1; i <= s.n && len(out) < per; i++ {
		out = append(out, map[string]any{"number": i, "title": "Issue " + strconv.Itoa(i)})
	}
	pagesTotal := (s.n + per - 1) / per
	if page < pagesTotal {
		next := fmt.Sprintf("http://%s/repositories/42/issues?page=%d&per_page=%d&state=open%s", r.Host, page+1, per, s.extra)
		last := fmt.Sprintf("http://%s/repositories/42/issues?page=%d&per_page=%d&state=open", r.Host, pagesTotal, per)
		w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next", <%s>; rel="last"`, next, last))
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

func TestLinkHeaderPagination(t *testing.T) {
	t.Parallel()
	srv := &issues{n: 7}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	c, err := pages.New(hs.URL)
	require.NoError(t, err)
	per := int64(3)
	state := pages.ListIssuesStateOpen
	var numbers []int64
	for issue, err := range c.ListIssuesItems(context.Background(), &pages.ListIssuesInput{Owner: "o", Repo: "r", PerPage: &per, State: &state}) {
		require.NoError(t, err)
		numbers = append(numbers, issue.Number)
	}
	require.Equal(t, []int64{1, 2, 3, 4, 5, 6, 7}, numbers)
	require.Equal(t, []string{
		"/repos/o/r/issues?per_page=3&state=open",
		"/repos/o/r/issues?page=2&per_page=3&state=open",
		"/repos/o/r/issues?page=3&per_page=3&state=open",
	}, srv.paths)

	// A next link with a parameter the operation does not declare stops
	// the pages with a *runtime.NextPageError after the good page.
	srv2 := &issues{n: 7, extra: "&after=Y3Vyc29y"}
	hs2 := httptest.NewServer(srv2)
	defer hs2.Close()
	c2, err := pages.New(hs2.URL)
	require.NoError(t, err)
	good := 0
	var last error
	for page, err := range c2.ListIssuesPages(context.Background(), &pages.ListIssuesInput{Owner: "o", Repo: "r", PerPage: &per}) {
		if err != nil {
			last = err
			break
		}
		require.Len(t, page.Body, 3)
		good++
	}
	require.Equal(t, 1, good)
	var npe *runtime.NextPageError
	require.ErrorAs(t, last, &npe)
	require.Equal(t, "after", npe.Param)
	require.True(t, errors.Is(last, runtime.ErrUndeclaredParameter))
	require.Len(t, srv2.paths, 1)
}
