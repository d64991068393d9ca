package engine

import (
	"math"
	"sync"
	"time"
)

// SharedRateLimiters gives every client of one scope (a service at an
// endpoint host) one adaptive-mode rate limiter (§6), instead of one each:
// N clients that each run their own CUBIC grow N times as fast and floor at
// N × 0.5 req/s, so many small clients on one hot key overshoot it (issue
// 22: 1,000 clients at 2.43× capacity, 59 % throttled). Set one with
// runtime.Options.RateLimiters: [*RateLimiterPool] shares within a process;
// runtime/redisstore's Store shares one CUBIC send rate across a fleet.
type SharedRateLimiters interface {
	// Limiter returns the limiter of service (Service.Name) at
	// endpointHost; the same arguments give the same limiter. clock is the
	// asking client's (the first asker's clock drives the limiter).
	Limiter(service, endpointHost string, clock Clock) *RateLimiter
}

// RateLimiterPool is the in-process [SharedRateLimiters]: one [RateLimiter]
// per service and endpoint host, shared by every client given the pool.
// Safe for concurrent use; the zero value is ready to use.
type RateLimiterPool struct {
	mu sync.Mutex
	by map[[2]string]*RateLimiter
}

// NewRateLimiterPool returns an empty pool.
func NewRateLimiterPool() *RateLimiterPool { return &RateLimiterPool{} }

// Limiter returns the scope's limiter, made with clock on first use.
func (p *RateLimiterPool) Limiter(service, endpointHost string, clock Clock) *RateLimiter {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := [2]string{service, endpointHost}
	if p.by == nil {
		p.by = make(map[[2]string]*RateLimiter)
	}
	l, ok := p.by[k]
	if !ok {
		l = NewRateLimiter(clock)
		p.by[k] = l
	}
	return l
}

// FleetRate is one CUBIC send rate shared by a fleet of processes
// (runtime/redisstore): [NewFleetRateLimiter] makes a limiter that fills at
// this process's share of it and reports its throttles to it. Both methods
// are on the call path: they must not block (no round trip).
type FleetRate interface {
	// Share returns this process's fill rate at now, tokens/s, and
	// whether the fleet rate is in force (a throttle has been seen by the
	// fleet); while it is not, sends are free.
	Share(now time.Time) (rate float64, enabled bool)
	// Throttled reports a throttling response seen at now by this
	// process, whose measured send rate is measured (requests/s).
	Throttled(now time.Time, measured float64)
}

// minFleetShare is the smallest fill rate of a process's share of a fleet
// rate: 0.01 tokens/s (the per-client 0.5 floor is what made many clients
// overshoot).
const minFleetShare = 0.01

// NewFleetRateLimiter returns a limiter whose fill rate is this process's
// share of fleet (FleetRate.Share; at most twice this process's measured
// send rate, as in §6), refreshed at every send token, and which
// reports every throttling response to fleet; the measured send rate is
// kept as in §6, and is what it reports. clock and fleet must not be nil.
func NewFleetRateLimiter(clock Clock, fleet FleetRate) *RateLimiter {
	l := NewRateLimiter(clock)
	l.fleet = fleet
	return l
}

// fleetUpdate is Update for a fleet limiter (l.mu held).
func (l *RateLimiter) fleetUpdate(now time.Time, throttled bool) {
	measured := l.recordSend(now)
	if throttled {
		// Before the first time bucket closes the measured rate is 0;
		// the current bucket's count so far is a better estimate.
		if el := now.Sub(time.Unix(0, l.lastBucket*int64(sendRateBucket))).Seconds(); el > 0 {
			measured = math.Max(measured, float64(l.count)/math.Max(el, 0.1))
		}
		l.fleet.Throttled(now, measured)
	}
	l.fleetRefresh(now)
}

// fleetRefresh sets the fill rate to the fleet's share at now (l.mu held).
func (l *RateLimiter) fleetRefresh(now time.Time) {
	rate, on := l.fleet.Share(now)
	if !on {
		return
	}
	if !l.enabled {
		l.enabled, l.lastRefill, l.tokens = true, now, 0
	}
	if l.measuredRate > 0 {
		rate = math.Min(rate, maxRateScale*l.measuredRate) // §6's bound, on this process's share
	}
	rate = math.Max(rate, minFleetShare)
	if rate != l.fillRate {
		l.calculated = rate
		l.setFillRate(now, rate)
	}
}
