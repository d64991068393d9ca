package runtime

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/retrygen/retrygen/runtime/openapi"
	"github.com/stretchr/testify/require"
)

// bodyServer answers 503 to the first request and 200 after, recording
// each request's body hash and Content-Length.
type bodyServer struct {
	*recordingServer
	mu      sync.Mutex
	sums    [][32]byte
	lengths []int64
}

func newBodyServer(t *testing.T) *bodyServer {
	b := &bodyServer{}
	b.recordingServer = newRecordingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		data, _ := io.ReadAll(r.Body)
		b.mu.Lock()
		b.sums = append(b.sums, sha256.Sum256(data))
		b.lengths = append(b.lengths, r.ContentLength)
		b.mu.Unlock()
		if n == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	return b
}

// big is a request body longer than MaxReplayBody.
var big = bytes.Repeat([]byte("0123456789abcdef"), (MaxReplayBody+(1<<20))/16)

func TestSeekableRequestBodyIsStreamedAndRewoundForTheRetry(t *testing.T) {
	srv := newBodyServer(t)
	c, _ := loopbackClient(t, testService(), srv.URL, nil)
	md, err := c.Do(context.Background(), opPost, &Request{Method: "PUT", Path: "/", BodyReader: bytes.NewReader(big), ContentType: "application/octet-stream"}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
	want := sha256.Sum256(big)
	require.Equal(t, [][32]byte{want, want}, srv.sums, "the retry sends the same bytes")
	require.Equal(t, []int64{int64(len(big)), int64(len(big))}, srv.lengths, "Content-Length from the seeker")
}

func TestGetBodySuppliesEveryAttempt(t *testing.T) {
	srv := newBodyServer(t)
	c, _ := loopbackClient(t, testService(), srv.URL, nil)
	calls := 0
	get := func() (io.ReadCloser, error) {
		calls++
		return io.NopCloser(strings.NewReader("payload")), nil
	}
	md, err := c.Do(context.Background(), opPost, &Request{Method: "POST", Path: "/", GetBody: get, ContentType: "text/plain"}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
	require.Equal(t, 2, calls)
	want := sha256.Sum256([]byte("payload"))
	require.Equal(t, [][32]byte{want, want}, srv.sums)
}

// onlyReader hides every method but Read.
type onlyReader struct{ io.Reader }

func TestALongBodyThatCannotSeekIsNotRetrySafe(t *testing.T) {
	srv := newBodyServer(t)
	c, _ := loopbackClient(t, testService(), srv.URL, nil)
	md, err := c.Do(context.Background(), opGet, &Request{Method: "PUT", Path: "/", BodyReader: onlyReader{bytes.NewReader(big)}, ContentType: "application/octet-stream"}, nil, nil)
	var nrs *NotRetrySafeError
	require.ErrorAs(t, err, &nrs)
	require.Equal(t, reasonBodyNotReplayable, nrs.Reason)
	require.ErrorContains(t, err, "not retried after 1 attempt: "+reasonBodyNotReplayable)
	var ma *MaxAttemptsError
	require.False(t, errors.As(err, &ma), "not \"max attempts\"")
	require.Equal(t, 1, md.Attempts)
	require.Len(t, srv.sums, 1)
	require.Equal(t, sha256.Sum256(big), srv.sums[0], "streamed whole")
}

// A multipart body whose file part is seekable (openapi.MultipartReader of
// a *bytes.Reader longer than MaxReplayBody) is streamed with its exact
// Content-Length and rewound for the retry (new-user trial item 8: it was
// sent once, then NotRetrySafeError); one whose file cannot seek fails its
// first Seek and is read as a body that cannot seek: buffered when short,
// so still retried.
func TestMultipartBodyWithASeekableFileIsRewoundForTheRetry(t *testing.T) {
	srv := newBodyServer(t)
	c, _ := loopbackClient(t, testService(), srv.URL, nil)
	body, ct, err := openapi.MultipartReader(openapi.Part{Name: "purpose", Value: "x"}, openapi.Part{Name: "file", Value: &openapi.File{Body: bytes.NewReader(big)}})
	require.NoError(t, err)
	md, err := c.Do(context.Background(), opPost, &Request{Method: "POST", Path: "/", BodyReader: body, ContentType: ct}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
	require.Len(t, srv.sums, 2)
	require.Equal(t, srv.sums[0], srv.sums[1], "the retry sends the same bytes")
	require.Greater(t, srv.lengths[0], int64(len(big)))
	require.Equal(t, srv.lengths[0], srv.lengths[1], "Content-Length from the stream's Seek")

	srv2 := newBodyServer(t)
	c2, _ := loopbackClient(t, testService(), srv2.URL, nil)
	small, ct, err := openapi.MultipartReader(openapi.Part{Name: "file", Value: onlyReader{strings.NewReader("short")}})
	require.NoError(t, err)
	md, err = c2.Do(context.Background(), opPost, &Request{Method: "POST", Path: "/", BodyReader: small, ContentType: ct}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
	require.Equal(t, srv2.sums[0], srv2.sums[1])
}

// seekFails is a body whose Seek always fails with err.
type seekFails struct {
	io.Reader
	err error
}

func (s seekFails) Seek(int64, int) (int64, error) { return 0, s.err }

// Only a first Seek that says the body cannot seek (ESPIPE: a pipe's
// *os.File; errors.ErrUnsupported, which openapi.ErrNotSeekable matches)
// makes the body one that cannot seek, read and buffered; any other error
// ends the call before anything is sent (every first-Seek error was read
// as "cannot seek", so a body whose Seek failed for another reason was
// sent anyway).
func TestFirstSeekErrorIsReturnedUnlessTheBodyCannotSeek(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&os.PathError{Op: "seek", Path: "|0", Err: syscall.ESPIPE}, ""},
		{errors.ErrUnsupported, ""},
		{fmt.Errorf("%w: part %q", openapi.ErrNotSeekable, "file"), ""},
		{os.ErrClosed, "request body: file already closed"},
		{errors.New("disk gone"), "request body: disk gone"},
	} {
		sc := script(status(503), status(200))
		c, err := NewClient(testService(), "http://svc.test", Options{HTTPClient: sc})
		require.NoError(t, err)
		md, err := c.Do(context.Background(), opPost, &Request{Method: "POST", Path: "/", BodyReader: seekFails{strings.NewReader("data"), tc.err}}, nil, nil)
		if tc.want == "" {
			require.NoError(t, err, "%v", tc.err)
			require.Equal(t, 2, md.Attempts)
			continue
		}
		require.EqualError(t, err, "test: PutThing: "+tc.want)
		require.Empty(t, sc.requests())
	}
	pr, pw, err := os.Pipe() // a real pipe's first Seek: ESPIPE
	require.NoError(t, err)
	_, err = pw.WriteString("data")
	require.NoError(t, err)
	require.NoError(t, pw.Close())
	sc := script(status(503), status(200))
	c, err := NewClient(testService(), "http://svc.test", Options{HTTPClient: sc})
	require.NoError(t, err)
	md, err := c.Do(context.Background(), opPost, &Request{Method: "POST", Path: "/", BodyReader: pr}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
	require.Equal(t, "data", string(sc.requests()[1].body))
}
