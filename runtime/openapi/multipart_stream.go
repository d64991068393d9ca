package openapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/textproto"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/retrygen/retrygen/runtime/internal/httpsyntax"
)

// MultipartStream is a multipart/form-data request body written through a
// pipe as it is read ([MultipartReader]): file parts are copied from their
// readers, so no file is held in memory. It is an io.ReadCloser; Close (the
// HTTP transport closes request bodies, also on failure) stops the writer.
// Its writer starts at the first Read, so a body never read holds nothing.
//
// When every file part's reader is an io.Seeker (*os.File, *bytes.Reader)
// the stream is one too ([MultipartStream.Seek]), so the runtime streams it
// with its exact Content-Length and rewinds it for each retry, whatever its
// size; otherwise its first Seek fails with [ErrNotSeekable] and the
// runtime treats it as a body that cannot seek (buffered up to
// runtime.MaxReplayBody, else sent in a single attempt).
type MultipartStream struct {
	parts    []streamPart
	boundary string
	once     sync.Once
	pr       *io.PipeReader
	pw       *io.PipeWriter
	done     chan struct{} // closed when write returns
	// closed: Close was called (since the last rewind); inRead: the writer
	// is in a file part's Read. Close waits for the writer unless it is in
	// a Read, which the writer does not start once closed is set.
	closed, inRead atomic.Bool
	read           int64 // bytes read since the start (or the last rewind)
	size           int64 // the whole body's length, -1 until measured
}

// streamPart is one part ready to write: its header and either its bytes
// or the reader of its file.
type streamPart struct {
	header textproto.MIMEHeader
	data   []byte
	file   io.Reader
	start  int64 // where a seekable file's part starts in its reader
}

// MultipartReader encodes parts as a multipart/form-data body (RFC 7578)
// in the order given, with the rules of [MultipartBody], and returns it as
// a stream with its Content-Type ("multipart/form-data; boundary=…"). Text
// and JSON parts are rendered at once (their errors are returned here); file
// parts (File, *File, io.Reader) are read only as the body is read, and a
// reader's error ends the body with that error. The boundary is random
// (mime/multipart's), as the files are not read in advance to derive one.
func MultipartReader(parts ...Part) (*MultipartStream, string, error) {
	s := &MultipartStream{boundary: multipart.NewWriter(io.Discard).Boundary(), size: -1}
	for _, p := range parts {
		if f, ok := fileOf(p.Value); ok {
			if f.Body == nil {
				continue
			}
			hdr, err := fileHeader(p, f)
			if err != nil {
				return nil, "", err
			}
			s.parts = append(s.parts, streamPart{header: hdr, file: f.Body})
			continue
		}
		rendered, err := renderPart(p)
		if err != nil {
			return nil, "", err
		}
		for _, r := range rendered {
			hdr, err := partHeader(r)
			if err != nil {
				return nil, "", err
			}
			s.parts = append(s.parts, streamPart{header: hdr, data: r.data})
		}
	}
	return s, "multipart/form-data; boundary=" + s.boundary, nil
}

// fileOf returns the file a part's value stands for, when it is one: File,
// a non-nil *File, or an io.Reader ([]byte values stay buffered parts).
func fileOf(v any) (File, bool) {
	switch f := v.(type) {
	case File:
		return f, true
	case *File:
		if f == nil {
			return File{}, true
		}
		return *f, true
	case []byte:
		return File{}, false
	case io.Reader:
		return File{Body: f}, true
	}
	return File{}, false
}

// fileHeader is the part header of file f sent as p, named as filePart
// names it; it returns partHeader's error.
func fileHeader(p Part, f File) (textproto.MIMEHeader, error) {
	ct := f.ContentType
	if ct == "" {
		ct = p.Encoding.ContentType
	}
	if ct == "" || strings.Contains(ct, "*") || strings.Contains(ct, ",") {
		ct = "application/octet-stream"
	}
	filename := f.Filename
	if filename == "" {
		filename = p.Name
	}
	return partHeader(multipartPart{name: p.Name, filename: filename, contentType: ct, header: p.Encoding.Headers})
}

