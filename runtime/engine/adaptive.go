package engine

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"
)

// CUBIC and send-rate constants of retry-behavior.md §6.
const (
	// cubicBeta is the multiplicative decrease on a throttle (β = 0.7).
	cubicBeta = 0.7
	// cubicScale is the CUBIC scale constant C = 0.4.
	cubicScale = 0.4
	// sendRateSmoothing weighs the newest time bucket in the measured send
	// rate (0.8 new, 0.2 old).
	sendRateSmoothing = 0.8
	// sendRateBucket is the width of a measured-send-rate time bucket (0.5 s).
	sendRateBucket = 500 * time.Millisecond
	// minFillRate is the smallest fill rate of the token bucket, tokens/s.
	minFillRate = 0.5
	// minCapacity is the smallest token bucket capacity, tokens.
	minCapacity = 1
	// maxRateScale bounds the fill rate by this multiple of the measured
	// send rate.
	maxRateScale = 2
)

// CubicThrottle is the CUBIC rate after a throttling response
// (retry-behavior.md §6): calculated = rate × 0.7, in tokens/s. rate is the
// rate in force when the throttle arrived, which becomes last_max_rate.
func CubicThrottle(rate float64) float64 {
	return rate * cubicBeta
}

// CubicSuccess is the CUBIC rate after a success (retry-behavior.md §6), in
// tokens/s: with K = cbrt(lastMaxRate × (1 − 0.7) / 0.4),
// calculated = 0.4 × (now − lastThrottle − K)^3 + lastMaxRate.
// lastMaxRate is in tokens/s; lastThrottle and now are times in seconds on
// any common scale (only their difference matters).
func CubicSuccess(lastMaxRate, lastThrottle, now float64) float64 {
	k := math.Cbrt(lastMaxRate * (1 - cubicBeta) / cubicScale)
	x := now - lastThrottle - k
	return cubicScale*x*x*x + lastMaxRate
}

// RateLimiterState is a snapshot of a [RateLimiter], for the per-attempt
// hook, logs and conformance tests (the cubic and sending-rate vectors).
type RateLimiterState struct {
	// Enabled reports whether a throttling response has been seen; until
	// then Acquire grants every attempt at once and for free.
	Enabled bool
	// MeasuredRate is the smoothed send rate, in requests/s, as of the
	// last time-bucket change.
	MeasuredRate float64
	// FillRate is the token bucket's fill rate, tokens/s (≥ 0.5 once the
	// limiter has been updated; 0 before the first Update). It is kept up
	// to date while disabled too.
	FillRate float64
	// Capacity is the token bucket's maximum, max(FillRate, 1) tokens.
	Capacity float64
	// Tokens is the balance at the snapshot's time, tokens, in
	// [0, Capacity].
	Tokens float64
	// Calculated is the last CUBIC rate, tokens/s, before the bounds
	// min(·, 2 × MeasuredRate) and max(·, 0.5).
	Calculated float64
	// LastMaxRate is the rate in force at the last throttle, tokens/s.
	LastMaxRate float64
	// LastThrottle is the time of the last throttle (the limiter's
	// creation time before any).
	LastThrottle time.Time
}

// RateLimiter is adaptive mode's client-side rate limiter
// (retry-behavior.md §6): a token bucket whose fill rate follows CUBIC,
// bounded by twice the measured send rate. One limiter serves one client
// instance and all of its operations. It is disabled until the first
// throttling response; after that every attempt, retries included, costs one
// send token. It is safe for concurrent use and starts no goroutines.
type RateLimiter struct {
	clock Clock

	mu      sync.Mutex
	enabled bool

	// Measured send rate: requests counted in the current time bucket,
	// numbered floor(t / 0.5 s) from the Unix epoch.
	measuredRate float64
	lastBucket   int64
	count        int64

	// CUBIC.
	calculated   float64
	lastMaxRate  float64
	lastThrottle time.Time

	// Token bucket.
	fillRate   float64
	capacity   float64
	tokens     float64
	lastRefill time.Time

	// waiters are the blocked Acquire calls; Update cancels their sleeps
	// so they recompute their wait at the new rate.
	waiters map[*rateWaiter]struct{}

	// fleet, when set, replaces this limiter's CUBIC: the fill rate is
	// this process's share of a fleet rate (NewFleetRateLimiter).
	fleet FleetRate
}

