package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// Stream is a 2xx response body the runtime hands to the caller unread
// ([Client.Open]): a download or an event stream. It is never buffered, so
// no decode cap applies. The call it ends is still under way while the
// caller reads: a body that breaks off is resumed by the retry engine, as
// another attempt of the same call, with the same classification, retry
// quota, server delay and deadline rules (retry-behavior.md §3–§5):
//
//   - a download (any media type but text/event-stream) of a GET whose first
//     response advertised Accept-Ranges: bytes and carried a strong ETag or a
//     Last-Modified date resumes by itself inside Read: the next attempt
//     sends Range: bytes=N- (N the bytes read so far) and If-Range, and must
//     get a 206 starting at N, or a 200 with the same strong ETag (the
//     server ignored Range: its first N bytes are skipped), else Read fails
//     with a *RangeIgnoredError (a 200 with the same Last-Modified date) or
//     a *RepresentationChangedError; the caller reads one complete body;
//   - an event stream resumes when its reader calls [Stream.Resume]
//     (openapi.EventStream does, with Last-Event-ID).
//
// Reconnecting re-sends the request, so an operation that is not
// retry-safe reconnects only with Options.ResumeStreams; otherwise the
// stream ends with a *NotRetrySafeError. Every error that ends a stream is an
// *OperationError. The call ends (Options.OnCall's End hook runs) when the
// body ends, fails, or is closed. Read and Resume are not safe for
// concurrent use; Close may be called from any goroutine.
type Stream struct {
	cl  callMachine
	ctx context.Context
	// stop ends ctx (Close).
	stop context.CancelFunc
	req  *Request
	// mu guards resp, cancel, closed, cutErr and resuming: Close may be
	// called from another goroutine (openapi.EventStream's on ctx's end).
	mu     sync.Mutex
	resp   *http.Response
	cancel context.CancelCauseFunc // the current attempt's context
	timer  *time.Timer             // its attempt timeout, until the headers
	closed bool
	// cutErr is the read error that broke the body off, until a resume.
	cutErr error
	// resuming: a resume is under way (it ends the call if Close came
	// meanwhile).
	resuming bool
	endOnce  sync.Once
	// n counts the bytes of the representation read so far.
	n int64
	// validator is the If-Range value (a strong ETag, else Last-Modified)
	// when the first response allows range resumes; "" when it does not.
	validator string
	// strong: validator is a strong ETag (not a Last-Modified date).
	strong bool
	// skip counts the bytes of the current response to drop before Read
	// delivers any: a resume answered with the whole representation (200,
	// the same strong ETag) repeats the s.n bytes already read.
	skip int64
	err  error
}

// RepresentationChangedError ends a download whose resume (Range with
// If-Range) did not continue the same representation: the server sent a
// whole new one (200) or a range starting elsewhere, so the bytes read so far
// cannot be completed.
type RepresentationChangedError struct {
	// Offset is how many bytes had been read; StatusCode and ContentRange
	// are the resume's response status and Content-Range header.
	Offset       int64
	StatusCode   int
	ContentRange string
}

// Error names the offset and what the server sent.
func (e *RepresentationChangedError) Error() string {
	return fmt.Sprintf("resuming the download at byte %d: the representation changed (HTTP %d, Content-Range %q)", e.Offset, e.StatusCode, e.ContentRange)
}

// RangeIgnoredError ends a download whose resume (Range with If-Range) was
// answered with the whole representation (HTTP 200) carrying the same
// Last-Modified date: the server ignored Range, and a date does not prove
// the body is the same bytes, so the bytes read so far cannot be completed.
// (With the same strong ETag the download continues: the bytes already
// read are skipped.)
type RangeIgnoredError struct {
	// Offset is how many bytes had been read; StatusCode is the resume's
	// response status, Validator the If-Range value it matched.
	Offset     int64
	StatusCode int
	Validator  string
}

// Error names the offset and the validator.
func (e *RangeIgnoredError) Error() string {
	return fmt.Sprintf("resuming the download at byte %d: the server ignored the Range request (HTTP %d with the same validator %q), and only a strong ETag proves the body is the same bytes", e.Offset, e.StatusCode, e.Validator)
}

// errAttemptTimeout is the cause an attempt of a stream is cancelled with
// when Options.AttemptTimeout passes before its response headers arrive: a
// deadline, so an I/O failure (§4 rule 5).
var errAttemptTimeout = fmt.Errorf("attempt timeout: %w", context.DeadlineExceeded)

