package runtime

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A call's Options.Endpoint may send one call elsewhere only within what
// the spec allows: the client's endpoint's origin, or a server the spec
// declares for that operation (Operation.Servers: its own servers, else its
// path item's). Anything else is an *InvalidParamsError before the first
// attempt. Three real loopback servers: A is the client's endpoint, B the
// operation's declared server, C a server nobody declared; the exact
// requests each received are asserted.
func TestPerCallEndpointStaysOnDeclaredServers(t *testing.T) {
	ok := func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(`{}`)) }
	a, c := newRecorder(t, ok), newRecorder(t, ok)
	var b *recorder
	b = newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v2/to-a" {
			http.Redirect(w, r, a.srv.URL+"/steal", http.StatusTemporaryRedirect)
			return
		}
		ok(w, r)
	})
	upload := &Operation{Name: "Upload", RetrySafe: true, Servers: []string{"https://uploads.example.com/v2", strings.ToUpper(b.srv.URL) + "/v2"}}
	plain := &Operation{Name: "Get", RetrySafe: true}
	cl, err := NewClient(&Service{Name: "svc"}, a.srv.URL+"/v1?key=k", Options{MaxAttempts: 1})
	require.NoError(t, err)
	hdr := http.Header{"Authorization": {"Bearer s3cret"}, "X-Api-Key": {"k3y"}}
	const creds = " auth=Bearer s3cret key=k3y"
	call := func(op *Operation, endpoint, path string) error {
		o := cl.Options()
		o.Endpoint = endpoint
		_, err := cl.Do(context.Background(), op, &Request{Method: "GET", Path: path, Header: hdr}, &o,
			func(r *http.Response) error { _, err := io.ReadAll(r.Body); return err })
		return err
	}
	invalid := func(err error, reason string) {
		t.Helper()
		var ipe *InvalidParamsError
		require.True(t, errors.As(err, &ipe), "%v", err)
		require.Equal(t, reason, ipe.Errs[0].Reason)
		require.Equal(t, "Options.Endpoint", ipe.Errs[0].Field)
	}

	// Allowed: the operation's declared server (origin compared, case and
	// default port aside), with its own path and query; the client's own
	// origin with another path.
	require.NoError(t, call(upload, b.srv.URL+"/v2?tag=x", "/files"))
	require.NoError(t, call(upload, a.srv.URL+"/other", "/files"))
	require.NoError(t, call(plain, a.srv.URL, "/x"))
	require.NoError(t, call(plain, "", "/x"))

	// Refused before any attempt: a server no one declared, a declared
	// server of another operation, another scheme, not a URL at all.
	invalid(call(upload, c.srv.URL+"/v2", "/files"), `endpoint "`+c.srv.URL+`/v2" is neither the client's endpoint (its scheme, host and port) nor a server the spec declares for Upload`)
	invalid(call(plain, b.srv.URL+"/v2", "/x"), `endpoint "`+b.srv.URL+`/v2" is neither the client's endpoint (its scheme, host and port) nor a server the spec declares for Get`)
	invalid(call(upload, strings.Replace(b.srv.URL, "http:", "https:", 1)+"/v2", "/files"), `endpoint "`+strings.Replace(b.srv.URL, "http:", "https:", 1)+`/v2" is neither the client's endpoint (its scheme, host and port) nor a server the spec declares for Upload`)
	invalid(call(upload, "uploads.example.com", "/files"), `endpoint "uploads.example.com": must be an absolute http or https URL`)

	// A redirect from the operation's server back to the client's endpoint
	// is another origin for this call: not followed.
	err = call(upload, b.srv.URL+"/v2", "/to-a")
	require.EqualError(t, err, "svc: Upload: api error (HTTP 307): redirect to another origin ("+a.srv.URL+") not followed")

	require.Equal(t, []string{"GET /v2/files?tag=x" + creds, "GET /v2/to-a" + creds}, b.requests())
	require.Equal(t, []string{"GET /other/files" + creds, "GET /x" + creds, "GET /v1/x?key=k" + creds}, a.requests())
	require.Empty(t, c.requests())

	// The client endpoint's "/" that NewClient parsed once is the client's,
	// never a call endpoint's.
	b.reset()
	cl2, err := NewClient(&Service{Name: "svc"}, a.srv.URL, Options{MaxAttempts: 1})
	require.NoError(t, err)
	o2 := cl2.Options()
	o2.Endpoint = b.srv.URL + "/"
	_, err = cl2.Do(context.Background(), upload, &Request{Method: "POST", Path: "/"}, &o2, nil)
	require.NoError(t, err)
	require.Equal(t, []string{"POST / auth= key="}, b.requests())

	// Streams (Client.Open) are held to the same rule, and to the path
	// rule of Do.
	o := cl.Options()
	o.Endpoint = c.srv.URL
	_, err = cl.Open(context.Background(), upload, &Request{Method: "GET", Path: "/files"}, &o)
	invalid(err, `endpoint "`+c.srv.URL+`" is neither the client's endpoint (its scheme, host and port) nor a server the spec declares for Upload`)
	_, err = cl.Open(context.Background(), plain, &Request{Method: "GET", Path: "@" + strings.TrimPrefix(c.srv.URL, "http://") + "/x"}, nil)
	var ipe *InvalidParamsError
	require.True(t, errors.As(err, &ipe), "%v", err)
	require.Empty(t, c.requests())

	// Endpoint is per call: a client's options setting it are refused.
	_, err = NewClient(&Service{Name: "svc"}, a.srv.URL, Options{Endpoint: b.srv.URL})
	require.EqualError(t, err, "Options.Endpoint is set per call; pass the client's endpoint to New (the generated constructor; runtime.NewClient's endpoint argument)")
}
