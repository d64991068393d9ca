package runtime

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// Policy is one call's retry policy, resolved once when the call starts from
// every level of retry-behavior.md §2 — global defaults, the Service, the
// Operation, the environment, the config file, the client's and the call's
// Options — and never changed afterwards. Everything the attempt loop
// decides (classification, backoff, retry quota, server delays, throttle
// windows, deadlines) reads the policy only, so each precedence rule is
// written once, in resolvePolicy. Its slices and functions are shared with
// the levels they came from and must not be modified.
type Policy struct {
	// Params are the mode's delays, jitter, retry quota and limiter:
	// global defaults < throttle control's max delay (aliyun) < Service.Defaults
	// < Service.PerMode[mode] < Operation.Backoff < the client's
	// ThrottleControl.MaxDelay (aliyun) < Options.MaxBackoff.
	// Params.MaxAttempts is Settings.MaxAttempts.Value.
	Params ModeParams
	// MaxServerDelay is the longest server-requested delay slept
	// (Options.MaxServerDelay, else DefaultMaxServerDelay, 20 s; §5).
	MaxServerDelay time.Duration
	// ThrottleControl is the throttle control in force (§8): the client
	// options', else the service's, nil when off or
	// Options.DisableThrottleControl. Read from the client's options only.
	ThrottleControl *ThrottleControl
	// ThrottleMaxDelay bounds every throttle-window wait and delay (§8): in
	// aliyun mode the mode's max delay (Params.MaxBackoff), else
	// ThrottleControl.MaxDelay, else DefaultThrottleMaxDelay (120 s). This is
	// the one place the max-delay rule lives.
	ThrottleMaxDelay time.Duration
	// ThrottleRetryStatuses are the statuses retried in aliyun mode (§8):
	// ThrottleControl.RetryStatuses, else 408, 429, 500, 502, 503, 504.
	ThrottleRetryStatuses []int
	// MaxThrottleWindow caps a throttle window's TimeLeft (§8): the client's
	// Options.MaxThrottleWindow, else DefaultMaxThrottleWindow (10 min).
	MaxThrottleWindow time.Duration
	// RetrySafe: Operation.RetrySafe or Service.RetrySafe (§3).
	RetrySafe bool
	// LongPolling: Operation.LongPolling (§7).
	LongPolling bool
	// MaxElapsed is the retry deadline from the call's start (§9):
	// Operation.MaxElapsed, else Service.MaxElapsed; 0 for none.
	MaxElapsed time.Duration
	// RetryStatuses replace §4 rules 6–7 outside aliyun mode (§9):
	// Operation.RetryStatuses, else Service.RetryStatuses; nil for none.
	RetryStatuses []StatusRange
	// ConnectionErrorsNotRetried: Service or Operation says so (§9).
	ConnectionErrorsNotRetried bool
	// Bare429NotRetried: Service.Bare429NotRetried (§4 rule 7).
	Bare429NotRetried bool
	// ServerDelayHeaders are Service.ServerDelayHeaders (§5).
	ServerDelayHeaders []string
	// Classify and Backoff are the call's Options.Classify and
	// Options.Backoff (nil for none).
	Classify func(*engine.AttemptResult) (engine.Class, bool)
	Backoff  func(attempt int, err error) time.Duration
	// Settings are the retry mode and max attempts with the source that
	// decided each (§2; an operation's own max attempts sits at the
	// service level, above the service's).
	// They come after the fields every attempt reads (fewer cache lines
	// per attempt).
	Settings
	// codes are the error-code lists, most specific first: the call's
	// options, the operation, the service; the built-in lists follow (§4).
	codes [3]codeLists
	// idempotencyErr refuses the operation's IdempotencyHeader
	// (Service.checkIdempotencyHeader), resolved once with the policy
	// instead of on every call.
	idempotencyErr error
}

