package generator

import (
	"math"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// Speakeasy's documented defaults for x-speakeasy-retries backoff keys that
// a spec leaves out.
const (
	speakeasyInitialInterval = 500 * time.Millisecond
	speakeasyMaxInterval     = 60 * time.Second
	speakeasyExponent        = 1.5
	speakeasyMaxElapsedTime  = time.Hour
)

// speakeasyRetries is one x-speakeasy-retries extension (root or
// operation), as retrygen maps it onto x-retry:
//
//	strategy: backoff            → retries on; none → max attempts 1
//	backoff.initialInterval (ms) → transientBaseDelayMs and throttlingBaseDelayMs
//	backoff.maxInterval (ms)     → maxBackoffMs
//	backoff.exponent             → backoffExponent
//	backoff.maxElapsedTime (ms)  → maxElapsedMs, the call's retry deadline;
//	                               maxAttempts unlimited (2147483647) unless
//	                               x-retry sets it
//	statusCodes (503, "5XX")     → retryStatuses
//	retryConnectionErrors        → retryConnectionErrors (Speakeasy's
//	                               default, false, when absent)
//
// Backoff keys left out take Speakeasy's defaults (500 ms, 60 s, 1.5, 1 h).
type speakeasyRetries struct {
	// none: strategy none (no retries).
	none bool
	// backoff holds the delays, exponent and max attempts.
	backoff runtime.ModeDefaults
	// maxElapsed is backoff.maxElapsedTime.
	maxElapsed time.Duration
	// statuses are the statusCodes; nil when the spec gives none.
	statuses []runtime.StatusRange
	// retryConnectionErrors is the key's value (false when absent).
	retryConnectionErrors bool
}

// parseSpeakeasyRetries reads the x-speakeasy-retries mapping at ptr, or
// returns false when n is nil. Bad values are located errors; unknown keys
// are errors too, as in x-retry.
func parseSpeakeasyRetries(n *yaml.Node, ptr string, d *diags) (speakeasyRetries, bool) {
	sk := speakeasyRetries{backoff: runtime.ModeDefaults{
		TransientBaseDelay: speakeasyInitialInterval, ThrottlingBaseDelay: speakeasyInitialInterval,
		MaxBackoff: speakeasyMaxInterval, BackoffExponent: speakeasyExponent, MaxAttempts: math.MaxInt32,
	}, maxElapsed: speakeasyMaxElapsedTime}
	if n == nil {
		return sk, false
	}
	x := extReader{d}
	var initial time.Duration
	ok := x.mapping(n, ptr, map[string]func(*yaml.Node, string){
		"strategy": func(v *yaml.Node, p string) { sk.none = x.oneOf(v, p, "backoff", "none") == "none" },
		"backoff": func(v *yaml.Node, p string) {
			x.mapping(v, p, map[string]func(*yaml.Node, string){
				"initialInterval": x.millisInto(&initial),
				"maxInterval":     x.millisInto(&sk.backoff.MaxBackoff),
				"maxElapsedTime":  x.millisInto(&sk.maxElapsed),
				"exponent": func(v *yaml.Node, p string) {
					if e, ok := x.exponent(v, p); ok {
						sk.backoff.BackoffExponent = e
					}
				},
			})
		},
		"statusCodes":           func(v *yaml.Node, p string) { sk.statuses = x.statusRanges(v, p) },
		"retryConnectionErrors": func(v *yaml.Node, p string) { sk.retryConnectionErrors = x.boolean(v, p) },
	})
	if ok && mapValue(n, "strategy") == nil {
		d.errorf(ptr, "strategy is required (backoff or none)")
	}
	if initial > 0 {
		sk.backoff.TransientBaseDelay, sk.backoff.ThrottlingBaseDelay = initial, initial
	}
	if sk.none {
		sk.backoff = runtime.ModeDefaults{MaxAttempts: 1}
	}
	return sk, true
}

// exponent reads a backoff exponent: a number ≥ 1 (1 is a constant
// backoff) and at most 10.
func (x extReader) exponent(n *yaml.Node, ptr string) (float64, bool) {
	v, err := strconv.ParseFloat(n.Value, 64)
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || err != nil || !(v >= 1 && v <= 10) {
		x.d.errorf(ptr, "must be a number from 1 to 10, got %s", describe(n))
		return 0, false
	}
	return v, true
}

// statusRanges reads a list of HTTP statuses and status classes: integers
// 100–599, or strings "503" or "1XX"–"5XX" (x as well as X).
func (x extReader) statusRanges(n *yaml.Node, ptr string) []runtime.StatusRange {
	if n.Kind != yaml.SequenceNode {
		x.d.errorf(ptr, "must be a list of HTTP statuses (503) or status classes (\"5XX\"), got %s", describe(n))
		return nil
	}
	out := []runtime.StatusRange{}
	for i, c := range n.Content {
		p := child(ptr, strconv.Itoa(i))
		if r, ok := statusRange(c); ok {
			out = append(out, r)
			continue
		}
		x.d.errorf(p, "must be an HTTP status 100–599 or a status class 1XX–5XX, got %s", describe(c))
	}
	return out
}

// statusRange parses one status or status class.
func statusRange(n *yaml.Node) (runtime.StatusRange, bool) {
	if n.Kind != yaml.ScalarNode {
		return runtime.StatusRange{}, false
	}
	v := n.Value
	if len(v) == 3 && v[0] >= '1' && v[0] <= '5' && strings.EqualFold(v[1:], "xx") && n.Tag == "!!str" {
		lo := int(v[0]-'0') * 100
		return runtime.StatusRange{Min: lo, Max: lo + 99}, true
	}
	s, err := strconv.Atoi(v)
	if err != nil || len(v) != 3 || s < 100 || s > 599 || (n.Tag != "!!int" && n.Tag != "!!str") {
		return runtime.StatusRange{}, false
	}
	return runtime.StatusRange{Min: s, Max: s}, true
}

// speakeasyExtension is the extension's key, named in sources and
// diagnostics.
const speakeasyExtension = "x-speakeasy-retries"

// applySpeakeasy maps the root-level x-speakeasy-retries of the spec onto
// s, the service x-retry declared (xr, nil when absent): every setting
// x-retry leaves out comes from x-speakeasy-retries. Without x-retry the
// service's defaults are named as coming from x-speakeasy-retries (explain).
// It warns, at the extension, of what differs from Speakeasy's own SDKs.
func applySpeakeasy(root *yaml.Node, s *runtime.Service, d *diags) {
	n := mapValue(root, speakeasyExtension)
	sk, ok := parseSpeakeasyRetries(n, "/"+speakeasyExtension, d)
	if !ok {
		return
	}
	xr := mapValue(root, "x-retry")
	has := func(key string) bool { return mapValue(xr, key) != nil }
	if xr == nil {
		s.Extension = speakeasyExtension
	}
	sk.onto(&s.Defaults, has)
	if !has("maxElapsedMs") && !sk.none {
		s.MaxElapsed = sk.maxElapsed
	}
	if !has("retryStatuses") && sk.statuses != nil {
		s.RetryStatuses = sk.statuses
	}
	if !has("retryConnectionErrors") {
		s.ConnectionErrorsNotRetried = !sk.retryConnectionErrors
	}
	if xr == nil {
		sk.warn("/"+speakeasyExtension, d)
	}
}

// applyOperationSpeakeasy maps an operation's x-speakeasy-retries (n, at
// ptr) onto its runtime.Operation r, under the operation's own x-retry (xr):
// as in Speakeasy, the operation's extension replaces the root one for that
// operation, so its backoff keys left out take Speakeasy's defaults.
func applyOperationSpeakeasy(n, xr *yaml.Node, ptr string, r *runtime.Operation, svc *runtime.Service, d *diags) {
	sk, ok := parseSpeakeasyRetries(n, ptr, d)
	if !ok {
		return
	}
	has := func(key string) bool { return mapValue(xr, key) != nil }
	sk.onto(&r.Backoff, has)
	if !has("maxElapsedMs") && !sk.none {
		r.MaxElapsed = sk.maxElapsed
	}
	if !has("retryStatuses") && sk.statuses != nil {
		r.RetryStatuses = sk.statuses
	}
	if !has("retryConnectionErrors") {
		if sk.retryConnectionErrors && svc.ConnectionErrorsNotRetried {
			d.warnf(child(ptr, "retryConnectionErrors"), "the service does not retry connection errors and an operation cannot turn them back on; this operation does not retry them either")
		}
		r.ConnectionErrorsNotRetried = !sk.retryConnectionErrors
	}
}

// onto sets the backoff settings of m that x-retry (has) leaves out.
func (sk speakeasyRetries) onto(m *runtime.ModeDefaults, has func(string) bool) {
	set := func(key string, dst *time.Duration, v time.Duration) {
		if !has(key) && v > 0 {
			*dst = v
		}
	}
	set("transientBaseDelayMs", &m.TransientBaseDelay, sk.backoff.TransientBaseDelay)
	set("throttlingBaseDelayMs", &m.ThrottlingBaseDelay, sk.backoff.ThrottlingBaseDelay)
	set("maxBackoffMs", &m.MaxBackoff, sk.backoff.MaxBackoff)
	if !has("backoffExponent") && sk.backoff.BackoffExponent > 0 {
		m.BackoffExponent = sk.backoff.BackoffExponent
	}
	if !has("maxAttempts") {
		m.MaxAttempts = sk.backoff.MaxAttempts
	}
}

// warn states, at ptr, what retrygen does differently from Speakeasy's
// SDKs. It is called for specs without x-retry: adding one states the
// choice and silences it (so -strict accepts the spec).
func (sk speakeasyRetries) warn(ptr string, d *diags) {
	if sk.none {
		return
	}
	d.warnf(ptr, "mapped onto x-retry: max attempts unlimited, backoff.maxElapsedTime (%v) is the call's retry deadline; "+
		"full jitter on min(maxInterval, initialInterval × exponent^n) and the retry quota (%d tokens) apply, which Speakeasy SDKs do not have",
		sk.maxElapsed, engine.DefaultRetryQuotaCapacity)
}
