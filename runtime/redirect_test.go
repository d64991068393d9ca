package runtime

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// recorder is a loopback server that records every request it receives
// (method, request URI and the credential headers) and answers with
// handler.
type recorder struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []string
}

func newRecorder(t *testing.T, handler func(w http.ResponseWriter, r *http.Request)) *recorder {
	rec := &recorder{}
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		rec.mu.Lock()
		rec.seen = append(rec.seen, r.Method+" "+r.RequestURI+" auth="+r.Header.Get("Authorization")+" key="+r.Header.Get("X-Api-Key"))
		rec.mu.Unlock()
		handler(w, r)
	}))
	t.Cleanup(rec.srv.Close)
	return rec
}

func (rec *recorder) reset() {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.seen = nil
}

func (rec *recorder) requests() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.seen...)
}

// A redirect never takes a request, or the credentials it carries, to
// another scheme, host or port: the 3xx is the call's answer (an *APIError
// with its status, not retried), as aws-sdk-go-v2's client returns the
// redirects it does not follow. A redirect within the endpoint's origin is
// followed as net/http follows it (credentials kept). Two real loopback
// servers: the endpoint A and another origin B; B must see no request.
func TestRedirectNeverLeavesTheEndpoint(t *testing.T) {
	var b *recorder
	var a *recorder
	a = newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		loc := map[string]string{
			"/to-b-307":       b.srv.URL + "/steal",
			"/to-b-302":       b.srv.URL + "/steal",
			"/to-b-308":       b.srv.URL + "/steal",
			"/to-b-relative":  "//" + strings.TrimPrefix(b.srv.URL, "http://") + "/steal",
			"/to-localhost":   strings.Replace(a.srv.URL, "127.0.0.1", "localhost", 1) + "/steal",
			"/to-https":       strings.Replace(a.srv.URL, "http://", "https://", 1) + "/steal",
			"/same-origin":    "/landed",
			"/chain":          "/chain-2",
			"/chain-2":        b.srv.URL + "/steal",
			"/absolute-same":  a.srv.URL + "/landed",
			"/loop":           "/loop",
			"/post-same-307":  "/landed",
			"/userinfo-trick": "http://127.0.0.1:1@" + strings.TrimPrefix(b.srv.URL, "http://") + "/steal",
		}[r.URL.Path]
		switch {
		case loc == "":
			_, _ = w.Write([]byte(`{}`))
		case r.URL.Path == "/to-b-302" || r.URL.Path == "/chain":
			http.Redirect(w, r, loc, http.StatusFound)
		case r.URL.Path == "/to-b-308":
			http.Redirect(w, r, loc, http.StatusPermanentRedirect)
		default:
			http.Redirect(w, r, loc, http.StatusTemporaryRedirect)
		}
	})
	b = newRecorder(t, func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(`{"stolen":true}`)) })
	ep := a.srv.URL
	hdr := http.Header{"Authorization": {"Bearer s3cret"}, "X-Api-Key": {"k3y"}}
	const creds = " auth=Bearer s3cret key=k3y"

	for _, tc := range []struct {
		name, method, path string
		client             HTTPClient
		status             int      // 0: the call succeeds
		err                string   // the call's error
		atA                []string // requests A received, in order
	}{
		{name: "307 to another port", method: "GET", path: "/to-b-307", status: 307, err: "svc: Op: api error (HTTP 307): redirect to another origin ({B}) not followed", atA: []string{"GET /to-b-307" + creds}},
		{name: "302 to another port", method: "GET", path: "/to-b-302", status: 302, err: "svc: Op: api error (HTTP 302): redirect to another origin ({B}) not followed", atA: []string{"GET /to-b-302" + creds}},
		{name: "308 to another port (POST)", method: "POST", path: "/to-b-308", status: 308, err: "svc: Op: api error (HTTP 308): redirect to another origin ({B}) not followed", atA: []string{"POST /to-b-308" + creds}},
		{name: "scheme-relative Location", method: "GET", path: "/to-b-relative", status: 307, err: "svc: Op: api error (HTTP 307): redirect to another origin ({B}) not followed", atA: []string{"GET /to-b-relative" + creds}},
		{name: "same port, another host name", method: "GET", path: "/to-localhost", status: 307, err: "svc: Op: api error (HTTP 307): redirect to another origin ({localhostA}) not followed", atA: []string{"GET /to-localhost" + creds}},
		{name: "same host and port, https", method: "GET", path: "/to-https", status: 307, err: "svc: Op: api error (HTTP 307): redirect to another origin ({httpsA}) not followed", atA: []string{"GET /to-https" + creds}},
		{name: "userinfo before another host", method: "GET", path: "/userinfo-trick", status: 307, err: "svc: Op: api error (HTTP 307): redirect to another origin ({B}) not followed", atA: []string{"GET /userinfo-trick" + creds}},
		{name: "second hop leaves", method: "GET", path: "/chain", status: 307, err: "svc: Op: api error (HTTP 307): redirect to another origin ({B}) not followed", atA: []string{"GET /chain" + creds, "GET /chain-2" + creds}},
		{name: "same origin followed", method: "GET", path: "/same-origin", atA: []string{"GET /same-origin" + creds, "GET /landed" + creds}},
		{name: "same origin, absolute URL", method: "GET", path: "/absolute-same", atA: []string{"GET /absolute-same" + creds, "GET /landed" + creds}},
		{name: "same origin POST 307 keeps its method", method: "POST", path: "/post-same-307", atA: []string{"POST /post-same-307" + creds, "POST /landed" + creds}},
		{name: "the caller's client that follows everything", method: "GET", path: "/to-b-307", status: 307, err: "svc: Op: api error (HTTP 307): redirect to another origin ({B}) not followed", atA: []string{"GET /to-b-307" + creds},
			client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}},
		{name: "the caller's CheckRedirect still rules within the origin", method: "GET", path: "/same-origin", status: 307, err: "svc: Op: api error (HTTP 307)", atA: []string{"GET /same-origin" + creds},
			client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.reset()
			b.reset()
			c, err := NewClient(&Service{Name: "svc"}, ep, Options{HTTPClient: tc.client, MaxAttempts: 3})
			require.NoError(t, err)
			md, err := c.Do(context.Background(), &Operation{Name: "Op", RetrySafe: true},
				&Request{Method: tc.method, Path: tc.path, Header: hdr, Body: []byte(`{"x":1}`), ContentType: "application/json"}, nil,
				func(r *http.Response) error { _, err := io.ReadAll(r.Body); return err })
			require.Equal(t, tc.atA, a.requests())
			require.Empty(t, b.requests(), "another origin must see nothing")
			require.Equal(t, 1, md.Attempts, "a redirect is not retried")
			if tc.status == 0 {
				require.NoError(t, err)
				return
			}
			var apiErr *APIError
			require.True(t, errors.As(err, &apiErr), "%v", err)
			require.Equal(t, tc.status, apiErr.HTTPStatusCode)
			require.Equal(t, strings.NewReplacer("{B}", b.srv.URL, "{localhostA}", strings.Replace(ep, "127.0.0.1", "localhost", 1),
				"{httpsA}", strings.Replace(ep, "http:", "https:", 1)).Replace(tc.err), err.Error())
		})
	}

	// Go's own limit on redirects within the origin stays: 10.
	a.reset()
	c, err := NewClient(&Service{Name: "svc"}, ep, Options{MaxAttempts: 1})
	require.NoError(t, err)
	_, err = c.Do(context.Background(), &Operation{Name: "Op"}, &Request{Method: "GET", Path: "/loop"}, nil, nil)
	require.ErrorContains(t, err, "stopped after 10 redirects")
	require.Len(t, a.requests(), 10)
	require.Empty(t, b.requests())
}
