package runtime

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// MaxReplayBody is the largest request body read from [Request.BodyReader]
// that the runtime buffers so it can send it again on a retry: 8 MiB. A
// longer body is streamed once and the call makes a single attempt (no
// retries).
const MaxReplayBody = 8 << 20

// DecodeJSON returns a decoder of a JSON response body into v (a pointer);
// an empty body leaves v as it is. It returns encoding/json's error for a
// malformed body, which Client.Do wraps in a *DecodeError.
func DecodeJSON(v any) func(*http.Response) error {
	return func(r *http.Response) error {
		if err := json.NewDecoder(r.Body).Decode(v); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		return nil
	}
}

// DecodeBytes returns a decoder that reads a whole response body into *dst,
// for responses that are not JSON (octet-stream, text, images).
func DecodeBytes(dst *[]byte) func(*http.Response) error {
	return func(r *http.Response) error {
		b, err := io.ReadAll(r.Body)
		*dst = b
		return err
	}
}

// bufferBody reads req.BodyReader into req.Body when it holds at most
// MaxReplayBody bytes and returns nil; otherwise it returns a reader of the
// whole body (what was read, then the rest) to be streamed in one attempt
// (streamBody: a stalled reader ends that attempt at its deadline). The read is
// bounded by ctx and, when positive, attemptTimeout: a reader that stalls
// ends the call with an error wrapping the context's (DeadlineExceeded for
// a deadline), having sent nothing; the reader is closed if it is an
// io.Closer, and otherwise left to its blocked Read. Any other read error
// also ends the call before anything is sent.
//
// A body replayed without being held in memory is not read here: with
// Request.GetBody, or a BodyReader that is an io.Seeker (recorded in
// req.seek, rewound per attempt: replay.go), the call keeps its max
// attempts.
func bufferBody(ctx context.Context, req *Request, attemptTimeout time.Duration) (io.Reader, error) {
	if req.BodyReader == nil || req.GetBody != nil {
		return nil, nil
	}
	if rs, ok := req.BodyReader.(io.ReadSeeker); ok {
		sb, err := newSeekBody(rs)
		if err == nil && sb != nil {
			err = req.checkDeclaredLength(sb.size)
		}
		if sb != nil || err != nil {
			req.seek = sb
			return nil, err
		}
	}
	b, err := readReplayable(ctx, req.BodyReader, attemptTimeout)
	if err != nil {
		return nil, fmt.Errorf("reading request body: %w", err)
	}
	if len(b) <= MaxReplayBody {
		if err := req.checkDeclaredLength(int64(len(b))); err != nil {
			return nil, err
		}
		req.Body = slices.Clip(b)
		if req.Body == nil {
			req.Body = []byte{}
		}
		return nil, nil
	}
	if n, ok := req.declared, req.hasDeclared; ok && n <= MaxReplayBody {
		return nil, &ContentLengthError{Declared: n, Actual: -1}
	}
	r, _ := req.declaredBody(io.MultiReader(bytes.NewReader(b), req.BodyReader))
	return &streamBody{r: r, src: req.BodyReader}, nil
}

// readReplayable reads up to MaxReplayBody+1 bytes of r. A reader held in
// memory (*bytes.Reader, *strings.Reader, *bytes.Buffer) is read at once;
// any other is read by a goroutine, abandoned (and r closed, when it is an
// io.Closer) when ctx ends or attemptTimeout passes first.
func readReplayable(ctx context.Context, r io.Reader, attemptTimeout time.Duration) ([]byte, error) {
	switch r.(type) {
	case *bytes.Reader, *strings.Reader, *bytes.Buffer:
		return io.ReadAll(io.LimitReader(r, MaxReplayBody+1))
	}
	if attemptTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, attemptTimeout)
		defer cancel()
	}
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, MaxReplayBody+1))
		done <- result{b, err}
	}()
	select {
	case res := <-done:
		return res.b, res.err
	case <-ctx.Done():
		if c, ok := r.(io.Closer); ok {
			_ = c.Close() // unblocks most readers (pipes, files, connections)
		}
		return nil, ctx.Err()
	}
}

