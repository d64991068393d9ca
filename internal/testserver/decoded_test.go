package testserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
)

// user, users and wrapped have the shapes of generated outputs: a JSON
// object decoded into the output itself, or any JSON into a Body field
// that is not a JSON member.
type user struct {
	ID   string  `json:"id"`
	Name *string `json:"name,omitzero"`
	Tags []string
}

type wrapped struct {
	Body *user `json:"-"`
}

type selfWithBodyMember struct {
	Body string `json:"body"`
}

// union has a generated union's JSON methods; embeddedUnion is an output
// embedding it (a shared oneOf response), whose promoted methods decode and
// encode the whole body.
type union struct {
	User *user
	Raw  json.RawMessage
}

func (u *union) UnmarshalJSON(b []byte) error {
	u.Raw = append(json.RawMessage(nil), b...)
	return json.Unmarshal(b, &u.User)
}

func (u union) MarshalJSON() ([]byte, error) { return u.Raw, nil }

type embeddedUnion struct {
	ResultMetadata struct{ Attempts int } `json:"-"`
	union
}

func TestEmbeddedOutputRoundTrips(t *testing.T) {
	body := []byte(`{"id":"7","name":"Ann","Tags":["a"]}`)
	out := &embeddedUnion{}
	require.NoError(t, json.Unmarshal(body, out))
	require.Equal(t, "Ann", *out.User.Name, "the promoted UnmarshalJSON decoded into the embedded union")
	missing, err := testserver.MissingMembers(body, testserver.TypedBody(out))
	require.NoError(t, err)
	require.Empty(t, missing)
}

func TestTypedBody(t *testing.T) {
	u := &user{ID: "7"}
	tests := []struct {
		name string
		out  any
		want any
	}{
		{name: "an output wrapping a non-object body gives its Body field", out: &wrapped{Body: u}, want: u},
		{name: "an output decoded from a JSON object is itself", out: u, want: u},
		{name: "a Body field that is a JSON member is not the wrapped body", out: &selfWithBodyMember{Body: "x"}, want: &selfWithBodyMember{Body: "x"}},
		{name: "a non-struct is itself", out: []int{1}, want: []int{1}},
		{name: "an output embedding the decoded struct is itself", out: &embeddedUnion{}, want: &embeddedUnion{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, testserver.TypedBody(tc.out))
		})
	}
}

func TestMissingMembers(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		typed   any
		want    []string
		wantErr string
	}{
		{
			name: "every member reached a typed field", body: `{"id":"7","name":"Ann","Tags":["a"]}`,
			typed: &user{ID: "7", Name: new("Ann"), Tags: []string{"a"}},
		},
		{
			name: "a null member needs no typed field", body: `{"id":"7","name":null}`,
			typed: &user{ID: "7"},
		},
		{
			name: "a member the type lacks is missing", body: `{"id":"7","login":"ann@example.com"}`,
			typed: &user{ID: "7"}, want: []string{"/login"},
		},
		{
			name: "an empty typed response misses every member", body: `{"id":"7","na/me~":"Ann"}`,
			typed: struct{}{}, want: []string{"/id", "/na~1me~0"},
		},
		{
			name: "members are compared at any depth", body: `{"entries":[{"id":"1"},{"id":"2","extra":true}]}`,
			typed: map[string][]user{"entries": {{ID: "1"}, {ID: "2"}}}, want: []string{"/entries/1/extra"},
		},
		{
			name: "an array decoded with another length is missing", body: `{"Tags":["a","b"]}`,
			typed: &user{Tags: []string{"a"}}, want: []string{"/Tags (2 elements sent, 1 decoded)"},
		},
		{
			name: "leaf values are not compared", body: `{"id":"2012-12-12T10:53:43.0Z"}`,
			typed: map[string]string{"id": "2012-12-12T10:53:43Z"},
		},
		{name: "a body that is not JSON is an error", body: `<html>`, typed: &user{}, wantErr: "response body is not JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := testserver.MissingMembers([]byte(tc.body), tc.typed)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestBodyRecorder(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]string{"path": r.URL.Path})
	}))
	defer srv.Close()
	rec := &testserver.BodyRecorder{}
	require.Nil(t, rec.Last(), "nothing recorded before the first response")
	client := &http.Client{Transport: rec}
	for _, path := range []string{"/a", "/b"} {
		resp, err := client.Get(srv.URL + path)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		resp.Body.Close()
		want := `{"path":"` + path + `"}` + "\n"
		require.Equal(t, want, string(body), "the body is handed on unchanged")
		require.Equal(t, want, string(rec.Last()), "the last body is kept")
	}
}
