package testserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"testing"
)

// PrismViolation is one entry of the JSON array Prism 5.14.2 sends in the
// `sl-violations` response header, e.g.
//
//	{"location":["request","query","limit"],"severity":"Error","code":"maximum","message":"Request query parameter limit must be <= 100"}
//
// Location starts with "request" (the request broke the spec) or "response"
// (Prism's own answer, built from the spec's examples, broke the spec).
// Severity is "Error", "Warning", "Information" or "Hint". Code is the JSON
// Schema keyword or a Prism code, a string or a number.
type PrismViolation struct {
	Location []string `json:"location"`
	Severity string   `json:"severity"`
	Code     any      `json:"code"`
	Message  string   `json:"message"`
}

// prismErrorType prefixes the `type` of every problem+json body Prism makes
// up itself (UNPROCESSABLE_ENTITY, NO_PATH_MATCHED_ERROR, NOT_FOUND, …).
const prismErrorType = "https://stoplight.io/prism/errors#"

// PrismRejection tells whether Prism rejected the request that got resp,
// given resp's full body; it returns "" when Prism accepted it, else the
// reason. Prism 5.14.2 answers a request that breaks the spec in one of two
// ways, both detected here:
//
//   - the operation defines no 422, 400 or default response: HTTP 422 (404 or
//     405 for an unknown path or method), `Content-Type:
//     application/problem+json`, body {"type":"https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY",
//     "title":"Invalid request","status":422,"detail":…,"validation":[…]};
//   - otherwise: that response (status 422, 400, or 422 for `default`), with
//     the violations in the `sl-violations` header.
//
// Only request violations of severity "Error" count; response violations
// (the spec's examples do not match its schemas) do not. A `sl-violations`
// header that is not JSON (Prism truncates long ones to "Too many
// violations! …") counts as a rejection.
func PrismRejection(resp *http.Response, body []byte) string {
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/problem+json" {
		var problem struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(body, &problem) == nil && strings.HasPrefix(problem.Type, prismErrorType) {
			return fmt.Sprintf("HTTP %d from Prism itself: %s", resp.StatusCode, body)
		}
	}
	header := resp.Header.Get("sl-violations")
	if header == "" {
		return ""
	}
	var violations []PrismViolation
	if err := json.Unmarshal([]byte(header), &violations); err != nil {
		return fmt.Sprintf("HTTP %d, unreadable sl-violations header: %s", resp.StatusCode, header)
	}
	var errs []string
	for _, v := range violations {
		if len(v.Location) > 0 && v.Location[0] == "request" && v.Severity == "Error" {
			errs = append(errs, strings.Join(v.Location, ".")+": "+v.Message)
		}
	}
	if len(errs) == 0 {
		return ""
	}
	return fmt.Sprintf("HTTP %d, request violations: %s", resp.StatusCode, strings.Join(errs, "; "))
}

// PrismTransport wraps base (nil means http.DefaultTransport) so that every
// response from Prism is checked with [PrismRejection]: a rejected request
// fails t (t.Errorf, naming method and URL). Response bodies are read in full
// and handed on unchanged. Use it as the generated client's HTTP client:
// &http.Client{Transport: testserver.PrismTransport(t, nil)}.
func PrismTransport(t testing.TB, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return prismTransport{t: t, base: base}
}

type prismTransport struct {
	t    testing.TB
	base http.RoundTripper
}

func (p prismTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := p.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("testserver: reading Prism's response to %s %s: %w", req.Method, req.URL, err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if reason := PrismRejection(resp, body); reason != "" {
		p.t.Errorf("prism rejected %s %s: %s", req.Method, req.URL, reason)
	}
	return resp, nil
}
