package generator

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/retrygen/retrygen/runtime/openapi"
)

// skipUnfilledPlaceholders removes from api every operation whose path
// template has a "{name}" that no path parameter (of the path item or of
// the operation) fills: it would be sent literally ("/d/%7Bid%7D"). Each
// gets a warning at the operation and is left out of the client
// (per-operation degradation, see loaddegrade.go); it returns their
// locations ("GET /d/{id}") for Service.Skipped. kin-openapi's validation
// then no longer reports them unlocated.
func skipUnfilledPlaceholders(api *openapi3.T, d *diags) []string {
	if api.Paths == nil {
		return nil
	}
	var out []string
	for _, path := range sortedKeys(api.Paths.Map()) {
		item := api.Paths.Value(path)
		path0, _, _ := splitPathKey(path)
		names := placeholders(path0)
		if item == nil || len(names) == 0 {
			continue
		}
		for _, method := range sortedKeys(item.Operations()) {
			op := item.GetOperation(method)
			filled := map[string]bool{}
			for _, ps := range []openapi3.Parameters{item.Parameters, op.Parameters} {
				for _, p := range ps {
					if p != nil && p.Value != nil && p.Value.In == "path" {
						filled[p.Value.Name] = true
					}
				}
			}
			for _, name := range names {
				if !filled[name] {
					d.warnf(pointer("paths", path, strings.ToLower(method)), "path template placeholder {%s} has no path parameter; operation %s %s skipped", name, method, path)
					item.SetOperation(method, nil)
					out = append(out, method+" "+path)
					break
				}
			}
		}
	}
	return out
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
