package generator

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// serverDelayHeaders are the server-delay headers the runtime understands
// (retry-behavior.md §5), in their canonical spelling.
var serverDelayHeaders = []string{engine.HeaderAmzRetryAfter, engine.HeaderRetryAfter, engine.HeaderACSRetryAfter}

// parseXRetry reads the root-level x-retry extension (version 1) at
// /x-retry of the spec's root mapping straight into the runtime's
// Service. declared reports whether the spec has the extension; a missing
// one yields a zero Service (every runtime default applies).
func parseXRetry(root *yaml.Node, d *diags) (s runtime.Service, declared bool) {
	n := mapValue(root, "x-retry")
	if n == nil {
		return s, false
	}
	const ptr = "/x-retry"
	x := extReader{d}
	fields := map[string]func(*yaml.Node, string){
		"version": func(v *yaml.Node, p string) {
			if v.Kind != yaml.ScalarNode || v.Value != "1" {
				d.errorf(p, "must be 1, got %s", describe(v))
			}
		},
		"envPrefix": func(v *yaml.Node, p string) {
			if s.EnvPrefix = x.str(v, p); s.EnvPrefix != "" && !envPrefixRE.MatchString(s.EnvPrefix) {
				d.errorf(p, "must be letters, digits and _ not starting with a digit (it names environment variables), got %q", s.EnvPrefix)
			}
		},
		"mode": func(v *yaml.Node, p string) {
			s.DefaultMode, _ = oneOfValues(x, v, p, runtime.Modes(), func(m runtime.Mode) string { return string(m) })
		},
		"modes": func(v *yaml.Node, p string) {
			x.mapping(v, p, modeFields(x, &s))
		},
		"errors": func(v *yaml.Node, p string) {
			x.mapping(v, p, codeFields(x, &s.TransientCodes, &s.ThrottlingCodes, &s.NonRetryableCodes))
		},
		"bare429": func(v *yaml.Node, p string) {
			s.Bare429NotRetried = x.oneOf(v, p, "throttling", "non-retryable") == "non-retryable"
		},
		"errorCode": func(v *yaml.Node, p string) {
			x.mapping(v, p, map[string]func(*yaml.Node, string){
				"headers": func(v *yaml.Node, p string) { s.ErrorCodeHeaders = x.headers(v, p) },
				"fields":  func(v *yaml.Node, p string) { s.ErrorCodeFields = x.strs(v, p) },
			})
		},
		"errorMessage": func(v *yaml.Node, p string) {
			x.mapping(v, p, map[string]func(*yaml.Node, string){
				"fields": func(v *yaml.Node, p string) { s.ErrorMessageFields = x.strs(v, p) },
			})
		},
		"requestId": func(v *yaml.Node, p string) {
			x.mapping(v, p, map[string]func(*yaml.Node, string){
				"headers": func(v *yaml.Node, p string) { s.RequestIDHeaders = x.headers(v, p) },
				"fields":  func(v *yaml.Node, p string) { s.RequestIDFields = x.strs(v, p) },
			})
		},
		"serverDelayHeaders": func(v *yaml.Node, p string) { s.ServerDelayHeaders = parseDelayHeaders(x, v, p) },
		"retrySafe":          func(v *yaml.Node, p string) { s.RetrySafe = x.boolean(v, p) },
		"attemptHeader":      func(v *yaml.Node, p string) { s.AttemptHeader = x.sentHeader(v, p, roleAttempt) },
		"idempotencyKey":     func(v *yaml.Node, p string) { idempotencyKey(x, v, p) }, // the builder reads it: rootIdempotencyHeader
		"invocationIdHeader": func(v *yaml.Node, p string) { s.InvocationIDHeader = x.sentHeader(v, p, roleInvocation) },
		"checksumHeader":     func(v *yaml.Node, p string) { s.ChecksumHeader = x.header(v, p) },
		"throttleControl": func(v *yaml.Node, p string) {
			s.ThrottleControl = &runtime.ThrottleControl{}
			x.mapping(v, p, throttleControlFields(x, s.ThrottleControl))
		},
		"retryStatuses": func(v *yaml.Node, p string) { s.RetryStatuses = x.statusRanges(v, p) },
		"retryConnectionErrors": func(v *yaml.Node, p string) {
			if on, ok := x.booleanOK(v, p); ok {
				s.ConnectionErrorsNotRetried = !on
			}
		},
		"maxElapsedMs": x.millisInto(&s.MaxElapsed),
	}
	for k, f := range modeSettingFields(x, &s.Defaults) {
		if k != "jitter" {
			fields[k] = f
		}
	}
	if x.mapping(n, ptr, fields) && mapValue(n, "version") == nil {
		d.errorf(ptr, "version is required (this generator reads x-retry version 1)")
	}
	return s, true
}

// oneOfValues reads one of values, each spelled as name gives it, and
// reports anything else as "must be one of …".
func oneOfValues[T any](x extReader, v *yaml.Node, p string, values []T, name func(T) string) (T, bool) {
	names := make([]string, len(values))
	for i, val := range values {
		names[i] = name(val)
	}
	got := x.oneOf(v, p, names...)
	for i, n := range names {
		if got != "" && n == got {
			return values[i], true
		}
	}
	var zero T
	return zero, false
}