// rateWaiter is one blocked Acquire call.
type rateWaiter struct {
	wake context.CancelFunc
}

// NewRateLimiter returns a disabled limiter whose state starts at clock's
// current time t0: measured rate 0, last_max_rate 0, last throttle t0, first
// time bucket floor(t0 / 0.5 s) × 0.5 s, an empty bucket (retry-behavior.md
// §6). clock must not be nil.
func NewRateLimiter(clock Clock) *RateLimiter {
	now := clock.Now()
	return &RateLimiter{
		clock:        clock,
		lastBucket:   timeBucket(now),
		lastThrottle: now,
		capacity:     minCapacity,
		lastRefill:   now,
		waiters:      make(map[*rateWaiter]struct{}),
	}
}

// Acquire takes one send token before an attempt. While the limiter is
// disabled it returns nil at once and takes nothing. Otherwise it takes a
// token if one is available; if not, with failFast it returns a
// *RateLimitedError carrying the wait (rounded up to the nanosecond) and the
// fill rate in tokens/s, and without failFast it sleeps on the clock until a
// token is there, recomputing the wait whenever Update changes the rate. A
// token is deducted only when granted, so the balance never goes negative and
// a call that ends early costs nothing. It returns ctx.Err() when ctx ends
// while waiting, or the clock's error if Sleep fails for another reason.
func (l *RateLimiter) Acquire(ctx context.Context, failFast bool) error {
	l.mu.Lock()
	for {
		wait, ok := l.take(l.clock.Now())
		if ok {
			l.mu.Unlock()
			return nil
		}
		if failFast {
			rate := l.fillRate
			l.mu.Unlock()
			return &RateLimitedError{Wait: wait, Rate: rate}
		}
		if err := l.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// TryAcquireAt is the non-blocking form of Acquire for a caller that keeps
// its own time, such as a discrete-event simulation on a virtual clock
// (cmd/retrygen-sim): at now it takes one send token if one is there and
// returns (0, true); while the limiter is disabled it returns (0, true) and
// takes nothing. Otherwise it takes nothing and returns false and how long
// after now the bucket will hold a token at the current fill rate (rounded
// up to the nanosecond). An Update before then changes that time: ask
// again after every Update. now should not be before the clock's time of
// the last Update; an earlier now refills nothing (retry-behavior.md §6).
func (l *RateLimiter) TryAcquireAt(now time.Time) (wait time.Duration, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.take(now)
}

// take takes one token at now if the limiter is disabled (for free) or the
// bucket holds one, else returns the wait for the next token. l.mu is held.
func (l *RateLimiter) take(now time.Time) (time.Duration, bool) {
	if l.fleet != nil {
		l.fleetRefresh(now)
	}
	if !l.enabled {
		return 0, true
	}
	l.refill(now)
	if l.tokens >= 1 {
		l.tokens--
		return 0, true
	}
	return l.waitForToken(), false
}

// sleep waits for d or until Update wakes it, with l.mu held on entry and on
// a nil return (released on an error return).
func (l *RateLimiter) sleep(ctx context.Context, d time.Duration) error {
	wctx, cancel := context.WithCancel(ctx)
	w := &rateWaiter{wake: cancel}
	l.waiters[w] = struct{}{}
	l.mu.Unlock()

	err := l.clock.Sleep(wctx, d)
	woken := wctx.Err() != nil && ctx.Err() == nil
	cancel()

	l.mu.Lock()
	delete(l.waiters, w)
	if ctx.Err() != nil {
		l.mu.Unlock()
		return ctx.Err()
	}
	if err != nil && !woken {
		l.mu.Unlock()
		return err
	}
	return nil
}

// waitForToken is how long the bucket takes to hold one token at the current
// fill rate, rounded up to the nanosecond.
func (l *RateLimiter) waitForToken() time.Duration {
	return time.Duration(math.Ceil((1 - l.tokens) / l.fillRate * float64(time.Second)))
}

// Update records one attempt's response at the clock's current time: it
// updates the measured send rate, then the CUBIC rate (a throttle reduces it
// and enables the limiter, a success grows it), then sets the fill rate to
// max(min(calculated, 2 × measured), 0.5) tokens/s and the capacity to
// max(fill rate, 1) tokens, and wakes blocked Acquire calls
// (retry-behavior.md §6). Call it after every attempt, throttled reporting
// whether the response was a throttling error.
func (l *RateLimiter) Update(throttled bool) {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fleet != nil {
		l.fleetUpdate(now, throttled)
		return
	}

	measured := l.recordSend(now)
	if throttled {
		rate := measured
		if l.enabled {
			rate = math.Min(measured, l.fillRate)
		}
		l.lastMaxRate = rate
		l.lastThrottle = now
		l.calculated = CubicThrottle(rate)
		l.enabled = true
	} else {
		l.calculated = CubicSuccess(l.lastMaxRate, 0, now.Sub(l.lastThrottle).Seconds())
	}
	l.setFillRate(now, math.Max(math.Min(l.calculated, maxRateScale*measured), minFillRate))
}

// recordSend counts one request and, when now is in a later time bucket
// than the last, folds count / elapsed into the measured rate. It returns
// the measured rate in requests/s.
func (l *RateLimiter) recordSend(now time.Time) float64 {
	l.count++
	if b := timeBucket(now); b > l.lastBucket {
		elapsed := float64(b-l.lastBucket) * sendRateBucket.Seconds()
		current := float64(l.count) / elapsed
		l.measuredRate = sendRateSmoothing*current + (1-sendRateSmoothing)*l.measuredRate
		l.count = 0
		l.lastBucket = b
	}
	return l.measuredRate
}

// setFillRate refills at the old rate up to now, then switches to rate
// (tokens/s), trims the balance to the new capacity and wakes the waiters.
func (l *RateLimiter) setFillRate(now time.Time, rate float64) {
	l.refill(now)
	l.fillRate = rate
	l.capacity = math.Max(rate, minCapacity)
	l.tokens = math.Min(l.tokens, l.capacity)
	for w := range l.waiters {
		w.wake()
	}
}

// refill adds the tokens earned since the last refill, up to capacity. A
// clock that moved backwards adds nothing.
func (l *RateLimiter) refill(now time.Time) {
	l.tokens = l.balanceAt(now)
	if now.After(l.lastRefill) {
		l.lastRefill = now
	}
}

// balanceAt is the balance the bucket would hold at now, without changing it.
func (l *RateLimiter) balanceAt(now time.Time) float64 {
	elapsed := now.Sub(l.lastRefill).Seconds()
	if elapsed <= 0 {
		return l.tokens
	}
	return math.Min(l.capacity, l.tokens+elapsed*l.fillRate)
}

// Rate is the fill rate in tokens/s while the limiter is enabled, 0 while it
// is disabled (the AttemptInfo.LimiterRate value).
func (l *RateLimiter) Rate() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.enabled {
		return 0
	}
	return l.fillRate
}

// State returns a snapshot of the limiter at the clock's current time; it
// changes nothing.
func (l *RateLimiter) State() RateLimiterState {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	return RateLimiterState{
		Enabled:      l.enabled,
		MeasuredRate: l.measuredRate,
		FillRate:     l.fillRate,
		Capacity:     l.capacity,
		Tokens:       l.balanceAt(now),
		Calculated:   l.calculated,
		LastMaxRate:  l.lastMaxRate,
		LastThrottle: l.lastThrottle,
	}
}

// timeBucket numbers the 0.5 s time bucket holding t: floor(t / 0.5 s),
// counted from the Unix epoch, computed in integer nanoseconds so bucket
// boundaries are exact.
func timeBucket(t time.Time) int64 {
	ns := t.UnixNano()
	b := ns / int64(sendRateBucket)
	if ns%int64(sendRateBucket) < 0 {
		b--
	}
	return b
}

// RateLimitedError is returned by adaptive mode with RateLimiterFailFast when
// no send token is available at once.
type RateLimitedError struct {
	// Wait is how long the token would have taken.
	Wait time.Duration
	// Rate is the limiter's fill rate in tokens/s.
	Rate float64
}

// Error names the wait and the rate.
func (e *RateLimitedError) Error() string {
	return fmt.Sprintf("client-side rate limiter: no send token for %v at %.3f tokens/s (fail-fast)", e.Wait, e.Rate)
}
