package generator

import (
	"go/token"
	"strconv"
	"strings"
	"unicode"
)

// goName turns any spec string (schema name, property, operation ID, enum
// value) into an exported Go identifier. It is the one sanitiser for Go
// names: every other name is built from its result.
//
// Rules: runs of characters that are not letters or digits ("-", ".", "_",
// spaces, …) separate words; each word's first letter is upper-cased and the
// rest kept; a word written entirely in upper case with more than one letter
// ("ACTIVE", "KEYS_ONLY" → "KEYS", "ONLY") is title-cased only when
// titleUpper is set (enum values); a result starting with a digit or an
// uncased letter gets the prefix "X"; an empty result is "X". Exported names
// cannot collide with Go keywords or predeclared identifiers, which are all
// lower case; the final check guards that invariant.
func goName(s string, titleUpper bool) string {
	words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var b strings.Builder
	for _, w := range words {
		if titleUpper && isUpperWord(w) {
			w = strings.ToLower(w)
		}
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	name := b.String()
	if name == "" || !unicode.IsUpper([]rune(name)[0]) {
		name = "X" + name
	}
	if token.IsKeyword(name) || predeclared[name] {
		name += "_"
	}
	return name
}

// isUpperWord reports whether w has at least two letters and no lower-case
// letter.
func isUpperWord(w string) bool {
	letters := 0
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters > 1
}

// predeclared lists Go's predeclared identifiers (the universe block).
var predeclared = map[string]bool{
	"any": true, "bool": true, "byte": true, "comparable": true, "complex64": true, "complex128": true,
	"error": true, "float32": true, "float64": true, "int": true, "int8": true, "int16": true,
	"int32": true, "int64": true, "rune": true, "string": true, "uint": true, "uint8": true,
	"uint16": true, "uint32": true, "uint64": true, "uintptr": true, "true": true, "false": true,
	"iota": true, "nil": true, "append": true, "cap": true, "clear": true, "close": true,
	"complex": true, "copy": true, "delete": true, "imag": true, "len": true, "make": true,
	"max": true, "min": true, "new": true, "panic": true, "print": true, "println": true,
	"real": true, "recover": true,
}

// ValidPackageName reports whether name can be the generated package's name:
// a Go identifier that is not a keyword, not predeclared and not "_".
func ValidPackageName(name string) bool {
	return token.IsIdentifier(name) && name != "_" && !predeclared[name]
}

// namespace hands out unique names within one Go scope (the package, or the
// fields of one struct). A name already taken gets the suffix "2", "3", ….
type namespace map[string]bool

// claim returns name, or name with the smallest numeric suffix that is free,
// and marks it taken. renamed reports whether a suffix was added.
func (ns namespace) claim(name string) (got string, renamed bool) {
	got = name
	for i := 2; ns[got]; i++ {
		got = name + strconv.Itoa(i)
	}
	ns[got] = true
	return got, got != name
}