// ResolvePolicy resolves the policy of one call of op (nil: an operation
// that declares nothing) on svc, for a client built with client options and
// a call with call options (either may be nil), in environment env. It
// reads the environment and the config file as [resolveSettings] does and
// returns its errors: a *ConfigError for an invalid winning retry mode or
// max attempts, an *IniSyntaxError or *fs.PathError for the config file.
// [Client.Do] resolves the same policy from the settings the client
// resolved once.
func ResolvePolicy(svc *Service, op *Operation, client, call *Options, env Env) (Policy, error) {
	if svc == nil {
		svc = &Service{}
	}
	s, err := resolveSettings(svc, client, call, env)
	if err != nil {
		return Policy{}, err
	}
	return resolvePolicy(s, svc, op, client, call), nil
}

// noOperation stands for an operation that declares nothing of its own;
// noOptions for options that set nothing.
var (
	noOperation Operation
	noOptions   Options
)

// resolvePolicy applies every precedence rule but those of mode and max
// attempts (resolved into s, §2) once, in the order of the levels. client
// holds the options read once by NewClient; call (nil: client) the per-call
// ones. It allocates nothing.
func resolvePolicy(s Settings, svc *Service, op *Operation, client, call *Options) Policy {
	if op == nil {
		op = &noOperation
	}
	if client == nil {
		client = &Options{}
	}
	if call == nil {
		call = client
	}
	mode := s.Mode.Value
	if n := op.Backoff.MaxAttempts; n > 0 && s.MaxAttempts.Source.Level >= engine.LevelServiceDefault {
		// The operation's own max attempts sits above the service's (§2).
		s.MaxAttempts = engine.Setting[int]{Value: n, Source: engine.Source{
			Level: engine.LevelServiceDefault, Name: "maxAttempts", Location: "x-retry of operation " + op.Name}}
	}
	p := Policy{Settings: s, Params: globalParams(mode)}
	p.Params.MaxAttempts = s.MaxAttempts.Value
	p.ThrottleControl = throttleControl(svc, client)
	aliyun := mode == ModeAliyun
	if tc := p.ThrottleControl; aliyun && tc != nil {
		// §8: with throttle control the aliyun max delay defaults to 120 s
		// (aliyun-java-sdk-core's RetryUtil); the spec's own value is a
		// service default.
		p.Params.MaxBackoff = engine.DefaultThrottleMaxDelay
		if tc == svc.ThrottleControl && tc.MaxDelay > 0 {
			p.Params.MaxBackoff = tc.MaxDelay
		}
	}
	p.Params.override(svc.Defaults)
	p.Params.override(svc.PerMode[mode])
	p.Params.override(op.Backoff)
	if tc := p.ThrottleControl; aliyun && tc != nil && tc != svc.ThrottleControl && tc.MaxDelay > 0 {
		p.Params.MaxBackoff = tc.MaxDelay // a client option
	}
	if call.MaxBackoff > 0 {
		p.Params.MaxBackoff = call.MaxBackoff
	}

	p.MaxServerDelay = engine.DefaultMaxServerDelay
	if call.MaxServerDelay > 0 {
		p.MaxServerDelay = call.MaxServerDelay
	}
	switch tc := p.ThrottleControl; {
	case aliyun:
		p.ThrottleMaxDelay = p.Params.MaxBackoff
	case tc != nil && tc.MaxDelay > 0:
		p.ThrottleMaxDelay = tc.MaxDelay
	default:
		p.ThrottleMaxDelay = engine.DefaultThrottleMaxDelay
	}
	p.ThrottleRetryStatuses = aliyunRetryStatuses
	if tc := p.ThrottleControl; tc != nil && len(tc.RetryStatuses) > 0 {
		p.ThrottleRetryStatuses = tc.RetryStatuses
	}
	p.MaxThrottleWindow = engine.DefaultMaxThrottleWindow
	if client.MaxThrottleWindow > 0 {
		p.MaxThrottleWindow = client.MaxThrottleWindow
	}

	p.RetrySafe = op.RetrySafe || svc.RetrySafe
	p.LongPolling = op.LongPolling
	p.MaxElapsed = svc.MaxElapsed
	if op.MaxElapsed > 0 {
		p.MaxElapsed = op.MaxElapsed
	}
	p.RetryStatuses = svc.RetryStatuses
	if len(op.RetryStatuses) > 0 {
		p.RetryStatuses = op.RetryStatuses
	}
	p.ConnectionErrorsNotRetried = svc.ConnectionErrorsNotRetried || op.ConnectionErrorsNotRetried
	p.Bare429NotRetried = svc.Bare429NotRetried
	p.ServerDelayHeaders = svc.ServerDelayHeaders
	p.Classify, p.Backoff = call.Classify, call.Backoff
	if op.IdempotencyHeader != "" {
		p.idempotencyErr = svc.checkIdempotencyHeader(op)
	}
	p.codes = [3]codeLists{
		{call.TransientCodes, call.ThrottlingCodes, call.NonRetryableCodes},
		{op.TransientCodes, op.ThrottlingCodes, op.NonRetryableCodes},
		{svc.TransientCodes, svc.ThrottlingCodes, svc.NonRetryableCodes},
	}
	return p
}

