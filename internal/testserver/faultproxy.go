package testserver

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
)

// Fault is one injected response: the proxy answers with it instead of
// forwarding the request.
type Fault struct {
	// Status is the HTTP status to answer with.
	Status int
	// Header is added to the response.
	Header http.Header
	// Body is the response body.
	Body string
	// Drop closes the connection after reading the whole request, without
	// answering: the client sees a transport error (EOF) after its request
	// was sent, the ambiguous failure only retry-safe operations retry.
	// Status, Header and Body are ignored.
	Drop bool
}

// FaultProxy is a reverse proxy on a real 127.0.0.1 listener in front of an
// upstream server. Requests are answered by the queued faults first, in
// order, and forwarded once the queue is empty. It records the body and the
// header of every request it receives, injected or forwarded. Safe for
// concurrent use.
type FaultProxy struct {
	// URL is the proxy's endpoint, "http://127.0.0.1:PORT".
	URL string

	mu       sync.Mutex
	faults   []Fault
	bodies   [][]byte
	headers  []http.Header
	upstream []int // indexes into bodies of forwarded requests
}

// StartFaultProxy starts a proxy to upstream for the rest of the test.
func StartFaultProxy(t testing.TB, upstream string) *FaultProxy {
	t.Helper()
	target, err := url.Parse(upstream)
	if err != nil {
		t.Fatalf("fault proxy: upstream %q: %v", upstream, err)
	}
	p := &FaultProxy{}
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		p.mu.Lock()
		p.bodies = append(p.bodies, body)
		p.headers = append(p.headers, r.Header.Clone())
		var f *Fault
		if len(p.faults) > 0 {
			f = &p.faults[0]
			p.faults = p.faults[1:]
		} else {
			p.upstream = append(p.upstream, len(p.bodies)-1)
		}
		p.mu.Unlock()
		if f != nil && f.Drop {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				http.Error(w, "fault proxy: cannot drop the connection: "+err.Error(), http.StatusInternalServerError)
				return
			}
			conn.Close()
			return
		}
		if f != nil {
			for k, v := range f.Header {
				w.Header()[k] = v
			}
			w.WriteHeader(f.Status)
			_, _ = io.WriteString(w, f.Body)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// Inject queues faults to answer the next requests with.
func (p *FaultProxy) Inject(faults ...Fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.faults = append(p.faults, faults...)
}

// Bodies returns the body of every request received so far, in order.
func (p *FaultProxy) Bodies() [][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([][]byte(nil), p.bodies...)
}

// Forwarded returns the bodies of the requests that reached the upstream
// server, in order.
func (p *FaultProxy) Forwarded() [][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([][]byte, len(p.upstream))
	for i, j := range p.upstream {
		out[i] = p.bodies[j]
	}
	return out
}

// Headers returns a copy of the header of every request received so far, in
// the order of [FaultProxy.Bodies].
func (p *FaultProxy) Headers() []http.Header {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]http.Header, len(p.headers))
	for i, h := range p.headers {
		out[i] = h.Clone()
	}
	return out
}
