package generator

import (
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/retrygen/retrygen/runtime"
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
	defaultServerDelayHeaders = []string{runtime.HeaderRetryAfter}
)

// withDefaults returns r unchanged when the spec declares x-retry;
// otherwise the defaults for specs without it: no mode (the runtime's
// global default, standard, so explain names that source); error
// codes from the X-Amzn-ErrorType header, then the body fields code,
// error.code, __type and Code; messages from message, error.message and
// Message; Retry-After honoured; a bare 429 is throttling (the runtime's
// default); operations are retry-safe by method (GET, HEAD, OPTIONS, PUT,
// DELETE) or by an operation-level x-retry retrySafe; and the environment
// prefix derived from the title by envPrefix.
func withDefaults(r runtime.Service, declared bool, title string) runtime.Service {
	if declared {
		return r
	}
	r.EnvPrefix = envPrefix(title)
	r.ErrorCodeHeaders = defaultErrorCodeHeaders
	r.ErrorCodeFields = defaultErrorCodeFields
	r.ErrorMessageFields = defaultErrorMessageFields
	r.ServerDelayHeaders = defaultServerDelayHeaders
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
