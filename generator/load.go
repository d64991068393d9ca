package generator

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/retrygen/retrygen/runtime"
)

// LoadService reads the spec at specPath (YAML or JSON) with the files its
// relative $refs name under its directory (see bundle), applies the overlay
// files in order, parses the x-retry and x-protocol extensions and builds
// the model. Loading is lenient: what kin-openapi's validation finds
// (patterns that are not RE2, examples that do not match) becomes warnings,
// never a refusal, and a defect that concerns one operation (a dangling
// $ref) skips that operation with a warning (see degrade).
//
// It returns every diagnostic found. The error is non-nil when generation
// cannot go on: the spec or an overlay cannot be read or parsed (the error
// names the file and line), the YAML node budget is exceeded
// (maxExpandedNodes), or a diagnostic is an error (a bad x-retry value, a
// $ref to a URL); the diagnostics then say where. A panic while building is
// returned as an *InternalError naming the spec location being built.
func LoadService(specPath string, overlays []string) (*Service, []Diagnostic, error) {
	return LoadSelected(specPath, overlays, nil)
}

// LoadSelected is LoadService generating only the operations sel keeps,
// under sel's name overrides (nil: all, unrenamed). The component schemas
// no kept operation reaches are left out; selection entries that match
// nothing are warnings.
func LoadSelected(specPath string, overlays []string, sel *Selection) (*Service, []Diagnostic, error) {
	raw, err := ReadInputFile(specPath)
	if err != nil {
		return nil, nil, err
	}
	dir, err := os.OpenRoot(filepath.Dir(specPath))
	if err != nil {
		return nil, nil, err
	}
	defer dir.Close()
	return loadSelected(specPath, raw, overlays, dir.FS(), sel)
}

// LoadRetryService loads the spec at specPath with its overlays exactly as
// LoadService does and returns the runtime.Service the generated client
// holds as its service literal (Service.Retry: x-retry, or the defaults for
// specs without it). `retrygen vectors` and `retrygen explain` run this value,
// so they see what a generated client sees. Its diagnostics and error are
// LoadService's.
func LoadRetryService(specPath string, overlays []string) (*runtime.Service, []Diagnostic, error) {
	svc, diags, err := LoadService(specPath, overlays)
	if err != nil {
		return nil, diags, err
	}
	return &svc.Retry, diags, nil
}

// LoadRetryOperations is LoadRetryService with the runtime.Operation a
// generated client declares for each operation (Name its Go method name),
// sorted by Name: what `retrygen explain -operation` resolves.
func LoadRetryOperations(specPath string, overlays []string) (*runtime.Service, []runtime.Operation, []Diagnostic, error) {
	svc, diags, err := LoadService(specPath, overlays)
	if err != nil {
		return nil, nil, diags, err
	}
	ops := make([]runtime.Operation, len(svc.Operations))
	for i, o := range svc.Operations {
		ops[i] = o.Retry
	}
	return &svc.Retry, ops, diags, nil
}

// loadData is LoadService on the spec's bytes; specPath names it in
// diagnostics, and the files its $refs name are read from fsys (the spec's
// directory; nil: none can be).
func loadData(specPath string, raw []byte, overlays []string, fsys fs.FS) (*Service, []Diagnostic, error) {
	return loadSelected(specPath, raw, overlays, fsys, nil)
}

