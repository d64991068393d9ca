package main

import (
	"fmt"
	"math"
	"time"

	"github.com/retrygen/retrygen/internal/vectors"
	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// rateTolerance is the tolerance on rates (shared/vectors/README.md).
const rateTolerance = 1e-6

// runCubic checks a CUBIC scenario (§6) against engine.CubicSuccess and
// engine.CubicThrottle: a throttle reduces the previous case's calculated
// rate and records it as the new last max rate, at the case's timestamp.
func runCubic(sc *vectors.Scenario) result {
	lastMax, prev := *sc.Given.LastMaxRate, *sc.Given.LastMaxRate
	lastThrottle := 0.0
	if sc.Given.LastThrottleTime != nil {
		lastThrottle = *sc.Given.LastThrottleTime
	}
	for i, c := range sc.Cases {
		var got float64
		switch c.Response {
		case "success":
			got = engine.CubicSuccess(lastMax, lastThrottle, c.Timestamp)
		case "throttle":
			lastMax, lastThrottle = prev, c.Timestamp
			got = engine.CubicThrottle(prev)
		default:
			return failf("step %d: response must be success or throttle, got %q", i+1, c.Response)
		}
		if c.CalculatedRate == nil {
			return failf("step %d: no calculated_rate", i+1)
		}
		if msg := checkRate("calculated_rate", *c.CalculatedRate, got); msg != "" {
			return failf("step %d: %s", i+1, msg)
		}
		prev = got
	}
	return result{}
}

// runSendingRate checks a sending-rate scenario (§6): one limiter on a fake
// clock starting at 0, one Update per case at its timestamp.
func runSendingRate(sc *vectors.Scenario) result {
	epoch := time.Unix(0, 0)
	clock := clocktest.New(epoch)
	l := engine.NewRateLimiter(clock)
	for i, c := range sc.Cases {
		at := epoch.Add(seconds(c.Timestamp))
		if at.Before(clock.Now()) {
			return failf("step %d: timestamp %g is before the clock: the clock only moves forward", i+1, c.Timestamp)
		}
		clock.Advance(at.Sub(clock.Now()))
		switch c.Response {
		case "success", "throttle":
			l.Update(c.Response == "throttle")
		default:
			return failf("step %d: response must be success or throttle, got %q", i+1, c.Response)
		}
		st := l.State()
		if c.MeasuredTxRate != nil {
			if msg := checkRate("measured_tx_rate", *c.MeasuredTxRate, st.MeasuredRate); msg != "" {
				return failf("step %d: %s", i+1, msg)
			}
		}
		if c.NewTokenBucketRate != nil {
			if msg := checkRate("new_token_bucket_rate", *c.NewTokenBucketRate, st.FillRate); msg != "" {
				return failf("step %d: %s", i+1, msg)
			}
		}
	}
	return result{}
}

func checkRate(name string, want, got float64) string {
	if math.Abs(want-got) > rateTolerance {
		return fmt.Sprintf("want %s %.9g, got %.9g", name, want, got)
	}
	return ""
}
