package testserver

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// redisStartTimeout bounds a redis-server's start-up (it answers PING in
// about 10 ms on an idle machine).
const redisStartTimeout = 10 * time.Second

// Redis is one redis-server started by [StartRedis] for one test.
type Redis struct {
	// Addr is "127.0.0.1:PORT".
	Addr string

	t    testing.TB
	dir  string
	port int
	mu   sync.Mutex
	proc *proc
	// extra are more redis-server arguments (a cluster node's).
	extra []string
}

// StartRedis runs `redis-server --port P --bind 127.0.0.1 --save ""
// --appendonly no --dir TMP` (Debian's redis-server 7) on a free 127.0.0.1
// port, TMP a fresh t.TempDir, for the rest of the test, and returns it once
// it answers PING. redis-server is installed first when missing
// ([InstallRedis]). t.Cleanup kills it. It fails the test when it cannot be
// installed or started within 10 s, and skips it when
// RETRYGEN_SKIP_SERVERS=1.
func StartRedis(t testing.TB) *Redis {
	t.Helper()
	InstallRedis(t)
	r := &Redis{t: t, dir: t.TempDir()}
	err := onFreePort(func(port int) error {
		r.port, r.Addr = port, "127.0.0.1:"+strconv.Itoa(port)
		return r.start()
	})
	if err != nil {
		t.Fatalf("testserver: %v", err)
	}
	t.Cleanup(r.Kill)
	return r
}

// start runs redis-server on r.port and waits until it answers PING.
func (r *Redis) start() error {
	began := time.Now()
	args := append([]string{"--port", strconv.Itoa(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", r.dir}, r.extra...)
	p, err := startProc(r.dir, "redis-server", args...)
	if err != nil {
		return fmt.Errorf("redis-server: starting: %w", err)
	}
	deadline := time.Now().Add(redisStartTimeout)
	for {
		if err := Ping(r.Addr); err == nil {
			break
		} else if time.Now().After(deadline) {
			p.kill()
			return fmt.Errorf("redis-server on port %d: no PONG within %v: %w; output:\n%s", r.port, redisStartTimeout, err, p.out.String())
		}
		select {
		case <-p.exited:
			return fmt.Errorf("redis-server on port %d exited before answering PING; output:\n%s", r.port, p.out.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	r.mu.Lock()
	r.proc = p
	r.mu.Unlock()
	r.t.Logf("testserver: redis-server ready at %s after %v", r.Addr, time.Since(began).Round(time.Millisecond))
	return nil
}

// Kill stops the server with SIGKILL (no shutdown, nothing saved) and waits
// for it to exit. Killing a stopped server does nothing.
func (r *Redis) Kill() {
	r.mu.Lock()
	p := r.proc
	r.proc = nil
	r.mu.Unlock()
	if p != nil {
		_ = syscall.Kill(p.cmd.Process.Pid, syscall.SIGCONT) // a paused server dies too
		p.kill()
		if r.t.Failed() {
			r.t.Logf("testserver: redis-server output:\n%s", p.out.String())
		}
	}
}

// Restart starts a fresh, empty server on the same port after Kill. It
// fails the test when the server does not start.
func (r *Redis) Restart() {
	r.t.Helper()
	if err := r.start(); err != nil {
		r.t.Fatalf("testserver: restarting: %v", err)
	}
}

// Ping sends one PING to the Redis at addr and reports an error unless it
// answers +PONG within a second.
func Ping(addr string) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "+PONG\r\n" {
		return fmt.Errorf("PING answered %q", line)
	}
	return nil
}

var (
	redisInstallMu   sync.Mutex
	redisInstallDone bool
)

// InstallRedis makes sure redis-server is on PATH, installing Debian's
// package when it is not: `apt-get update` then `apt-get install -y
// redis-server`, as root, under an exclusive flock on
// $RETRYGEN_CACHE/redis-install.lock shared by every test binary, so
// parallel binaries install once. It fails the test when redis-server is
// missing and cannot be installed (not root, no apt-get, or apt-get failed,
// with its output), and skips it when RETRYGEN_SKIP_SERVERS=1.
func InstallRedis(t testing.TB) {
	t.Helper()
	if os.Getenv("RETRYGEN_SKIP_SERVERS") == "1" {
		t.Skip("testserver: RETRYGEN_SKIP_SERVERS=1, skipping a test that needs redis-server")
	}
	redisInstallMu.Lock()
	defer redisInstallMu.Unlock()
	if redisInstallDone {
		return
	}
	if _, err := exec.LookPath("redis-server"); err == nil {
		redisInstallDone = true
		return
	}
	base, err := cacheBase()
	if err != nil {
		t.Fatalf("testserver: %v", err)
	}
	err = withFileLock(filepath.Join(base, "redis-install.lock"), func() error {
		if _, err := exec.LookPath("redis-server"); err == nil {
			return nil // another test binary installed it meanwhile
		}
		if err := aptInstall("redis-server"); err != nil {
			return fmt.Errorf("redis-server is not on PATH and could not be installed (%v); install it with `apt-get install -y redis-server` or set RETRYGEN_SKIP_SERVERS=1 to skip these tests", err)
		}
		if _, err := exec.LookPath("redis-server"); err != nil {
			return fmt.Errorf("apt-get installed redis-server but it is not on PATH: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("testserver: %v", err)
	}
	redisInstallDone = true
}

// aptInstall runs `apt-get update` and `apt-get install -y pkg` as root,
// waiting up to 5 minutes for dpkg's lock; the error carries apt's output.
func aptInstall(pkg string) error {
	if os.Geteuid() != 0 {
		return fmt.Errorf("not root (uid %d)", os.Geteuid())
	}
	for _, args := range [][]string{
		{"-o", "DPkg::Lock::Timeout=300", "update"},
		{"-o", "DPkg::Lock::Timeout=300", "install", "-y", pkg},
	} {
		cmd := exec.Command("apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("apt-get %s: %v; output:\n%s", strings.Join(args[2:], " "), err, out.String())
		}
	}
	return nil
}

// Pause stops the server with SIGSTOP: it keeps its connections but answers
// nothing, like a Redis stalled on a slow disk or a long command, until
// Resume.
func (r *Redis) Pause() { r.signal(syscall.SIGSTOP) }

// Resume continues a paused server (SIGCONT).
func (r *Redis) Resume() { r.signal(syscall.SIGCONT) }

func (r *Redis) signal(sig syscall.Signal) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.proc != nil {
		_ = syscall.Kill(r.proc.cmd.Process.Pid, sig)
	}
}