// modeSettingFields reads maxAttempts, the three *Ms delays and jitter into m.
func modeSettingFields(x extReader, m *runtime.ModeDefaults) map[string]func(*yaml.Node, string) {
	return map[string]func(*yaml.Node, string){
		"maxAttempts": func(v *yaml.Node, p string) {
			if n, ok := x.intBetween(v, p, 1, math.MaxInt32, ""); ok {
				m.MaxAttempts = int(n)
			}
		},
		"transientBaseDelayMs":  x.millisInto(&m.TransientBaseDelay),
		"throttlingBaseDelayMs": x.millisInto(&m.ThrottlingBaseDelay),
		"maxBackoffMs":          x.millisInto(&m.MaxBackoff),
		"backoffExponent": func(v *yaml.Node, p string) {
			if e, ok := x.exponent(v, p); ok {
				m.BackoffExponent = e
			}
		},
		"jitter": func(v *yaml.Node, p string) {
			m.Jitter, _ = oneOfValues(x, v, p, runtime.Jitters(), runtime.Jitter.String)
		},
	}
}

// modeFields reads x-retry.modes: one runtime.ModeDefaults per retry mode.
func modeFields(x extReader, s *runtime.Service) map[string]func(*yaml.Node, string) {
	fields := map[string]func(*yaml.Node, string){}
	for _, mode := range runtime.Modes() {
		fields[string(mode)] = func(v *yaml.Node, p string) {
			var m runtime.ModeDefaults
			if x.mapping(v, p, modeSettingFields(x, &m)) {
				if s.PerMode == nil {
					s.PerMode = map[runtime.Mode]runtime.ModeDefaults{}
				}
				s.PerMode[mode] = m
			}
		}
	}
	return fields
}

// codeFields reads an errors mapping: transient, throttling, nonRetryable.
// A code listed in two classes is an error at its second listing (classes
// read in the mapping's order).
func codeFields(x extReader, transient, throttling, nonRetryable *[]string) map[string]func(*yaml.Node, string) {
	seen := map[string]string{}
	list := func(class string, dst *[]string) func(*yaml.Node, string) {
		return func(v *yaml.Node, p string) {
			*dst = x.strs(v, p)
			for i, code := range *dst {
				if other, dup := seen[code]; dup && other != class {
					x.d.errorf(child(p, strconv.Itoa(i)), "code %q is already listed as %s; a code has one class", code, other)
				}
				seen[code] = class
			}
		}
	}
	return map[string]func(*yaml.Node, string){
		"transient":    list("transient", transient),
		"throttling":   list("throttling", throttling),
		"nonRetryable": list("nonRetryable", nonRetryable),
	}
}

// envPrefixRE is what an environment-variable prefix may look like.
var envPrefixRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// parseDelayHeaders reads serverDelayHeaders, accepting the known headers in
// any letter case and storing their canonical spelling.
func parseDelayHeaders(x extReader, v *yaml.Node, p string) []string {
	var out []string
	for i, h := range x.strs(v, p) {
		known := ""
		for _, k := range serverDelayHeaders {
			if strings.EqualFold(h, k) {
				known = k
			}
		}
		if known == "" {
			x.d.errorf(child(p, strconv.Itoa(i)), "must be one of %s, got %q", strings.Join(serverDelayHeaders, ", "), h)
			continue
		}
		out = append(out, known)
	}
	return out
}

// throttleControlFields reads x-retry.throttleControl (retry-behavior.md §8).
func throttleControlFields(x extReader, tc *runtime.ThrottleControl) map[string]func(*yaml.Node, string) {
	return map[string]func(*yaml.Node, string){
		"userApiHeader": func(v *yaml.Node, p string) { tc.UserAPIHeader = x.header(v, p) },
		"userHeader":    func(v *yaml.Node, p string) { tc.UserHeader = x.header(v, p) },
		"maxDelayMs":    x.millisInto(&tc.MaxDelay),
		"retryStatuses": func(v *yaml.Node, p string) { tc.RetryStatuses = x.statuses(v, p) },
	}
}

// parseOperationXRetry reads an operation-level x-retry at ptr (a mapping
// with longPolling, retrySafe and errors) into the runtime's Operation;
// the builder sets Name and combines RetrySafe with the method.
func parseOperationXRetry(n *yaml.Node, ptr string, d *diags) runtime.Operation {
	var r runtime.Operation
	if n == nil {
		return r
	}
	x := extReader{d}
	fields := map[string]func(*yaml.Node, string){
		"longPolling": func(v *yaml.Node, p string) { r.LongPolling = x.boolean(v, p) },
		"retrySafe":   func(v *yaml.Node, p string) { r.RetrySafe = x.boolean(v, p) },
		"errors": func(v *yaml.Node, p string) {
			x.mapping(v, p, codeFields(x, &r.TransientCodes, &r.ThrottlingCodes, &r.NonRetryableCodes))
		},
		"idempotencyKey":        func(v *yaml.Node, p string) { r.IdempotencyHeader = idempotencyKey(x, v, p) },
		"idempotencyTokenField": func(v *yaml.Node, p string) { x.str(v, p) }, // the builder reads it: idempotencyToken
		"retryStatuses":         func(v *yaml.Node, p string) { r.RetryStatuses = x.statusRanges(v, p) },
		"retryConnectionErrors": func(v *yaml.Node, p string) {
			// false turns connection-error retries off for the operation;
			// true leaves the service's rule (the runtime has no way to turn
			// them back on for one operation).
			if on, ok := x.booleanOK(v, p); ok {
				r.ConnectionErrorsNotRetried = !on
			}
		},
		"maxElapsedMs": x.millisInto(&r.MaxElapsed),
	}
	for k, f := range modeSettingFields(x, &r.Backoff) {
		if k != "jitter" {
			fields[k] = f
		}
	}
	x.mapping(n, ptr, fields)
	return r
}

