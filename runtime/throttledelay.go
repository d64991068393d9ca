package runtime

import (
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// throttleDelay decides the delay before the next attempt after a retryable
// response, by the rule of retry-behavior.md §8: when no dimension of info is
// throttled the delay is backoff; otherwise it is max(TimeLeft, backoff) over
// the throttled dimensions. backoff is the equal jitter (§5), or the
// x-acs-retry-after value when the response carried one (it replaces the
// computed backoff; with a throttle header too, the larger wins).
//
// exceeded is true when the delay is above maxDelay (equal is allowed): the
// call then fails at once. dimension names the window that set the delay
// ([engine.DimensionUser] or [engine.DimensionAPIUser]; User on a tie between dimensions, a
// window on a tie with backoff), and is "" when backoff set it. Max retries
// is the caller's to check first.
func throttleDelay(info engine.ThrottleHeaders, backoff, maxDelay time.Duration) (delay time.Duration, exceeded bool, dimension string) {
	delay = backoff
	if info.UserAPI.Throttled() && info.UserAPI.TimeLeft >= delay {
		delay, dimension = info.UserAPI.TimeLeft, engine.DimensionAPIUser
	}
	if info.User.Throttled() && info.User.TimeLeft >= delay {
		delay, dimension = info.User.TimeLeft, engine.DimensionUser
	}
	return delay, delay > maxDelay, dimension
}
