package redisstore

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/retrygen/retrygen/runtime/engine"
)

// Fleet-wide adaptive rate (issue 22, beyond aws-sdk-go-v2, whose adaptive
// mode is per client): one CUBIC send rate per scope (a service at an
// endpoint host) for the whole fleet. Its state is two numbers in Redis,
// last_max_rate and the time of the last throttle (Redis ms), in the hash
// PREFIX{rate:LEN:SERVICE:HOST}; the live processes of the scope are the
// sorted set PREFIX{rate:…}:procs, scored by their last heartbeat. Every
// process computes the fleet rate at any moment from those two numbers
// (engine.CubicSuccess), so a send costs no round trip, and fills its own
// token bucket at rate / live processes. A throttling response is
// reported to Redis off the call path: the script sets last_max_rate to the
// rate in force (the CUBIC rate, at most the fleet's measured rate, taken as
// this process's × the live processes) and the throttle time, unless the
// fleet was throttled less than rateDebounce ago (responses to requests sent
// before the decrease reached everyone must not decrease it again), and
// announces the new state on the windows channel. Heartbeats ride on the
// background loop every ResyncInterval, from the first use of the limiter
// (adaptive mode; clients in other modes never make a process heartbeat);
// a process not heard from for three
// of them (killed) stops counting, so the others' shares grow.

const (
	// rateDebounce is the least time between two fleet decreases: 500 ms.
	rateDebounce = 500 * time.Millisecond
	// rateIdleTTL is how long a fleet rate outlives its last throttle.
	rateIdleTTL = time.Hour
)

