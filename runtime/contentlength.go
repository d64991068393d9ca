package runtime

import (
	"fmt"
	"io"
	"strconv"

	"github.com/retrygen/retrygen/runtime/internal/httpsyntax"
)

// ContentLengthError ends a call whose request body's length differs from
// the Content-Length in Request.Header (an operation's Content-Length
// header parameter, S3 PutObject's and UploadPart's ContentLength): the
// declared length is what the request says it carries, so a body over or
// under it is never sent as if it were whole (aws-sdk-go-v2 fails the same
// way; net/http would send the first Declared bytes of a longer body as a
// complete request). It is not retried: every attempt has the same body.
// A body whose length is known (Request.Body, a buffered or seekable
// BodyReader) is checked before the first attempt; a streamed one as it is
// sent, and the attempt ends before the server has a complete request.
type ContentLengthError struct {
	// Declared is the header's value in bytes.
	Declared int64
	// Actual is the body's length in bytes, or -1 when the body is longer
	// than Declared and was not read further.
	Actual int64
}

// Error renders "request body is A bytes, but its Content-Length header
// says D", or "request body is longer than its Content-Length header says
// (D bytes)".
func (e *ContentLengthError) Error() string {
	if e.Actual < 0 {
		return fmt.Sprintf("request body is longer than its Content-Length header says (%d bytes)", e.Declared)
	}
	return fmt.Sprintf("request body is %d bytes, but its Content-Length header says %d", e.Actual, e.Declared)
}

// readDeclaredLength records the Content-Length of req.Header (RFC 9110
// §8.6: one non-negative decimal integer) in req.declared, and checks a
// body already in memory against it. It returns an error naming the
// header for a value that is not a length, or a *ContentLengthError.
func (req *Request) readDeclaredLength() error {
	vs := req.Header.Values("Content-Length")
	if len(vs) == 0 {
		return nil
	}
	n, err := strconv.ParseInt(vs[0], 10, 64)
	if len(vs) > 1 || err != nil || !httpsyntax.Digits(vs[0]) {
		return fmt.Errorf("request header Content-Length: %q is not a length in bytes", vs)
	}
	req.declared, req.hasDeclared = n, true
	if req.BodyReader == nil && req.GetBody == nil && int64(len(req.Body)) != n {
		return &ContentLengthError{Declared: n, Actual: int64(len(req.Body))}
	}
	return nil
}

// checkDeclaredLength returns a *ContentLengthError when req declares a
// Content-Length and size (the body's known length) differs from it.
func (req *Request) checkDeclaredLength(size int64) error {
	if req.hasDeclared && size != req.declared {
		return &ContentLengthError{Declared: req.declared, Actual: size}
	}
	return nil
}

// exactLength reads r, which must hold exactly n bytes: a read past n, or
// io.EOF before it, fails with a *ContentLengthError. The last bytes are
// returned only once r is known to end there, so a longer body never
// reaches the wire as a complete request.
type exactLength struct {
	r    io.Reader
	n    int64 // declared length
	read int64
	err  error
}

func (e *exactLength) Read(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	left := e.n - e.read
	if left == 0 {
		e.err = e.probeEnd()
		if e.err == nil {
			e.err = io.EOF
		}
		return 0, e.err
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := e.r.Read(p)
	e.read += int64(n)
	switch {
	case e.read == e.n:
		if perr := e.probeEnd(); perr != nil {
			e.err = perr
			return 0, perr // withheld: the request stays incomplete
		}
		e.err = io.EOF
		return n, io.EOF
	case err == io.EOF:
		e.err = &ContentLengthError{Declared: e.n, Actual: e.read}
		return n, e.err
	}
	return n, err
}

// probeEnd reads one byte past the declared length: nil when r ends there.
func (e *exactLength) probeEnd() error {
	var one [1]byte
	for range 100 { // a reader may return (0, nil) a few times
		m, err := e.r.Read(one[:])
		switch {
		case m > 0:
			return &ContentLengthError{Declared: e.n, Actual: -1}
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		}
	}
	return io.ErrNoProgress
}

// Close closes r when it is an io.Closer.
func (e *exactLength) Close() error {
	if c, ok := e.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// declaredBody returns r read through exactLength when req declares a
// Content-Length, else r; and the length to send (-1: unknown).
func (req *Request) declaredBody(r io.Reader) (io.Reader, int64) {
	if !req.hasDeclared {
		return r, -1
	}
	return &exactLength{r: r, n: req.declared}, req.declared
}
