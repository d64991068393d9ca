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
	var endpoint string
	err := onFreePort(func(port int) (err error) {
		endpoint, err = run(t, s, dir, port)
		return err
	})
	if err != nil {
		t.Fatalf("testserver: %v", err)
	}
	return endpoint
}

// onFreePort calls try with a free 127.0.0.1 port, again with another port
// (up to portAttempts in all) while try fails because the port was taken
// meanwhile, and returns try's last error.
func onFreePort(try func(port int) error) error {
	var err error
	for range portAttempts {
		port, perr := freePort()
		if perr != nil {
			return perr
		}
		err = try(port)
		if err == nil || !addrInUse(err) {
			return err
		}
	}
	return err
}

// addrInUse reports whether err (carrying a server's output) says its port
// was taken: node's EADDRINUSE, Go's and redis-server's "address already in
// use".
func addrInUse(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "EADDRINUSE") || strings.Contains(strings.ToLower(msg), "address already in use")
}

// run starts one server process on port and waits until it is ready.
func run(t testing.TB, s server, dir string, port int) (string, error) {
	exe := "node"
	if s.exe != nil {
		exe = s.exe(dir)
	}
	args := s.args(dir, port)
	began := time.Now()
	p, err := startProc(dir, exe, args...)
	if err != nil {
		return "", fmt.Errorf("%s: starting %s: %w", s.name, exe, err)
	}
	endpoint := "http://127.0.0.1:" + strconv.Itoa(port)
	if err := waitReady(endpoint, s.startTimeout, p); err != nil {
		p.kill()
		return "", fmt.Errorf("%s on port %d (%s %s): %w; output:\n%s", s.name, port, exe, strings.Join(args, " "), err, p.out.String())
	}
	t.Logf("testserver: %s ready at %s after %v", s.name, endpoint, time.Since(began).Round(time.Millisecond))
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			t.Logf("testserver: %s output:\n%s", s.name, p.out.String())
		}
	})
	return endpoint, nil
}

// proc is one server process running in its own process group, its output
// collected in out.
type proc struct {
	cmd    *exec.Cmd
	out    *syncBuffer
	exited chan struct{} // closed once the process has exited; waitErr is then set
	// waitErr is cmd.Wait's result: the exit status.
	waitErr error
}

// startProc starts exe with args in dir (the current directory when empty).
// Setpgid puts the server and anything it forks in their own process group,
// killed whole by kill; Pdeathsig kills it if the test binary dies (e.g. on
// -timeout) before cleanup runs.
func startProc(dir, exe string, args ...string) (*proc, error) {
	p := &proc{cmd: exec.Command(exe, args...), out: &syncBuffer{}, exited: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { p.waitErr = p.cmd.Wait(); close(p.exited) }()
	return p, nil
}

// kill sends SIGKILL to the process group and waits for the exit.
func (p *proc) kill() {
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.exited
}

// readyPoll is the interval between readiness probes.
const readyPoll = 50 * time.Millisecond

// waitReady polls endpoint with GET / until any HTTP response arrives, p
// exits, or timeout passes.
func waitReady(endpoint string, timeout time.Duration, p *proc) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(timeout)
	for {
		select {
		case <-p.exited:
			return fmt.Errorf("exited before answering HTTP: %v", p.waitErr)
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
