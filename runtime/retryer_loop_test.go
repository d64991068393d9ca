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
	// deadline: the call returns at once, "LAST: a wait of 1s would end
	// after the call's deadline: context deadline exceeded" (newuser4 G8:
	// it said only "context deadline exceeded", 500 ms before the deadline).
	h := newHarnessAt(t, future, nil, 1, script(coded(400, "Throttling")), nil)
	ctx := h.deadline(t, 500*time.Millisecond)
	_, err := h.call(ctx, opGet)
	require.True(t, errors.Is(err, context.DeadlineExceeded))
	var api *APIError
	require.ErrorAs(t, err, &api)
	require.Equal(t, "test: GetThing: api error Throttling (HTTP 400): a wait of 1s would end after the call's deadline: context deadline exceeded", err.Error())
	require.False(t, strings.Contains(err.Error(), "\n"))
}

func TestDecodeErrorNamesOperationAndStatus(t *testing.T) {
	h := newHarness(t, nil, 0, script(status(200)), nil)
	_, err := h.c.Do(context.Background(), opGet, &Request{Method: http.MethodGet, Path: "/"}, nil,
		func(*http.Response) error { return errors.New("invalid character 'n'") })
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	require.Equal(t, "test: GetThing: decoding the HTTP 200 response: invalid character 'n'", err.Error())
	require.Equal(t, 1, len(h.http.requests()), "a decode failure is not retried")
}

func TestMaxAttemptsErrorSingular(t *testing.T) {
	require.Equal(t, "failed after 1 attempt (max attempts reached): x", (&MaxAttemptsError{Attempts: 1, Err: errors.New("x")}).Error())
	require.Equal(t, "failed after 3 attempts (max attempts reached): x", (&MaxAttemptsError{Attempts: 3, Err: errors.New("x")}).Error())
}

// TestOperationErrorNamesServiceAndOperation: every error Do returns is an
// *OperationError "SERVICE: OPERATION: …" (the package name, else the
// service's title), through which errors.As still reaches the error types
// underneath.
func TestOperationErrorNamesServiceAndOperation(t *testing.T) {
	h := newHarness(t, nil, 0, script(coded(500, "InternalError"), coded(500, "InternalError"), coded(500, "InternalError")), nil)
	_, err := h.call(context.Background(), opGet)
	require.Equal(t, "test: GetThing: failed after 3 attempts (max attempts reached): api error InternalError (HTTP 500)", err.Error())
	var oe *OperationError
	require.ErrorAs(t, err, &oe)
	require.Equal(t, OperationError{Service: "test", Operation: "GetThing", Err: oe.Err}, *oe)
	var mae *MaxAttemptsError
	require.ErrorAs(t, err, &mae)
	require.Equal(t, 3, mae.Attempts)
	var api *APIError
	require.ErrorAs(t, err, &api)
	require.Equal(t, "InternalError", api.ErrorCode())

	svc := testService()
	svc.PackageName = ""
	h = newHarness(t, svc, 0, script(coded(400, "ValidationException")), nil)
	_, err = h.call(context.Background(), opPost)
	require.Equal(t, "Test: PutThing: api error ValidationException (HTTP 400)", err.Error())

	h = newHarness(t, nil, 0, script(status(200)), nil)
	_, err = h.c.Do(context.Background(), opGet, &Request{Method: http.MethodGet, Path: "/"}, &Options{MaxAttempts: -1}, nil)
	var ce *ConfigError
	require.ErrorAs(t, err, &ce, "invalid per-call options")
	require.True(t, strings.HasPrefix(err.Error(), "test: GetThing: "), err.Error())
}
