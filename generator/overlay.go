package generator

import (
	"fmt"
	"os"

	"github.com/speakeasy-api/openapi-overlay/pkg/overlay"
	"gopkg.in/yaml.v3"
)

// applyOverlays applies OpenAPI Overlay 1.0 documents to the spec's YAML tree,
// in order. An overlay that cannot be read, is not a valid Overlay 1.0
// document, has an action whose target selects nothing, or whose aliases
// exceed the node budget (the library copies updates with their aliases
// expanded) fails generation: the returned error names the overlay file.
// The library's warnings become warnings located at the overlay's root.
func applyOverlays(root *yaml.Node, paths []string, budget *nodeBudget) ([]Diagnostic, error) {
	var out []Diagnostic
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("overlay %s: %w", p, err)
		}
		doc, err := parseYAML(p, raw)
		if err != nil {
			return nil, fmt.Errorf("overlay %w", err)
		}
		if err := budget.chargeAliases(p, doc); err != nil {
			return nil, fmt.Errorf("overlay %w", err)
		}
		o, err := overlay.Parse(p)
		if err != nil {
			return nil, fmt.Errorf("overlay %s: %w", p, err)
		}
		if err := o.Validate(); err != nil {
			return nil, fmt.Errorf("overlay %s: %w", p, err)
		}
		err, warnings := o.ApplyToStrict(root)
		if err != nil {
			return nil, fmt.Errorf("overlay %s: %w", p, err)
		}
		for _, w := range warnings {
			out = append(out, Diagnostic{File: p, Severity: SeverityWarning, Message: w})
		}
	}
	return out, nil
}
