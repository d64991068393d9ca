package generator

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/retrygen/retrygen/runtime/openapi"
	"gopkg.in/yaml.v3"
)

// mapValue returns the value of key in mapping n, or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// extReader reads the values of a vendor extension from YAML nodes, reporting
// every bad value as an error located by its JSON pointer.
type extReader struct {
	d *diags
}

// mapping calls fields[key] for every key of n, in document order, and
// reports unknown keys. It reports n itself when it is not a mapping.
func (x extReader) mapping(n *yaml.Node, ptr string, fields map[string]func(v *yaml.Node, ptr string)) bool {
	if n.Kind != yaml.MappingNode {
		x.d.errorf(ptr, "must be a mapping, got %s", describe(n))
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i].Value, n.Content[i+1]
		f, ok := fields[key]
		if !ok {
			x.d.errorf(child(ptr, key), "unknown key %q (known: %s)", key, knownKeys(fields))
			continue
		}
		f(val, child(ptr, key))
	}
	return true
}

// child returns the pointer to key inside the value at ptr.
func child(ptr, key string) string { return ptr + pointer(key) }

func knownKeys(fields map[string]func(*yaml.Node, string)) string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

// describe renders a node for an error message: scalars quoted (`the
// string "3"` for a quoted one that would be a number, boolean or null
// bare), other kinds by name.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == "!!str" && (&yaml.Node{Kind: yaml.ScalarNode, Value: n.Value}).ShortTag() != "!!str" {
			return "the string " + strconv.Quote(n.Value)
		}
		return strconv.Quote(n.Value)
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	default:
		return "an alias"
	}
}

// intAtLeast reads an integer ≥ min; unit ("milliseconds") is named in the
// error.
func (x extReader) intAtLeast(n *yaml.Node, ptr string, min int64, unit string) (int64, bool) {
	return x.intBetween(n, ptr, min, math.MaxInt64, unit)
}

// intBetween reads an integer in [min, max]; max == math.MaxInt64 means no
// upper bound worth naming.
func (x extReader) intBetween(n *yaml.Node, ptr string, min, max int64, unit string) (int64, bool) {
	v, err := strconv.ParseInt(n.Value, 10, 64)
	isInt := n.Kind == yaml.ScalarNode && n.Tag == "!!int"
	what := fmt.Sprintf("an integer ≥ %d", min)
	// A huge decimal literal is tagged !!float by YAML; it is still "too
	// large", not "not an integer".
	tooLarge := errors.Is(err, strconv.ErrRange) && n.Kind == yaml.ScalarNode && strings.Trim(n.Value, "0123456789") == ""
	if isInt && v > max || tooLarge {
		what = fmt.Sprintf("at most %d", max)
	} else if isInt && err == nil && v >= min {
		return v, true
	}
	if unit != "" {
		what += " (" + unit + ")"
	}
	x.d.errorf(ptr, "must be %s, got %s", what, describe(n))
	return 0, false
}

// maxMillis is the largest millisecond count a time.Duration holds (about
// 292 years).
const maxMillis = math.MaxInt64 / int64(time.Millisecond)

// millis reads a positive duration in integer milliseconds that fits a
// time.Duration.
func (x extReader) millis(n *yaml.Node, ptr string) (time.Duration, bool) {
	v, ok := x.intBetween(n, ptr, 1, maxMillis, "milliseconds")
	return time.Duration(v) * time.Millisecond, ok
}

// millisInto returns a field reader (see mapping) that stores a duration
// read by millis in dst; an invalid value is reported and leaves dst alone.
func (x extReader) millisInto(dst *time.Duration) func(*yaml.Node, string) {
	return func(v *yaml.Node, p string) {
		if d, ok := x.millis(v, p); ok {
			*dst = d
		}
	}
}

// header reads an HTTP header name: a non-empty RFC 9110 token.
func (x extReader) header(n *yaml.Node, ptr string) string {
	h := x.str(n, ptr)
	if h != "" && !isToken(h) {
		x.d.errorf(ptr, "must be an HTTP header name (letters, digits and !#$%%&'*+-.^_`|~), got %q", h)
		return ""
	}
	return h
}

// headers reads a list of HTTP header names.
func (x extReader) headers(n *yaml.Node, ptr string) []string {
	out := x.strs(n, ptr)
	for i, h := range out {
		if !isToken(h) {
			x.d.errorf(child(ptr, strconv.Itoa(i)), "must be an HTTP header name (letters, digits and !#$%%&'*+-.^_`|~), got %q", h)
		}
	}
	return out
}

// isToken reports whether s is an RFC 9110 token (tchar+): the runtime's
// one rule (openapi.Token).
func isToken(s string) bool { return openapi.Token(s) }

// str reads a non-empty string.
func (x extReader) str(n *yaml.Node, ptr string) string {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" || n.Value == "" {
		x.d.errorf(ptr, "must be a non-empty string, got %s", describe(n))
		return ""
	}
	return n.Value
}

// oneOf reads a string among allowed.
func (x extReader) oneOf(n *yaml.Node, ptr string, allowed ...string) string {
	if n.Kind == yaml.ScalarNode {
		for _, a := range allowed {
			if n.Value == a {
				return a
			}
		}
	}
	x.d.errorf(ptr, "must be one of %s, got %s", strings.Join(allowed, ", "), describe(n))
	return ""
}

// boolean reads true or false (false when the value is invalid).
func (x extReader) boolean(n *yaml.Node, ptr string) bool {
	v, _ := x.booleanOK(n, ptr)
	return v
}

// booleanOK reads true or false, reporting whether the value was valid.
func (x extReader) booleanOK(n *yaml.Node, ptr string) (bool, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		x.d.errorf(ptr, "must be true or false, got %s", describe(n))
		return false, false
	}
	return n.Value == "true", true
}

// strs reads a list of non-empty strings.
func (x extReader) strs(n *yaml.Node, ptr string) []string {
	if n.Kind != yaml.SequenceNode {
		x.d.errorf(ptr, "must be a list of strings, got %s", describe(n))
		return nil
	}
	out := []string{}
	for i, c := range n.Content {
		if s := x.str(c, child(ptr, strconv.Itoa(i))); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// ints reads a list of integers ≥ min.
func (x extReader) ints(n *yaml.Node, ptr string, min int64) []int {
	if n.Kind != yaml.SequenceNode {
		x.d.errorf(ptr, "must be a list of integers, got %s", describe(n))
		return nil
	}
	var out []int
	for i, c := range n.Content {
		if v, ok := x.intAtLeast(c, child(ptr, strconv.Itoa(i)), min, ""); ok {
			out = append(out, int(v))
		}
	}
	return out
}

// statuses reads a list of HTTP status codes (100–599).
func (x extReader) statuses(n *yaml.Node, ptr string) []int {
	if n.Kind != yaml.SequenceNode {
		x.d.errorf(ptr, "must be a list of HTTP status codes, got %s", describe(n))
		return nil
	}
	var out []int
	for i, c := range n.Content {
		if v, ok := x.intBetween(c, child(ptr, strconv.Itoa(i)), 100, 599, "an HTTP status"); ok {
			out = append(out, int(v))
		}
	}
	return out
}