// loadSelected is loadData keeping only what sel selects.
func loadSelected(specPath string, raw []byte, overlays []string, fsys fs.FS, sel *Selection) (svc *Service, all []Diagnostic, err error) {
	d := &diags{file: specPath}
	defer func() {
		if r := recover(); r != nil {
			svc, all, err = nil, append(all, d.list...), &InternalError{File: specPath, Pointer: d.at, Panic: r, Stack: string(debug.Stack())}
		}
	}()
	doc, err := parseYAML(specPath, raw)
	if err != nil {
		return nil, nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("%s: not an OpenAPI document (the root must be a mapping)", specPath)
	}
	budget := newNodeBudget()
	if err := budget.chargeBytes(specPath, len(raw)); err != nil {
		return nil, nil, err
	}
	// The bytes are read for the last time here, so they are garbage while
	// the tree is worked on (issue 24: 8 MB for Stripe's spec).
	secondLine, second := secondDocumentLine(raw)
	raw = nil
	if err := budget.chargeAliases(specPath, doc); err != nil {
		return nil, nil, err
	}
	root := doc.Content[0]
	skip := newSkipSet()
	origin, err := bundle(root, filepath.Base(specPath), filepath.Dir(specPath), fsys, d, budget, skip)
	if err != nil {
		return nil, d.list, err
	}
	if n := d.errors(); n > 0 {
		// A $ref refused (a URL, a path outside the spec's directory).
		return nil, d.list, fmt.Errorf("%s: %d error(s) in the spec", specPath, n)
	}
	d.setBy = map[string]string{}
	declaredOps := countOperations(root)
	all, err = applyOverlays(doc, overlays, budget, d.setBy)
	if err != nil {
		return nil, append(all, d.list...), err
	}
	if err := checkVersion(specPath, root); err != nil {
		return nil, append(all, d.list...), err
	}
	if len(overlays) > 0 {
		// Pointers are into the spec as the overlays left it; errors say
		// which overlays may have written the value.
		d.errorNote = " (in the spec after overlay " + strings.Join(overlayNames(overlays), ", ") + ")"
	}
	if second {
		where := "after the first"
		if secondLine > 0 {
			where = fmt.Sprintf("on line %d", secondLine)
		}
		d.warnf("", "the file holds a second YAML document (%s); only the first is read", where)
	}
	if mapValue(root, "webhooks") != nil {
		msg := "webhooks are requests the API sends, not operations a client calls; ignored"
		if mapValue(root, "paths") == nil {
			msg += " (the spec has no paths: the client has no operations)"
		}
		d.warnf("/webhooks", "%s", msg)
	}
	convert31(root, d)
	names := func(file string) string { return filepath.Join(filepath.Dir(specPath), filepath.FromSlash(file)) }
	if err := checkRefs(root, d, budget, skip, origin, names); err != nil {
		return nil, append(all, d.list...), err
	}
	overlaidOps := countOperations(root)
	skipped := removeSkipped(root, skip)
	retry, declared := parseXRetry(root, d)
	var xr *yaml.Node
	if declared {
		xr = mapValue(root, "x-retry")
	}
	retry = withDefaults(retry, xr, specTitle(root))
	applySpeakeasy(root, &retry, d)
	protocol := parseXProtocol(root, d)
	keep := keepForBuild(root)

	api, err := loadOpenAPI(doc) // empties doc
	if err != nil && d.errors() > 0 {
		// A value already refused with its location (an x-retry scalar of
		// the wrong type) is not reported again in the YAML decoder's words.
		return nil, append(all, d.list...), fmt.Errorf("%s: %d error(s) in the spec", specPath, d.errors())
	}
	if err != nil {
		return nil, append(all, d.list...), fmt.Errorf("%s: %w", specPath, err)
	}
	if err := checkAllOfBound(api); err != nil {
		return nil, append(all, d.list...), fmt.Errorf("%s%w", specPath, err)
	}
	unfilled, restoreParams := skipUnfilledPlaceholders(api, d)
	skipped = append(skipped, unfilled...)
	validateLeniently(api, d)
	restoreParams()
	sel.apply(api, d)

	svc = build(api, keep, retry, protocol, sel, d)
	if err := checkNameBounds(svc.Types); err != nil {
		return nil, append(all, d.list...), fmt.Errorf("%s%w", specPath, err)
	}
	svc.SpecFile = filepath.Base(specPath)
	svc.XRetry = declared
	for _, o := range overlays {
		svc.Overlays = append(svc.Overlays, filepath.Base(o))
	}
	svc.Skipped = skipped
	if len(svc.Operations) == 0 {
		checkNoOperations(d, declaredOps, overlaidOps, skipped, overlays, sel)
	}
	all = append(all, d.list...)
	if n := d.errors(); n > 0 {
		return nil, all, fmt.Errorf("%s: %d error(s) in the spec", specPath, n)
	}
	return svc, all, nil
}

