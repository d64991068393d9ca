package generator

import (
	"github.com/retrygen/retrygen/runtime/openapi"
)

// maxServerURLs bounds the URLs one server template expands to for
// runtime.Operation.Servers (the enum values of its scheme, host and port
// variables, multiplied): 64. A variable that would pass it counts at its
// default only, with a located warning.
const maxServerURLs = 64

// serverURLs returns the URLs of an operation's own servers for
// runtime.Operation.Servers, the origins a call's Options.Endpoint may
// name: per server, one URL per combination of the enum values of the
// variables in its scheme, host or port (others at their defaults). A
// variable there with no enum could be any host: only its default counts,
// with a located warning once per template and variable (warned).
func (b *builder) serverURLs(servers []Server, warned map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range servers {
		inOrigin := openapi.OriginVariables(s.URL)
		combos := []map[string]string{{}}
		for _, v := range s.Vars {
			if !inOrigin[v.Name] {
				continue
			}
			ptr := child(child(s.Source, "variables"), v.Name)
			switch {
			case len(v.Enum) == 0:
				if key := s.URL + "\x00" + v.Name; !warned[key] {
					warned[key] = true
					b.d.warnf(ptr, "server variable %q is in the URL's scheme, host or port and has no enum: a call's Options.Endpoint may name only its default, %q; for another value, create a client for it with New", v.Name, v.Default)
				}
			case len(combos)*len(v.Enum) > maxServerURLs:
				b.d.warnf(ptr, "server variable %q has %d enum values, which with the server's other variables pass %d URLs: a call's Options.Endpoint may name only its default, %q", v.Name, len(v.Enum), maxServerURLs, v.Default)
			default:
				var next []map[string]string
				for _, c := range combos {
					for _, e := range v.Enum {
						m := map[string]string{v.Name: e}
						for k, x := range c {
							m[k] = x
						}
						next = append(next, m)
					}
				}
				combos = next
			}
		}
		enums := map[string][]string{}
		for _, v := range s.Vars {
			if len(v.Enum) > 0 {
				enums[v.Name] = v.Enum
			}
		}
		for _, c := range combos {
			// Enum members are the spec's values: ServerURL takes them as
			// written (it checks the place of a free value only).
			if u, err := openapi.ServerURL(s.URL, c, s.Defaults, enums); err == nil && !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
	}
	return out
}