// maxCachedPolicies bounds how many operations' policies a client keeps
// (Client.policies): a caller that builds a new Operation for every call
// gets its policy resolved per call instead of a cache that grows.
const maxCachedPolicies = 1024

// operationPolicy returns the policy of a call of op with the client's own
// options: resolved once per operation and shared, never written, by every
// such call (a Call that must change it takes a copy, Call.ownPolicy); the
// first operation's is kept in the client (Client.first), the others in
// Client.policies. An
// Operation is a declaration (generated code declares one package-level
// value per operation) and is not changed once called.
func (c *Client) operationPolicy(op *Operation) *Policy {
	if f := c.first.Load(); f != nil && f.op == op {
		return &f.pol
	}
	if p, ok := c.policies.Load(op); ok {
		return p.(*Policy)
	}
	p := resolvePolicy(c.settings, c.svc, op, &c.opts, &c.opts)
	if c.firstClaimed.CompareAndSwap(false, true) {
		// The first operation's policy: the one every client with the same
		// key shares (sharedPolicy), else the client's own; published once
		// written.
		f := c.sharedPolicy(op)
		if f == nil {
			f = &opPolicy{op: op, pol: p}
		}
		c.first.Store(f)
		return &f.pol
	}
	if f := c.first.Load(); f != nil && f.op == op {
		return &f.pol // claimed by a call racing with this one
	}
	got, _ := storeBounded(&c.policies, &c.nPolicies, maxCachedPolicies, op, &p)
	return got.(*Policy)
}

// opPolicy is an operation's resolved policy (Client.first).
type opPolicy struct {
	op  *Operation
	pol Policy
}

// policyKey is everything the policy of a call with its client's own
// options reads besides the Service and Operation declarations
// (resolvePolicy with call == client): clients whose keys are equal
// resolve equal policies, and share one (sharedPolicy). Slices are
// compared by identity, as sharesPolicy compares them.
// TestPolicyKeyReadsEveryClientOption keeps it in step with resolvePolicy.
type policyKey struct {
	svc                                           *Service
	op                                            *Operation
	settings                                      Settings
	throttleControl                               *ThrottleControl
	disableThrottleControl                        bool
	maxBackoff, maxServerDelay, maxThrottleWindow time.Duration
	codes                                         [3]sliceID
}

// sliceID is a slice's identity: its first element's address and length.
type sliceID struct {
	first *string
	n     int
}

func idOf(s []string) sliceID {
	if len(s) == 0 {
		return sliceID{}
	}
	return sliceID{&s[0], len(s)}
}

// sharedPolicies are policies shared by every client of the process whose
// policyKey is equal (policyKey → *opPolicy): a fleet of clients in one
// process, such as cmd/retrygen-sim's 20,000, reads one policy that stays
// in cache instead of one per client. At most maxSharedPolicies of them,
// counted by nSharedPolicies; past that, clients keep their own.
var (
	sharedPolicies  sync.Map
	nSharedPolicies atomic.Int32
)

