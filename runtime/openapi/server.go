package openapi

import (
	"fmt"
	"slices"
	"strings"
)

// ExpandServerURL replaces each "{name}" of an OpenAPI server URL template
// with vars[name], or defaults[name] when vars has no non-empty value for it
// (OpenAPI 3.0 §4.7.5, Server Variable Object). Unknown placeholders are
// kept as written. Each value is checked for its place as [ServerURL]
// checks it (a path value percent-encoded); having no error to return, it
// keeps a refused value's placeholder as written, so the URL names no host
// a client accepts (third new-user trial F5).
//
// ExpandServerURL("https://sqs.{region}.amazonaws.com", nil,
// map[string]string{"region": "us-east-1"}) is
// "https://sqs.us-east-1.amazonaws.com".
func ExpandServerURL(template string, vars, defaults map[string]string) string {
	u, _ := expandServer(template, vars, defaults, nil, false)
	return u
}

// ServerURL expands an OpenAPI server URL template (OpenAPI 3.0 §4.7.5) as
// [ExpandServerURL] does, a variable missing from vars (or empty) taking
// its default, and checks each value against its variable's enum (enums,
// by name; a variable without one takes any value) and against its place
// in the URL, so that no value can move the URL's host (third new-user
// trial F5): in the scheme, RFC 3986 scheme characters; in the host, none
// of / ? # @ : \ or a control byte or space; as the port (a variable right
// after the host's ":"), 1–65535 in digits; in the path, query or
// fragment, the value is percent-encoded but for RFC 3986 pchar and "/"
// (a base path may have segments). A variable with no literal "://"
// before it holds the scheme and host itself and is not checked; nor are
// the spec's own values (the default, an enum member). Generated clients'
// typed URL builders (ServerNURL) call it. It returns an error naming the
// variable, its value and what is allowed.
func ServerURL(template string, vars, defaults map[string]string, enums map[string][]string) (string, error) {
	for _, name := range sortedKeys(enums) {
		v := vars[name]
		if v == "" {
			v = defaults[name]
		}
		if allowed := enums[name]; len(allowed) > 0 && !slices.Contains(allowed, v) {
			return "", fmt.Errorf("server variable %q: %q is not one of %s", name, v, strings.Join(allowed, ", "))
		}
	}
	return expandServer(template, vars, defaults, enums, true)
}

// expandServer is ServerURL's expansion (enums already checked): each
// value is checked for its place (placeValue); a refused one is an error
// when strict, else its placeholder is kept as written.
func expandServer(template string, vars, defaults map[string]string, enums map[string][]string, strict bool) (string, error) {
	parts := SplitTemplate(template)
	places := urlPlaces(parts)
	var b strings.Builder
	for i, part := range parts {
		if part.Name == "" {
			b.WriteString(part.Text)
			continue
		}
		v := vars[part.Name]
		if v == "" {
			d, ok := defaults[part.Name]
			if !ok {
				d = part.Text
			}
			b.WriteString(d)
			continue
		}
		if v != defaults[part.Name] && len(enums[part.Name]) == 0 {
			var err error
			if v, err = placeValue(places[i], part.Name, v); err != nil {
				if strict {
					return "", err
				}
				v = part.Text
			}
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

// OriginVariables returns the names of the variables of a server URL
// template (OpenAPI 3.0 §4.7.5, Server Object "url") that can move a
// request's origin: those in its scheme, host or port, and any before a
// literal "://" appears (such a variable may hold the whole origin, as
// "{base}/v1" with base "https://api.example.com"). A relative template
// ("/v1/{x}") has none. It is the rule [ServerURL] checks values by; the
// generator lists from it the origins a call's Options.Endpoint may name.
func OriginVariables(template string) map[string]bool {
	names := map[string]bool{}
	parts := SplitTemplate(template)
	for i, place := range urlPlaces(parts) {
		if parts[i].Name != "" && place != placePath {
			names[parts[i].Name] = true
		}
	}
	return names
}

// urlPlace is where a server variable stands in its URL.
type urlPlace uint8

const (
	placeFree   urlPlace = iota // before any literal "://": the origin itself
	placeScheme                 // before a later literal "://"
	placeHost                   // in the authority
	placePort                   // in the authority, right after ":" and at its end
	placePath                   // in the path, query or fragment
)

// urlPlaces returns the place of each part of a split server URL template
// (indexed as parts; literal parts' places are unused).
func urlPlaces(parts []TemplatePart) []urlPlace {
	out := make([]urlPlace, len(parts))
	hasScheme := strings.Contains(literalText(parts), "://")
	state := placeFree
	if hasScheme {
		state = placeScheme
	}
	if len(parts) > 0 && parts[0].Name == "" && strings.HasPrefix(parts[0].Text, "/") {
		state = placePath // a relative server URL
	}
	for i, p := range parts {
		if p.Name != "" {
			out[i] = state
			if state == placeHost && i > 0 && parts[i-1].Name == "" && strings.HasSuffix(parts[i-1].Text, ":") &&
				(i+1 == len(parts) || parts[i+1].Name == "" && strings.ContainsAny(parts[i+1].Text[:1], "/?#")) {
				out[i] = placePort
			}
			continue
		}
		text := p.Text
		if state == placeScheme {
			j := strings.Index(text, "://")
			if j < 0 {
				continue
			}
			state, text = placeHost, text[j+3:]
		}
		if state == placeHost && strings.ContainsAny(text, "/?#") {
			state = placePath
		}
	}
	return out
}

// literalText is the template's text outside its placeholders.
func literalText(parts []TemplatePart) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Name == "" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// placeValue checks (or, in a path, escapes) value v of variable name for
// its place, returning what to write or an error naming the variable.
func placeValue(place urlPlace, name, v string) (string, error) {
	switch place {
	case placeScheme:
		for i := 0; i < len(v); i++ {
			c := v[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
				return "", fmt.Errorf("server variable %q: %q is not a URL scheme (RFC 3986: a letter, then letters, digits, + - .)", name, v)
			}
		}
	case placePort:
		n, err := digits(v)
		if err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("server variable %q: %q is not a port (1-65535)", name, v)
		}
	case placeHost:
		if i := strings.IndexFunc(v, func(r rune) bool { return strings.ContainsRune("/?#@:\\", r) || r <= ' ' || r == 0x7f }); i >= 0 {
			return "", fmt.Errorf("server variable %q: %q holds %q, which would end the URL's host", name, v, v[i])
		}
	case placePath:
		return escapePathKeepSlash(v), nil
	}
	return v, nil
}

// escapePathKeepSlash percent-encodes every byte of v that is not an RFC
// 3986 pchar or "/".
func escapePathKeepSlash(v string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~!$&'()*+,;=:@/", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
