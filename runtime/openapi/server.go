package openapi

import (
	"fmt"
	"slices"
	"strings"
)

// ExpandServerURL replaces each "{name}" of an OpenAPI server URL template
// with vars[name], or defaults[name] when vars has no non-empty value for it
// (OpenAPI 3.0 §4.7.5, Server Variable Object). Unknown placeholders are
// kept as written.
//
// ExpandServerURL("https://sqs.{region}.amazonaws.com", nil,
// map[string]string{"region": "us-east-1"}) is
// "https://sqs.us-east-1.amazonaws.com".
func ExpandServerURL(template string, vars, defaults map[string]string) string {
	var b strings.Builder
	for _, part := range SplitTemplate(template) {
		if part.Name == "" {
			b.WriteString(part.Text)
			continue
		}
		v, ok := vars[part.Name]
		if !ok || v == "" {
			v, ok = defaults[part.Name]
		}
		if !ok {
			v = part.Text
		}
		b.WriteString(v)
	}
	return b.String()
}

// ServerURL expands an OpenAPI server URL template (OpenAPI 3.0 §4.7.5) as
// [ExpandServerURL] does, a variable missing from vars (or empty) taking
// its default, and checks each value against its variable's enum (enums,
// by name; a variable without one takes any value). Generated clients' typed
// URL builders (ServerNURL) call it. It returns an error naming the
// variable, its value and the values allowed.
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
	return ExpandServerURL(template, vars, defaults), nil
}
