package redisstore

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/retrygen/retrygen/runtime/engine"
)

var _ engine.ThrottleWindowStore = (*Store)(nil)

// Record remembers the windows that info reports for operation of identity,
// as seen at now (engine.WindowStore.Record's rule): in this process at
// once, and for the fleet by the background goroutine, which writes them to
// Redis without delaying the call.
func (s *Store) Record(identity, operation string, info engine.ThrottleHeaders, now time.Time) {
	if !info.Throttled() {
		return
	}
	s.mirror.Record(identity, operation, info, now)
	at := time.Now()
	added := false
	s.wmu.Lock()
	for _, w := range [2]struct {
		dim string
		q   engine.ThrottleQuota
		op  string
	}{{engine.DimensionAPIUser, info.UserAPI, operation}, {engine.DimensionUser, info.User, ""}} {
		if !w.q.Throttled() || w.q.TimeLeft <= 0 {
			continue
		}
		k := windowKey{dimension: w.dim, identity: identity, operation: w.op}
		left := min(w.q.TimeLeft, s.opts.MaxWindow)
		if old, ok := s.unwritten[k]; !ok || old.at.Add(old.left).Before(at.Add(left)) {
			s.unwritten[k] = unwrittenWindow{left: left, at: at, length: w.q.Window, limit: w.q.Limit}
			added = true
		}
	}
	s.wmu.Unlock()
	if added {
		s.signal()
	}
}

// ReleaseAt spreads the release of a call held back by a window over the
// start of the next window (engine.WindowReleaser, engine.WindowStore's
// rule), from this process's mirror: windows heard from the fleet carry
// their length and limit in the announcement (a resync knows only the time
// left).
func (s *Store) ReleaseAt(identity, operation, dimension string, until, latest time.Time, r float64, reserve bool) time.Time {
	return s.mirror.ReleaseAt(identity, operation, dimension, until, latest, r, reserve)
}

// Blocked reports whether a call of operation by identity starting at now
// falls inside a window known to this process: one it learned, or one
// another process learned and Redis announced (engine.WindowStore.Blocked's
// rule). It never makes a Redis round trip. now must come from the system
// clock (engine.SystemClock, the clients' default).
func (s *Store) Blocked(identity, operation string, now time.Time) (until time.Time, dimension string, ok bool) {
	return s.mirror.Blocked(identity, operation, now)
}

// windowsKey is the sorted set holding every window of the fleet:
// PREFIX{windows}, one key (one Cluster hash slot), so that recording and
// resyncing are single-key scripts and a resync reads only our windows (no
// keyspace SCAN). Each member is a window (windowMember), scored by its end
// in Redis ms; the key expires with its last window.
func (s *Store) windowsKey() string { return s.opts.Prefix + "{windows}" }

// windowMember names one window in the sorted set:
// DIMENSION:LEN(IDENTITY):IDENTITY:OPERATION.
func windowMember(k windowKey) string {
	return k.dimension + ":" + strconv.Itoa(len(k.identity)) + ":" + k.identity + ":" + k.operation
}

// parseWindowMember is the inverse of windowMember.
func parseWindowMember(name string) (windowKey, bool) {
	dim, rest, ok := strings.Cut(name, ":")
	if !ok || (dim != engine.DimensionUser && dim != engine.DimensionAPIUser) {
		return windowKey{}, false
	}
	n, rest, ok := strings.Cut(rest, ":")
	size, err := strconv.Atoi(n)
	if !ok || err != nil || size < 0 || len(rest) < size+1 || rest[size] != ':' {
		return windowKey{}, false
	}
	return windowKey{dimension: dim, identity: rest[:size], operation: rest[size+1:]}, true
}

// channel is the pub/sub channel announcing windows: each message is
// "END_MS LENGTH_MS LIMIT MEMBER", END_MS in Redis time, LENGTH_MS and
// LIMIT the window's Time and Limit (0 when unknown).
func (s *Store) channel() string { return s.opts.Prefix + "windows" }

