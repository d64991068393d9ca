package redisstore

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
	"github.com/retrygen/retrygen/runtime"
)

// adaptiveChildEnv holds an adaptive child's adaptiveJob as JSON.
const adaptiveChildEnv = "RETRYGEN_ADAPTIVE_CHILD"

// adaptiveJob tells an adaptive child what to do: Clients adaptive clients
// sharing one Store (the README's set-up), each calling Rate times a second
// from Start to Stop (Unix ms), late calls at once.
type adaptiveJob struct {
	Server, Redis  string
	Clients        int
	Rate           float64
	Start, Stop    int64
	ResyncInterval time.Duration
}

// adaptiveChild runs one process of TestFleetAdaptive.
func adaptiveChild(jobJSON string) int {
	var job adaptiveJob
	if err := json.Unmarshal([]byte(jobJSON), &job); err != nil {
		fmt.Fprintln(os.Stderr, "adaptive child:", err)
		return 2
	}
	rdb := redis.NewClient(&redis.Options{Addr: job.Redis, MaxRetries: -1, ContextTimeoutEnabled: true})
	defer rdb.Close()
	store, err := New(rdb, Options{FleetCapacity: 28 * 100, StallTimeout: DefaultStallTimeout, ResyncInterval: job.ResyncInterval})
	if err != nil {
		fmt.Fprintln(os.Stderr, "adaptive child:", err)
		return 2
	}
	defer store.Close()
	var wg sync.WaitGroup
	for range job.Clients {
		opts := runtime.Options{RetryMode: runtime.ModeAdaptive, MaxAttempts: 1, ThrottleIdentity: "ak-fleet",
			HTTPClient: &http.Client{Timeout: 10 * time.Second}}
		store.Share(&opts)
		c, err := runtime.NewClient(fleetService(), job.Server, opts)
		if err != nil {
			fmt.Fprintln(os.Stderr, "adaptive child:", err)
			return 2
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			slot := time.Duration(float64(time.Second) / job.Rate)
			stop := time.UnixMilli(job.Stop)
			for n := 0; ; n++ {
				next := time.UnixMilli(job.Start).Add(time.Duration(n) * slot)
				time.Sleep(time.Until(next))
				if !time.Now().Before(stop) {
					return
				}
				ctx, cancel := context.WithDeadline(context.Background(), stop)
				_, _ = c.Do(ctx, fleetOp, &runtime.Request{Method: http.MethodGet, Path: "/things"}, nil, nil)
				cancel()
			}
		}()
	}
	wg.Wait()
	return 0
}

// rateServer admits limit requests a second (a token bucket holding half a
// second's worth) and throttles the rest with 429 Throttling;
// it counts requests and throttles in 100 ms slots from start.
type rateServer struct {
	limit float64
	start time.Time

	mu       sync.Mutex
	tokens   float64
	last     time.Time
	req, thr []int
}

func (s *rateServer) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	now := time.Now()
	s.tokens = math.Min(s.limit/2, s.tokens+now.Sub(s.last).Seconds()*s.limit)
	s.last = now
	ok := s.tokens >= 1
	if ok {
		s.tokens--
	}
	if i := int(now.Sub(s.start) / (100 * time.Millisecond)); i >= 0 {
		for len(s.req) <= i {
			s.req, s.thr = append(s.req, 0), append(s.thr, 0)
		}
		s.req[i]++
		if !ok {
			s.thr[i]++
		}
	}
	s.mu.Unlock()
	if !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = io.WriteString(w, `{"Code":"Throttling"}`)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// between returns the send rate (requests/s) and the throttled share over
// [from, to) after start.
func (s *rateServer) between(from, to time.Duration) (rate, throttled float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var req, thr int
	for i := int(from / (100 * time.Millisecond)); i < int(to/(100*time.Millisecond)) && i < len(s.req); i++ {
		req, thr = req+s.req[i], thr+s.thr[i]
	}
	return float64(req) / (to - from).Seconds(), float64(thr) / float64(max(req, 1))
}

// TestFleetAdaptive: the fleet-wide adaptive limiter on the real wire. 8 OS
// processes of 4 adaptive clients each share one redis-server (the README's
// set-up) and call a loopback server that admits 200 requests a second,
// offering 1.5× that (9.4 calls/s per client). After convergence (from
// 10 s) the fleet sends within 10 % of 200/s with at most 5 % throttled; one
// process is killed at 20 s, and from 23 s (its heartbeat gone after three
// ResyncIntervals of 500 ms) to 32 s the seven others hold the same.
func TestFleetAdaptive(t *testing.T) {
	if testing.Short() || os.Getenv(fleetLongEnv) != "1" {
		t.Skip("runs 8 processes for 32 s: set " + fleetLongEnv + "=1")
	}
	r := testserver.StartRedis(t)
	start := time.Now().Add(1500 * time.Millisecond)
	srv := &rateServer{limit: 200, start: start, last: start}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(l) }()
	t.Cleanup(func() { _ = hs.Close() })
	const procs, clients = 8, 4
	job, err := json.Marshal(adaptiveJob{Server: "http://" + l.Addr().String(), Redis: r.Addr, Clients: clients,
		Rate: 1.5 * 200 / (procs * clients), Start: start.UnixMilli(), Stop: start.Add(32 * time.Second).UnixMilli(),
		ResyncInterval: 500 * time.Millisecond})
	require.NoError(t, err)
	var cmds []*exec.Cmd
	var errs []*strings.Builder
	for range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), adaptiveChildEnv+"="+string(job))
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		e := &strings.Builder{}
		cmd.Stderr = e
		require.NoError(t, cmd.Start())
		cmds, errs = append(cmds, cmd), append(errs, e)
	}
	t.Cleanup(func() {
		for _, c := range cmds {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
	})
	time.Sleep(time.Until(start.Add(20 * time.Second)))
	require.NoError(t, cmds[0].Process.Kill())
	for i, c := range cmds[1:] {
		require.NoError(t, c.Wait(), "child %d: %s", i+1, errs[i+1].String())
	}
	for s := 0; s < 32; s++ {
		rate, thr := srv.between(time.Duration(s)*time.Second, time.Duration(s+1)*time.Second)
		t.Logf("second %2d: %5.1f req/s, %4.1f %% throttled", s, rate, 100*thr)
	}
	for _, w := range []struct {
		name     string
		from, to time.Duration
	}{{"8 processes", 10 * time.Second, 20 * time.Second}, {"7 processes", 23 * time.Second, 32 * time.Second}} {
		rate, thr := srv.between(w.from, w.to)
		t.Logf("%s: %.1f req/s, %.2f %% throttled", w.name, rate, 100*thr)
		require.InDelta(t, 200, rate, 20, w.name)
		require.LessOrEqual(t, thr, 0.05, w.name)
	}
}
