package generator

import (
	"regexp"
	"strconv"
	"unicode/utf16"
)

// surrogatePair matches a JSON escaped UTF-16 surrogate pair ("\ud83d\udc4d")
// that is not itself escaped (an even number of backslashes before it).
var surrogatePair = regexp.MustCompile(`(^|[^\\])((?:\\\\)*)\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})`)

// decodeSurrogatePairs replaces the escaped surrogate pairs of a JSON spec
// with the characters they encode, written in UTF-8. yaml.v3, which reads
// JSON specs as YAML, refuses such escapes ("found invalid Unicode character
// escape code"); Twilio's spec has emoji written this way.
func decodeSurrogatePairs(raw []byte) []byte {
	return surrogatePair.ReplaceAllFunc(raw, func(m []byte) []byte {
		sub := surrogatePair.FindSubmatch(m)
		hi, _ := strconv.ParseUint(string(sub[3]), 16, 16) // the pattern allows hex only
		lo, _ := strconv.ParseUint(string(sub[4]), 16, 16)
		r := utf16.DecodeRune(rune(hi), rune(lo))
		return append(append(append([]byte{}, sub[1]...), sub[2]...), string(r)...)
	})
}
