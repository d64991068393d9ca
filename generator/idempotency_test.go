package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIdempotencyKey: a root-level x-retry idempotencyKey gives every POST
// its header and makes it retry-safe; an operation-level
// idempotencyTokenField names a string member of the input.
func TestIdempotencyKey(t *testing.T) {
	spec := specWith(`x-retry: {version: 1, idempotencyKey: {header: Idempotency-Key}}`, "")
	spec = strings.Replace(spec, "      operationId: Op\n", "      operationId: Op\n      x-retry: {idempotencyTokenField: Name}\n", 1)
	svc, diags, err := load(t, spec)
	require.NoError(t, err)
	require.Empty(t, diags)
	op := svc.Operations[0]
	require.Equal(t, "Idempotency-Key", op.Retry.IdempotencyHeader)
	require.Equal(t, "Name", op.IdempotencyTokenGo)
	require.False(t, op.IdempotencyTokenPtr, "Name is required: a plain string")
	require.True(t, op.Retry.RetrySafe, "an idempotency key makes a POST retry-safe")
}

func TestIdempotencyErrors(t *testing.T) {
	for _, tc := range []struct{ name, root, op, want string }{
		{"idempotencyKey needs a header", `x-retry: {version: 1, idempotencyKey: {}}`, "",
			"spec.yaml#/x-retry/idempotencyKey: header is required (the header that carries the idempotency key)"},
		{"the token field must be a string member of the input", `x-retry: {version: 1}`, "      x-retry: {idempotencyTokenField: Missing}\n",
			`spec.yaml#/paths/~1%23X-Amz-Target=Svc.Op/post/x-retry/idempotencyTokenField: the input OpInput has no string member "Missing"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := strings.Replace(specWith(tc.root, ""), "      operationId: Op\n", "      operationId: Op\n"+tc.op, 1)
			_, diags, err := load(t, spec)
			require.Error(t, err)
			require.Contains(t, diags, tc.want)
		})
	}
}

// TestEncodingOfAPropertyNamedDescription: Stripe's form bodies have an
// Encoding Object for a property called "description"; a map keyed by
// names (encoding, headers, …) is not a description to check.
func TestEncodingOfAPropertyNamedDescription(t *testing.T) {
	spec := `openapi: 3.0.0
info: {title: T, version: '1'}
paths:
  /v1/products:
    post:
      operationId: PostProducts
      requestBody:
        content:
          application/x-www-form-urlencoded:
            encoding:
              description: {style: deepObject, explode: true}
            schema:
              type: object
              properties:
                description: {type: object, properties: {text: {type: string}}}
      responses:
        '200': {description: ok}
`
	svc, diags, err := load(t, spec)
	require.NoError(t, err)
	require.Empty(t, diags)
	require.Equal(t, map[string]Encoding{"description": {Style: "deepObject", Explode: true}}, svc.Operations[0].Body.Encoding)
}
