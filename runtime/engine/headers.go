package engine

import (
	"net/http"

	"github.com/retrygen/retrygen/runtime/internal/httpsyntax"
)

// Server-delay header names (retry-behavior.md §5).
const (
	// HeaderAmzRetryAfter carries a delay in integer milliseconds; the delay
	// becomes max(t, min(v, t + 5 s)) where t is the computed backoff.
	HeaderAmzRetryAfter = "x-amz-retry-after"
	// HeaderRetryAfter is RFC 9110's Retry-After: delta-seconds or an
	// HTTP-date; the delay becomes max(t, v).
	HeaderRetryAfter = "Retry-After"
	// HeaderACSRetryAfter carries a delay in integer milliseconds (Alibaba
	// V2); a positive value makes the response a throttling error and
	// replaces the computed backoff.
	HeaderACSRetryAfter = "x-acs-retry-after"
)

// HeaderThrottlingControl is sent as "x-sdk-throttling-control: enable" on
// every attempt while throttle control is on (§8), as aliyun-java-sdk-core's
// DefaultAcsClient does, so the server reports its throttle headers.
const HeaderThrottlingControl = "X-Sdk-Throttling-Control"

// HeaderGet is h.Get(key) without allocating: http.Header.Get puts a key
// that is not in canonical form ("x-amz-retry-after") into it with a new
// string on every call; HeaderGet canonicalizes into a stack buffer with
// net/textproto's rule (the first letter and each letter after a hyphen
// upper case, the rest lower case; a key holding a byte that is not a
// token character is used as it is). It returns the first value, or ""
// when the header is absent; it never fails.
func HeaderGet(h http.Header, key string) string {
	if len(h) == 0 {
		return "" // nothing to canonicalize the key for (most error responses of a simulation)
	}
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	var buf [64]byte
	if len(key) > len(buf) {
		return h.Get(key)
	}
	k := buf[:len(key)]
	upper := true
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !httpsyntax.TokenByte(c) { // the bytes net/textproto canonicalizes
			return "" // used as it is: looked up above
		}
		switch {
		case upper && 'a' <= c && c <= 'z':
			c -= 'a' - 'A'
		case !upper && 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		k[i] = c
		upper = c == '-'
	}
	if v := h[string(k)]; len(v) > 0 { // no allocation: a map index
		return v[0]
	}
	return ""
}
