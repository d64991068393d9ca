package generator

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"
	"unicode"
)

// Naming rules. Every Go identifier the generator declares or references is
// made from spec text by goName (exported names) or localName (unexported
// names), and decided once per schema, property or operation by the
// builder, which stores it in the model; the emitter never derives names.
//
//  1. Comparison suffixes: a trailing "<" is the word "Lt", ">" "Gt", "<="
//     "Lte", ">=" "Gte" (Twilio's "StartTime<" → StartTimeLt); a ">" closing
//     an earlier "<" is a separator ("Page<User>" → PageUser). "+" is the
//     word "Plus" and a "-" before a digit at the start of a word "Minus"
//     (GitHub's reactions "+1", "-1" → Plus1, Minus1).
//  2. Letters and digits are kept when Go accepts them in identifiers
//     (Unicode categories L and Nd); combining marks (M) are dropped; every
//     other character (dashes, dots, spaces, slashes, "_", emoji, control
//     characters, …) separates words.
//  3. Each word's first letter is upper-cased and the rest kept; with
//     titleUpper (enum values) a word written entirely in upper case with
//     two or more letters is title-cased ("KEYS_ONLY" → KeysOnly).
//  4. A name starting with a digit gets the prefix "N" ("404Schema" →
//     N404Schema); one starting with an uncased letter ("名前") the prefix
//     "X"; an empty name is "X".
//  5. Exported names never collide with Go keywords or predeclared names
//     (all lower case). Local names that would ("type", "len") or that the
//     generated code uses itself ("ctx", "req", "err", …; reservedLocals)
//     get the suffix "_".
//  6. Collisions (after the rules above, "name_clash" and "NameClash" are
//     both NameClash; "a" and "A" both A) are resolved by a namespace: the
//     first claim keeps the name, later ones get the smallest free numeric
//     suffix 2, 3, … Claims are made in a fixed order — reserved names,
//     component schemas sorted by name, then inline types and enum
//     constants in build order (components sorted, then operations by path
//     and method) — so the same spec always gets the same names. A renamed
//     declaration gets a located warning.
//  7. An enum constant is its type's name and the value's words; the empty
//     value is "Empty", and a value with no letter or digit is spelled
//     character by character ("-" Minus, "\\" Backslash, U+2028 U2028:
//     enumConstName).
//
// JSON names and wire values are never changed: they reach the generated
// code only as string literals and struct tags.

// goName turns any spec string (schema name, property, operation ID, enum
// value) into an exported Go identifier by the naming rules above.
func goName(s string, titleUpper bool) string {
	name := joinWords(s, titleUpper)
	switch {
	case name == "":
		return "X"
	case unicode.IsDigit([]rune(name)[0]):
		return "N" + name
	case !unicode.IsUpper([]rune(name)[0]):
		return "X" + name
	}
	return name
}

// enumConstName is the Go name of an enum constant: the type's name
// followed by the value's words (no digit prefix is needed after the type
// name: "Arch" + "32bit" → Arch32bit; "" → ArchEmpty). A value with no
// word (no letter or digit) is spelled character by character
// (spellSymbols): "-" → ArchMinus, "\\" → ArchBackslash, "\u2028" →
// ArchU2028.
func enumConstName(typeName, value string) string {
	w := joinWords(value, true)
	switch {
	case value == "":
		w = "Empty"
	case w == "":
		w = spellSymbols(value)
	}
	return typeName + w
}

// symbolNames are the words of spellSymbols for ASCII symbols; "<" and ">"
// are naming rule 1's comparison words, "-" its "Minus".
var symbolNames = map[rune]string{
	' ': "Space", '!': "Exclamation", '"': "Quote", '#': "Hash", '$': "Dollar", '%': "Percent",
	'&': "Ampersand", '\'': "Apostrophe", '(': "LeftParen", ')': "RightParen", '*': "Asterisk",
	'+': "Plus", ',': "Comma", '-': "Minus", '.': "Dot", '/': "Slash", ':': "Colon", ';': "Semicolon",
	'<': "Lt", '=': "Eq", '>': "Gt", '?': "Question", '@': "At", '[': "LeftBracket", '\\': "Backslash",
	']': "RightBracket", '^': "Caret", '_': "Underscore", '`': "Backtick", '{': "LeftBrace", '|': "Pipe",
	'}': "RightBrace", '~': "Tilde",
}

