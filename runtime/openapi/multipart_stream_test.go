package openapi

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMultipartReaderWritesWhatMultipartBodyWrites checks that the streamed
// body is MultipartBody's, byte for byte, but for the boundary.
func TestMultipartReaderWritesWhatMultipartBodyWrites(t *testing.T) {
	parts := func() []Part {
		return []Part{
			{Name: "purpose", Value: "fine-tune"},
			{Name: "file", Value: &File{Filename: "train.jsonl", Body: strings.NewReader(`{"a":1}` + "\n")}},
			{Name: "meta", Value: map[string]int{"n": 2}},
			{Name: "raw", Value: io.Reader(strings.NewReader("bytes")), Encoding: Encoding{ContentType: "text/csv", Headers: map[string]string{"X-Part": "1"}}},
			{Name: "absent", Value: (*File)(nil)},
		}
	}
	want, wantCT, err := MultipartBody(parts()...)
	require.NoError(t, err)
	s, ct, err := MultipartReader(parts()...)
	require.NoError(t, err)
	got, err := io.ReadAll(s)
	require.NoError(t, err)
	wantBoundary := strings.TrimPrefix(wantCT, "multipart/form-data; boundary=")
	boundary := strings.TrimPrefix(ct, "multipart/form-data; boundary=")
	require.Len(t, boundary, 60, "mime/multipart's random boundary")
	require.Equal(t, string(want), strings.ReplaceAll(string(got), boundary, wantBoundary))
	require.NoError(t, s.Close())
}

func TestMultipartReaderStreamsAFileReadersError(t *testing.T) {
	boom := errors.New("disk gone")
	s, _, err := MultipartReader(Part{Name: "file", Value: File{Body: iotest.ErrReader(boom)}})
	require.NoError(t, err)
	_, err = io.ReadAll(s)
	require.ErrorIs(t, err, boom)
	require.ErrorContains(t, err, `multipart part "file"`)
}

func TestMultipartReaderCloseStopsTheWriter(t *testing.T) {
	s, _, err := MultipartReader(Part{Name: "file", Value: File{Body: io.LimitReader(zeros{}, 1<<30)}})
	require.NoError(t, err)
	buf := make([]byte, 1024)
	_, err = io.ReadFull(s, buf)
	require.NoError(t, err)
	require.NoError(t, s.Close()) // the writer's next write fails: it returns
	_, err = s.Read(buf)
	require.ErrorIs(t, err, io.ErrClosedPipe, "reads after Close fail")
	require.True(t, bytes.Contains(buf, []byte(`name="file"`)))
}

// zeros reads zero bytes forever.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// A multipart body whose file parts are all seekable (*os.File,
// *bytes.Reader) is an io.Seeker the runtime rewinds for a retry (new-user
// trial item 8): Seek(0, io.SeekEnd) is its exact length, and after
// Seek(0, io.SeekStart) it sends the same bytes again, also when the
// previous reading stopped halfway. A file part that cannot seek makes the
// first Seek fail, so the runtime treats the body as one that cannot seek.
func TestMultipartStreamRewindsSeekableFiles(t *testing.T) {
	content := bytes.Repeat([]byte("0123456789"), 100_000)
	file := bytes.NewReader(content)
	_, _ = file.Seek(10, io.SeekStart) // the file's part starts where its reader is
	s, _, err := MultipartReader(Part{Name: "purpose", Value: "fine-tune"}, Part{Name: "file", Value: &File{Filename: "a.bin", Body: file}})
	require.NoError(t, err)
	pos, err := s.Seek(0, io.SeekCurrent)
	require.NoError(t, err)
	require.Equal(t, int64(0), pos)
	size, err := s.Seek(0, io.SeekEnd)
	require.NoError(t, err)
	_, err = s.Seek(0, io.SeekStart)
	require.NoError(t, err)
	first, err := io.ReadAll(s)
	require.NoError(t, err)
	require.Equal(t, int64(len(first)), size)
	require.True(t, bytes.Contains(first, append([]byte("application/octet-stream\r\n\r\n"), content[10:]...)), "the file from where its reader was")
	for _, stopAt := range []int{0, 100, 500_000} {
		_, err = s.Seek(0, io.SeekStart)
		require.NoError(t, err)
		part := make([]byte, stopAt)
		_, err = io.ReadFull(s, part)
		require.NoError(t, err)
		_, err = s.Seek(0, io.SeekStart)
		require.NoError(t, err)
		again, err := io.ReadAll(s)
		require.NoError(t, err)
		require.Equal(t, first, again, "after stopping at %d", stopAt)
	}
	require.NoError(t, s.Close())

	pipe, _, err := MultipartReader(Part{Name: "file", Value: File{Body: iotest.OneByteReader(strings.NewReader("x"))}})
	require.NoError(t, err)
	_, err = pipe.Seek(0, io.SeekCurrent)
	require.ErrorIs(t, err, ErrNotSeekable)
	require.NoError(t, pipe.Close())
}

