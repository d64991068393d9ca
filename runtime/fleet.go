package runtime

import (
	"fmt"
	"strconv"

	"github.com/retrygen/retrygen/runtime/engine"
)

// resolveFleet takes the client's shared rate limiter (Options.RateLimiters),
// scopes the client's fleet retry budget to its service and
// endpoint host (ScopedRetryBudget) and checks the throttle identity: a
// throttle-window store shared between processes (one that reports faults,
// StoreFaultReporter: runtime/redisstore) needs Options.ThrottleIdentity,
// since a per-client identity would share no window. The runtime never
// sees credentials, so it cannot derive the identity itself: the error
// names the option to set.
func (c *Client) resolveFleet(host string) error {
	if c.opts.RateLimiters != nil {
		c.limiter = c.opts.RateLimiters.Limiter(c.svc.Name, host, c.clock)
	}
	if s, ok := c.fleet.(engine.ScopedRetryBudget); ok {
		c.fleet = s.Scope(c.svc.Name, host)
	}
	if _, shared := c.windows.(engine.StoreFaultReporter); shared && c.opts.ThrottleIdentity == "" {
		return fmt.Errorf("runtime.NewClient: Options.Windows (%T) shares throttle windows between processes, but Options.ThrottleIdentity is empty: set it to the identity the server throttles (the access key ID the requests are signed with), or no window would ever be shared", c.windows)
	}
	return nil
}

// payRetry pays cost tokens from the client's retry quota when quota is
// true (modes with a retry quota, §5) and, when set, from the fleet retry
// budget, which every retrying mode pays (legacy and aliyun too, issue 22):
// from all or from none. When one refuses it returns false with that
// bucket's balance, and fleet reports whether it was the fleet retry
// budget.
func (c *Client) payRetry(cost int, quota bool) (ok bool, balance int, fleet bool) {
	if quota {
		if ok, balance = c.quota.Acquire(cost); !ok {
			return false, balance, false
		}
	}
	if c.fleet == nil {
		return true, balance, false
	}
	if fok, fbalance := c.fleet.Acquire(cost); !fok {
		if quota {
			c.quota.Release(cost)
		}
		return false, fbalance, true
	}
	return true, balance, false
}

// releaseRetry gives n tokens back to the client's retry quota when quota
// is true and, when set, to the fleet retry budget.
func (c *Client) releaseRetry(n int, quota bool) {
	if quota {
		c.quota.Release(n)
	}
	if c.fleet != nil {
		c.fleet.Release(n)
	}
}

// windowIdentity is the identity a client's throttle windows are kept under
// in its ThrottleWindowStore: the throttle identity scoped to the service
// and endpoint host, "LEN:SERVICE:LEN:HOST:IDENTITY". A window is the
// server's answer for one product in one region, so it blocks the clients
// of that identity, service and host only, as the fleet retry budget is
// scoped (ScopedRetryBudget); one store (the in-process WindowStore or
// runtime/redisstore) holds the windows of many services without one
// blocking another.
func windowIdentity(service, host, identity string) string {
	return strconv.Itoa(len(service)) + ":" + service + ":" + strconv.Itoa(len(host)) + ":" + host + ":" + identity
}

// WindowIdentity returns the key the client's throttle windows are kept
// under in its ThrottleWindowStore (Options.Windows): Options.ThrottleIdentity
// (or the client's own when unset) scoped to the service and endpoint host
// (windowIdentity). Read a store's windows for this client with it, e.g.
// engine.WindowStore.Windows(c.WindowIdentity(), op, now).
func (c *Client) WindowIdentity() string { return c.identity }
