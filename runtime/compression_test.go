package runtime

import (
	"bytes"
	"compress/gzip"
	"context"
	"hash/crc32"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// gzipped returns data gzip-compressed.
func gzipped(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	require.NoError(t, err)
	_, err = w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return b.Bytes()
}

func checksummedService() *Service {
	svc := testService()
	svc.ChecksumHeader = "x-amz-crc32"
	return svc
}

// TestAcceptEncoding pins the Accept-Encoding on the wire: identity when the
// service declares a checksum header (aws-sdk-go-v2's DisableGzip), gzip
// when Options.AcceptGzip asks for it (Go v2's EnableAcceptEncodingGzip),
// else the transport's own (Go's adds gzip).
func TestAcceptEncoding(t *testing.T) {
	for _, tt := range []struct {
		name string
		svc  *Service
		gzip bool
		want string
	}{
		{"checksum header, gzip off: identity", checksummedService(), false, "identity"},
		{"checksum header, gzip on: gzip", checksummedService(), true, "gzip"},
		{"no checksum header, gzip off: the transport's gzip", testService(), false, "gzip"},
		{"no checksum header, gzip on: gzip", testService(), true, "gzip"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {})
			c, _ := loopbackClient(t, tt.svc, srv.URL, func(o *Options) { o.AcceptGzip = tt.gzip })
			_, err := c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, nil)
			require.NoError(t, err)
			require.Equal(t, []string{tt.want}, srv.seen()[0].Values("Accept-Encoding"))
		})
	}
}

// TestGzipChecksumOverWireBytes: with gzip on, x-amz-crc32 is checked over
// the compressed bytes as received (DynamoDB computes it over what it
// sends), then the body is decompressed for the decoder. A checksum of the
// decompressed bytes is a mismatch (transient, retried to max attempts).
func TestGzipChecksumOverWireBytes(t *testing.T) {
	plain := []byte(`{"k":"v"}`)
	wire := gzipped(t, plain)
	for _, tt := range []struct {
		name         string
		crcOf        []byte
		wantAttempts int
		wantErr      bool
	}{
		{"checksum of the compressed bytes: success", wire, 1, false},
		{"checksum of the decompressed bytes: mismatch", plain, 3, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
				w.Header().Set("Content-Encoding", "gzip")
				w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(tt.crcOf)), 10))
				_, _ = w.Write(wire)
			})
			c, _ := loopbackClient(t, checksummedService(), srv.URL, func(o *Options) { o.AcceptGzip = true })
			var got struct{ K string }
			md, err := c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, DecodeJSON(&got))
			require.Equal(t, tt.wantAttempts, md.Attempts)
			if !tt.wantErr {
				require.NoError(t, err)
				require.Equal(t, "v", got.K)
				return
			}
			var ce *ChecksumError
			require.ErrorAs(t, err, &ce)
			require.Equal(t, crc32.ChecksumIEEE(wire), ce.Got)
		})
	}
}

// TestGzipErrorBodyIsDecompressed: an error body sent gzip-compressed is
// decompressed before its code is read.
func TestGzipErrorBodyIsDecompressed(t *testing.T) {
	srv := newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n == 1 {
			w.Header().Set("Content-Encoding", "gzip")
			w.WriteHeader(400)
			_, _ = w.Write(gzipped(t, []byte(`{"__type":"ns#ThrottlingException","message":"slow down"}`)))
		}
	})
	c, _ := loopbackClient(t, checksummedService(), srv.URL, func(o *Options) { o.AcceptGzip = true })
	var codes []string
	md, err := c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, &Options{AcceptGzip: true, OnAttempt: func(a AttemptInfo) { codes = append(codes, a.Code) }}, nil)
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
	require.Equal(t, []string{"ThrottlingException", ""}, codes)
}

