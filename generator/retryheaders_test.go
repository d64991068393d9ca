package generator

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// retryHeaderSpec is a spec with root x-retry settings xr, one POST /a whose
// operation-level lines are op, and the security schemes bearer (HTTP) and
// key (apiKey in the header X-Api-Key).
func retryHeaderSpec(xr, op string) string {
	return `openapi: 3.0.3
info: {title: s, version: "1"}
x-retry:
  version: 1
` + xr + `components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
    key: {type: apiKey, in: header, name: X-Api-Key}
security: [{bearer: []}]
paths:
  /a:
    post:
      operationId: postA
` + op + `      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {n: {type: integer}}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object}}}}
`
}

// TestRetryHeadersNetHTTPDoesNotSend: an x-retry header that net/http does
// not send as set, or that the runtime sets for another purpose, is a
// located error at the setting (newuser4 G2: idempotencyKey {header: Host}
// sent no key, yet every POST was replayed as retry-safe).
func TestRetryHeadersNetHTTPDoesNotSend(t *testing.T) {
	_, diags, err := loadErrors(t, retryHeaderSpec(`  idempotencyKey: {header: Host}
  attemptHeader: content-length
  invocationIdHeader: Content-Type
`, `      x-retry: {idempotencyKey: {header: Connection}}
`))
	require.Error(t, err)
	require.Equal(t, []string{
		`spec.yaml#/x-retry/idempotencyKey/header: "Host" cannot carry the idempotency key: net/http sends the endpoint's host (Request.Host) as Host, never a header value`,
		`spec.yaml#/x-retry/attemptHeader: "content-length" cannot carry the attempt number: net/http sends the body's length as Content-Length, never a header value`,
		`spec.yaml#/x-retry/invocationIdHeader: "Content-Type" cannot carry the invocation ID: the runtime sends the request body's media type as Content-Type`,
		`spec.yaml#/paths/~1a/post/x-retry/idempotencyKey/header: "Connection" cannot carry the idempotency key: Connection is connection-specific: net/http's HTTP/2 transport drops it (or refuses the request) and a proxy removes it (RFC 9110 §7.6.1, RFC 9113 §8.2.2)`,
	}, diags)
}

// TestRetryHeadersClash: an x-retry header equal to one the client already
// sends for another purpose — a security scheme's, a request signer's,
// Accept, another x-retry header, an operation's header parameter — is a
// located error naming both places (newuser4 G3: attemptHeader
// Authorization replaced the bearer token on every attempt; idempotencyKey
// X-Api-Key sent the API key as a constant "idempotency key").
func TestRetryHeadersClash(t *testing.T) {
	for _, tc := range []struct {
		name, xr, op string
		want         []string
	}{
		{"http scheme", "  attemptHeader: authorization\n", "", []string{
			`spec.yaml#/x-retry/attemptHeader: "authorization" is also the header of security scheme #/components/securitySchemes/bearer: each attempt would carry one of the two values`}},
		{"apiKey scheme", "  idempotencyKey: {header: x-api-key}\n", "", []string{
			`spec.yaml#/x-retry/idempotencyKey/header: "x-api-key" is also the header of security scheme #/components/securitySchemes/key: each attempt would carry one of the two values`}},
		{"signer header without a scheme", "  invocationIdHeader: X-Amz-Date\n", "", []string{
			`spec.yaml#/x-retry/invocationIdHeader: "X-Amz-Date" is also a header a request signer sets on every attempt (Options.BeforeAttempt): each attempt would carry one of the two values`}},
		{"Accept", "  attemptHeader: Accept\n", "", []string{
			`spec.yaml#/x-retry/attemptHeader: "Accept" is also the header an operation sends its response media types in: each attempt would carry one of the two values`}},
		{"two x-retry headers", "  attemptHeader: X-Id\n  invocationIdHeader: x-id\n  idempotencyKey: {header: X-ID}\n", "", []string{
			`spec.yaml#/x-retry/invocationIdHeader: "x-id" is also #/x-retry/attemptHeader: each attempt would carry one of the two values`,
			`spec.yaml#/x-retry/idempotencyKey/header: "X-ID" is also #/x-retry/attemptHeader: each attempt would carry one of the two values`}},
		{"operation idempotency key and root attempt header", "  attemptHeader: X-Id\n", "      x-retry: {idempotencyKey: {header: X-Id}}\n", []string{
			`spec.yaml#/paths/~1a/post/x-retry/idempotencyKey/header: "X-Id" is also #/x-retry/attemptHeader: each attempt would carry one of the two values`}},
		{"header parameter", "  attemptHeader: X-Trace\n", "      parameters: [{name: x-trace, in: header, schema: {type: string}}]\n", []string{
			`spec.yaml#/x-retry/attemptHeader: "X-Trace" is also the header parameter #/paths/~1a/post/parameters/0: each attempt would carry one of the two values`}},
		{"fixed header parameter and idempotency key", "  idempotencyKey: {header: Idempotency-Key}\n",
			"      parameters: [{name: Idempotency-Key, in: header, required: true, schema: {type: string, enum: [k1]}}]\n", []string{
				`spec.yaml#/x-retry/idempotencyKey/header: "Idempotency-Key" is also the header parameter #/paths/~1a/post/parameters/0, which sends one fixed value: each attempt would carry one of the two values`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags, err := loadErrors(t, retryHeaderSpec(tc.xr, tc.op))
			require.Error(t, err)
			require.Equal(t, tc.want, diags)
		})
	}
}

// TestIdempotencyKeyHeaderParameterSuppliesTheKey: an operation declaring
// the idempotency key's header as an ordinary parameter is accepted: its
// input field is the caller's key (the runtime sends a request's own value
// and generates one only when it is empty), so no attempt loses a value.
func TestIdempotencyKeyHeaderParameterSuppliesTheKey(t *testing.T) {
	svc, diags, err := loadErrors(t, retryHeaderSpec("  idempotencyKey: {header: Idempotency-Key}\n",
		"      parameters: [{name: Idempotency-Key, in: header, schema: {type: string}}]\n"))
	require.NoError(t, err)
	require.Empty(t, diags)
	require.Equal(t, "Idempotency-Key", svc.Operations[0].Retry.IdempotencyHeader)
	require.True(t, svc.Operations[0].Retry.RetrySafe)
}

// loadErrors loads an inline spec as load does and returns its error
// diagnostics only.
func loadErrors(t *testing.T, text string) (*Service, []string, error) {
	t.Helper()
	svc, ds, err := LoadService(writeSpec(t, text), nil)
	var out []string
	for _, d := range ds {
		if d.Severity == SeverityError {
			d.File = filepath.Base(d.File)
			out = append(out, d.String())
		}
	}
	return svc, out, err
}