// partHeader is the MIME header writeMultipart writes for r. The name and
// filename are quoted and escaped as mime/multipart escapes them, so they
// cannot end their parameter or the header line; a media type or an
// Encoding header that is not a MIME header (a name that is not an RFC
// 9110 token, a value holding CR, LF or another control byte) has no
// escaping, so it returns an error naming the part instead of writing it
// (third new-user trial F1: part-header injection).
func partHeader(r multipartPart) (textproto.MIMEHeader, error) {
	hdr := textproto.MIMEHeader{}
	disp := `form-data; name="` + escapeQuotes(r.name) + `"`
	if r.filename != "" {
		disp += `; filename="` + escapeQuotes(r.filename) + `"`
	}
	hdr.Set("Content-Disposition", disp)
	if r.contentType != "" {
		if !headerValueOK(r.contentType) {
			return nil, fmt.Errorf("multipart part %q: media type %q cannot be written in a MIME part header (control byte)", r.name, r.contentType)
		}
		hdr.Set("Content-Type", r.contentType)
	}
	for _, k := range sortedKeys(r.header) {
		if !Token(k) || !headerValueOK(r.header[k]) {
			return nil, fmt.Errorf("multipart part %q: header %q: %q cannot be written in a MIME part header (name not an RFC 9110 token or control byte in the value)", r.name, k, r.header[k])
		}
		hdr.Set(k, r.header[k])
	}
	return hdr, nil
}

// Token reports whether s is an RFC 9110 §5.6.2 token (1*tchar: ASCII
// letters, digits and !#$%&'*+-.^_`|~): the only header field names a MIME
// or HTTP header line can carry, and the only cookie names RFC 6265 §4.1.1
// allows. The generator skips, with a warning, a header or cookie parameter
// whose name is not one; a multipart part header whose name is not one is
// refused before sending.
func Token(s string) bool {
	return httpsyntax.Token(s)
}

