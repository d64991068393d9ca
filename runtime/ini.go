package runtime

import (
	"fmt"
	"strings"
)

// iniFile is a parsed INI file such as ~/.aws/config: its sections in file
// order, each holding its keys (lower-cased) and values.
type iniFile struct {
	sections []iniSection
}

// iniSection is one "[header]" block. A header that appears twice yields two
// sections; lookups treat the later one as winning.
type iniSection struct {
	header string
	keys   map[string]string
}

// IniSyntaxError reports a line of a config file that is neither blank, a
// comment, a "[section]" header, a "key = value" pair nor the indented
// continuation of a value, or a key before the first section. Error renders "PATH:LINE: REASON".
type IniSyntaxError struct {
	// Path is the file's path as it was opened.
	Path string
	// Line is the offending line, counting from 1.
	Line int
	// Reason says what was expected, e.g. `expected "key = value"`.
	Reason string
}

// Error renders "/home/u/.aws/config:3: expected "key = value"".
func (e *IniSyntaxError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Reason)
}

// parseINI parses data read from path, following the AWS CLI's reading of
// its config file (Python's RawConfigParser as botocore uses it), minus what
// retry settings never need:
//   - blank lines are skipped; a line whose first non-blank character is '#'
//     or ';' is a comment; a "[section]" line ends at its first '#' or ';';
//     on a "key = value" line an inline comment starts at the first '#' or
//     ';' that follows a space or tab ("max_attempts = 6 # six" is 6, "a#b"
//     stays whole), as aws-sdk-go-v2 reads them (config/internal/ini
//     trimProfileComment, trimPropertyComment); a continuation line keeps
//     its '#' and ';';
//   - "[header]" opens a section; headers are case-sensitive and trimmed;
//   - "key = value" or "key: value" (split at the first '=' or ':') sets a
//     key; keys are lower-cased, keys and values trimmed; a later duplicate
//     key wins;
//   - a line indented deeper than the key before it continues that key's
//     value (how the AWS config nests "s3 =" sub-settings), joined with
//     "\n"; other indentation is ignored.
//
// Anything else, including a key before the first section, is an
// *IniSyntaxError naming path and line.
func parseINI(path string, data []byte) (iniFile, error) {
	var f iniFile
	var cur map[string]string // the current section's keys; nil before the first
	var lastKey string        // the key an indented line may continue; "" when none
	var lastIndent int        // the indentation of lastKey's line
	text := strings.TrimPrefix(string(data), "\ufeff")
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		trimmed := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		switch {
		case trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';':
			continue
		case lastKey != "" && indent > lastIndent:
			cur[lastKey] += "\n" + trimmed
		case trimmed[0] == '[':
			if k := strings.IndexAny(trimmed, "#;"); k >= 0 {
				// A section line ends at any '#' or ';' (aws-sdk-go-v2).
				trimmed = strings.TrimSpace(trimmed[:k])
			}
			if trimmed[len(trimmed)-1] != ']' || len(trimmed) < 3 {
				return iniFile{}, &IniSyntaxError{Path: path, Line: n, Reason: `expected "[section]"`}
			}
			cur, lastKey = map[string]string{}, ""
			f.sections = append(f.sections, iniSection{header: strings.TrimSpace(trimmed[1 : len(trimmed)-1]), keys: cur})
		default:
			key, value, ok := splitKeyValue(cutInlineComment(trimmed))
			if !ok {
				return iniFile{}, &IniSyntaxError{Path: path, Line: n, Reason: `expected "key = value"`}
			}
			if cur == nil {
				return iniFile{}, &IniSyntaxError{Path: path, Line: n, Reason: `expected "[section]" before the first key`}
			}
			cur[key] = value
			lastKey, lastIndent = key, indent
		}
	}
	return f, nil
}

// splitKeyValue splits "key = value" or "key: value" at the first '=' or
// ':'; the key is lower-cased and must not be empty.
func splitKeyValue(line string) (key, value string, ok bool) {
	i := strings.IndexAny(line, "=:")
	if i < 0 {
		return "", "", false
	}
	key = strings.ToLower(strings.TrimSpace(line[:i]))
	if key == "" {
		return "", "", false
	}
	return key, strings.TrimSpace(line[i+1:]), true
}

// lookup returns key's value in the sections whose header satisfies match;
// when several such sections set it, the one later in the file wins. It also
// returns the winning section's header.
func (f iniFile) lookup(match func(header string) bool, key string) (v, header string, ok bool) {
	for _, s := range f.sections {
		if sv, found := s.keys[key]; found && match(s.header) {
			v, header, ok = sv, s.header, true
		}
	}
	return v, header, ok
}

// has reports whether a section whose header satisfies match exists.
func (f iniFile) has(match func(header string) bool) bool {
	for _, s := range f.sections {
		if match(s.header) {
			return true
		}
	}
	return false
}

// cutInlineComment cuts line at its first " #", " ;", "\t#" or "\t;" (an
// inline comment) and trims what is left; a '#' or ';' right after another
// character is part of the value.
func cutInlineComment(line string) string {
	for i := 1; i < len(line); i++ {
		if (line[i] == '#' || line[i] == ';') && (line[i-1] == ' ' || line[i-1] == '\t') {
			return strings.TrimSpace(line[:i])
		}
	}
	return line
}