// recordScript writes one window: KEYS[1] the windows set, ARGV[1] the
// window's member, ARGV[2] the time left in ms, ARGV[3] the channel, ARGV[4]
// "LENGTH_MS LIMIT" for the announcement. The
// end is Redis's TIME plus the time left; a later end already stored wins.
// Windows that have ended are dropped, the set expires with its last
// window, and the end is published. It returns {now_ms, end_ms}.
var recordScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local e = now + tonumber(ARGV[2])
local old = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or '0')
if old >= e then return {now, old} end
redis.call('ZADD', KEYS[1], e, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('PEXPIRETIME', KEYS[1]) < e then redis.call('PEXPIREAT', KEYS[1], e) end
redis.call('PUBLISH', ARGV[3], string.format('%d', e) .. ' ' .. ARGV[4] .. ' ' .. ARGV[1])
return {now, e}
`)

// resyncScript reads Redis's TIME on the node that holds KEYS[1] (the
// windows set: on a Cluster, nodes' clocks differ) and, when ARGV[1] is
// positive, up to ARGV[1] windows that have not ended, those ending last
// first. It returns {now_ms, {member, end, member, end, ...}}.
var resyncScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
if n <= 0 then return {now, {}} end
return {now, redis.call('ZREVRANGEBYSCORE', KEYS[1], '+inf', '(' .. now, 'WITHSCORES', 'LIMIT', 0, n)}
`)

// writeWindows writes the windows learned here to Redis, dropping those
// that ended meanwhile; on an error the rest stay for the next try.
func (s *Store) writeWindows() error {
	s.wmu.Lock()
	if len(s.unwritten) == 0 {
		s.wmu.Unlock()
		return nil
	}
	todo := maps.Clone(s.unwritten)
	s.wmu.Unlock()
	for k, w := range todo {
		left := w.left - time.Since(w.at)
		if left > 0 {
			ctx, cancel := context.WithTimeout(context.Background(), s.opts.StallTimeout)
			err := recordScript.Run(ctx, s.rdb, []string{s.windowsKey()}, windowMember(k), left.Milliseconds()+1, s.channel(),
				strconv.FormatInt(w.length.Milliseconds(), 10)+" "+strconv.FormatInt(w.limit, 10)).Err()
			cancel()
			if err != nil {
				return err
			}
		}
		s.wmu.Lock()
		if s.unwritten[k] == w {
			delete(s.unwritten, k)
		}
		s.wmu.Unlock()
	}
	return nil
}

// clockRef maps Redis time to local time: Redis read redisMS at local, or
// earlier.
type clockRef struct {
	mu      sync.Mutex
	local   time.Time
	redisMS int64
}

// set stores a TIME sample received at local time after. Redis read its
// clock between the request and after, so mapping its reading to after
// errs one way only: a window's end maps at most one round trip late,
// never early.
func (r *clockRef) set(redisMS int64, after time.Time) {
	r.mu.Lock()
	r.local, r.redisMS = after, redisMS
	r.mu.Unlock()
}

// toLocal converts a Redis time (ms) to local time, keeping the monotonic
// reading of the sample; ok is false before the first sample.
func (r *clockRef) toLocal(redisMS int64) (t time.Time, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.local.IsZero() {
		return time.Time{}, false
	}
	return r.local.Add(time.Duration(redisMS-r.redisMS) * time.Millisecond), true
}

// learn adds a window announced by Redis (its member name, end in Redis
// ms, and length and limit when known, else 0) to the mirror.
func (s *Store) learn(name string, endMS int64, length time.Duration, limit int64) {
	k, ok := parseWindowMember(name)
	if !ok {
		return
	}
	end, ok := s.ref.toLocal(endMS)
	if !ok {
		return
	}
	now := time.Now()
	left := min(end.Sub(now), s.opts.MaxWindow)
	if left <= 0 {
		return
	}
	q := engine.ThrottleQuota{Present: true, Remain: 0, TimeLeft: left, Window: length, Limit: limit}
	var info engine.ThrottleHeaders
	if k.dimension == engine.DimensionUser {
		info.User = q
	} else {
		info.UserAPI = q
	}
	s.mirror.Record(k.identity, k.operation, info, now)
}