// validateLeniently runs kin-openapi's validation with pattern and example
// checks off (patterns are checked per schema, with a location, by the
// builder) and reports each finding as a warning at the document root.
func validateLeniently(api *openapi3.T, d *diags) {
	stubs := stubSchemaRefs(api) // each schema validated once (kinvalidate.go)
	defer stubs.restore()
	err := api.Validate(context.Background(),
		openapi3.DisableSchemaPatternValidation(),
		openapi3.DisableExamplesValidation(),
		openapi3.EnableMultiError())
	var multi openapi3.MultiError
	switch {
	case err == nil:
	case errors.As(err, &multi):
		for _, e := range multi {
			d.warnf("", "spec validation (ignored): %s", firstLine(e))
		}
	default:
		d.warnf("", "spec validation (ignored): %s", firstLine(err))
	}
}

// firstLine is err's message up to its first line break: kin-openapi's
// schema errors go on with dumps of the schema and the value
// ("Schema: {…} Value: …" on lines of their own), which made each finding
// one line of escaped JSON.
func firstLine(err error) string {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return msg
}

// checkVersion refuses documents this generator cannot read: Swagger 2.0 and
// OpenAPI other than 3.0 and 3.1, with the version named.
func checkVersion(specPath string, root *yaml.Node) error {
	if v := mapValue(root, "swagger"); v != nil {
		return fmt.Errorf("%s#/swagger: Swagger %s is not supported; convert the spec to OpenAPI 3 first", specPath, v.Value)
	}
	v := mapValue(root, "openapi")
	if v == nil {
		return fmt.Errorf("%s#/openapi: missing: not an OpenAPI 3 document", specPath)
	}
	if !strings.HasPrefix(v.Value, "3.0") && !strings.HasPrefix(v.Value, "3.1") {
		return fmt.Errorf("%s#/openapi: version %q is not supported (3.0.x and 3.1.x are)", specPath, v.Value)
	}
	return nil
}

// overlayNames returns the overlays' base names, for locations.
func overlayNames(overlays []string) []string {
	names := make([]string, len(overlays))
	for i, o := range overlays {
		names[i] = filepath.Base(o)
	}
	return names
}

// countOperations counts the operations under root's paths: the HTTP
// method keys of each path item.
func countOperations(root *yaml.Node) int {
	paths := mapValue(root, "paths")
	if paths == nil || paths.Kind != yaml.MappingNode {
		return 0
	}
	n := 0
	for i := 1; i < len(paths.Content); i += 2 {
		for _, m := range httpMethods {
			if mapValue(paths.Content[i], m) != nil {
				n++
			}
		}
	}
	return n
}

// checkNoOperations reports a client left without operations: an error at
// /paths when the spec declared some (declared as written, overlaid after
// the overlays), saying how many the overlays removed, how many were
// skipped for a defect of their own and how many the selection left out:
// a client without operations is a mistake a CI check must not pass on
// (newuser4 G8). A spec that declares none (types only) is left alone.
func checkNoOperations(d *diags, declared, overlaid int, skipped, overlays []string, sel *Selection) {
	if max(declared, overlaid) == 0 {
		return // a spec of types (or webhooks, warned of) only: its client is what it asks for
	}
	var why []string
	if removed := declared - overlaid; removed > 0 {
		why = append(why, fmt.Sprintf("%d removed by overlay %s", removed, strings.Join(overlayNames(overlays), ", ")))
	}
	nSkipped := 0
	for _, s := range skipped {
		if !strings.HasPrefix(s, "path ") {
			nSkipped++
		}
	}
	switch nSkipped {
	case 0:
	case 1:
		why = append(why, "1 skipped for a defect of its own, warned of above")
	default:
		why = append(why, fmt.Sprintf("%d skipped for defects of their own, warned of above", nSkipped))
	}
	if rest := overlaid - nSkipped; rest > 0 {
		what := "not generated"
		if sel != nil {
			what = "left out by the selection (include, exclude)"
		}
		why = append(why, fmt.Sprintf("%d %s", rest, what))
	}
	verb := "is"
	if max(declared, overlaid) > 1 {
		verb = "are"
	}
	d.errorf("/paths", "none of the spec's %s %s left to generate (%s); a client without operations is not written", plural(max(declared, overlaid), "operation"), verb, strings.Join(why, ", "))
}
