package runtime

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// A call's Options.Endpoint is checked before the first attempt and every
// attempt uses the endpoint that was checked: changing the caller's
// Options mid-call (here from its BeforeAttempt hook) cannot send a retry
// to a host that was never checked.
func TestCallEndpointIsTheCheckedOne(t *testing.T) {
	h := newHarness(t, nil, 0.5, script(status(500), status(200)), nil)
	opts := &Options{Endpoint: "http://svc.test/v2", HTTPClient: h.http}
	opts.BeforeAttempt = func(*http.Request, int) error {
		opts.Endpoint = "http://evil.test"
		return nil
	}
	_, err := h.c.Do(t.Context(), opGet, &Request{Method: "GET", Path: "/x"}, opts, nil)
	require.NoError(t, err)
	reqs := h.http.requests()
	require.Len(t, reqs, 2)
	require.Equal(t, "http://svc.test/v2/x", reqs[0].url)
	require.Equal(t, "http://svc.test/v2/x", reqs[1].url)
}

// A U+FDD0 in a call Endpoint's query is data, sent escaped, as in the
// client's endpoint (openapi.QuoteSeparatorMarks).
func TestCallEndpointQueryMarkStaysData(t *testing.T) {
	h := newHarness(t, nil, 0.5, script(status(200)), nil)
	_, err := h.c.Do(t.Context(), opGet, &Request{Method: "GET", Path: "/x"}, &Options{Endpoint: "http://svc.test/?k=a%EF%B7%90%7Cb", HTTPClient: h.http}, nil)
	require.NoError(t, err)
	require.Equal(t, "http://svc.test/x?k=a%EF%B7%90%7Cb", h.http.requests()[0].url)
}

// An endpoint refused by NewClient or as a call's Options.Endpoint is
// quoted with its query values and userinfo REDACTED (an API key may ride
// in the query), as transport errors are.
func TestRefusedEndpointErrorsRedactCredentials(t *testing.T) {
	_, err := NewClient(testService(), "svc.test/x?api_key=SECRET", Options{})
	require.EqualError(t, err, `endpoint "svc.test/x?api_key=REDACTED": must be an absolute http or https URL`)
	_, err = NewClient(testService(), "http://u:SECRET@svc.test/../x?api_key=SECRET", Options{})
	require.EqualError(t, err, `endpoint "http://REDACTED@svc.test/../x?api_key=REDACTED": its path holds a dot segment ("." or ".."), which a server or proxy may resolve to another resource`)
	h := newHarness(t, nil, 0.5, script(), nil)
	_, err = h.c.Do(t.Context(), opGet, &Request{Method: "GET", Path: "/x"}, &Options{Endpoint: "http://other.test/?api_key=SECRET"}, nil)
	require.ErrorContains(t, err, `endpoint "http://other.test/?api_key=REDACTED" is neither the client's endpoint`)
	require.NotContains(t, err.Error(), "SECRET")
	require.Empty(t, h.http.requests())
}

// A call Endpoint is parsed once, when the call is checked, and an
// operation's servers once for the process: checking an Endpoint against
// the 8th of 8 servers costs what checking it against the only one does
// (it parsed every server on every call: 9 allocations against 2). Each
// attempt builds its URL from the parsed endpoint (it parsed the endpoint
// again: 8 allocations with a query, 4 without; now 3 and 1).
func TestCallEndpointIsParsedOnce(t *testing.T) {
	c, err := NewClient(testService(), "http://svc.test", Options{})
	require.NoError(t, err)
	one := &Operation{Name: "One", Servers: []string{"http://up.test/v1"}}
	eight := &Operation{Name: "Eight", Servers: []string{"/rel", "http://a.test", "http://b.test", "http://c.test", "http://d.test", "http://e.test", "http://f.test", "http://up.test/v1"}}
	check := func(op *Operation) float64 {
		return testing.AllocsPerRun(100, func() {
			if _, err := c.checkEndpoint(op, "http://up.test/v2"); err != nil {
				t.Fatal(err)
			}
		})
	}
	require.Equal(t, check(one), check(eight))
	ep, err := c.checkEndpoint(eight, "http://up.test/v2/?k=v")
	require.NoError(t, err)
	cl := &callMachine{c: c, endpoint: ep}
	req := &Request{Method: "GET", Path: "/x"}
	require.Equal(t, "http://up.test/v2/x?k=v", cl.target(req))
	require.Equal(t, 3.0, testing.AllocsPerRun(100, func() { _ = cl.target(req) })) // url.Values.Encode: 2, the URL: 1
	ep, err = c.checkEndpoint(eight, "http://up.test/v2/")
	require.NoError(t, err)
	cl.endpoint = ep
	require.Equal(t, "http://up.test/v2/x", cl.target(req))
	require.Equal(t, 1.0, testing.AllocsPerRun(100, func() { _ = cl.target(req) }))
}