// countingFile counts the Reads of a file part's reader.
type countingFile struct {
	n int
	r io.Reader
}

func (c *countingFile) Read(p []byte) (int, error) { c.n++; return c.r.Read(p) }

// Close of a stream never read (or rewound and not read since) starts no
// writer and reads no file (it started the writer just to stop it); reads
// after Close fail as they do after a started body's Close.
func TestMultipartStreamCloseBeforeReadingStartsNoWriter(t *testing.T) {
	f := &countingFile{r: strings.NewReader("data")}
	s, _, err := MultipartReader(Part{Name: "file", Value: File{Body: f}})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	require.Nil(t, s.done, "no writer started")
	_, err = s.Read(make([]byte, 8))
	require.ErrorIs(t, err, io.ErrClosedPipe)
	require.Nil(t, s.done, "no writer started")
	require.Equal(t, 0, f.n)

	rs, _, err := MultipartReader(Part{Name: "file", Value: File{Body: bytes.NewReader([]byte("data"))}})
	require.NoError(t, err)
	_, err = io.ReadFull(rs, make([]byte, 8))
	require.NoError(t, err)
	_, err = rs.Seek(0, io.SeekStart)
	require.NoError(t, err)
	require.NoError(t, rs.Close())
	require.Nil(t, rs.done, "a rewound body starts no writer on Close")
}

// Close of a body being read returns once its writer has stopped, so no
// reader of the caller's is read after Close returns (the caller may reuse
// or rewind it); it returned while the writer still ran.
func TestMultipartStreamCloseWaitsForTheWriter(t *testing.T) {
	for range 50 {
		s, _, err := MultipartReader(Part{Name: "file", Value: File{Body: io.LimitReader(zeros{}, 1<<30)}})
		require.NoError(t, err)
		_, err = io.ReadFull(s, make([]byte, 1024))
		require.NoError(t, err)
		done := s.done
		require.NoError(t, s.Close())
		select {
		case <-done:
		default:
			t.Fatal("Close returned before its writer stopped")
		}
	}
}

// blockingFile returns its data, then blocks in Read until released.
type blockingFile struct {
	data    []byte
	release chan struct{}
}

func (b *blockingFile) Read(p []byte) (int, error) {
	if len(b.data) > 0 {
		n := copy(p, b.data)
		b.data = b.data[n:]
		return n, nil
	}
	<-b.release
	return 0, io.EOF
}

// Close does not wait for a writer blocked in a file's Read (a stalled
// reader): waiting could last forever. The writer stops once that Read
// returns, reading nothing more.
func TestMultipartStreamCloseDoesNotWaitForAStalledFile(t *testing.T) {
	f := &blockingFile{data: []byte("abc"), release: make(chan struct{})}
	s, _, err := MultipartReader(Part{Name: "file", Value: File{Body: f}})
	require.NoError(t, err)
	var got []byte
	buf := make([]byte, 64)
	for !bytes.HasSuffix(got, []byte("abc")) {
		n, err := s.Read(buf)
		require.NoError(t, err)
		got = append(got, buf[:n]...)
	}
	// The writer now waits in the file's second Read.
	closed := make(chan error)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for a stalled file")
	}
	close(f.release)
	<-s.done
}
