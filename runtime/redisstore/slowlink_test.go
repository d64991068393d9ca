package redisstore

import (
	"context"
	"errors"
	"log/slog"
	"net"
	goruntime "runtime"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
	"github.com/retrygen/retrygen/runtime/engine"
)

// TestSlowLink puts Redis 10, 30 and 50 ms away (a latency proxy) from a
// Store with the README's set-up and the default Timeout (5 ms) and
// StallTimeout (1 s): windows still go both ways, every lease is charged to
// the fleet bucket, no retry waits more than Timeout (plus the scheduler's
// slack), and the store never faults (issue 22: with ContextTimeoutEnabled,
// a Redis 10 ms away kept the store faulted for good).
func TestSlowLink(t *testing.T) {
	r := testserver.StartRedis(t)
	for _, rtt := range []time.Duration{10 * time.Millisecond, 30 * time.Millisecond, 50 * time.Millisecond} {
		t.Run(rtt.String(), func(t *testing.T) {
			p := testserver.StartLatencyProxy(t, r.Addr, rtt)
			prefix := "slow" + strconv.Itoa(int(rtt.Milliseconds())) + ":"
			far := redis.NewClient(&redis.Options{Addr: p.Addr, MaxRetries: -1, ContextTimeoutEnabled: true})
			defer far.Close()
			s, err := New(far, Options{FleetCapacity: 1000, Prefix: prefix, StallTimeout: DefaultStallTimeout})
			require.NoError(t, err)
			defer s.Close()
			near, rdb := newTestStore(t, r, Options{FleetCapacity: 1000, Prefix: prefix})
			eventually(t, func() bool { return s.resyncs.Load() > 0 && near.resyncs.Load() > 0 }, "both resynced")

			s.Record("ak-far", "Op", throttledUser(time.Minute), time.Now())
			near.Record("ak-near", "Op", throttledUser(time.Minute), time.Now())
			eventually(t, func() bool { _, _, ok := near.Blocked("ak-far", "Op", time.Now()); return ok }, "the far store's window reaches the near one")
			eventually(t, func() bool { _, _, ok := s.Blocked("ak-near", "Op", time.Now()); return ok }, "and back")

			fb := s.Scope("Svc", "svc.test").(*budget)
			var longest time.Duration
			for i := range 6 {
				start := time.Now()
				ok, _ := fb.Acquire(engine.RetryCostTransient)
				waited := time.Since(start)
				longest = max(longest, waited)
				require.True(t, ok, "retry %d", i)
				eventually(t, func() bool { // the lease (or its settlement) arrives
					fb.mu.Lock()
					defer fb.mu.Unlock()
					return fb.inflight == nil
				}, "the lease request ended")
			}
			require.NoError(t, s.StoreFault(), "a slow link is no fault")
			bal, err := rdb.Get(context.Background(), prefix+"{budget:3:Svc:svc.test}").Int64()
			require.NoError(t, err)
			require.Equal(t, int64(1000-3*28), bal, "6 transient retries: three leases charged to the fleet")
			if !raceEnabled {
				require.Less(t, longest, DefaultTimeout+45*time.Millisecond, "no retry waited much past Timeout (the slack is the scheduler's on a loaded machine)")
			}
			t.Logf("RTT %v: longest wait for a lease %v", rtt, longest.Round(100*time.Microsecond))
		})
	}
}

// garbagePeer listens on 127.0.0.1 and answers every connection with
// answer, then streams random-looking bytes until the connection closes.
func garbagePeer(t *testing.T, answer string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = c.Write([]byte(answer))
				junk := make([]byte, 64<<10)
				for i := range junk {
					junk[i] = 'a' + byte(i*7%26) // never a newline
				}
				for {
					_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
					if _, err := c.Write(junk); err != nil {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// TestGarbagePeer: a peer that is not Redis fails New at once, with
// bounded memory, whatever it sends: a huge bulk length followed by an
// endless stream (issue 22: 8.8 GB and a 1.65 s stall), an HTTP answer, an
// endless line. The error names the peer and what was wrong.
func TestGarbagePeer(t *testing.T) {
	for _, tc := range []struct{ name, answer, reason string }{
		{"huge bulk", "$9999999999\r\n", `a 9999999999-byte string, above Options.MaxReply (8388608)`},
		{"huge array", "*999999999\r\n", `999999999 elements, above Options.MaxReply / 16 (524288)`},
		{"HTTP", "HTTP/1.1 400 Bad Request\r\n\r\n", `byte 'H' where a reply type was expected`},
		{"endless line", "+", `header line longer than 64 KiB`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := garbagePeer(t, tc.answer)
			debug.FreeOSMemory()
			var before, after goruntime.MemStats
			goruntime.ReadMemStats(&before)
			start := time.Now()
			_, err := New(redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, ContextTimeoutEnabled: true}),
				Options{FleetCapacity: 100, StallTimeout: DefaultStallTimeout, Logger: slog.New(slog.DiscardHandler)})
			took := time.Since(start)
			goruntime.ReadMemStats(&after)
			var bad *BadReplyError
			require.True(t, errors.As(err, &bad), "%v", err)
			require.Equal(t, tc.reason, bad.Reason)
			require.Equal(t, addr, bad.Addr)
			require.Contains(t, err.Error(), "redisstore.New: the Redis server does not speak RESP: redisstore: reply from "+addr+" is not RESP at byte ")
			require.Less(t, took, DefaultStallTimeout, "detected before StallTimeout")
			require.Less(t, int64(after.HeapInuse)-int64(before.HeapInuse), int64(16<<20), "bounded memory")
		})
	}
}

// TestStallDetectedWithoutTraffic: a Redis that stops answering (SIGSTOP)
// while no call needs it is reported within ResyncInterval + StallTimeout
// (the documented bound; 3 s by default, 0.6 s here), by the resync.
func TestStallDetectedWithoutTraffic(t *testing.T) {
	r := testserver.StartRedis(t)
	s, _ := newTestStore(t, r, Options{ResyncInterval: 300 * time.Millisecond, StallTimeout: 300 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	eventually(t, func() bool { return s.resyncs.Load() > 0 }, "connected")
	r.Pause()
	defer r.Resume()
	start := time.Now()
	require.Eventually(t, func() bool { return s.StoreFault() != nil }, 5*time.Second, time.Millisecond)
	took := time.Since(start)
	t.Logf("stall reported after %v", took.Round(time.Millisecond))
	require.Less(t, took, 600*time.Millisecond+300*time.Millisecond, "within ResyncInterval + StallTimeout, give or take the scheduler")
	r.Resume()
	eventually(t, func() bool { return s.StoreFault() == nil }, "sharing resumes")
}
