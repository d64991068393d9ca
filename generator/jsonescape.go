package generator

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeSurrogatePairs replaces the escaped UTF-16 surrogate pairs of a JSON
// spec ("\ud83d\udc4d") that are not themselves escaped (an even number of
// backslashes before them) with the characters they encode, written in
// UTF-8. yaml.v3, which reads JSON specs as YAML, refuses such escapes
// ("found invalid Unicode character escape code"); Twilio's spec has emoji
// written this way. One pass over raw, which is returned as is when it holds
// no pair.
func decodeSurrogatePairs(raw []byte) []byte {
	var out []byte // nil until the first pair
	last := 0      // raw[last:] is not yet copied to out
	for i := 0; ; {
		j := bytes.IndexByte(raw[i:], '\\')
		if j < 0 {
			break
		}
		i += j
		r, ok := surrogatePairAt(raw[i:])
		if !ok {
			i += 2 // a backslash escapes the byte after it
			if i >= len(raw) {
				break
			}
			continue
		}
		out = utf8.AppendRune(append(out, raw[last:i]...), r)
		i += len(`\ud83d\udc4d`)
		last = i
	}
	if out == nil {
		return raw
	}
	return append(out, raw[last:]...)
}

// surrogatePairAt decodes the escaped surrogate pair b starts with.
func surrogatePairAt(b []byte) (rune, bool) {
	if len(b) < len(`\ud83d\udc4d`) || b[1] != 'u' || b[6] != '\\' || b[7] != 'u' {
		return 0, false
	}
	hi, err1 := strconv.ParseUint(string(b[2:6]), 16, 16)
	lo, err2 := strconv.ParseUint(string(b[8:12]), 16, 16)
	if err1 != nil || err2 != nil || !utf16.IsSurrogate(rune(hi)) || !utf16.IsSurrogate(rune(lo)) {
		return 0, false
	}
	r := utf16.DecodeRune(rune(hi), rune(lo))
	return r, r != utf8.RuneError
}
