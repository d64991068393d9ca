package runtime

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// A modelled error keeps the raw error body in ErrorMetadata.Body, up to
// 64 KiB as *APIError.Body does (new-user trial item 12: a proxy's HTML
// page answering a modelled 400 was lost whole): here a 404 modelled by
// status whose body is not JSON, and one longer than the cap.
func TestModeledErrorKeepsTheRawBody(t *testing.T) {
	op := &Operation{Name: "GetThing", NewErrorForStatus: func(status int) ModeledError { return &statusError{} }}
	html := "<html>" + string(bytes.Repeat([]byte("x"), 300)) + "</html>"
	long := `{"detail":"gone","pad":"` + string(bytes.Repeat([]byte("y"), maxAPIErrorBody)) + `"}`
	h := newHarness(t, nil, 0, script(
		step{status: 404, header: http.Header{"Content-Type": {"text/html"}}, body: html},
		step{status: 404, header: http.Header{"Content-Type": {"application/json"}}, body: long},
	), nil)
	_, err := h.c.Do(context.Background(), op, &Request{Method: http.MethodGet, Path: "/"}, nil, nil)
	se, ok := errors.AsType[*statusError](err)
	require.True(t, ok, "%v", err)
	require.Equal(t, html, string(se.ErrorMetadata.Body))
	require.Equal(t, "", se.Detail)

	_, err = h.c.Do(context.Background(), op, &Request{Method: http.MethodGet, Path: "/"}, nil, nil)
	se, ok = errors.AsType[*statusError](err)
	require.True(t, ok, "%v", err)
	require.Equal(t, "gone", se.Detail, "the modelled fields come from the whole body")
	require.Equal(t, long[:maxAPIErrorBody], string(se.ErrorMetadata.Body))
}
