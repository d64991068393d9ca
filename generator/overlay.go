package generator

import (
	"fmt"

	"github.com/speakeasy-api/openapi-overlay/pkg/overlay"
	"gopkg.in/yaml.v3"
)

// applyOverlays applies OpenAPI Overlay 1.0 documents to the spec's YAML tree,
// in order. An overlay that cannot be read, is not a valid Overlay 1.0
// document, or has an action whose target selects nothing fails generation:
// the returned error names the overlay file. The library's warnings become
// warnings located at the overlay's root.
func applyOverlays(root *yaml.Node, paths []string) ([]Diagnostic, error) {
	var out []Diagnostic
	for _, p := range paths {
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