// An endpoint that does not parse is quoted as far as it is safe (userinfo
// and query values REDACTED, the rest as given) with the parser's reason,
// not wholly REDACTED with a wrong reason; a port outside 1–65535 is
// refused at NewClient instead of failing every call with a dial error
// that is retried as transient (trial F14).
func TestRefusedEndpointSaysWhy(t *testing.T) {
	for _, tc := range []struct{ endpoint, err string }{
		{"https://x/%zz", `endpoint "https://x/%zz": invalid URL escape "%zz"`},
		{" http://x", `endpoint " http://x": has leading or trailing space`},
		{"http://x\n", `endpoint "http://x\n": has leading or trailing space`},
		{"https://u:SECRET@x/%zz?api_key=SECRET&b", `endpoint "https://REDACTED@x/%zz?api_key=REDACTED&b": does not parse as a URL (its userinfo is not shown)`},
		// A password holding "#" or "/" and a fragment never show (review:
		// the userinfo was looked for before the first "#" or "/" only).
		{"http://u:s#cret@h/%zz", `endpoint "http://REDACTED@h/%zz": does not parse as a URL (its userinfo is not shown)`},
		{"http://u:p/w@h:x/", `endpoint "http://REDACTED@h:x/": does not parse as a URL (its userinfo is not shown)`},
		{"https://x/%zz#access_token=SECRET", `endpoint "https://x/%zz#REDACTED": invalid URL escape "%zz"`},
		{"http://x:99999/", `endpoint "http://x:99999/": port 99999 is outside 1–65535`},
		{"http://x:0/", `endpoint "http://x:0/": port 0 is outside 1–65535`},
		{"ftp://x/", `endpoint "ftp://x/": must be an absolute http or https URL`},
	} {
		_, err := NewClient(testService(), tc.endpoint, Options{})
		require.EqualError(t, err, tc.err, tc.endpoint)
	}
	_, err := NewClient(testService(), "http://x:65535/", Options{})
	require.NoError(t, err)
}

// TestServerOriginsCacheBound: the process-wide cache of parsed server
// origins never holds more than maxServerOrigins operations, even when
// many goroutines add new operations at once at its last free place (a
// check-then-store let each of them in, review), and an operation past
// the bound still gets its servers parsed.
func TestServerOriginsCacheBound(t *testing.T) {
	before := nServerOrigins.Load()
	t.Cleanup(func() { nServerOrigins.Store(before) })
	count := func() (n int32) {
		serverOriginsOf.Range(func(any, any) bool { n++; return true })
		return n
	}
	stored := count()
	nServerOrigins.Store(maxServerOrigins - 1) // one place left
	ops := make([]*Operation, 64)
	for i := range ops {
		ops[i] = &Operation{Name: "Op", Servers: []string{"http://up.test/v1"}}
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, op := range ops {
		wg.Go(func() {
			<-start
			if got := serverOrigins(op); len(got) != 1 || got[0].Host != "up.test" {
				t.Errorf("origins %v", got)
			}
		})
	}
	close(start)
	wg.Wait()
	require.Equal(t, stored+1, count(), "one operation took the last place")
	require.Equal(t, int32(maxServerOrigins), nServerOrigins.Load())
	for _, op := range ops {
		serverOriginsOf.Delete(op)
	}
}
