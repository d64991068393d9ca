package runtime

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// jsonFields reads the first JSON value of body in one pass, without
// decoding it into maps: for each dotted path of paths ("__type",
// "error.code") it stores in out[i] the string or number that path names
// (a number in its shortest decimal form), "" when it names nothing or
// another kind of value; of a repeated key the last one counts, as with
// encoding/json. Bytes after the first value are ignored, as aws-sdk-go-v2's
// json.Decoder ignores them; a malformed value ends the scan with what was
// found before it. It returns the length of the first value (0 when body
// does not start with a JSON object), so the modeled error can be decoded
// from exactly that value.
func jsonFields(body []byte, paths []string, out []string) (end int) {
	s := jsonScanner{b: body}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return 0
	}
	var offs [8]int
	o := offs[:0]
	if len(paths) > len(offs) {
		o = make([]int, 0, len(paths))
	}
	for range paths {
		o = append(o, 0)
	}
	if !s.object(paths, o, out) {
		return 0
	}
	return s.i
}

// jsonScanner walks JSON bytes; i is the next byte.
type jsonScanner struct {
	b []byte
	i int
}

// ws skips JSON whitespace.
func (s *jsonScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// object scans the object at s.i. offs[i] is where the segment of paths[i]
// that this object's keys are matched against starts, -1 when paths[i]
// does not lead into this object. It reports false on malformed input.
func (s *jsonScanner) object(paths []string, offs []int, out []string) bool {
	s.i++ // '{'
	for {
		s.ws()
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case '}':
			s.i++
			return true
		case ',':
			s.i++
			continue
		case '"':
		default:
			return false
		}
		kStart := s.i
		if !s.skipString() {
			return false
		}
		key := s.b[kStart+1 : s.i-1] // compared without allocating
		if bytesContain(key, '\\') {
			key = []byte(unquoteJSON(s.b[kStart:s.i]))
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return false
		}
		s.i++
		s.ws()
		if s.i >= len(s.b) {
			return false
		}
		leaf, nested := false, false
		for i, p := range paths {
			if off := offs[i]; off >= 0 {
				seg, _, more := strings.Cut(p[off:], ".")
				if seg == string(key) {
					nested, leaf = nested || more, leaf || !more
				}
			}
		}
		if nested && s.b[s.i] == '{' {
			// The offsets for the nested object, built only here: a
			// slice passed down the recursion lives on the heap.
			child := make([]int, len(paths))
			for i, p := range paths {
				child[i] = -1
				if off := offs[i]; off >= 0 {
					if seg, _, more := strings.Cut(p[off:], "."); more && seg == string(key) {
						child[i] = off + len(seg) + 1
					}
				}
			}
			if !s.object(paths, child, out) {
				return false
			}
			continue
		}
		vStart := s.i
		if !s.skipValue() {
			return false
		}
		if leaf {
			v := scalarText(s.b[vStart:s.i])
			for i, p := range paths {
				if off := offs[i]; off >= 0 && p[off:] == string(key) {
					out[i] = v
				}
			}
		}
	}
}

// skipString moves past the string at s.i (its opening quote).
func (s *jsonScanner) skipString() bool {
	for s.i++; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '\\':
			s.i++
		case '"':
			s.i++
			return true
		}
	}
	return false
}

// skipValue moves past the value at s.i.
func (s *jsonScanner) skipValue() bool {
	switch s.b[s.i] {
	case '"':
		return s.skipString()
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if !s.skipString() {
					return false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return true
				}
			}
			s.i++
		}
		return false
	}
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return s.i > start
		}
		s.i++
	}
	return false
}

// scalarText is the text of a JSON string or number value ("" for other
// values): a string unquoted, a number in its shortest decimal form.
func scalarText(v []byte) string {
	if len(v) == 0 {
		return ""
	}
	if v[0] == '"' {
		return unquoteJSON(v)
	}
	if c := v[0]; c == '-' || c >= '0' && c <= '9' {
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return ""
		}
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return ""
}

// unquoteJSON returns the text of the JSON string q (with its quotes);
// only a string with escapes goes through encoding/json.
func unquoteJSON(q []byte) string {
	if len(q) < 2 {
		return ""
	}
	inner := q[1 : len(q)-1]
	if bytesContain(inner, '\\') {
		var s string
		if json.Unmarshal(q, &s) != nil {
			return ""
		}
		return s
	}
	return string(inner)
}

// bytesContain reports whether c is in b.
func bytesContain(b []byte, c byte) bool { return bytes.IndexByte(b, c) >= 0 }