// headerValueOK reports whether v holds no control byte but HTAB (RFC 9110
// §5.5 field-value), so written raw it stays one header line.
func headerValueOK(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// Read reads the body, starting its writer on the first call. After
// Close it returns io.ErrClosedPipe.
func (s *MultipartStream) Read(p []byte) (int, error) {
	s.start()
	if s.pr == nil { // closed before its writer started
		return 0, io.ErrClosedPipe
	}
	n, err := s.pr.Read(p)
	s.read += int64(n)
	return n, err
}

// ErrNotSeekable is returned by [MultipartStream.Seek] when a file part's
// reader is not an io.Seeker (or its Seek fails), and for a seek other than
// the position (0, io.SeekCurrent), the length (0, io.SeekEnd) or a rewind
// (0, io.SeekStart). It matches errors.ErrUnsupported (errors.Is), which
// the runtime reads as "this body cannot seek".
var ErrNotSeekable error = notSeekable{}

// notSeekable is ErrNotSeekable's type.
type notSeekable struct{}

func (notSeekable) Error() string {
	return "openapi: multipart body cannot seek: a file part's reader is not an io.Seeker"
}

// Is reports errors.ErrUnsupported: a body that cannot seek is an
// unsupported operation.
func (notSeekable) Is(target error) bool { return target == errors.ErrUnsupported }

// Seek answers the three seeks a replaying sender makes (io.Seeker):
// (0, io.SeekCurrent) returns the bytes read so far; (0, io.SeekEnd) the
// body's length in bytes (the framing and every part, each file from where
// its reader stood when the stream was made to its end), without moving;
// (0, io.SeekStart) rewinds: the writer in flight is stopped and waited
// for, every file's reader is sought back to where its part starts, and the
// next Read writes the body again from its first byte. Any other seek, or a
// file part whose reader is not an io.Seeker or fails to seek, returns
// [ErrNotSeekable] (wrapping the file's error, if any).
func (s *MultipartStream) Seek(offset int64, whence int) (int64, error) {
	if offset != 0 {
		return 0, ErrNotSeekable
	}
	if err := s.measure(); err != nil {
		return 0, err
	}
	switch whence {
	case io.SeekCurrent:
		return s.read, nil
	case io.SeekEnd:
		return s.size, nil
	case io.SeekStart:
		if s.pr != nil {
			_ = s.pr.CloseWithError(errClosed)
			<-s.done
		}
		s.once, s.pr, s.pw, s.done = sync.Once{}, nil, nil, nil
		s.closed.Store(false)
		for _, p := range s.parts {
			if p.file == nil {
				continue
			}
			if _, err := p.file.(io.Seeker).Seek(p.start, io.SeekStart); err != nil {
				return 0, fmt.Errorf("%w: part %q: %w", ErrNotSeekable, partName(p.header), err)
			}
		}
		s.read = 0
		return 0, nil
	}
	return 0, ErrNotSeekable
}

// measure records, once, where each file part starts in its reader and the
// body's length; it fails with ErrNotSeekable when a file cannot seek. It
// runs before the first Read (a Seek after reading has begun measures
// files that have moved: only the runtime's replay, which seeks first,
// uses it).
func (s *MultipartStream) measure() error {
	if s.size >= 0 {
		return nil
	}
	var c countingWriter
	w := multipart.NewWriter(&c)
	_ = w.SetBoundary(s.boundary)
	for i := range s.parts {
		p := &s.parts[i]
		_, _ = w.CreatePart(p.header)
		if p.file == nil {
			c += countingWriter(len(p.data))
			continue
		}
		sk, ok := p.file.(io.Seeker)
		if !ok {
			return ErrNotSeekable
		}
		start, err := sk.Seek(0, io.SeekCurrent)
		if err != nil {
			return fmt.Errorf("%w: part %q: %w", ErrNotSeekable, partName(p.header), err)
		}
		end, err := sk.Seek(0, io.SeekEnd)
		if err == nil {
			_, err = sk.Seek(start, io.SeekStart)
		}
		if err != nil {
			return fmt.Errorf("%w: part %q: %w", ErrNotSeekable, partName(p.header), err)
		}
		p.start = start
		c += countingWriter(end - start)
	}
	_ = w.Close()
	s.size = int64(c)
	return nil
}

// countingWriter counts the bytes written to it.
type countingWriter int64

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// Close ends the body and returns nil. A body not being written (never
// read, or rewound and not read since) starts no writer. Otherwise the
// writer stops at its next write, and Close returns once it has stopped,
// so no file's reader is read after Close returns; but for a writer in a
// file's Read (a stalled reader), which Close does not wait for (that
// could last forever): it stops when that Read returns, reading nothing
// more. Reads after Close fail with io.ErrClosedPipe. Close, Read and Seek
// must not run at the same time (the runtime calls them in turn: the
// transport closes an attempt's body before the next attempt rewinds it);
// close a body handed to a call only once the call has returned.
func (s *MultipartStream) Close() error {
	s.closed.Store(true)
	started := true
	s.once.Do(func() { started = false }) // a later Read starts nothing
	if !started {
		return nil
	}
	_ = s.pr.CloseWithError(errClosed)
	if !s.inRead.Load() {
		<-s.done
	}
	return nil
}

// errClosed is what the writer sees after Close.
var errClosed = errors.New("multipart body closed")

func (s *MultipartStream) start() {
	s.once.Do(func() {
		s.pr, s.pw = io.Pipe()
		s.done = make(chan struct{})
		go s.write(s.pw, s.done)
	})
}

// write writes every part into the pipe and closes it with the first
// error.
func (s *MultipartStream) write(pw *io.PipeWriter, done chan struct{}) {
	defer close(done)
	w := multipart.NewWriter(pw)
	err := w.SetBoundary(s.boundary)
	for _, p := range s.parts {
		if err != nil {
			break
		}
		var part io.Writer
		if part, err = w.CreatePart(p.header); err != nil {
			break
		}
		if p.file != nil {
			if _, err = io.Copy(part, guardedReader{s, p.file}); err != nil {
				err = fmt.Errorf("multipart part %q: %w", partName(p.header), err)
			}
			continue
		}
		_, err = io.Copy(part, bytes.NewReader(p.data))
	}
	if err == nil {
		err = w.Close()
	}
	_ = pw.CloseWithError(err)
}

// guardedReader is a file part's reader as the writer reads it: it marks
// the stream's inRead during each Read and reads nothing once the stream
// is closed (MultipartStream.Close).
type guardedReader struct {
	s *MultipartStream
	r io.Reader
}

func (g guardedReader) Read(p []byte) (int, error) {
	g.s.inRead.Store(true)
	defer g.s.inRead.Store(false)
	if g.s.closed.Load() {
		return 0, errClosed
	}
	return g.r.Read(p)
}

// partName returns the name parameter of a part's Content-Disposition.
func partName(h textproto.MIMEHeader) string {
	_, params, _ := strings.Cut(h.Get("Content-Disposition"), `name="`)
	name, _, _ := strings.Cut(params, `"`)
	return name
}
