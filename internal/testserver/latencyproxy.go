package testserver

import (
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// LatencyProxy is a TCP proxy on 127.0.0.1 that delays every byte by half
// of RTT in each direction, so a client behind it sees upstream RTT further
// away (another zone: 10–50 ms), with the order of bytes kept.
type LatencyProxy struct {
	// Addr is the proxy's "127.0.0.1:PORT".
	Addr string

	ln    net.Listener
	delay time.Duration
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns []net.Conn
}

// StartLatencyProxy proxies to upstream with the round-trip time rtt added,
// for the rest of the test (t.Cleanup closes the listener and every
// connection).
func StartLatencyProxy(t testing.TB, upstream string, rtt time.Duration) *LatencyProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("testserver: latency proxy: %v", err)
	}
	p := &LatencyProxy{Addr: ln.Addr().String(), ln: ln, delay: rtt / 2}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", upstream)
			if err != nil {
				_ = c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			p.wg.Add(2)
			go p.pipe(up, c)
			go p.pipe(c, up)
		}
	}()
	t.Cleanup(p.Close)
	return p
}

// Close stops the proxy and closes every connection through it.
func (p *LatencyProxy) Close() {
	_ = p.ln.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// chunk is bytes read from one side, due on the other at due.
type chunk struct {
	b   []byte
	due time.Time
}

// pipe copies src to dst, each chunk delayed by p.delay after it was read.
func (p *LatencyProxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	q := make(chan chunk, 4096)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for c := range q {
			time.Sleep(time.Until(c.due))
			if _, err := dst.Write(c.b); err != nil {
				_ = src.Close()
				for range q {
				}
				return
			}
		}
		_ = dst.Close()
	}()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			q <- chunk{b: append([]byte(nil), buf[:n]...), due: time.Now().Add(p.delay)}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				_ = src.Close()
			}
			break
		}
	}
	close(q)
	<-done
}
