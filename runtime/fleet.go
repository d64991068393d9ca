package runtime

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/retrygen/retrygen/runtime/engine"
)

// resolveFleet scopes the client to its endpoint host (scopeTo: its
// throttle-window identity, fleet retry budget and shared rate limiter)
// and checks the throttle identity: a throttle-window store shared between
// processes (one that reports faults, StoreFaultReporter:
// runtime/redisstore) needs Options.ThrottleIdentity, since a per-client
// identity would share no window. The runtime never sees credentials, so
// it cannot derive the identity itself: the error names the option to set.
func (c *Client) resolveFleet(host string) error {
	c.scope = *c.scopeTo(host)
	if _, shared := c.windows.(engine.StoreFaultReporter); shared && c.opts.ThrottleIdentity == "" {
		return fmt.Errorf("runtime.NewClient: Options.Windows (%T) shares throttle windows between processes, but Options.ThrottleIdentity is empty: set it to the identity the server throttles (the access key ID the requests are signed with), or no window would ever be shared", c.windows)
	}
	return nil
}

// hostScope is what a client keeps per endpoint host: a throttle window, a
// fleet retry budget and a shared rate limiter are the server's answer, or
// the fleet's allowance, for one service at one host (a product in a
// region), so one host's never holds back another's calls.
type hostScope struct {
	identity string              // the throttle-window identity (windowIdentity)
	fleet    engine.RetryBudget  // Options.FleetRetryBudget, scoped when a ScopedRetryBudget
	limiter  *engine.RateLimiter // Options.RateLimiters' for the host, else the client's own
}

// scopeTo returns the client's scope at host: the one scoping rule, for
// the client's endpoint (NewClient) and for a call whose Options.Endpoint
// names a server at another host (checkTarget). Each part is keyed by
// the service name and host: windowIdentity's key, ScopedRetryBudget.Scope
// and SharedRateLimiters.Limiter.
func (c *Client) scopeTo(host string) *hostScope {
	s := &hostScope{fleet: c.opts.FleetRetryBudget, limiter: c.scope.limiter}
	if q, ok := s.fleet.(*engine.RetryQuota); ok && q == nil {
		s.fleet = nil
	}
	if c.opts.RateLimiters != nil {
		s.limiter = c.opts.RateLimiters.Limiter(c.svc.Name, host, c.clock)
	}
	if b, ok := s.fleet.(engine.ScopedRetryBudget); ok {
		s.fleet = b.Scope(c.svc.Name, host)
	}
	id := c.opts.ThrottleIdentity
	if id == "" {
		id = fmt.Sprintf("client-%p", c)
	}
	s.identity = windowIdentity(c.svc.Name, host, id)
	return s
}

// scopeHost is the host a scope is keyed by: u's host in lower case,
// without the scheme's default port, so that every spelling of one origin
// (sameOrigin: "ECS.example.com:443" for https://ecs.example.com) has one
// throttle window, fleet retry budget and shared rate limiter (review: the
// host as written gave a call Endpoint in other letter case a scope of its
// own, which passed the client's windows).
func scopeHost(u *url.URL) string {
	h := strings.ToLower(u.Host)
	if p := u.Port(); p != "" && p == originPort(&url.URL{Scheme: u.Scheme}) {
		h = strings.TrimSuffix(h, ":"+p)
	}
	return strings.TrimSuffix(h, ":")
}

// scope is the call's host scope: its Options.Endpoint's when that names
// another host than the client's (checkTarget), else the client's.
func (cl *callMachine) scope() *hostScope {
	if ep := cl.endpoint; ep != nil && ep.scope != nil {
		return ep.scope
	}
	return &cl.c.scope
}

// payRetry pays cost tokens from the client's retry quota when quota is
// true (modes with a retry quota, §5) and, when set, from the call's fleet
// retry budget (scope), which every retrying mode pays (legacy and aliyun
// too, issue 22): from all or from none. When one refuses it returns false
// with that bucket's balance, and fleet reports whether it was the fleet
// retry budget.
func (cl *callMachine) payRetry(cost int, quota bool) (ok bool, balance int, fleet bool) {
	c, budget := cl.c, cl.scope().fleet
	if quota {
		if ok, balance = c.quota.Acquire(cost); !ok {
			return false, balance, false
		}
	}
	if budget == nil {
		return true, balance, false
	}
	if fok, fbalance := budget.Acquire(cost); !fok {
		if quota {
			c.quota.Release(cost)
		}
		return false, fbalance, true
	}
	return true, balance, false
}

// releaseRetry gives n tokens back to the client's retry quota when quota
// is true and, when set, to the call's fleet retry budget.
func (cl *callMachine) releaseRetry(n int, quota bool) {
	if quota {
		cl.c.quota.Release(n)
	}
	if budget := cl.scope().fleet; budget != nil {
		budget.Release(n)
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
func (c *Client) WindowIdentity() string { return c.scope.identity }
