package runtime

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestChainBeforeAttempt(t *testing.T) {
	var calls []string
	hook := func(name string, err error) BeforeAttemptFunc {
		return func(*http.Request, int) error { calls = append(calls, name); return err }
	}
	boom := errors.New("boom")
	for _, tc := range []struct {
		name      string
		first     BeforeAttemptFunc
		next      BeforeAttemptFunc
		wantCalls []string
		wantErr   error
	}{
		{"both hooks run, the existing one first", hook("user", nil), hook("auth", nil), []string{"user", "auth"}, nil},
		{"an error in the first stops the chain", hook("user", boom), hook("auth", nil), []string{"user"}, boom},
		{"a nil first hook is skipped", nil, hook("auth", nil), []string{"auth"}, nil},
		{"a nil next hook is skipped", hook("user", nil), nil, []string{"user"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls = nil
			err := ChainBeforeAttempt(tc.first, tc.next)(nil, 1)
			require.Equal(t, tc.wantCalls, calls)
			require.Equal(t, tc.wantErr, err)
		})
	}
}

// statusError is a modelled error keyed by status.
type statusError struct {
	ErrorMetadata `json:"-"`
	Detail        string `json:"detail"`
}

func (e *statusError) Error() string { return e.ErrorMetadata.String() }

// codeError is a modelled error keyed by code.
type codeError struct {
	ErrorMetadata `json:"-"`
}

func (e *codeError) Error() string { return e.ErrorMetadata.String() }

func TestNewErrorForStatus(t *testing.T) {
	op := &Operation{Name: "GetThing",
		NewError: func(code string) ModeledError {
			if code == "Known" {
				return &codeError{}
			}
			return nil
		},
		NewErrorForStatus: func(status int) ModeledError {
			if status == 404 {
				return &statusError{}
			}
			return nil
		}}
	for _, tc := range []struct {
		name     string
		answer   step
		wantType string
	}{
		{"a modelled code wins over the status", step{status: 404, body: `{"code":"Known"}`}, "code"},
		{"an unmodelled code falls back to the status", step{status: 404, body: `{"code":"Other","detail":"gone"}`}, "status"},
		{"no code: the status decides", step{status: 404, body: `{"detail":"gone"}`}, "status"},
		{"an unmodelled status is an APIError", step{status: 409, body: `{}`}, "api"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil, 0, script(tc.answer), nil)
			_, err := h.c.Do(context.Background(), op, &Request{Method: http.MethodGet, Path: "/"}, nil, nil)
			var se *statusError
			var ce *codeError
			var ae *APIError
			switch tc.wantType {
			case "status":
				require.ErrorAs(t, err, &se)
				require.Equal(t, "gone", se.Detail)
				require.Equal(t, 404, se.HTTPStatusCode)
			case "code":
				require.ErrorAs(t, err, &ce)
				require.Equal(t, "Known", ce.ErrorCode())
			default:
				require.ErrorAs(t, err, &ae)
				require.Equal(t, 409, ae.HTTPStatusCode)
			}
		})
	}
}
