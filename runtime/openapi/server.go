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
	rest := template
	for {
		i := strings.IndexByte(rest, '{')
		j := strings.IndexByte(rest[max(i, 0):], '}')
		if i < 0 || j < 0 {
			break
		}
		j += i
		name := rest[i+1 : j]
		v, ok := vars[name]
		if !ok || v == "" {
			v, ok = defaults[name]
		}
		if !ok {
			v = rest[i : j+1]
		}
		b.WriteString(rest[:i])
		b.WriteString(v)
		rest = rest[j+1:]
	}
	b.WriteString(rest)
	return b.String()
}
