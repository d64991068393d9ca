package runtime

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A transport error never shows a query value or userinfo (new-user trial
// item 4: an API key sent in the query was in every *url.Error text): each
// query value and the userinfo are replaced with REDACTED, and the error
// chain is kept (errors.As to *url.Error, errors.Is the context's error).
// Over a real socket on purpose: the *url.Error is net/http's.
func TestTransportErrorsRedactTheQueryAndUserinfo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close() // EOF before any response
		}
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	c, err := NewClient(testService(), "http://tok:pw@"+host+"/base", Options{MaxAttempts: 1})
	require.NoError(t, err)
	req := func() *Request {
		return &Request{Method: http.MethodGet, Path: "/x", Query: url.Values{"api_key": {"SECRET-KEY-123"}, "q": {"a b", "c"}}}
	}
	_, err = c.Do(context.Background(), opGet, req(), nil, nil)
	require.Error(t, err)
	require.NotContains(t, err.Error(), "SECRET")
	require.NotContains(t, err.Error(), "tok")
	ue, ok := errors.AsType[*url.Error](err)
	require.True(t, ok, "%v", err)
	require.Equal(t, "http://REDACTED@"+host+"/base/x?api_key=REDACTED&q=REDACTED&q=REDACTED", ue.URL)
	require.Equal(t, `Get "http://REDACTED@`+host+`/base/x?api_key=REDACTED&q=REDACTED&q=REDACTED": EOF`, ue.Error())

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = c.Do(ctx, opGet, req(), nil, nil)
	require.ErrorIs(t, err, context.Canceled)
	require.NotContains(t, err.Error(), "SECRET")

	srv.Close() // connection refused
	_, err = c.Do(context.Background(), opGet, req(), nil, nil)
	require.Error(t, err)
	require.NotContains(t, err.Error(), "SECRET")
	_, ok = errors.AsType[*url.Error](err)
	require.True(t, ok, "%v", err)
}