// spellSymbols names each character of s, which has no letter or digit:
// an ASCII symbol by its word (symbolNames), any other character as U and
// its code point in upper-case hex, at least four digits ("\u2028" →
// U2028).
func spellSymbols(s string) string {
	var b strings.Builder
	for _, r := range s {
		if w, ok := symbolNames[r]; ok {
			b.WriteString(w)
			continue
		}
		fmt.Fprintf(&b, "U%04X", r)
	}
	return b.String()
}

// localName turns spec text into an unexported Go identifier: goName's
// result with its leading upper-case run lowered ("GetItem" → getItem,
// "URLPath" → urlPath, "ID" → id), suffixed "_" when it is a keyword, a
// predeclared name or one of reservedLocals.
func localName(s string) string {
	r := []rune(goName(s, false))
	n := 0
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	if n > 1 && n < len(r) && unicode.IsLower(r[n]) {
		n-- // "URLPath": keep the P of Path
	}
	for i := 0; i < n || i == 0; i++ {
		r[i] = unicode.ToLower(r[i])
	}
	name := string(r)
	if token.IsKeyword(name) || predeclared[name] || reservedLocals[name] {
		name += "_"
	}
	return name
}

// reservedLocals are the local names generated code declares itself
// (method receivers, parameters and variables of the emitted functions) and
// the package names it imports.
var reservedLocals = map[string]bool{
	"b": true, "body": true, "c": true, "ctx": true, "e": true, "err": true, "f": true,
	"in": true, "md": true, "o": true, "opts": true, "out": true, "r": true, "req": true,
	"u": true, "v": true, "cp": true, "token": true, "ct": true, "bytes": true, "context": true, "errors": true, "http": true,
	"io": true, "json": true, "runtime": true, "openapi": true, "time": true, "url": true, "service": true, "raw": true,
}

// joinWords applies naming rules 1–3 and returns the words joined, without
// the prefix of rule 4.
func joinWords(s string, titleUpper bool) string {
	var b strings.Builder
	for _, w := range words(s) {
		if titleUpper && isUpperWord(w) {
			w = strings.ToLower(w)
		}
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}

// words splits s into identifier words by naming rules 1 and 2.
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	r := []rune(s)
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case unicode.IsLetter(c) || unicode.IsDigit(c):
			cur = append(cur, c)
		case unicode.Is(unicode.M, c):
			// combining mark: dropped, the word goes on
		case c == '+':
			flush()
			out = append(out, "Plus")
		case c == '-' && len(cur) == 0 && i+1 < len(r) && unicode.IsDigit(r[i+1]):
			out = append(out, "Minus")
		case (c == '<' || c == '>') && comparisonSuffix(r, i):
			flush()
			word := map[rune]string{'<': "Lt", '>': "Gt"}[c]
			if i+1 < len(r) && r[i+1] == '=' {
				word += "e"
				i++
			}
			out = append(out, word)
		default:
			flush()
		}
	}
	flush()
	return out
}

// comparisonSuffix reports whether the "<" or ">" at r[i] ends the string
// (optionally followed by "=") and, for ">", closes no earlier "<".
func comparisonSuffix(r []rune, i int) bool {
	rest := string(r[i+1:])
	if rest != "" && rest != "=" {
		return false
	}
	return r[i] == '<' || !strings.ContainsRune(string(r[:i]), '<')
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
// a Go identifier that is not a keyword, not predeclared, not "_", not "init"
// (reserved for init functions) and not "main" (a client is a library).
func ValidPackageName(name string) bool {
	return token.IsIdentifier(name) && name != "_" && name != "init" && name != "main" && !predeclared[name]
}

// namespace hands out unique names within one Go scope (the package, or the
// fields of one struct). A name already taken gets the suffix "2", "3", …
// (naming rule 6).
type namespace map[string]bool

// fieldNamespace returns the names a new field of t may not take: its
// fields' and the generated methods' (reservedTypeFields).
func fieldNamespace(t *Type) namespace {
	ns := namespace{}
	for _, n := range reservedTypeFields {
		ns[n] = true
	}
	for _, f := range t.Fields {
		ns[f.Name] = true
	}
	return ns
}

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