// Open sends req for op with retries as [Client.Do] does, and on a 2xx hands
// the response over unread as a *Stream, which the caller must read or
// close. Options.AttemptTimeout bounds each attempt until its response
// headers arrive; the body then lives as long as ctx. It returns the same
// errors as Do.
func (c *Client) Open(ctx context.Context, op *Operation, req *Request, opts *Options) (*Stream, error) {
	ep, err := c.checkTarget(op, req, opts) // target.go: never leave the endpoint
	if err != nil {
		return nil, &OperationError{Service: c.svc.errorName(), Operation: op.Name, Err: err}
	}
	s := &Stream{req: req}
	ctx, err = c.begin(ctx, &s.cl, op, req, opts)
	if err != nil {
		return nil, &OperationError{Service: c.svc.errorName(), Operation: op.Name, Err: err}
	}
	s.cl.endpoint = ep // checkTarget's
	s.cl.stream = s
	// Options.ResumeStreams makes a stream call retry-safe (its policy,
	// resolved here once, before any attempt).
	if s.cl.opts.ResumeStreams && !s.cl.pol.RetrySafe {
		s.cl.ownPolicy().RetrySafe = true
	}
	s.ctx, s.stop = context.WithCancel(ctx)
	err = s.cl.run(s.ctx, req, nil)
	closeBodyReader(req)
	if err != nil {
		return nil, s.fail(err)
	}
	if h := s.resp.Header; req.Method == http.MethodGet && !isEventStream(h.Get("Content-Type")) &&
		strings.EqualFold(strings.TrimSpace(h.Get("Accept-Ranges")), "bytes") && s.resp.StatusCode == http.StatusOK {
		if etag := h.Get("ETag"); etag != "" && !strings.HasPrefix(etag, "W/") {
			s.validator, s.strong = etag, true
		} else {
			s.validator = h.Get("Last-Modified")
		}
	}
	return s, nil
}

// isEventStream reports a text/event-stream media type.
func isEventStream(ct string) bool {
	mt, _, _ := mime.ParseMediaType(ct)
	return mt == "text/event-stream"
}

// Header returns the current response's header (after a resume, the
// resume's).
func (s *Stream) Header() http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resp.Header
}

// StatusCode returns the current response's HTTP status.
func (s *Stream) StatusCode() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resp.StatusCode
}

// Metadata returns how the call went so far: its attempts, reconnects
// included, and the last response's request ID.
func (s *Stream) Metadata() ResponseMetadata { return s.cl.metadata() }

// Read reads the body. A download that can resume by range (see [Stream])
// does so when the body breaks off; io.EOF ends the body; any other error
// is returned as it is, and the caller may [Stream.Resume] (or Close).
func (s *Stream) Read(p []byte) (int, error) {
	for {
		if s.err != nil {
			return 0, s.err
		}
		s.mu.Lock()
		body := s.resp.Body
		s.mu.Unlock()
		n, err := body.Read(p)
		skipped := false
		if s.skip > 0 && n > 0 {
			drop := min(int64(n), s.skip)
			s.skip -= drop
			n, skipped = copy(p, p[drop:n]), true
		}
		s.n += int64(n)
		switch {
		case err == nil && n == 0 && skipped:
			continue // all of it already read
		case err == nil:
			return n, nil
		case err == io.EOF:
			s.finish(nil)
			return n, io.EOF
		case s.validator == "" || s.ctx.Err() != nil:
			// Not resumable here: the caller may Resume (an event
			// stream); Close ends the call with this error.
			s.mu.Lock()
			s.cutErr = err
			s.mu.Unlock()
			return n, err
		}
		if rerr := s.resumeRange(err); rerr != nil {
			return n, rerr
		}
		if n > 0 {
			return n, nil
		}
	}
}

// resumeRange continues a download cut by cause with Range and If-Range.
func (s *Stream) resumeRange(cause error) error {
	h := http.Header{}
	h.Set("Range", "bytes="+strconv.FormatInt(s.n, 10)+"-")
	h.Set("If-Range", s.validator)
	if err := s.resume(cause, h, 0); err != nil {
		return err
	}
	resp := s.resp
	s.skip = 0
	cr := resp.Header.Get("Content-Range")
	switch {
	case resp.StatusCode == http.StatusPartialContent && rangeStartsAt(cr, s.n):
		return nil
	case resp.StatusCode == http.StatusOK && s.sameValidator(resp.Header):
		// The server ignored Range and sent the whole representation.
		if s.strong {
			// A strong ETag means the same bytes (RFC 9110 §8.8.1):
			// drop the ones already read.
			s.skip = s.n
			return nil
		}
		return s.fail(&RangeIgnoredError{Offset: s.n, StatusCode: resp.StatusCode, Validator: s.validator})
	}
	return s.fail(&RepresentationChangedError{Offset: s.n, StatusCode: resp.StatusCode, ContentRange: cr})
}

// sameValidator reports whether a resume's response header carries the
// validator of the first response (its ETag, or Last-Modified date).
func (s *Stream) sameValidator(h http.Header) bool {
	if s.strong {
		return h.Get("ETag") == s.validator
	}
	return h.Get("ETag") == "" && h.Get("Last-Modified") == s.validator
}

// rangeStartsAt reports whether a Content-Range value ("bytes 100-199/200",
// RFC 9110 §14.4) starts at byte n.
func rangeStartsAt(cr string, n int64) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(cr), "bytes ")
	if !ok {
		return false
	}
	first, _, ok := strings.Cut(rest, "-")
	v, err := strconv.ParseInt(first, 10, 64)
	return ok && err == nil && v == n
}

