package golden

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/mistrallite"
	"github.com/retrygen/retrygen/runtime/openapi"
)

// streamMemorySize is what the memory test downloads and uploads: 1 GiB.
const streamMemorySize = 1 << 30

// TestStreamMemory downloads and uploads 1 GiB through the generated
// Mistral client (DownloadFile, UploadFile: a multipart file part) over a
// loopback socket, each in a subprocess, and requires the subprocess's peak
// RSS to stay under 64 MiB above its baseline. It moves 2 GiB, so it runs
// only with RETRYGEN_STREAM_MEMORY=1; the numbers are logged
// (go test -v).
func TestStreamMemory(t *testing.T) {
	if os.Getenv("RETRYGEN_STREAM_MEMORY") == "" {
		t.Skip("set RETRYGEN_STREAM_MEMORY=1 to move 2 GiB over loopback")
	}
	for _, mode := range []string{"download", "upload"} {
		t.Run(mode, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestStreamMemoryChild$", "-test.v")
			cmd.Env = append(os.Environ(), "RETRYGEN_STREAM_CHILD="+mode)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			var base, peak, n int64
			var sum string
			for line := range strings.SplitSeq(string(out), "\n") {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "MEASURE "); ok {
					_, err := fmt.Sscanf(rest, "baseline=%d peak=%d bytes=%d sha256=%s", &base, &peak, &n, &sum)
					require.NoError(t, err)
				}
			}
			require.Equal(t, int64(streamMemorySize), n, "%s", out)
			require.Equal(t, patternSHA256, sum, "the bytes arrived intact")
			t.Logf("%s of 1 GiB: baseline RSS %.1f MiB, peak %.1f MiB, %.1f MiB above baseline", mode, mib(base), mib(peak), mib(peak-base))
			require.Less(t, peak-base, int64(64<<20), "peak RSS above baseline")
		})
	}
}

// patternSHA256 is the SHA-256 of the first 1 GiB of pattern.
const patternSHA256 = "9cc5601236c455c6af19a76e64d2d95953a93b10eeb8b8b756a57090e1499b3e"

// mib renders bytes as MiB (also used by the realspecs tier's measure_test.go).
func mib(b int64) float64 { return float64(b) / (1 << 20) }

// TestStreamMemoryChild is the subprocess of TestStreamMemory.
func TestStreamMemoryChild(t *testing.T) {
	mode := os.Getenv("RETRYGEN_STREAM_CHILD")
	if mode == "" {
		t.Skip("run by TestStreamMemory")
	}
	debug.FreeOSMemory()
	base := procStatus(t, "VmRSS")
	var n int64
	h := sha256.New()
	switch mode {
	case "download":
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/octet-stream")
			http.ServeContent(w, r, "", time.Time{}, &pattern{size: streamMemorySize})
		}))
		defer srv.Close()
		c, err := mistrallite.New(srv.URL)
		require.NoError(t, err)
		out, err := c.DownloadFile(context.Background(), &mistrallite.DownloadFileInput{FileId: "f1"})
		require.NoError(t, err)
		n, err = io.Copy(h, out.Body)
		require.NoError(t, err)
		require.NoError(t, out.Body.Close())
	case "upload":
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mr, err := r.MultipartReader()
			if err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			for {
				p, err := mr.NextPart()
				if err != nil {
					break
				}
				if p.FormName() == "file" {
					n, _ = io.Copy(h, p)
				}
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"id":"f1","object":"file","bytes":1073741824,"created_at":1,"filename":"big.bin","purpose":"batch","sample_type":"batch_request","source":"upload"}`)
		}))
		defer srv.Close()
		c, err := mistrallite.New(srv.URL)
		require.NoError(t, err)
		_, err = c.UploadFile(context.Background(), &mistrallite.UploadFileInput{
			File: &openapi.File{Filename: "big.bin", Body: io.LimitReader(&pattern{size: streamMemorySize}, streamMemorySize)}})
		require.NoError(t, err)
	}
	peak := procStatus(t, "VmHWM")
	fmt.Printf("MEASURE baseline=%d peak=%d bytes=%d sha256=%s\n", base, peak, n, hex.EncodeToString(h.Sum(nil)))
}

// procStatus reads a kB field of /proc/self/status, in bytes.
func procStatus(t *testing.T, field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// pattern is a seekable stream of size bytes, byte i = i mod 251.
type pattern struct {
	off, size int64
}

func (p *pattern) Read(b []byte) (int, error) {
	if p.off >= p.size {
		return 0, io.EOF
	}
	b = b[:min(int64(len(b)), p.size-p.off)]
	for i := range b {
		b[i] = byte((p.off + int64(i)) % 251)
	}
	p.off += int64(len(b))
	return len(b), nil
}

func (p *pattern) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		p.off = off
	case io.SeekCurrent:
		p.off += off
	case io.SeekEnd:
		p.off = p.size + off
	}
	return p.off, nil
}