// streamBody is the body of the one attempt of a call whose BodyReader is
// longer than MaxReplayBody. Each Read runs in a goroutine of its own, into
// a buffer of its own, so that the attempt's context ending (its deadline
// included) ends a Read blocked in the BodyReader: the transport waits for
// its body to return before it returns itself. The blocked read is then
// abandoned, and the BodyReader closed when it is an io.Closer.
type streamBody struct {
	r   io.Reader // the whole body: the buffered part, then the rest
	src io.Reader // Request.BodyReader
	ctx context.Context
	buf []byte
}

// attemptStream returns the request body reader of the attempt whose
// context is ctx for a body streamed without replay (bufferBody).
func attemptStream(ctx context.Context, stream io.Reader) io.Reader {
	if sb, ok := stream.(*streamBody); ok {
		sb.ctx = ctx
	}
	return stream
}

// Read reads the body, returning the context's error once it ends.
func (s *streamBody) Read(p []byte) (int, error) {
	if s.ctx == nil {
		return s.r.Read(p)
	}
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	if len(s.buf) < len(p) {
		s.buf = make([]byte, min(len(p), 64<<10))
	}
	buf := s.buf[:min(len(p), len(s.buf))]
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := s.r.Read(buf)
		done <- result{n, err}
	}()
	select {
	case res := <-done:
		return copy(p, buf[:res.n]), res.err
	case <-s.ctx.Done():
		s.buf = nil // the abandoned Read still owns buf
		_ = s.Close()
		return 0, s.ctx.Err()
	}
}