// resync samples Redis's TIME and adds the windows in Redis (up to
// MaxWindows) to the mirror: three single-key scripts on the windows set's
// node, the last of which reads the windows.
func (s *Store) resync() error {
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.StallTimeout)
	defer cancel()
	// The best of three TIME samples: the one with the shortest round trip.
	var best time.Duration
	var entries []any
	for i := range 3 {
		n := 0
		if i == 2 {
			n = MaxWindows
		}
		before := time.Now()
		res, err := resyncScript.Run(ctx, s.rdb, []string{s.windowsKey()}, n).Slice()
		if err != nil {
			return err
		}
		after := time.Now()
		if len(res) != 2 {
			return fmt.Errorf("resync: %d results, want 2", len(res))
		}
		now, ok := res[0].(int64)
		if !ok {
			return fmt.Errorf("resync: TIME is %T", res[0])
		}
		if rtt := after.Sub(before); i == 0 || rtt < best {
			best = rtt
			s.ref.set(now, after)
		}
		entries, _ = res[1].([]any)
	}
	for i := 0; i+1 < len(entries); i += 2 {
		name, _ := entries[i].(string)
		str, _ := entries[i+1].(string)
		if end, err := strconv.ParseFloat(str, 64); err == nil && name != "" {
			s.learn(name, int64(end), 0, 0)
		}
	}
	s.resyncs.Add(1)
	return nil
}

// subscribe keeps a subscription to the window channel: after each
// (re)subscription it resyncs, then applies every announcement, and resyncs
// again every ResyncInterval. A broken subscription
// is replaced after FlushInterval.
func (s *Store) subscribe() {
	defer s.wg.Done()
	for !s.closed.Load() {
		err := s.subscribeOnce()
		if s.closed.Load() {
			return
		}
		s.setFault(err)
		select {
		case <-s.stop:
			return
		case <-time.After(s.opts.FlushInterval):
		}
	}
}

// subscribeOnce runs one subscription until it breaks, returning why.
func (s *Store) subscribeOnce() error {
	ctx := context.Background()
	ps := s.rdb.Subscribe(ctx)
	s.psMu.Lock()
	if s.closed.Load() {
		s.psMu.Unlock()
		_ = ps.Close()
		return nil
	}
	s.ps = ps
	s.psMu.Unlock()
	defer func() {
		s.psMu.Lock()
		s.ps = nil
		s.psMu.Unlock()
		_ = ps.Close()
	}()
	sctx, cancel := context.WithTimeout(ctx, s.opts.StallTimeout)
	err := ps.Subscribe(sctx, s.channel())
	if err == nil {
		_, err = ps.ReceiveTimeout(sctx, s.opts.StallTimeout) // the confirmation
	}
	cancel()
	if err != nil {
		return err
	}
	if err := s.resync(); err != nil {
		return err
	}
	lastResync := time.Now()
	for {
		if time.Since(lastResync) >= s.opts.ResyncInterval {
			if err := s.resync(); err != nil {
				return err
			}
			lastResync = time.Now()
		}
		msg, err := ps.ReceiveTimeout(ctx, s.opts.ResyncInterval)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue // resync above
			}
			return err
		}
		if m, ok := msg.(*redis.Message); ok {
			if strings.HasPrefix(m.Payload, "rate ") {
				s.learnRate(m.Payload)
			} else if f := strings.SplitN(m.Payload, " ", 4); len(f) == 4 {
				end, err1 := strconv.ParseInt(f[0], 10, 64)
				length, err2 := strconv.ParseInt(f[1], 10, 64)
				limit, err3 := strconv.ParseInt(f[2], 10, 64)
				if err1 == nil && err2 == nil && err3 == nil {
					s.learn(f[3], end, time.Duration(length)*time.Millisecond, limit)
				}
			}
		}
	}
}
