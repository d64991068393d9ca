package runtime

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFormatUUIDv4(t *testing.T) {
	var ones [16]byte
	for i := range ones {
		ones[i] = 0xff
	}
	require.Equal(t, "00000000-0000-4000-8000-000000000000", formatUUIDv4([16]byte{}), "version 4, variant 10")
	require.Equal(t, "ffffffff-ffff-4fff-bfff-ffffffffffff", formatUUIDv4(ones))
	require.Equal(t, "00010203-0405-4607-8809-0a0b0c0d0e0f",
		formatUUIDv4([16]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}))
}

func TestNewUUID(t *testing.T) {
	form := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		u := NewUUID()
		require.Regexp(t, form, u)
		require.False(t, seen[u], "UUID %s repeated", u)
		seen[u] = true
	}
}

// TestIdempotencyKey: an operation with an idempotency header sends one key
// per call, the same on both attempts after an ambiguous transport failure:
// a fresh UUID, Options.IdempotencyKey, or the request's own header.
func TestIdempotencyKey(t *testing.T) {
	op := &Operation{Name: "PostCustomers", RetrySafe: true, IdempotencyHeader: "Idempotency-Key"}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	reset := io.ErrUnexpectedEOF // the connection dropped after the request was sent
	for _, tc := range []struct {
		name   string
		key    string // Options.IdempotencyKey
		header string // already on the request
		want   string // "" means a UUID
	}{
		{"a fresh UUID version 4 per call", "", "", ""},
		{"Options.IdempotencyKey is sent as it is", "order-6735", "", "order-6735"},
		{"a key already on the request wins", "order-6735", "caller-key", "caller-key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil, 0, script(step{err: reset}, status(200)), nil)
			req := &Request{Method: http.MethodPost, Path: "/v1/customers", Body: []byte("email=a"), ContentType: "application/x-www-form-urlencoded"}
			if tc.header != "" {
				req.Header = http.Header{"Idempotency-Key": {tc.header}}
			}
			call := h.c.Options()
			call.IdempotencyKey = tc.key // per call: NewClient refuses a client-wide key
			md, err := h.c.Do(context.Background(), op, req, &call, nil)
			require.NoError(t, err)
			require.Equal(t, 2, md.Attempts, "the POST is retried after the transport failure")
			sent := h.http.requests()
			require.Len(t, sent, 2)
			first, second := sent[0].header.Get("Idempotency-Key"), sent[1].header.Get("Idempotency-Key")
			require.Equal(t, first, second, "the same key on every attempt")
			if tc.want == "" {
				require.Regexp(t, uuid, first)
			} else {
				require.Equal(t, tc.want, first)
			}
		})
	}
	h := newHarness(t, nil, 0, script(status(200), status(200)), nil)
	var keys []string
	for range 2 {
		_, err := h.c.Do(context.Background(), op, &Request{Method: http.MethodPost, Path: "/"}, nil, nil)
		require.NoError(t, err)
	}
	for _, s := range h.http.requests() {
		keys = append(keys, s.header.Get("Idempotency-Key"))
	}
	require.Len(t, keys, 2)
	require.NotEqual(t, keys[0], keys[1], "each call has its own key")
	h = newHarness(t, nil, 0, script(status(200)), nil)
	_, err := h.c.Do(context.Background(), opPost, &Request{Method: http.MethodPost, Path: "/"}, nil, nil)
	require.NoError(t, err)
	require.Empty(t, h.http.requests()[0].header.Values("Idempotency-Key"), "an operation without the header sends none")
}

// TestIdempotencyKeyPerCallOnly: a client-wide Options.IdempotencyKey would
// send one key on every call (a Stripe-style server answers the second,
// different call with the first call's cached result), so NewClient refuses
// it; a per-call key on an operation that declares no idempotency header
// would silently do nothing (no header, not retry-safe), so the call is
// refused before any attempt.
func TestIdempotencyKeyPerCallOnly(t *testing.T) {
	sc := script(status(200))
	_, err := NewClient(testService(), "http://svc.test", Options{HTTPClient: sc, IdempotencyKey: "my-key-1"})
	require.EqualError(t, err, "Options.IdempotencyKey is set per call: one key on every call makes the server answer each later call with the first call's result; set it in a call's options")

	h := newHarness(t, nil, 0, sc, nil)
	call := h.c.Options()
	call.IdempotencyKey = "my-key-1"
	_, err = h.c.Do(context.Background(), opPost, &Request{Method: http.MethodPost, Path: "/"}, &call, nil)
	require.EqualError(t, err, "test: PutThing: Options.IdempotencyKey is set but the operation declares no idempotency header (x-retry idempotencyKey): the key would not be sent and the call would not be retry-safe")
	require.ErrorIs(t, err, ErrNoIdempotencyHeader)
	require.Empty(t, sc.requests(), "nothing is sent")

	// The one check where a call begins (Client.begin) covers streams, and
	// runs before the body is read.
	body := strings.NewReader("payload")
	_, err = h.c.Open(context.Background(), opPost, &Request{Method: http.MethodPost, Path: "/", BodyReader: body}, &call)
	require.ErrorIs(t, err, ErrNoIdempotencyHeader)
	require.Equal(t, 7, body.Len(), "the body is not read")
	require.Empty(t, sc.requests())
}
