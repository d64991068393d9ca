package schemaunionnestedrequired

import "testing"

// TestNestedRequiredUnionRefused: a required union member below the input's
// own members with no variant set would be sent as null, which a validating
// server (Prism) refuses; the validator names it by its JSON path before
// sending, beside the input's own members, and leaves optional ones alone
// (review: only the input's own members were checked).
func TestNestedRequiredUnionRefused(t *testing.T) {
	s := "hi"
	ok := Content{String: &s}
	in := &ChatRequest{First: ok, Messages: []Message{{Content: ok}, {}, {Content: ok, Alt: &Content{}}}}
	const want = "1 validation error(s) found. - missing required field, ChatRequest.Messages[1].content."
	if err := validateChat(in); err == nil || err.Error() != want {
		t.Fatalf("got %q, want %q", err, want)
	}
	in.Messages[1].Content = ok
	if err := validateChat(in); err != nil {
		t.Fatal(err)
	}
	if err := validateBatch(&BatchInput{Body: []Message{{}, {Content: ok}}}); err == nil || err.Error() != "1 validation error(s) found. - missing required field, BatchInput.Body[0].content." {
		t.Fatalf("got %q", err)
	}
}