const maxSharedPolicies = 4096

// sharedPolicy returns the shared policy of op for the client's own
// options, or nil when they set Classify or Backoff (functions cannot be
// compared) or maxSharedPolicies are kept. A Service, like an Operation,
// is a declaration, not changed once a client uses it.
func (c *Client) sharedPolicy(op *Operation) *opPolicy {
	o := &c.opts
	if o.Classify != nil || o.Backoff != nil {
		return nil
	}
	k := policyKey{
		svc: c.svc, op: op, settings: c.settings,
		throttleControl: o.ThrottleControl, disableThrottleControl: o.DisableThrottleControl,
		maxBackoff: o.MaxBackoff, maxServerDelay: o.MaxServerDelay, maxThrottleWindow: o.MaxThrottleWindow,
		codes: [3]sliceID{idOf(o.TransientCodes), idOf(o.ThrottlingCodes), idOf(o.NonRetryableCodes)},
	}
	if p, ok := sharedPolicies.Load(k); ok {
		return p.(*opPolicy)
	}
	if nSharedPolicies.Load() >= maxSharedPolicies {
		return nil
	}
	p := &opPolicy{op: op, pol: resolvePolicy(c.settings, c.svc, op, o, o)}
	got, kept := storeBounded(&sharedPolicies, &nSharedPolicies, maxSharedPolicies, k, p)
	if !kept {
		return nil // full: the client keeps its own
	}
	return got.(*opPolicy)
}

// sharesPolicy reports whether a call with options call resolves the same
// policy as a call with the client's own options: it changes neither the
// retry mode nor max attempts (Settings.WithCall) nor any call option
// resolvePolicy reads (MaxBackoff, MaxServerDelay, the code lists, which
// must be the client's own slices), and neither sets Classify or Backoff
// (functions cannot be compared). Generated clients pass a copy of their
// options on every call; that copy shares the policy.
// TestSharedPolicyReadsEveryCallOption keeps this list and resolvePolicy
// in step.
func (c *Client) sharesPolicy(call *Options) bool {
	o := &c.opts
	return !c.settings.changedBy(call) &&
		call.MaxBackoff == o.MaxBackoff && call.MaxServerDelay == o.MaxServerDelay &&
		call.Classify == nil && o.Classify == nil && call.Backoff == nil && o.Backoff == nil &&
		sameSlice(call.TransientCodes, o.TransientCodes) &&
		sameSlice(call.ThrottlingCodes, o.ThrottlingCodes) &&
		sameSlice(call.NonRetryableCodes, o.NonRetryableCodes)
}

// sameSlice reports whether a and b are the same slice: the same length
// and, when not empty, the same first element in memory.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// throttleControl is the throttle control in force for a client (§8):
// none when its options disable it, else the options', else the service's.
func throttleControl(svc *Service, client *Options) *ThrottleControl {
	switch {
	case client.DisableThrottleControl:
		return nil
	case client.ThrottleControl != nil:
		return client.ThrottleControl
	}
	return svc.ThrottleControl
}

// codeClass looks code up level by level, most specific first: the call's
// options, the operation, the service, the built-in lists (§4), then, in
// aliyun mode, the aliyun throttling codes (§8). The first level that lists
// the code decides.
func (p *Policy) codeClass(code string) (engine.Class, bool) {
	if code == "" {
		return engine.ClassSuccess, false
	}
	for _, l := range p.codes {
		if c, ok := l.lookup(code); ok {
			return c, true
		}
	}
	if c, ok := builtinCodes.lookup(code); ok {
		return c, true
	}
	if p.Mode.Value == ModeAliyun && slices.Contains(aliyunThrottlingCodes, code) {
		return engine.ClassThrottling, true
	}
	return engine.ClassSuccess, false
}