// Resume reconnects the stream after cause broke its body off, as the next
// attempt of the call: the attempt that delivered the body is decided again
// as failed with cause (classification, max attempts, retry quota, the
// server delay retry asks for, clamped to the max server delay, else the
// mode's backoff, and the deadline), and the request is sent again with
// header's fields added. It returns nil once Read reads the new response's
// body; otherwise the stream ends with the returned *OperationError (a
// *MaxAttemptsError, *NotRetrySafeError, *QuotaExhaustedError, … inside). A
// closed stream or an ended ctx returns the context's error.
func (s *Stream) Resume(ctx context.Context, cause error, header http.Header, retry time.Duration) error {
	if s.err != nil {
		return s.err
	}
	if err := ctx.Err(); err != nil {
		return s.fail(err)
	}
	return s.resume(cause, header, retry)
}

// resume decides the cut attempt again and runs the call's next attempts.
func (s *Stream) resume(cause error, header http.Header, retry time.Duration) error {
	s.mu.Lock()
	resp := s.resp
	s.cutErr, s.resuming = nil, true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		closed := s.closed
		s.resuming = false
		s.mu.Unlock()
		if closed {
			s.finish(nil) // Close came while resuming: the call ends now
		}
	}()
	_ = resp.Body.Close()
	cl := &s.cl
	if err := s.ctx.Err(); err != nil {
		return s.fail(joinCtx(cause, err))
	}
	req := *s.req
	req.Header = s.req.Header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	// The attempt that delivered the body is decided again, as failed
	// (EventCut); the call goes on from there on the state machine.
	res := engine.AttemptResult{StatusCode: resp.StatusCode, Err: cause, Sent: true, StreamRetry: retry}
	if err := cl.drive(s.ctx, &req, nil, engine.Event{Kind: engine.EventCut, Result: &res}); err != nil {
		return s.fail(err)
	}
	return nil
}

// attemptContext returns the context of the stream's next attempt, derived
// from ctx, and releases the previous attempt's: the attempt timeout bounds
// it until its response headers arrive (attach).
func (s *Stream) attemptContext(ctx context.Context, timeout time.Duration) context.Context {
	actx, cancel := context.WithCancelCause(ctx)
	var timer *time.Timer
	if timeout > 0 {
		timer = time.AfterFunc(timeout, func() { cancel(errAttemptTimeout) })
	}
	s.mu.Lock()
	prev := s.cancel
	s.cancel, s.timer = cancel, timer
	s.mu.Unlock()
	if prev != nil {
		prev(context.Canceled)
	}
	return actx
}

// attach takes a 2xx response of the stream's call unread.
func (s *Stream) attach(resp *http.Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
	}
	s.resp = resp
	if s.closed {
		_ = resp.Body.Close()
	}
}

// Close closes the body and ends the call, if it has not ended (with the
// read error that broke the body off, if one did and no resume followed);
// it returns nil. It may be called from any goroutine, also while a resume
// waits.
func (s *Stream) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	resp, cancel, cut, resuming := s.resp, s.cancel, s.cutErr, s.resuming
	s.mu.Unlock()
	s.stop()
	if resp != nil {
		_ = resp.Body.Close()
	}
	if cancel != nil {
		cancel(context.Canceled)
	}
	if !resuming {
		if cut != nil {
			cut = &OperationError{Service: s.cl.c.svc.errorName(), Operation: s.cl.op.Name, Err: cut}
		}
		s.finish(cut)
	}
	return nil
}

// finish ends the call with err (nil: the body was read whole or closed),
// once: the OnCall End hook runs.
func (s *Stream) finish(err error) {
	s.endOnce.Do(func() { s.cl.end(err) })
}

// DecodeHeaders runs decode on the stream's response before its body is
// read: generated code reads the response's declared headers into the
// output's fields with it, as Client.Do's decoder does for a decoded body.
// A decode error closes the stream, ends the call with it and is returned
// as Do returns a decoder's: an *OperationError around a *DecodeError.
// Without a response (the stream was never opened) it runs nothing and
// returns nil.
func (s *Stream) DecodeHeaders(decode func(*http.Response) error) error {
	s.mu.Lock()
	resp := s.resp
	s.mu.Unlock()
	if resp == nil {
		return nil
	}
	if err := decode(resp); err != nil {
		return s.fail(&DecodeError{Operation: s.cl.op.Name, StatusCode: resp.StatusCode, Err: err})
	}
	return nil
}

// WrapError returns err as an *OperationError naming the stream's call
// (err itself when it is nil or already one): openapi.EventStream wraps
// the errors it returns with it (openapi.ErrorWrapper), so an event
// stream's decode, size and context errors name the call as its other
// errors do.
func (s *Stream) WrapError(err error) error {
	var oe *OperationError
	if err == nil || errors.As(err, &oe) {
		return err
	}
	return &OperationError{Service: s.cl.c.svc.errorName(), Operation: s.cl.op.Name, Err: err}
}

// fail ends the stream and the call with err, wrapped in an
// *OperationError, and returns it.
func (s *Stream) fail(err error) error {
	var oe *OperationError
	if !errors.As(err, &oe) {
		err = &OperationError{Service: s.cl.c.svc.errorName(), Operation: s.cl.op.Name, Err: err}
	}
	s.err = err
	s.finish(err)
	_ = s.Close()
	return err
}
