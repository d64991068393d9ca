package testserver

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// server describes how to run one kind of server on a given port.
type server struct {
	name string
	// exe returns the program to run, given the install directory; nil
	// means node (from PATH).
	exe func(dir string) string
	// args returns the program's arguments for listening on
	// 127.0.0.1:port, given the install directory.
	args func(dir string, port int) []string
	// install returns the install directory; nil means Install (npm).
	install func(t testing.TB) string
	// startTimeout bounds the wait until the server answers HTTP.
	startTimeout time.Duration
}

// portAttempts is how many free ports start tries before giving up; a port
// can be taken by another process between choosing and binding it.
const portAttempts = 3

// start installs the servers, runs s on a free 127.0.0.1 port and returns
// its endpoint ("http://127.0.0.1:PORT") once it answers an HTTP request.
// t.Cleanup kills the server's process group and waits for it; the server's
// output is logged when the test has failed. Failures to start are fatal.
func start(t testing.TB, s server) string {
	t.Helper()
	install := s.install
	if install == nil {
		install = Install
	}
	dir := install(t)
	var lastErr error
	for range portAttempts {
		port, err := freePort()
		if err != nil {
			t.Fatalf("testserver: %s: %v", s.name, err)
		}
		endpoint, err := run(t, s, dir, port)
		if err == nil {
			return endpoint
		}
		lastErr = err
		if !strings.Contains(err.Error(), "EADDRINUSE") && !strings.Contains(err.Error(), "address already in use") {
			break
		}
	}
	t.Fatalf("testserver: %v", lastErr)
	return ""
}

// run starts one server process on port and waits until it is ready.
func run(t testing.TB, s server, dir string, port int) (string, error) {
	out := &syncBuffer{}
	exe := "node"
	if s.exe != nil {
		exe = s.exe(dir)
	}
	cmd := exec.Command(exe, s.args(dir, port)...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	// Setpgid puts the server and anything it forks in their own process group,
	// killed whole in cleanup; Pdeathsig kills it if the test binary dies
	// (e.g. on -timeout) before cleanup runs.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	began := time.Now()
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("%s: starting %s: %w", s.name, exe, err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	endpoint := "http://127.0.0.1:" + strconv.Itoa(port)
	if err := waitReady(endpoint, s.startTimeout, exited, &waitErr); err != nil {
		stop()
		return "", fmt.Errorf("%s on port %d (%s %s): %w; output:\n%s", s.name, port, exe, strings.Join(cmd.Args[1:], " "), err, out.String())
	}
	t.Logf("testserver: %s ready at %s after %v", s.name, endpoint, time.Since(began).Round(time.Millisecond))
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("testserver: %s output:\n%s", s.name, out.String())
		}
	})
	return endpoint, nil
}

// readyPoll is the interval between readiness probes.
const readyPoll = 50 * time.Millisecond

// waitReady polls endpoint with GET / until any HTTP response arrives, the
// process exits (exited is closed; *waitErr is its exit status), or timeout
// passes.
func waitReady(endpoint string, timeout time.Duration, exited <-chan struct{}, waitErr *error) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(timeout)
	for {
		select {
		case <-exited:
			return fmt.Errorf("exited before answering HTTP: %v", *waitErr)
		default:
		}
		resp, err := client.Get(endpoint + "/")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no HTTP answer within %v: %w", timeout, err)
		}
		time.Sleep(readyPoll)
	}
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// syncBuffer is a bytes.Buffer safe for one writer and concurrent readers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
