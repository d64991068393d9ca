package golden

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/generator"
)

// securityTest runs inside the generated client of
// testdata/hostile-security.yaml: inputs that try to leave the endpoint, a
// server that redirects to another host, call endpoints the spec does not
// declare, and operations that must not receive credentials they do not
// declare.
const securityTest = `package hostile

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/retrygen/retrygen/runtime"
)

type seen struct{ uri, auth, key string }

func TestRequestsStayOnTheEndpointAndCredentialsFollowTheSpec(t *testing.T) {
	var got, evil []seen
	record := func(to *[]seen) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			*to = append(*to, seen{r.RequestURI, r.Header.Get("Authorization"), r.Header.Get("X-Api-Key")})
		})
	}
	bad := httptest.NewServer(record(&evil))
	defer bad.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		record(&got).ServeHTTP(w, r)
		if r.URL.Path == "/v1/redirect" { // a server sends the call, with its key, elsewhere
			http.Redirect(w, r, bad.URL+"/steal", http.StatusTemporaryRedirect)
		}
	}))
	defer srv.Close()
	evilHost := strings.TrimPrefix(bad.URL, "http://")
	ctx := context.Background()

	// Given bearer and the header key only (not basic, not the query key).
	c, err := New(srv.URL+"/v1", WithBearerToken("T"), WithKey("K"), func(o *Options) { o.MaxAttempts = 1 })
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"@" + evilHost, "//" + evilHost, "a/b", "../../x", "?x=1#y", ":1", ".x"} {
		if _, err := c.GetItem(ctx, &GetItemInput{Id: id}); err != nil {
			t.Fatalf("%q: %v", id, err)
		}
	}
	for _, id := range []string{".", ".."} {
		_, err := c.GetItem(ctx, &GetItemInput{Id: id})
		var ip *runtime.InvalidParamsError
		if !errors.As(err, &ip) || err.Error() != "hostile: GetItem: 1 validation error(s) found. - dot segment in path parameter, GetItemInput.Id." {
			t.Fatalf("%q: %T %v", id, err, err)
		}
	}
	for _, call := range []func() error{
		func() error { _, err := c.GetPublic(ctx, nil); return err },
		func() error { _, err := c.GetAnonymousOrKey(ctx, nil); return err },
		func() error { _, err := c.GetKeyed(ctx, nil); return err }, // qkey missing: nothing sent
		func() error { _, err := c.GetBasicOrBearer(ctx, nil); return err },
		// A per-call option gives the query key for one call only.
		func() error { _, err := c.GetKeyed(ctx, nil, WithQkey("Q")); return err },
		func() error { _, err := c.GetKeyed(ctx, nil); return err },
		// An operation with its own server may be sent to the client's
		// origin under another path.
		func() error {
			_, err := c.PutUpload(ctx, nil, func(o *Options) { o.Endpoint = srv.URL + "/v9" })
			return err
		},
	} {
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	// A redirect to another host is the answer, not followed: the key
	// stays here.
	_, err = c.GetRedirect(ctx, nil)
	var apiErr *runtime.APIError
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != 307 || err.Error() != "hostile: GetRedirect: api error (HTTP 307): redirect to another origin ("+bad.URL+") not followed" {
		t.Fatalf("redirect: %T %v", err, err)
	}
	// A call endpoint on a host the spec does not declare for the
	// operation is refused before sending.
	for _, op := range []func(func(*Options)) error{
		func(f func(*Options)) error { _, err := c.PutUpload(ctx, nil, f); return err },
		func(f func(*Options)) error { _, err := c.GetItem(ctx, &GetItemInput{Id: "x"}, f); return err },
	} {
		err := op(func(o *Options) { o.Endpoint = bad.URL + "/v2" })
		var ip *runtime.InvalidParamsError
		if !errors.As(err, &ip) || !strings.Contains(err.Error(), "is neither the client's endpoint (its scheme, host and port) nor a server the spec declares for") {
			t.Fatalf("call endpoint: %T %v", err, err)
		}
	}
	want := []seen{
		{"/v1/items/@" + evilHost, "Bearer T", ""},
		{"/v1/items/%2F%2F" + evilHost, "Bearer T", ""},
		{"/v1/items/a%2Fb", "Bearer T", ""},
		{"/v1/items/..%2F..%2Fx", "Bearer T", ""},
		{"/v1/items/%3Fx=1%23y", "Bearer T", ""},
		{"/v1/items/:1", "Bearer T", ""},
		{"/v1/items/.x", "Bearer T", ""},
		{"/v1/public", "", ""},
		{"/v1/anonymous-or-key", "", "K"},
		{"/v1/keyed", "", ""},
		{"/v1/basic-or-bearer", "Bearer T", ""},
		{"/v1/keyed?api_key=Q", "", "K"},
		{"/v1/keyed", "", ""},
		{"/v9/upload", "Bearer T", ""},
		{"/v1/redirect", "", "K"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d requests %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("request %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if len(evil) != 0 {
		t.Fatalf("the other listener got %+v", evil)
	}
}
`

// TestHostileSecurity generates testdata/hostile-security.yaml and runs
// securityTest in it (issue 17 item 1): path parameters cannot leave the
// endpoint or name a parent resource, and each operation sends only the
// credentials its security requirement names.
func TestHostileSecurity(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated client")
	}
	svc, _, err := generator.LoadService("testdata/hostile-security.yaml", nil)
	require.NoError(t, err)
	files, err := generator.Generate(svc, "hostile")
	require.NoError(t, err)
	runGenerated(t, files, "security_test.go", []byte(securityTest))
}
