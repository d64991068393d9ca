package openapi

import "strings"

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
