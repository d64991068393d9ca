package runtime

import (
	"net/http"
	"testing"
)

// BenchmarkDecodeError is the error-body path alone: one JSON error body
// turned into its code, message and modeled error.
func BenchmarkDecodeError(b *testing.B) {
	c, err := NewClient(testService(), "http://svc.test", Options{})
	if err != nil {
		b.Fatal(err)
	}
	op := &Operation{Name: "GetItem", NewError: func(code string) ModeledError {
		if code == "ThrottlingException" {
			return &throttlingModeled{}
		}
		return nil
	}}
	resp := &http.Response{StatusCode: 400, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.decodeError(op, resp, benchErrorBody); err == nil {
			b.Fatal("no error")
		}
	}
}