// endless writes prefix, then chunk again and again until the client
// leaves (or limit bytes, so a broken client cannot hang the test).
func endless(w http.ResponseWriter, prefix, chunk []byte, limit int64) {
	if _, err := w.Write(prefix); err != nil {
		return
	}
	for sent := int64(0); sent < limit; sent += int64(len(chunk)) {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// allocDuring returns the bytes allocated (runtime.MemStats.TotalAlloc)
// while f runs, and the peak heap in use sampled after it.
func allocDuring(f func()) (alloc uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestResponseBodyCap: a gzip bomb (each 1 MiB of 'a' compressed to about
// 1 KiB, repeated for 4 GiB decompressed: about 4 MiB on the wire) and an
// endless identity body, as a 2xx or as an error body, each end the call
// with a *DecodeError wrapping a *BodyTooLargeError after one attempt (not
// retried), having allocated a bounded amount: the cap once (the JSON
// decoder keeps the value it reads) plus a few MiB, never the body.
func TestResponseBodyCap(t *testing.T) {
	mib := bytes.Repeat([]byte("a"), 1<<20)
	member := gzipped(t, mib)
	head := gzipped(t, []byte(`{"k":"`))
	const cap = 4 << 20
	for _, tt := range []struct {
		name         string
		status       int
		gzip         bool
		decompressed bool
	}{
		{"2xx gzip bomb", 200, true, true},
		{"2xx endless body", 200, false, false},
		{"error gzip bomb", 503, true, true},
		{"error endless body", 503, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
				if tt.gzip {
					w.Header().Set("Content-Encoding", "gzip")
					w.WriteHeader(tt.status)
					endless(w, head, member, 4<<30/int64(len(mib))*int64(len(member)))
					return
				}
				w.WriteHeader(tt.status)
				endless(w, []byte(`{"k":"`), mib, 4<<30)
			})
			c, _ := loopbackClient(t, checksummedService(), srv.URL, func(o *Options) {
				o.AcceptGzip = tt.gzip
				o.MaxResponseBody = cap
			})
			var md ResponseMetadata
			var err error
			var v struct{ K string }
			alloc := allocDuring(func() {
				md, err = c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, DecodeJSON(&v))
			})
			require.Equal(t, 1, md.Attempts, "not retried")
			var de *DecodeError
			require.ErrorAs(t, err, &de)
			require.Equal(t, tt.status, de.StatusCode)
			var tl *BodyTooLargeError
			require.ErrorAs(t, err, &tl)
			require.Equal(t, &BodyTooLargeError{Limit: cap, Decompressed: tt.decompressed}, tl)
			require.Less(t, alloc, uint64(3*cap+8<<20), "allocated %d bytes", alloc)
			t.Logf("allocated %.1f MiB for a %d MiB cap", float64(alloc)/(1<<20), cap>>20)
		})
	}
}

// TestResponseBodyCapDefault: with the default cap (64 MiB) a decoder that
// streams the body (here: discards it) makes the runtime allocate a few
// MiB for a 4 GiB gzip bomb, not the body.
func TestResponseBodyCapDefault(t *testing.T) {
	mib := bytes.Repeat([]byte("a"), 1<<20)
	member := gzipped(t, mib)
	srv := newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		w.Header().Set("Content-Encoding", "gzip")
		endless(w, member, member, 4<<30/int64(len(mib))*int64(len(member)))
	})
	c, _ := loopbackClient(t, checksummedService(), srv.URL, func(o *Options) { o.AcceptGzip = true })
	var n int64
	var err error
	alloc := allocDuring(func() {
		_, err = c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, nil, func(r *http.Response) error {
			var cerr error
			n, cerr = io.Copy(io.Discard, r.Body)
			return cerr
		})
	})
	var tl *BodyTooLargeError
	require.ErrorAs(t, err, &tl)
	require.Equal(t, int64(DefaultMaxResponseBody), n)
	require.Less(t, alloc, uint64(8<<20), "allocated %d bytes", alloc)
	t.Logf("allocated %.1f MiB reading %d MiB decompressed", float64(alloc)/(1<<20), n>>20)
}

// TestErrorBodyCodeParity: the error code is found where aws-sdk-go-v2
// finds it: in a "code" field, before trailing bytes after the JSON value,
// and after more than 64 KiB of body.
func TestErrorBodyCodeParity(t *testing.T) {
	long := strings.Repeat("x", 70<<10)
	for _, tt := range []struct{ name, body string }{
		{"code field", `{"code":"ThrottlingException","message":"m"}`},
		{"trailing bytes after the JSON value", `{"__type":"ns#ThrottlingException"} trailing`},
		{"code after 64 KiB", `{"message":"` + long + `","__type":"ThrottlingException"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecordingServer(t, func(w http.ResponseWriter, _ *http.Request, n int) {
				if n == 1 {
					w.WriteHeader(400)
					_, _ = io.WriteString(w, tt.body)
				}
			})
			c, _ := loopbackClient(t, testService(), srv.URL, nil)
			var codes []string
			md, err := c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, &Options{OnAttempt: func(a AttemptInfo) { codes = append(codes, a.Code) }}, nil)
			require.NoError(t, err)
			require.Equal(t, 2, md.Attempts, "retried as throttling")
			require.Equal(t, []string{"ThrottlingException", ""}, codes)
		})
	}
}
