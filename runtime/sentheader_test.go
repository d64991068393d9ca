package runtime

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckSentHeader: the headers net/http does not send as a Request's
// Header sets them, and the ones the runtime sets itself for another
// purpose, cannot be a header the runtime sends of its own (newuser4 G2:
// idempotencyKey {header: Host} sent no key, yet every POST was retried as
// retry-safe). Any letter case; other names pass.
func TestCheckSentHeader(t *testing.T) {
	for name, want := range map[string]string{
		"Host":                     `net/http sends the endpoint's host (Request.Host) as Host, never a header value`,
		"content-length":           `net/http sends the body's length as Content-Length, never a header value`,
		"Transfer-Encoding":        `net/http sets Transfer-Encoding itself (HTTP/1.1; HTTP/2 has none), never a header value`,
		"Trailer":                  `net/http sends Request.Trailer's names as Trailer (HTTP/1.1), never a header value`,
		"Connection":               `Connection is connection-specific: net/http's HTTP/2 transport drops it (or refuses the request) and a proxy removes it (RFC 9110 §7.6.1, RFC 9113 §8.2.2)`,
		"Proxy-Connection":         `Proxy-Connection is connection-specific: net/http's HTTP/2 transport drops it (or refuses the request) and a proxy removes it (RFC 9110 §7.6.1, RFC 9113 §8.2.2)`,
		"keep-alive":               `Keep-Alive is connection-specific: net/http's HTTP/2 transport drops it (or refuses the request) and a proxy removes it (RFC 9110 §7.6.1, RFC 9113 §8.2.2)`,
		"Upgrade":                  `Upgrade is connection-specific: net/http's HTTP/2 transport drops it (or refuses the request) and a proxy removes it (RFC 9110 §7.6.1, RFC 9113 §8.2.2)`,
		"TE":                       `TE is hop-by-hop: a proxy removes it and HTTP/2 allows only "trailers" (RFC 9110 §7.6.1, RFC 9113 §8.2.2)`,
		"Content-Type":             `the runtime sends the request body's media type as Content-Type`,
		"Accept-Encoding":          `the runtime sets Accept-Encoding (gzip with Options.AcceptGzip, identity to check a response checksum)`,
		"X-Sdk-Throttling-Control": `the runtime sends X-Sdk-Throttling-Control when throttle control is on (retry-behavior.md §8)`,
		"X-Ratelimit-Mode":         `the runtime sends X-Ratelimit-Mode with Options.ThrottleDebug`,
		"X A":                      `"X A" is not an HTTP header name (RFC 9110 token)`,
		"":                         `"" is not an HTTP header name (RFC 9110 token)`,
	} {
		err := (*Service)(nil).CheckSentHeader(name)
		require.EqualError(t, err, want, name)
	}
	for _, ok := range []string{"Idempotency-Key", "amz-sdk-request", "amz-sdk-invocation-id", "X-Hostname", "Authorization", "User-Agent"} {
		require.NoError(t, testService().CheckSentHeader(ok), ok)
	}
	require.Zero(t, testing.AllocsPerRun(100, func() { _ = (*Service)(nil).CheckSentHeader("Idempotency-Key") }))
}

// TestNewClientRefusesUnsendableServiceHeaders: a hand-built Service gets
// the generator's rule: its AttemptHeader and InvocationIDHeader must be
// sendable and distinct.
func TestNewClientRefusesUnsendableServiceHeaders(t *testing.T) {
	for _, tc := range []struct {
		svc  Service
		want string
	}{
		{Service{Name: "S", AttemptHeader: "Host"},
			`runtime.NewClient: Service.AttemptHeader "Host": net/http sends the endpoint's host (Request.Host) as Host, never a header value`},
		{Service{Name: "S", InvocationIDHeader: "content-type"},
			`runtime.NewClient: Service.InvocationIDHeader "content-type": the runtime sends the request body's media type as Content-Type`},
		{Service{Name: "S", AttemptHeader: "X-Id", InvocationIDHeader: "x-id"},
			`runtime.NewClient: Service.InvocationIDHeader "x-id" is also Service.AttemptHeader: each attempt would carry one of the two values`},
	} {
		_, err := NewClient(&tc.svc, "http://svc.test", Options{})
		require.EqualError(t, err, tc.want)
	}
}

// TestUnsendableIdempotencyHeaderRefusedBeforeSending: an Operation whose
// IdempotencyHeader cannot carry the key fails before the first attempt,
// so a POST is never retried on the strength of a key that is not sent
// (newuser4 G2); one equal to the service's attempt header would be
// overwritten on every attempt.
func TestUnsendableIdempotencyHeaderRefusedBeforeSending(t *testing.T) {
	for _, tc := range []struct {
		header, want string
	}{
		{"Host", `test: PutThing: Operation.IdempotencyHeader "Host": net/http sends the endpoint's host (Request.Host) as Host, never a header value`},
		{"Amz-Sdk-Request", `test: PutThing: Operation.IdempotencyHeader "Amz-Sdk-Request" is also Service.AttemptHeader: each attempt would carry one of the two values`},
	} {
		sc := script(status(200))
		h := newHarness(t, nil, 0.5, sc, nil)
		op := &Operation{Name: "PutThing", RetrySafe: true, IdempotencyHeader: tc.header}
		_, err := h.call(context.Background(), op)
		require.EqualError(t, err, tc.want)
		require.Empty(t, sc.requests(), "nothing is sent")
	}
	sc := script(status(200))
	h := newHarness(t, nil, 0.5, sc, nil)
	_, err := h.call(context.Background(), &Operation{Name: "PutThing", RetrySafe: true, IdempotencyHeader: "idempotency-key"})
	require.NoError(t, err)
	require.Len(t, sc.requests()[0].header.Get("Idempotency-Key"), 36)
}