// Close closes the request's BodyReader when it is an io.Closer.
func (s *streamBody) Close() error {
	if c, ok := s.src.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// DefaultMaxResponseBody is how many bytes of one response body the runtime
// reads at most, unless Options.MaxResponseBody says otherwise: 64 MiB,
// counted both on the wire and after decompression, for 2xx bodies handed
// to a decoder and for error bodies alike (aws-sdk-go-v2 has no such cap: a
// gzip bomb or an endless body there grows until memory runs out). A body
// longer than that ends the attempt with a *DecodeError wrapping a
// *BodyTooLargeError, which is not retried; the runtime never buffers more
// than the cap. Bodies handed to the caller as a stream are not read by the
// runtime and so not capped.
const DefaultMaxResponseBody = 64 << 20

// BodyTooLargeError reports a response body longer than the cap
// (Options.MaxResponseBody, default DefaultMaxResponseBody), on the wire or
// once decompressed. It reaches the caller inside a *DecodeError and is
// never retried: the same request would get the same body.
type BodyTooLargeError struct {
	// Limit is the cap in bytes; Decompressed reports whether the
	// decompressed bytes passed it (a gzip bomb) rather than the wire bytes.
	Limit        int64
	Decompressed bool
}

// Error renders "response body longer than 67108864 bytes (decompressed)".
func (e *BodyTooLargeError) Error() string {
	if e.Decompressed {
		return fmt.Sprintf("response body longer than %d bytes (decompressed)", e.Limit)
	}
	return fmt.Sprintf("response body longer than %d bytes", e.Limit)
}

// cappedReader reads at most limit bytes of r; one byte more is a
// *BodyTooLargeError (sticky). When sum is set it adds every byte read to
// it (the CRC32 of the wire bytes, for the service's checksum header).
type cappedReader struct {
	r            io.Reader
	read, limit  int64
	sum          hash.Hash32
	decompressed bool
	err          error
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if room := c.limit - c.read + 1; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := c.r.Read(p)
	if err != nil && err != io.EOF && !c.decompressed {
		err = &wireReadError{err} // the connection's, not the content's
	}
	c.read += int64(n)
	if c.read > c.limit {
		n -= int(c.read - c.limit)
		c.read = c.limit
		c.err = &BodyTooLargeError{Limit: c.limit, Decompressed: c.decompressed}
		err = c.err
	}
	if c.sum != nil && n > 0 {
		c.sum.Write(p[:n])
	}
	return n, err
}

// wireReadError is an error reading a response body off the connection —
// a reset, a timeout, a body shorter than its Content-Length, broken
// chunked framing ("invalid byte in chunk length") — as opposed to its
// content failing to decode: the connection failing mid-body, a transient
// I/O failure (§4 rule 5; isIOFailure) whatever its type (third new-user
// trial F4: net/http's chunk framing errors are untyped). Its text is the
// transport's.
type wireReadError struct{ err error }

func (e *wireReadError) Error() string { return e.err.Error() }
func (e *wireReadError) Unwrap() error { return e.err }

// gzipReader decompresses a gzip body read from r, opening the gzip stream
// on the first Read (as aws-sdk-go-v2's accept-encoding DecompressGzip
// does), so a response nobody reads costs no decompressor.
type gzipReader struct {
	r  io.Reader
	gz *gzip.Reader
}

func (g *gzipReader) Read(p []byte) (int, error) {
	if g.gz == nil {
		gz, err := gzip.NewReader(g.r)
		if err != nil {
			return 0, fmt.Errorf("decompressing the gzip body: %w", err)
		}
		g.gz = gz
	}
	return g.gz.Read(p)
}

// responseBody is how the runtime reads one response body: wire counts (and
// checksums, when sum is set) the bytes as received; decoded is what a
// decoder reads: the wire bytes, gunzipped when the response says
// Content-Encoding: gzip (the transport decompresses only when it added
// Accept-Encoding itself, and then removes the header), each side capped
// at limit bytes.
type responseBody struct {
	wire    cappedReader
	decoded io.Reader
	// inflated caps the decompressed bytes (gzip only).
	inflated cappedReader
}

// open sets b up to read resp's body, capped at limit bytes on the wire and
// decompressed; sum (nil for none) receives the wire bytes.
func (b *responseBody) open(resp *http.Response, limit int64, sum hash.Hash32) {
	b.wire = cappedReader{r: resp.Body, limit: limit, sum: sum}
	b.decoded = &b.wire
	if isGzip(resp.Header) {
		b.inflated = cappedReader{r: &gzipReader{r: &b.wire}, limit: limit, decompressed: true}
		b.decoded = &b.inflated
	}
}

// Read reads the decoded body.
func (b *responseBody) Read(p []byte) (int, error) { return b.decoded.Read(p) }

// Close does nothing: the runtime closes the response's own body.
func (b *responseBody) Close() error { return nil }

// isGzip reports whether h says the body is gzip-compressed
// (Content-Encoding: gzip, case-insensitive).
func isGzip(h http.Header) bool {
	v := h["Content-Encoding"]
	return len(v) == 1 && strings.EqualFold(strings.TrimSpace(v[0]), "gzip")
}

// maxResponseBody is the call's response body cap (Options.MaxResponseBody,
// else DefaultMaxResponseBody).
func maxResponseBody(opts *Options) int64 {
	if opts.MaxResponseBody > 0 {
		return opts.MaxResponseBody
	}
	return DefaultMaxResponseBody
}

// acceptEncoding is the Accept-Encoding the runtime sends, as
// aws-sdk-go-v2's accept-encoding customization decides it: "gzip" when
// Options.AcceptGzip asks for compressed responses (the runtime then
// decompresses them itself, after checking the checksum over the bytes as
// received); "identity" when the service declares a checksum header, which
// the server computes over the bytes it sends; otherwise "" (the
// transport's own choice: Go's adds gzip and decompresses transparently).
func acceptEncoding(opts *Options, checksumHeader string) string {
	switch {
	case opts.AcceptGzip:
		return "gzip"
	case checksumHeader != "":
		return "identity"
	}
	return ""
}

// readSuccess hands a 2xx response to decode (nil: the body is not
// decoded) through a responseBody: decompressed when it is gzip, capped at
// the call's MaxResponseBody, and, when the response carries the service's
// checksum header, checked against the CRC32 of the bytes as received (the
// rest of the body read, within the cap, after decode). The body is then
// drained and closed. A body that ends before its Content-Length gives
// io.ErrUnexpectedEOF, an attempt deadline context.DeadlineExceeded, a
// checksum mismatch a *ChecksumError (also when decode failed on the
// corrupted bytes), a body over the cap a *BodyTooLargeError. Nothing is
// buffered but what decode keeps.
func (cl *callMachine) readSuccess(resp *http.Response, decode func(*http.Response) error, bodies *attemptBodies) error {
	body := resp.Body
	defer func() { resp.Body = body; discard(resp) }()
	var want string
	var sum hash.Hash32
	if h := cl.c.checksumHeader; h != "" {
		if v := resp.Header[h]; len(v) > 0 {
			want, sum = v[0], crc32.NewIEEE()
		}
	}
	if decode == nil && sum == nil {
		return nil
	}
	var rb *responseBody
	if bodies != nil {
		rb = &bodies.resp // allocated with the request body's reader
	} else {
		rb = new(responseBody)
	}
	rb.open(resp, maxResponseBody(cl.opts), sum)
	resp.Body = rb
	var err error
	if decode != nil {
		err = decode(resp)
	}
	if _, tooLarge := errors.AsType[*BodyTooLargeError](err); tooLarge {
		return err
	}
	if err == nil || !isIOFailure(err) {
		if sum != nil {
			// The rest of the wire bytes, for the checksum.
			if _, derr := io.Copy(io.Discard, &rb.wire); derr != nil {
				if err == nil {
					err = derr
				}
				return err
			}
			if cerr := verifyCRC32Sum(cl.c.svc.ChecksumHeader, want, sum.Sum32()); cerr != nil {
				return cerr // the bytes were corrupted: whatever decode said
			}
		}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		// The transport's error is sticky (a body shorter than its
		// Content-Length reads io.ErrUnexpectedEOF again); a body that
		// arrived whole reads io.EOF: the decoder ran out inside a value, a
		// *DecodeError returned at once, not a transient I/O failure.
		var b [1]byte
		if _, rerr := rb.Read(b[:]); rerr == io.EOF {
			return fmt.Errorf("the body ends inside a JSON value (%v)", err)
		}
	}
	return err
}

// readErrorBody reads a whole error response body, decompressed when it is
// gzip, up to the call's MaxResponseBody: a longer one returns what was
// read and a *BodyTooLargeError. An error body is kept whole (the code may
// come after 64 KiB of it, and aws-sdk-go-v2 reads it all), but never past
// the cap.
func (cl *callMachine) readErrorBody(resp *http.Response) ([]byte, error) {
	limit := maxResponseBody(cl.opts)
	// Not gzip (the common case): read the capped wire directly, so that
	// nothing but the buffer is allocated.
	wire := cappedReader{r: resp.Body, limit: limit}
	read := wire.Read
	if isGzip(resp.Header) {
		rb := new(responseBody)
		rb.open(resp, limit, nil)
		read = rb.Read
	}
	size := int64(512)
	if resp.ContentLength > 0 {
		size = resp.ContentLength + 1 // a declared length: one allocation
	}
	buf := make([]byte, 0, min(size, limit+1))
	for {
		if len(buf) == cap(buf) {
			// Double, but never past the cap (+1 to see that it is
			// passed): at most about twice the cap is ever allocated.
			buf = slices.Grow(buf, int(min(int64(cap(buf)), limit+1-int64(cap(buf)))))
		}
		n, err := read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