// rateScript heartbeats ARGV[1] (this process) in KEYS[2], drops processes
// not heard from for ARGV[2] ms, and, when ARGV[3] (this process's measured
// rate) is not "", records a throttle as described above (ARGV[4]: the
// debounce in ms, ARGV[5]: the channel, ARGV[6]: the hash's idle TTL in
// ms). It returns {last_max_rate as a string ("" if none), last_throttle
// ms, live processes, now ms}.
var rateScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[2], ARGV[2])
local n = redis.call('ZCARD', KEYS[2])
local lm = tonumber(redis.call('HGET', KEYS[1], 'max') or '')
local lt = tonumber(redis.call('HGET', KEYS[1], 'at') or '')
if ARGV[3] ~= '' and (lt == nil or now - lt >= tonumber(ARGV[4])) then
  local rate = tonumber(ARGV[3]) * n
  if lm ~= nil then
    local k = (lm * 0.3 / 0.4) ^ (1 / 3)
    local x = (now - lt) / 1000 - k
    rate = math.min(0.4 * x * x * x + lm, rate)
  end
  if rate < 0.5 then rate = 0.5 end
  lm, lt = rate, now
  redis.call('HSET', KEYS[1], 'max', tostring(lm), 'at', lt)
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  redis.call('PUBLISH', ARGV[5], 'rate ' .. KEYS[1] .. ' ' .. tostring(lm) .. ' ' .. lt)
end
if lm == nil then return {'', 0, n, now} end
return {tostring(lm), lt, n, now}
`)

// fleetRate is this process's view of one scope's fleet rate
// (engine.FleetRate).
type fleetRate struct {
	s   *Store
	key string

	mu sync.Mutex
	// have: a fleet throttle is known; lastMax (tokens/s) and lastThrottle
	// (local time) are then its CUBIC state.
	have         bool
	lastMax      float64
	lastThrottle time.Time
	// procs is the live processes last counted (at least 1).
	procs int
	// report is the measured rate of a throttle not yet reported (-1:
	// none); beat is when the last heartbeat was sent.
	report float64
	beat   time.Time
	// active: an adaptive-mode client has used the limiter (a client in
	// another mode never does); only then does the process heartbeat.
	active bool
}

var _ engine.FleetRate = (*fleetRate)(nil)

// Share is this process's share of the fleet rate at now.
func (f *fleetRate) Share(now time.Time) (float64, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.active {
		f.active = true
		f.s.signal() // the first heartbeat
	}
	if !f.have {
		return 0, false
	}
	r := engine.CubicSuccess(f.lastMax, 0, now.Sub(f.lastThrottle).Seconds())
	return max(r, 0.5) / float64(max(f.procs, 1)), true
}

// Throttled applies a throttle locally at once (this process's share drops
// as CUBIC says) unless the fleet was throttled less than rateDebounce ago,
// and has the background loop report it to Redis.
func (f *fleetRate) Throttled(now time.Time, measured float64) {
	f.mu.Lock()
	if !f.have || now.Sub(f.lastThrottle) >= rateDebounce {
		rate := measured * float64(max(f.procs, 1))
		if f.have {
			rate = min(rate, engine.CubicSuccess(f.lastMax, 0, now.Sub(f.lastThrottle).Seconds()))
		}
		f.have, f.lastMax, f.lastThrottle = true, max(rate, 0.5), now
	}
	f.report = max(f.report, measured)
	f.active = true
	f.mu.Unlock()
	f.s.signal()
}

// sync heartbeats and reports a pending throttle when due (every
// ResyncInterval, or at once with a throttle to report), then adopts the
// fleet's state.
func (f *fleetRate) sync(force bool) error {
	f.mu.Lock()
	if !f.active {
		f.mu.Unlock()
		return nil
	}
	report := f.report
	due := force || report >= 0 || time.Since(f.beat) >= f.s.opts.ResyncInterval
	f.report = -1
	f.mu.Unlock()
	if !due {
		return nil
	}
	arg := ""
	if report >= 0 {
		arg = strconv.FormatFloat(report, 'f', 3, 64)
	}
	ctx, cancel := context.WithTimeout(context.Background(), f.s.opts.StallTimeout)
	before := time.Now()
	res, err := rateScript.Run(ctx, f.s.rdb, []string{f.key, f.key + ":procs"}, f.s.id,
		3*f.s.opts.ResyncInterval.Milliseconds(), arg, rateDebounce.Milliseconds(), f.s.channel(), rateIdleTTL.Milliseconds()).Slice()
	cancel()
	if err != nil {
		if report >= 0 {
			f.mu.Lock()
			f.report = max(f.report, report)
			f.mu.Unlock()
		}
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.beat = before
	if len(res) == 4 {
		if n, ok := res[2].(int64); ok {
			f.procs = int(max(n, 1))
		}
		lmStr, _ := res[0].(string)
		lt, _ := res[1].(int64)
		f.adopt(lmStr, lt)
	}
	return nil
}

// adopt takes the fleet's state (last_max_rate as a string, last throttle
// in Redis ms) when it is newer than what this process has (f.mu held).
func (f *fleetRate) adopt(lmStr string, ltMS int64) {
	lm, err := strconv.ParseFloat(lmStr, 64)
	if err != nil || lmStr == "" {
		return
	}
	at, ok := f.s.ref.toLocal(ltMS)
	if !ok {
		return
	}
	if !f.have || !at.Before(f.lastThrottle.Add(-rateDebounce)) {
		f.have, f.lastMax, f.lastThrottle = true, lm, at
	}
}

// Limiter returns the fleet-rate limiter of service at endpointHost
// (engine.SharedRateLimiters): one per scope and process, made with clock
// on first use, whose fill rate is this process's share of the scope's
// fleet-wide CUBIC rate. Store.Share sets it as Options.RateLimiters; it
// matters in adaptive mode only.
func (s *Store) Limiter(service, endpointHost string, clock engine.Clock) *engine.RateLimiter {
	key := s.opts.Prefix + "{rate:" + strconv.Itoa(len(service)) + ":" + service + ":" + endpointHost + "}"
	s.bmu.Lock()
	defer s.bmu.Unlock()
	if s.rates == nil {
		s.rates = make(map[string]*rateScope)
	}
	r, ok := s.rates[key]
	if !ok {
		f := &fleetRate{s: s, key: key, procs: 1, report: -1}
		r = &rateScope{f: f, lim: engine.NewFleetRateLimiter(clock, f)}
		s.rates[key] = r
	}
	return r.lim
}

// rateScope is one scope's fleet rate and the limiter that fills at its
// share.
type rateScope struct {
	f   *fleetRate
	lim *engine.RateLimiter
}

// fleetRates returns the scopes' fleet rates.
func (s *Store) fleetRates() []*fleetRate {
	s.bmu.Lock()
	defer s.bmu.Unlock()
	all := make([]*fleetRate, 0, len(s.rates))
	for _, r := range s.rates {
		all = append(all, r.f)
	}
	return all
}

// learnRate applies an announcement "rate KEY MAX AT".
func (s *Store) learnRate(payload string) {
	f := strings.Fields(payload)
	if len(f) != 4 {
		return
	}
	s.bmu.Lock()
	r := s.rates[f[1]]
	s.bmu.Unlock()
	if r == nil {
		return
	}
	at, err := strconv.ParseInt(f[3], 10, 64)
	if err != nil {
		return
	}
	r.f.mu.Lock()
	r.f.adopt(f[2], at)
	r.f.mu.Unlock()
}
