package generator

import (
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/retrygen/retrygen/runtime/openapi"
)

// skipUnfilledPlaceholders removes from api every operation whose path
// template has a "{name}" that no usable path parameter (of the path item
// or of the operation, the operation's replacing the path item's) fills:
// it would be sent literally ("/d/%7Bid%7D"). A parameter without a schema
// (a content parameter, which params skips) does not fill it. Each gets a
// warning, at the parameter when there is one, else at the operation, and
// is left out of the client (per-operation degradation, see
// loaddegrade.go); it returns their locations ("GET /d/{id}") for
// Service.Skipped.
//
// It also warns of each in: path parameter the template lacks (params
// skips it: it would be a field never sent) and hides those parameters
// from kin-openapi's validation until restore is called, so neither
// finding is reported again unlocated ("spec validation (ignored): …
// must define exactly all path parameters").
func skipUnfilledPlaceholders(api *openapi3.T, d *diags) (skipped []string, restore func()) {
	var undo []func()
	restore = func() {
		for _, u := range undo {
			u()
		}
	}
	if api.Paths == nil {
		return nil, restore
	}
	// hide drops the stray path parameters from *list until restore, so
	// the pointers params computes from list indices stay right.
	hide := func(list *openapi3.Parameters, ptr string, names []string, path0 string) {
		saved := *list
		kept := saved[:0:0]
		for i, p := range saved {
			if isStrayPathParam(p, names) {
				d.warnf(child(ptr, strconv.Itoa(i)), "path parameter %q is not in the path template %s: it would never be sent; skipped", p.Value.Name, path0)
				continue
			}
			kept = append(kept, p)
		}
		if len(kept) != len(saved) {
			*list = kept
			undo = append(undo, func() { *list = saved })
		}
	}
	for _, path := range sortedKeys(api.Paths.Map()) {
		item := api.Paths.Value(path)
		path0, _, _ := splitPathKey(path)
		if item == nil || templateDefect(path0) != "" {
			continue // checkPathKey reports a malformed template: an error
		}
		names := placeholders(path0)
		hide(&item.Parameters, pointer("paths", path, "parameters"), names, path0)
		for _, method := range sortedKeys(item.Operations()) {
			op := item.GetOperation(method)
			opPtr := pointer("paths", path, strings.ToLower(method))
			type located struct {
				p   *openapi3.Parameter
				ptr string
			}
			filled := map[string]located{}
			for _, l := range []struct {
				ps  openapi3.Parameters
				ptr string
			}{{item.Parameters, pointer("paths", path, "parameters")}, {op.Parameters, child(opPtr, "parameters")}} {
				for i, p := range l.ps {
					if p != nil && p.Value != nil && p.Value.In == "path" {
						filled[p.Value.Name] = located{p.Value, child(l.ptr, strconv.Itoa(i))}
					}
				}
			}
			skip := false
			for _, name := range names {
				l, ok := filled[name]
				switch {
				case !ok:
					d.warnf(opPtr, "path template placeholder {%s} has no path parameter; operation %s %s skipped", name, method, path)
				case l.p.Schema == nil:
					d.warnf(l.ptr, "path template placeholder {%s} is filled by a content parameter, which is not supported (no schema); operation %s %s skipped", name, method, path)
				default:
					continue
				}
				skip = true
				break
			}
			if skip {
				item.SetOperation(method, nil)
				skipped = append(skipped, method+" "+path)
				continue
			}
			hide(&op.Parameters, child(opPtr, "parameters"), names, path0)
		}
	}
	return skipped, restore
}

// isStrayPathParam reports an in: path parameter whose name is not one of
// the path template's placeholders (names).
func isStrayPathParam(p *openapi3.ParameterRef, names []string) bool {
	return p != nil && p.Value != nil && p.Value.In == "path" && !slices.Contains(names, p.Value.Name)
}

// placeholders returns the names of a path template's "{name}"s, in order.
func placeholders(path string) []string {
	var out []string
	for _, part := range openapi.SplitTemplate(path) {
		if part.Name != "" {
			out = append(out, part.Name)
		}
	}
	return out
}

// templateDefect says what makes path (a path key's path) not an RFC 6570
// template of "{name}" placeholders: "" when it is one, else "an
// unbalanced …" or "an empty …". Such a path would be sent with its braces
// literally.
func templateDefect(path string) string {
	open := false
	for i := 0; i < len(path); i++ {
		switch path[i] {
		case '{':
			if open {
				return `an unbalanced "{" or "}"`
			}
			if i+1 < len(path) && path[i+1] == '}' {
				return `an empty "{}"`
			}
			open = true
		case '}':
			if !open {
				return `an unbalanced "{" or "}"`
			}
			open = false
		}
	}
	if open {
		return `an unbalanced "{" or "}"`
	}
	return ""
}
