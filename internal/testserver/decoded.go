package testserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// PrismDynamicArgs are the [StartPrism] extra arguments that make Prism 5.14.2
// build every response from the operation's response schema
// (json-schema-faker) instead of the spec's examples, which real specs get
// wrong: Box's example for Collaboration.created_by is an array where its
// schema says object, Twilio's for available_phone_numbers[].latitude a
// string where its schema says number. `--seed` makes the responses the same
// on every run; `--json-schema-faker-fillProperties=false` adds no members
// beyond the schema's properties, so every member of a response is one the
// spec declares.
var PrismDynamicArgs = []string{"--dynamic", "--seed", "retrygen", "--json-schema-faker-fillProperties=false"}

// BodyRecorder is an http.RoundTripper that keeps the body of the last
// response it handed on, read in full and passed on unchanged. Base nil
// means http.DefaultTransport. Safe for concurrent use; with concurrent
// requests "last" is whichever finished last.
type BodyRecorder struct {
	Base http.RoundTripper

	mu   sync.Mutex
	last []byte
}

// RoundTrip sends req through Base and records the response body. It
// returns Base's error, or an error naming the request when the body cannot
// be read.
func (r *BodyRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	base := r.Base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("testserver: reading the response to %s %s: %w", req.Method, req.URL, err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	r.mu.Lock()
	r.last = body
	r.mu.Unlock()
	return resp, nil
}

// Last returns the body of the last response (nil before the first).
func (r *BodyRecorder) Last() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// TypedBody returns the value a generated operation decoded its JSON
// response into. A generated output decodes a JSON object into itself
// (a dedicated shape) or into the struct it embeds (a shared one: the
// embedded fields and JSON methods are promoted, so the output encodes as
// the body), and any other JSON into its Body field, which is not a JSON
// member of the output (tag `json:"-"`); TypedBody returns that field's
// value when out (a struct or a pointer to one) has it, else out.
func TypedBody(out any) any {
	v := reflect.ValueOf(out)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return out
	}
	if f, ok := v.Type().FieldByName("Body"); ok && f.Tag.Get("json") == "-" {
		return v.FieldByIndex(f.Index).Interface()
	}
	return out
}

// MissingMembers compares a JSON response body with typed, the value a
// client decoded from it, by encoding typed back to JSON: it returns the
// JSON pointers (sorted) of the members of body, at any depth, that have a
// value other than null and are missing from typed's encoding, and of the
// arrays whose length differs. Leaf values are not compared (a date-time or
// a number may be written differently). An empty result means every member
// the server sent reached a typed field. It returns an error when body or
// typed's encoding is not JSON.
func MissingMembers(body []byte, typed any) ([]string, error) {
	var sent any
	if err := json.Unmarshal(body, &sent); err != nil {
		return nil, fmt.Errorf("testserver: response body is not JSON: %w", err)
	}
	enc, err := json.Marshal(typed)
	if err != nil {
		return nil, fmt.Errorf("testserver: encoding the typed response: %w", err)
	}
	var got any
	if err := json.Unmarshal(enc, &got); err != nil {
		return nil, fmt.Errorf("testserver: the typed response does not encode to JSON: %w", err)
	}
	var missing []string
	missingMembers("", sent, got, &missing)
	sort.Strings(missing)
	return missing, nil
}

// missingMembers appends to missing the pointers under ptr where sent has
// a member or array element that got lacks.
func missingMembers(ptr string, sent, got any, missing *[]string) {
	switch s := sent.(type) {
	case map[string]any:
		g, _ := got.(map[string]any)
		for k, sv := range s {
			if sv == nil {
				continue
			}
			gv, ok := g[k]
			if !ok || gv == nil {
				*missing = append(*missing, ptr+"/"+pointerEscaper.Replace(k))
				continue
			}
			missingMembers(ptr+"/"+pointerEscaper.Replace(k), sv, gv, missing)
		}
	case []any:
		g, _ := got.([]any)
		if len(g) != len(s) {
			*missing = append(*missing, fmt.Sprintf("%s (%d elements sent, %d decoded)", ptr, len(s), len(g)))
			return
		}
		for i := range s {
			missingMembers(ptr+"/"+strconv.Itoa(i), s[i], g[i], missing)
		}
	}
}

// pointerEscaper escapes a member name for a JSON pointer (RFC 6901).
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// RequireDecoded fails t unless out, a generated operation's output, holds
// every member of body (the raw response, e.g. from a BodyRecorder) in a
// typed field and is not empty ({}, [] or null once re-encoded).
func RequireDecoded(t testing.TB, body []byte, out any) {
	t.Helper()
	typed := TypedBody(out)
	missing, err := MissingMembers(body, typed)
	if err != nil {
		t.Fatalf("comparing the response with its typed value: %v", err)
	}
	if len(missing) > 0 {
		t.Fatalf("members of the response that no typed field holds: %v; response: %s", missing, body)
	}
	b, err := json.Marshal(typed)
	if err != nil {
		t.Fatalf("re-encoding the typed value: %v", err)
	}
	if s := string(b); s == "{}" || s == "[]" || s == "null" {
		t.Fatalf("the typed response decoded nothing from %s", body)
	}
}