// rootIdempotencyHeader returns the header of the root-level x-retry
// idempotencyKey ("" for none or one parseXRetry refused).
func rootIdempotencyHeader(root *yaml.Node) string {
	return sentHeaderAt(mapValue(mapValue(mapValue(root, "x-retry"), "idempotencyKey"), "header"))
}

// sentHeaderAt returns the header named by n, an x-retry setting that
// sentHeader has read, or "" when n is absent or was refused.
func sentHeaderAt(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode || checkSentHeader(n.Value) != nil {
		return ""
	}
	return n.Value
}

// What each header the runtime sends of its own carries, for errors.
const (
	roleAttempt     = "the attempt number"
	roleInvocation  = "the invocation ID"
	roleIdempotency = "the idempotency key"
)

// checkSentHeader is the runtime's rule for the headers it sends of its
// own (runtime.Service.CheckSentHeader, the same for every Service).
func checkSentHeader(h string) error { return (*runtime.Service)(nil).CheckSentHeader(h) }

// sentHeader reads a header the runtime sends on every attempt (x-retry
// attemptHeader, invocationIdHeader, idempotencyKey.header): a header name
// that checkSentHeader accepts, else a located error and "" (an
// idempotency key that is never sent must not make a POST retry-safe,
// newuser4 G2). role says what the header carries.
func (x extReader) sentHeader(n *yaml.Node, ptr, role string) string {
	h := x.header(n, ptr)
	if h == "" {
		return ""
	}
	if err := checkSentHeader(h); err != nil {
		x.d.errorf(ptr, "%q cannot carry %s: %v", h, role, err)
		return ""
	}
	return h
}

// idempotencyKey reads an idempotencyKey mapping, {header: NAME}, and
// returns the header's name.
func idempotencyKey(x extReader, v *yaml.Node, p string) string {
	var h string
	if x.mapping(v, p, map[string]func(*yaml.Node, string){
		"header": func(v *yaml.Node, p string) { h = x.sentHeader(v, p, roleIdempotency) },
	}) && mapValue(v, "header") == nil {
		x.d.errorf(p, "header is required (the header that carries the idempotency key)")
	}
	return h
}

// parseXProtocol reads the root-level x-protocol extension:
// jsonContentType (default "application/json"), timestampFormat
// ("date-time", the default, or "epoch-seconds") and xmlResultWrapper
// (true: XML responses come in the AWS query protocol's envelope).
func parseXProtocol(root *yaml.Node, d *diags) Protocol {
	p := Protocol{JSONContentType: "application/json", TimestampFormat: "date-time"}
	n := mapValue(root, "x-protocol")
	if n == nil {
		return p
	}
	x := extReader{d}
	fields := map[string]func(*yaml.Node, string){
		"jsonContentType": func(v *yaml.Node, ptr string) {
			if s := x.str(v, ptr); s != "" {
				p.JSONContentType = s
			}
		},
		"timestampFormat": func(v *yaml.Node, ptr string) {
			if s := x.oneOf(v, ptr, "date-time", "epoch-seconds"); s != "" {
				p.TimestampFormat = s
			}
		},
		"xmlResultWrapper": func(v *yaml.Node, ptr string) {
			if v.Kind != yaml.ScalarNode || (v.Value != "true" && v.Value != "false") {
				d.errorf(ptr, "must be true or false, got %q", v.Value)
				return
			}
			p.XMLResultWrapper = v.Value == "true"
		},
	}
	// Other tools use the name x-protocol too: a value with none of our
	// keys (a string such as "https", a list, another tool's mapping) is
	// theirs, ignored with a warning (an error under -strict).
	if !hasAnyKey(n, fields) {
		d.warnf("/x-protocol", "is %s, not retrygen's x-protocol (a mapping of %s); ignored, using the defaults", describe(n), knownKeys(fields))
		return p
	}
	x.mapping(n, "/x-protocol", fields)
	return p
}

// hasAnyKey reports whether n is a mapping with at least one of fields' keys.
func hasAnyKey(n *yaml.Node, fields map[string]func(*yaml.Node, string)) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i < len(n.Content); i += 2 {
		if _, ok := fields[n.Content[i].Value]; ok {
			return true
		}
	}
	return false
}
