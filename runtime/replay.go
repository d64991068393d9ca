package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall"
)

// A request body is replayed on a retry in one of these ways, in this order
// (retry-behavior.md §3): Request.GetBody, called for every attempt; a
// Request.BodyReader that is an io.Seeker, streamed (never buffered) and
// rewound to where it started before every retry (one whose first Seek
// fails with ESPIPE or errors.ErrUnsupported is read as one that cannot
// seek; another first-Seek error ends the call); a BodyReader of at most
// MaxReplayBody bytes, buffered (bufferBody); Request.Body. A longer
// BodyReader that cannot seek is streamed once (streamBody): the call makes
// one attempt, and a failure that would have been retried returns a
// *NotRetrySafeError with reasonBodyNotReplayable.

// seekBody replays a seekable request body: each attempt reads it through
// its own attemptBody, rewound to start. An attempt does not rewind until
// the transport has closed the previous attempt's body (net/http may still
// be writing it after the response arrived).
type seekBody struct {
	r     io.ReadSeeker
	start int64
	// size is the bytes from start to the end, sent as Content-Length.
	size int64
	prev *attemptBody
}

// newSeekBody records where r starts and how long it is. It returns nil
// and no error when r's first Seek says r cannot seek (an error matching
// syscall.ESPIPE, a pipe's *os.File, or errors.ErrUnsupported, which
// openapi.ErrNotSeekable of a multipart body with a file that cannot seek
// matches): nothing was read or moved, so r is read as a body that cannot
// seek. Any other Seek error is returned ("request body: …").
func newSeekBody(r io.ReadSeeker) (*seekBody, error) {
	start, err := r.Seek(0, io.SeekCurrent)
	if errors.Is(err, syscall.ESPIPE) || errors.Is(err, errors.ErrUnsupported) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("request body: %w", err)
	}
	end, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, fmt.Errorf("request body: %w", err)
	}
	if _, err := r.Seek(start, io.SeekStart); err != nil {
		return nil, fmt.Errorf("request body: %w", err)
	}
	return &seekBody{r: r, start: start, size: end - start}, nil
}

// next returns the body of the next attempt, rewound to start.
func (s *seekBody) next(ctx context.Context) (io.ReadCloser, error) {
	if p := s.prev; p != nil {
		select {
		case <-p.closed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if _, err := s.r.Seek(s.start, io.SeekStart); err != nil {
			return nil, fmt.Errorf("rewinding the request body: %w", err)
		}
	}
	s.prev = &attemptBody{r: s.r, closed: make(chan struct{})}
	return s.prev, nil
}

// attemptBody is one attempt's view of a seekable body; Close (by the
// transport) lets the next attempt rewind it. It never closes the caller's
// reader.
type attemptBody struct {
	r      io.Reader
	once   sync.Once
	closed chan struct{}
}

func (b *attemptBody) Read(p []byte) (int, error) { return b.r.Read(p) }

func (b *attemptBody) Close() error {
	b.once.Do(func() { close(b.closed) })
	return nil
}

// attemptBodyOf returns the body of one attempt from req's replay source,
// and its length (-1: unknown), or nil when req has none of GetBody or a
// seekable BodyReader.
func (req *Request) attemptBodyOf(ctx context.Context) (io.ReadCloser, int64, error) {
	switch {
	case req.GetBody != nil:
		rc, err := req.GetBody()
		if err != nil {
			return nil, 0, fmt.Errorf("request body (GetBody): %w", err)
		}
		if r, n := req.declaredBody(rc); n >= 0 {
			return r.(io.ReadCloser), n, nil // exactLength closes rc
		}
		return rc, -1, nil
	case req.seek != nil:
		rc, err := req.seek.next(ctx)
		return rc, req.seek.size, err
	}
	return nil, 0, nil
}
