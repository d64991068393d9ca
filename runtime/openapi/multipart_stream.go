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
)

// MultipartStream is a multipart/form-data request body written through a
// pipe as it is read ([MultipartReader]): file parts are copied from their
// readers, so no file is held in memory. It is an io.ReadCloser; Close (the
// HTTP transport closes request bodies, also on failure) stops the writer.
// Its writer starts at the first Read, so a body never read holds nothing.
type MultipartStream struct {
	parts    []streamPart
	boundary string
	once     sync.Once
	pr       *io.PipeReader
	pw       *io.PipeWriter
}

// streamPart is one part ready to write: its header and either its bytes
// or the reader of its file.
type streamPart struct {
	header textproto.MIMEHeader
	data   []byte
	file   io.Reader
}

// MultipartReader encodes parts as a multipart/form-data body (RFC 7578)
// in the order given, with the rules of [MultipartBody], and returns it as
// a stream with its Content-Type ("multipart/form-data; boundary=…"). Text
// and JSON parts are rendered at once (their errors are returned here); file
// parts (File, *File, io.Reader) are read only as the body is read, and a
// reader's error ends the body with that error. The boundary is random
// (mime/multipart's), as the files are not read in advance to derive one.
func MultipartReader(parts ...Part) (*MultipartStream, string, error) {
	s := &MultipartStream{boundary: multipart.NewWriter(io.Discard).Boundary()}
	for _, p := range parts {
		if f, ok := fileOf(p.Value); ok {
			if f.Body == nil {
				continue
			}
			s.parts = append(s.parts, streamPart{header: fileHeader(p, f), file: f.Body})
			continue
		}
		rendered, err := renderPart(p)
		if err != nil {
			return nil, "", err
		}
		for _, r := range rendered {
			s.parts = append(s.parts, streamPart{header: partHeader(r), data: r.data})
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
// names it.
func fileHeader(p Part, f File) textproto.MIMEHeader {
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

// partHeader is the MIME header writeMultipart writes for r.
func partHeader(r multipartPart) textproto.MIMEHeader {
	hdr := textproto.MIMEHeader{}
	disp := `form-data; name="` + escapeQuotes(r.name) + `"`
	if r.filename != "" {
		disp += `; filename="` + escapeQuotes(r.filename) + `"`
	}
	hdr.Set("Content-Disposition", disp)
	if r.contentType != "" {
		hdr.Set("Content-Type", r.contentType)
	}
	for _, k := range sortedKeys(r.header) {
		hdr.Set(k, r.header[k])
	}
	return hdr
}

// Read reads the body, starting its writer on the first call.
func (s *MultipartStream) Read(p []byte) (int, error) {
	s.start()
	return s.pr.Read(p)
}

// Close ends the body: the writer stops at its next write. It returns nil.
func (s *MultipartStream) Close() error {
	s.start()
	return s.pr.CloseWithError(errClosed)
}

// errClosed is what the writer sees after Close.
var errClosed = errors.New("multipart body closed")

func (s *MultipartStream) start() {
	s.once.Do(func() {
		s.pr, s.pw = io.Pipe()
		go s.write()
	})
}

// write writes every part into the pipe and closes it with the first
// error.
func (s *MultipartStream) write() {
	w := multipart.NewWriter(s.pw)
	err := w.SetBoundary(s.boundary)
	for _, p := range s.parts {
		if err != nil {
			break
		}
		var pw io.Writer
		if pw, err = w.CreatePart(p.header); err != nil {
			break
		}
		if p.file != nil {
			if _, err = io.Copy(pw, p.file); err != nil {
				err = fmt.Errorf("multipart part %q: %w", partName(p.header), err)
			}
			continue
		}
		_, err = io.Copy(pw, bytes.NewReader(p.data))
	}
	if err == nil {
		err = w.Close()
	}
	_ = s.pw.CloseWithError(err)
}

// partName returns the name parameter of a part's Content-Disposition.
func partName(h textproto.MIMEHeader) string {
	_, params, _ := strings.Cut(h.Get("Content-Disposition"), `name="`)
	name, _, _ := strings.Cut(params, `"`)
	return name
}
