package testserver_test

import (
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
)

// prismProblem422 is Prism's own answer to an invalid request for an
// operation that defines no 422, 400 or default response.
const prismProblem422 = `{"type":"https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY","title":"Invalid request","status":422,` +
	`"detail":"Your request is not valid and no HTTP validation response was found in the spec, so Prism is generating this error for you.",` +
	`"validation":[{"location":["query","limit"],"severity":"Error","code":"maximum","message":"Request query parameter limit must be <= 100"}]}`

// TestPrism records how Prism 5.14.2 answers valid and invalid requests, and
// that PrismRejection and PrismTransport tell them apart.
func TestPrism(t *testing.T) {
	endpoint := testserver.StartPrism(t, "testdata/petstore.yaml")
	tests := []struct {
		name            string
		path            string
		prefer          string // Prefer request header
		wantStatus      int
		wantContentType string
		wantViolations  string // sl-violations response header
		wantBody        string
		wantRejected    bool
	}{
		{
			name: "valid request gets the example", path: "/pets/7?limit=5",
			wantStatus: 200, wantContentType: "application/json", wantBody: `{"id":7,"name":"Rex"}`,
		},
		{
			name: "invalid request without error responses gets Prism's problem+json 422", path: "/pets/7?limit=500",
			wantStatus: 422, wantContentType: "application/problem+json", wantBody: prismProblem422, wantRejected: true,
		},
		{
			name: "unknown path gets Prism's problem+json 404", path: "/nope",
			wantStatus: 404, wantContentType: "application/problem+json", wantRejected: true,
			wantBody: `{"type":"https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR","title":"Route not resolved, no path matched","status":404,"detail":"The route /nope hasn't been found in the specification file"}`,
		},
		{
			name: "invalid request with a default response gets it as 422 with sl-violations", path: "/owners/0",
			wantStatus: 422, wantContentType: "application/json", wantBody: `{"code":"oops"}`, wantRejected: true,
			wantViolations: `[{"location":["request","path","ownerid"],"severity":"Error","code":"minimum","message":"Request path parameter ownerid must be >= 1"}]`,
		},
		{
			name: "Prefer code=503 picks the default response of a valid request", path: "/owners/3", prefer: "code=503",
			wantStatus: 503, wantContentType: "application/json", wantBody: `{"code":"oops"}`,
		},
		{
			name: "Prefer with a code the operation lacks gets Prism's problem+json 404", path: "/pets/7?limit=5", prefer: "code=503",
			wantStatus: 404, wantContentType: "application/problem+json", wantRejected: true,
			wantBody: `{"type":"https://stoplight.io/prism/errors#NOT_FOUND","title":"The server cannot find the requested content","status":404,"detail":"Requested status code 503 is not defined in the document."}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, endpoint+tc.path, nil)
			require.NoError(t, err)
			if tc.prefer != "" {
				req.Header.Set("Prefer", tc.prefer)
			}
			recorder := &errorRecorder{TB: t}
			resp, err := (&http.Client{Transport: testserver.PrismTransport(recorder, nil)}).Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)

			require.Equal(t, tc.wantStatus, resp.StatusCode)
			require.Equal(t, tc.wantContentType, resp.Header.Get("Content-Type"))
			require.Equal(t, tc.wantViolations, resp.Header.Get("sl-violations"))
			require.JSONEq(t, tc.wantBody, string(body))
			require.Equal(t, tc.wantRejected, testserver.PrismRejection(resp, body) != "")
			require.Equal(t, tc.wantRejected, len(recorder.errors) == 1, "PrismTransport errors: %q", recorder.errors)
		})
	}
}

// TestPrismRejection checks the detection rules on responses made up here.
func TestPrismRejection(t *testing.T) {
	tests := []struct {
		name        string
		contentType string
		violations  string
		body        string
		want        string
	}{
		{
			name: "no violations header is accepted", contentType: "application/json", body: `{}`,
		},
		{
			name: "response-only violations are accepted (the spec's example breaks its schema)", contentType: "application/json", body: `{}`,
			violations: `[{"location":["response","body"],"severity":"Error","code":"required","message":"Response body must have required property 'id'"}]`,
		},
		{
			name: "request warnings are accepted", contentType: "application/json", body: `{}`,
			violations: `[{"location":["request","header"],"severity":"Warning","code":"x","message":"m"}]`,
		},
		{
			name: "request errors are rejected", contentType: "application/json", body: `{}`,
			violations: `[{"location":["request","query","limit"],"severity":"Error","code":"maximum","message":"too big"}]`,
			want:       "HTTP 400, request violations: request.query.limit: too big",
		},
		{
			name: "a truncated violations header is rejected", contentType: "application/json", body: `{}`,
			violations: `Too many violations! [{"location"`,
			want:       `HTTP 400, unreadable sl-violations header: Too many violations! [{"location"`,
		},
		{
			name: "Prism's own problem+json is rejected", contentType: "application/problem+json; charset=utf-8",
			body: `{"type":"https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY"}`,
			want: `HTTP 400 from Prism itself: {"type":"https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY"}`,
		},
		{
			name: "the spec's own problem+json is accepted", contentType: "application/problem+json",
			body: `{"type":"https://example.com/errors#quota"}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp := &http.Response{StatusCode: 400, Header: http.Header{}}
			resp.Header.Set("Content-Type", tc.contentType)
			if tc.violations != "" {
				resp.Header.Set("sl-violations", tc.violations)
			}
			require.Equal(t, tc.want, testserver.PrismRejection(resp, []byte(tc.body)))
		})
	}
}

// errorRecorder records Errorf calls instead of failing the test.
type errorRecorder struct {
	testing.TB
	errors []string
}

func (r *errorRecorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
