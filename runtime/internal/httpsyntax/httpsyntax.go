// Package httpsyntax holds the two lexical rules of HTTP that the runtime's
// packages all read by: a token (header and cookie names, media-type
// parts) and a run of decimal digits (Content-Length, Retry-After
// delta-seconds, x-amz-retry-after, SSE retry, dates and ports). One
// definition each, so a parser cannot drift from the others. It imports
// nothing.
package httpsyntax

// TokenByte reports whether c is an RFC 9110 §5.6.2 tchar: an ASCII
// letter or digit, or one of !#$%&'*+-.^_`|~.
func TokenByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

// Token reports whether s is an RFC 9110 §5.6.2 token (1*tchar): a header
// field name (§5.1), a cookie name (RFC 6265 §4.1.1), a media type's type
// and subtype (§8.3.1).
func Token(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !TokenByte(s[i]) {
			return false
		}
	}
	return true
}

// Digits reports whether s is one or more ASCII decimal digits (RFC 5234
// 1*DIGIT): no sign, no space, no other script's digits. strconv's parsers
// alone accept a sign ("+5", "-0"), which none of HTTP's numbers allow.
func Digits[T ~string | ~[]byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
