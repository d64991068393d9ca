package runtime

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/retrygen/retrygen/runtime/openapi"
	"github.com/stretchr/testify/require"
)

// TestPathParameterPlusReachesTheWireEscaped: an S3 key "dir/a b+c?d#e%f.txt"
// goes out as %2F, %20, %2B, %3F, %23, %25 — "+" escaped, since S3 reads a
// literal "+" in a path as a space and the client would read and write
// another object (third new-user trial F15). Checked on a real socket:
// the server's request line.
func TestPathParameterPlusReachesTheWireEscaped(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.RequestURI+" key="+r.URL.Path)
	}))
	defer srv.Close()
	c, err := NewClient(&Service{Name: "s3"}, srv.URL, Options{})
	require.NoError(t, err)
	path := "/bkt/" + openapi.PathParam("Key", "dir/a b+c?d#e%f.txt", openapi.StyleSimple, false)
	_, err = c.Do(context.Background(), &Operation{Name: "PutObject"}, &Request{Method: "PUT", Path: path}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, []string{"/bkt/dir%2Fa%20b%2Bc%3Fd%23e%25f.txt key=/bkt/dir/a b+c?d#e%f.txt"}, seen)
}
