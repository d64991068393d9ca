package openapi

import "strings"

// TemplatePart is one piece of an OpenAPI path or server URL template:
// literal text, or a "{name}" placeholder.
type TemplatePart struct {
	// Text is the literal text, or the placeholder as written ("{id}").
	Text string
	// Name is the placeholder's name ("id"); "" for literal text.
	Name string
}

// SplitTemplate splits a path template (OpenAPI 3.0 §4.7.8, Paths Object)
// or a server URL template (§4.7.5, Server Object) into literal text and
// "{name}" placeholders, in order. A "{" without a closing "}" is literal
// text. It is the one definition of a placeholder: [ExpandServerURL] and the
// generator (path expressions, unfilled-placeholder checks) both use it.
//
// SplitTemplate("/pets/{id}.json") is [{Text: "/pets/"}, {Text: "{id}",
// Name: "id"}, {Text: ".json"}].
func SplitTemplate(template string) []TemplatePart {
	var out []TemplatePart
	rest := template
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			break
		}
		j += i
		if i > 0 {
			out = append(out, TemplatePart{Text: rest[:i]})
		}
		out = append(out, TemplatePart{Text: rest[i : j+1], Name: rest[i+1 : j]})
		rest = rest[j+1:]
	}
	if rest != "" {
		out = append(out, TemplatePart{Text: rest})
	}
	return out
}
