package testserver_test

import (
	"fmt"
	"net"
	"net/url"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
)

// TestCleanupStopsServer checks that a server started in a test no longer
// listens once that test's cleanup has run.
func TestCleanupStopsServer(t *testing.T) {
	var endpoint string
	if !t.Run("server runs", func(t *testing.T) {
		endpoint = testserver.StartDynalite(t)
		conn, err := net.Dial("tcp", hostPort(t, endpoint))
		require.NoError(t, err)
		conn.Close()
	}) || endpoint == "" {
		t.Skip("the server did not start (skipped or failed above)")
	}
	_, err := net.Dial("tcp", hostPort(t, endpoint))
	require.ErrorContains(t, err, "connection refused")
}

// TestStartFailureShowsOutput checks that a server exiting at start fails
// the test with the server's own output.
func TestStartFailureShowsOutput(t *testing.T) {
	testserver.Install(t) // so a failed install is reported as itself
	rec := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		testserver.StartPrism(rec, "testdata/missing.yaml")
	}()
	<-done
	require.Contains(t, rec.fatal, "exited before answering HTTP: exit status 1")
	require.Contains(t, rec.fatal, "ENOENT: no such file or directory")
}

// hostPort is the host:port of an http:// endpoint.
func hostPort(t *testing.T, endpoint string) string {
	t.Helper()
	u, err := url.Parse(endpoint)
	require.NoError(t, err)
	return u.Host
}

// fatalRecorder records a Fatalf and ends its goroutine, as testing.T does,
// without failing the test.
type fatalRecorder struct {
	testing.TB
	fatal string
}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
