package runtime

import (
	"net/http"

	"github.com/retrygen/retrygen/runtime/engine"
)

// Throttle headers: the response headers through which an Alibaba-style
// service reports the quota of its throttle windows (retry-behavior.md §8),
// one header per dimension, each value a list such as
// "Remain:0,Limit:2,Time:1000,TimeLeft:122,Reset:1637835220000". The wire
// names say "RateLimit"; this package calls them throttle headers and their
// parsed values [engine.ThrottleQuota] and [engine.ThrottleHeaders], keeping "rate limiter"
// for adaptive mode's client-side [engine.RateLimiter] (§6).

// parseThrottleHeaders reads both throttle headers of h: the "API + User"
// dimension from tc.UserAPIHeader and the "User" dimension from
// tc.UserHeader, defaulting to [engine.DefaultUserAPIHeader] and [engine.DefaultUserHeader]
// (tc may be nil). Every line of a header is read, in order, a field of a
// later line replacing the same field of an earlier one; see
// [parseThrottleHeader] for the value's format. It never fails.
func parseThrottleHeaders(h http.Header, tc *ThrottleControl) engine.ThrottleHeaders {
	apiName, userName := engine.DefaultUserAPIHeader, engine.DefaultUserHeader
	if tc != nil {
		if tc.UserAPIHeader != "" {
			apiName = tc.UserAPIHeader
		}
		if tc.UserHeader != "" {
			userName = tc.UserHeader
		}
	}
	return engine.ThrottleHeaders{
		UserAPI: engine.ParseThrottleLines(h.Values(apiName)),
		User:    engine.ParseThrottleLines(h.Values(userName)),
	}
}
