package generator

import (
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// specTitle returns info.title of the spec's root mapping, or "".
func specTitle(root *yaml.Node) string {
	if t := mapValue(mapValue(root, "info"), "title"); t != nil {
		return t.Value
	}
	return ""
}

// Defaults for a spec without x-retry (issue 5, "Specs without x-retry").
var (
	// defaultErrorCodeFields are the JSON body fields searched for an error
	// code, in order.
	defaultErrorCodeFields = []string{"code", "error.code", "__type", "Code"}
	// defaultErrorCodeHeaders are the response headers searched first.
	defaultErrorCodeHeaders = []string{"X-Amzn-ErrorType"}
	// defaultErrorMessageFields are the JSON body fields holding the
	// message.
	defaultErrorMessageFields = []string{"message", "error.message", "Message"}
	// defaultServerDelayHeaders: Retry-After is honoured (RFC 9110 §10.2.3).
	defaultServerDelayHeaders = []string{engine.HeaderRetryAfter}
)

// withDefaults fills in, for every key the spec's x-retry (xr; nil when the
// spec has none) leaves out, the default of a spec without x-retry, so that
// adding `x-retry: {version: 1, maxAttempts: 5}` changes max attempts and
// nothing else: error codes from the
// X-Amzn-ErrorType header, then the body fields code, error.code, __type and
// Code (errorCode); messages from message, error.message and Message
// (errorMessage); Retry-After honoured (serverDelayHeaders). Only a spec
// without x-retry gets the environment prefix derived from its title by
// envPrefix: an x-retry without envPrefix reads no environment, as it
// always did (it states its settings; envPrefix opts in). The mode is
// left to the runtime's global default (standard, so explain names that
// source), a bare 429 is throttling (the runtime's default), and operations
// are retry-safe by method (GET, HEAD, OPTIONS, PUT, DELETE) or by an
// operation-level x-retry retrySafe.
func withDefaults(r runtime.Service, xr *yaml.Node, title string) runtime.Service {
	absent := func(key string) bool { return mapValue(xr, key) == nil }
	if xr == nil {
		r.EnvPrefix = envPrefix(title)
	}
	if absent("errorCode") {
		r.ErrorCodeHeaders = defaultErrorCodeHeaders
		r.ErrorCodeFields = defaultErrorCodeFields
	}
	if absent("errorMessage") {
		r.ErrorMessageFields = defaultErrorMessageFields
	}
	if absent("serverDelayHeaders") {
		r.ServerDelayHeaders = defaultServerDelayHeaders
	}
	return r
}

// envPrefix derives the environment-variable prefix of a spec without
// x-retry from its info.title: upper-cased, every run of characters other
// than ASCII letters and digits becomes one "_" (none at either end), a
// result starting with a digit gets the prefix "API_", and an empty one is
// "API". "Box Platform API" → "BOX_PLATFORM_API"; "Twilio - Api" →
// "TWILIO_API". The client then reads BOX_PLATFORM_API_RETRY_MODE,
// _MAX_ATTEMPTS, _CONFIG_FILE and _PROFILE.
func envPrefix(title string) string {
	var b strings.Builder
	sep := false
	for _, r := range strings.ToUpper(title) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if sep && b.Len() > 0 {
				b.WriteByte('_')
			}
			sep = false
			b.WriteRune(r)
			continue
		}
		sep = true
	}
	out := b.String()
	switch {
	case out == "":
		return "API"
	case out[0] >= '0' && out[0] <= '9':
		return "API_" + out
	}
	return out
}
