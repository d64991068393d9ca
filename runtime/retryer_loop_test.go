package runtime

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDeadlineErrorIsOneLine(t *testing.T) {
	// The next backoff (1 s throttling base, r = 1) would end past a 500 ms
	// deadline: the call returns at once, "LAST: context deadline exceeded".
	h := newHarnessAt(t, future, nil, 1, script(coded(400, "Throttling")), nil)
	ctx := h.deadline(t, 500*time.Millisecond)
	_, err := h.call(ctx, opGet)
	require.True(t, errors.Is(err, context.DeadlineExceeded))
	var api *APIError
	require.ErrorAs(t, err, &api)
	require.Equal(t, "api error Throttling (HTTP 400): context deadline exceeded", err.Error())
	require.False(t, strings.Contains(err.Error(), "\n"))
}

func TestDecodeErrorNamesOperationAndStatus(t *testing.T) {
	h := newHarness(t, nil, 0, script(status(200)), nil)
	_, err := h.c.Do(context.Background(), opGet, &Request{Method: http.MethodGet, Path: "/"}, nil,
		func(*http.Response) error { return errors.New("invalid character 'n'") })
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	require.Equal(t, "GetThing: decoding the HTTP 200 response: invalid character 'n'", err.Error())
	require.Equal(t, 1, len(h.http.requests()), "a decode failure is not retried")
}

func TestMaxAttemptsErrorSingular(t *testing.T) {
	require.Equal(t, "failed after 1 attempt (max attempts reached): x", (&MaxAttemptsError{Attempts: 1, Err: errors.New("x")}).Error())
	require.Equal(t, "failed after 3 attempts (max attempts reached): x", (&MaxAttemptsError{Attempts: 3, Err: errors.New("x")}).Error())
}
