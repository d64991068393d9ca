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

// TestHooksCompose: every hook set in the client's options, in the call's
// options, or in both, runs; a call's hook runs after the client's (End, as
// deferred calls, before it), and never replaces it (issue 25).
func TestHooksCompose(t *testing.T) {
	type hookSetter func(o *Options, name string, log *[]string)
	hooks := map[string]hookSetter{
		"BeforeAttempt": func(o *Options, name string, log *[]string) {
			o.BeforeAttempt = func(req *http.Request, _ int) error {
				*log = append(*log, name)
				req.Header.Add("X-Hook", name)
				return nil
			}
		},
		"OnAttempt": func(o *Options, name string, log *[]string) {
			o.OnAttempt = func(AttemptInfo) { *log = append(*log, name) }
		},
		"OnCall": func(o *Options, name string, log *[]string) {
			o.OnCall = func(context.Context, CallInfo) CallHooks { *log = append(*log, name); return CallHooks{} }
		},
		"OnCall.Context": func(o *Options, name string, log *[]string) {
			o.OnCall = func(ctx context.Context, _ CallInfo) CallHooks {
				if v, ok := ctx.Value(ctxKey{}).(string); ok {
					name = v + ">" + name // the call's OnCall sees the client's context
				}
				return CallHooks{Context: context.WithValue(ctx, ctxKey{}, name), BeforeAttempt: func(req *http.Request, _ int) error {
					*log = append(*log, req.Context().Value(ctxKey{}).(string))
					return nil
				}}
			}
		},
		"OnCall.BeforeAttempt": func(o *Options, name string, log *[]string) {
			o.OnCall = func(context.Context, CallInfo) CallHooks {
				return CallHooks{BeforeAttempt: func(*http.Request, int) error { *log = append(*log, name); return nil }}
			}
		},
		"OnCall.OnAttempt": func(o *Options, name string, log *[]string) {
			o.OnCall = func(context.Context, CallInfo) CallHooks {
				return CallHooks{OnAttempt: func(AttemptInfo) { *log = append(*log, name) }}
			}
		},
		"OnCall.End": func(o *Options, name string, log *[]string) {
			o.OnCall = func(context.Context, CallInfo) CallHooks {
				return CallHooks{End: func(ResponseMetadata, error) { *log = append(*log, name) }}
			}
		},
	}
	for hook, set := range hooks {
		for _, where := range []struct {
			name         string
			client, call bool
			want         []string
		}{
			{"client only", true, false, []string{"client"}},
			{"call only", false, true, []string{"call"}},
			{"both", true, true, []string{"client", "call"}},
		} {
			t.Run(hook+", "+where.name, func(t *testing.T) {
				var log []string
				sc := script(step{status: 200, body: `{}`})
				opts := Options{HTTPClient: sc}
				if where.client {
					set(&opts, "client", &log)
				}
				c, err := NewClient(testService(), "http://api.test", opts)
				require.NoError(t, err)
				call := c.Options() // as generated code starts per-call options
				if where.call {
					set(&call, "call", &log)
				}
				_, err = c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, &call, nil)
				require.NoError(t, err)
				want := where.want
				switch {
				case hook == "OnCall.End" && len(want) == 2:
					want = []string{"call", "client"} // as deferred calls
				case hook == "OnCall.Context" && len(want) == 2:
					// Attempts run under the last context: the call's,
					// derived from the client's.
					want = []string{"client>call", "client>call"}
				}
				require.Equal(t, want, log)
				if hook == "BeforeAttempt" {
					require.Equal(t, want, sc.requests()[0].header.Values("X-Hook"), "what each hook set is sent")
				}
			})
		}
	}
}
