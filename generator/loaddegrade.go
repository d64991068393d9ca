package generator

import (
	"fmt"
	"mime"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Per-operation degradation. A defect that concerns one operation does not
// stop the generation of the others: a $ref that names nothing, a $ref into
// the wrong kind of component that cannot be read as the right one, a $ref
// chain that never reaches a value. Each gets a warning located at the
// $ref, and:
//
//   - in a schema: the schema is replaced by {} (json.RawMessage, any JSON);
//   - in an operation (its parameters, request body or responses) or one
//     path-level parameter: the operation, or every operation of the path,
//     is skipped — left out of the client and counted in the summary line;
//   - a whole component (#/components/responses/X): it is removed, and so
//     is every operation that refers to it (each with its own warning);
//   - anywhere else: the value is replaced by an empty mapping.

// httpMethods are the operation keys of a path item.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// skipSet holds the operations and path items to leave out.
type skipSet struct {
	ops   map[[2]string]bool // {path, method}
	paths map[string]bool
}

func newSkipSet() *skipSet {
	return &skipSet{ops: map[[2]string]bool{}, paths: map[string]bool{}}
}

// degrade handles the defective node n at pointer out of the bundled spec
// (see above); file and at locate the defect for the warning, which says
// msg and what was done.
func degrade(n *yaml.Node, out, file, at, msg string, d *diags, skip *skipSet) {
	toks := splitPointer(out)
	switch {
	case isSchemaPosition(toks):
		*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
		d.warnIn(file, at, "%s; the schema is replaced by {} (json.RawMessage)", msg)
	case len(toks) >= 3 && toks[0] == "paths" && slices.Contains(httpMethods, toks[2]):
		skip.ops[[2]string{toks[1], toks[2]}] = true
		d.warnIn(file, at, "%s; operation %s %s skipped", msg, strings.ToUpper(toks[2]), toks[1])
	case len(toks) >= 2 && toks[0] == "paths":
		skip.paths[toks[1]] = true
		d.warnIn(file, at, "%s; every operation of path %s skipped", msg, toks[1])
	case len(toks) == 3 && toks[0] == "components":
		*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"} // removed by removeSkipped
		d.warnIn(file, at, "%s; component #%s removed (operations that refer to it are skipped)", msg, fragment(out))
	default:
		*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
		d.warnIn(file, at, "%s; replaced by an empty mapping", msg)
	}
}

// isSchemaPosition reports whether the pointer tokens name a schema.
func isSchemaPosition(toks []string) bool {
	n := len(toks)
	switch {
	case n == 0:
		return false
	case n == 3 && toks[0] == "components":
		return toks[1] == "schemas" // a parameter called "items" is not a schema
	}
	last := toks[n-1]
	switch last {
	case "schema", "items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else":
		return true
	}
	if n >= 2 {
		switch toks[n-2] {
		case "properties", "allOf", "oneOf", "anyOf", "$defs", "definitions", "patternProperties", "prefixItems":
			return true
		}
	}
	return false
}

// refChecker checks the $refs inside the bundled spec (see checkRefs).
type refChecker struct {
	root   *yaml.Node
	d      *diags
	budget *nodeBudget
	skip   *skipSet
	origin map[*yaml.Node]refOrigin // where the bundler found a $ref in another file
	names  func(file string) string // a spec file's name for messages
	fatal  error
	// memo holds every resolved $ref (resolve): each is followed once, so
	// a chain of n $refs costs O(n), not O(n²).
	memo map[string]resolved
	// index maps the keys of large mappings (components/schemas of a
	// 100,000-schema spec) to their values, so a pointer lookup does not
	// scan them.
	index map[*yaml.Node]map[string]*yaml.Node
}

// resolved is what a $ref leads to: its value node and the last $ref of
// its chain (the one naming the value), or nil and why not.
type resolved struct {
	n          *yaml.Node
	final, why string
}

// indexFrom is the size from which a mapping's keys are indexed.
const indexFrom = 32

// lookup is nodeAt(c.root, p) with large mappings indexed.
func (c *refChecker) lookup(p string) *yaml.Node {
	n := c.root
	for _, tok := range splitPointer(p) {
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		switch {
		case n.Kind == yaml.MappingNode && len(n.Content) >= 2*indexFrom:
			ix, ok := c.index[n]
			if !ok {
				ix = make(map[string]*yaml.Node, len(n.Content)/2)
				for i := len(n.Content) - 2; i >= 0; i -= 2 { // the first of duplicate keys wins, as mapValue
					ix[n.Content[i].Value] = n.Content[i+1]
				}
				c.index[n] = ix
			}
			n = ix[tok]
		case n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode:
			n = nodeAt(n, pointer(tok))
		default:
			return nil
		}
		if n == nil {
			return nil
		}
	}
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// checkRefs checks every local $ref of the bundled spec (root mapping)
// before kin-openapi resolves them, degrading (see degrade) those that
// name nothing or form a chain of $refs with no value at its end. A $ref
// where kin-openapi takes none (an operation, a description, a summary) is
// replaced by a copy of its target; so is a response, request body or
// parameter $ref into another kind of component whose target has the
// shape of the right one (a response $ref into #/components/requestBodies
// is read as the response it looks like), with a warning. Components are
// checked first, so a chain that loops is broken once, at a component.
func checkRefs(root *yaml.Node, d *diags, budget *nodeBudget, skip *skipSet, origin map[*yaml.Node]refOrigin, names func(string) string) error {
	c := &refChecker{root: root, d: d, budget: budget, skip: skip, origin: origin, names: names,
		memo: map[string]resolved{}, index: map[*yaml.Node]map[string]*yaml.Node{}}
	if comps := mapValue(root, "components"); comps != nil {
		c.walk(comps, "/components")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i].Value; k != "components" {
			c.walk(root.Content[i+1], child("", k))
		}
	}
	return c.fatal
}

func (c *refChecker) walk(n *yaml.Node, ptr string) {
	c.walkPath(n, splitPointer(ptr))
}

// walkPath is walk at the pointer of the tokens path, built only where a
// $ref or a finding needs it (issue 24: one string per node of the spec
// was most of the walk's time); a child's tokens are appended to path,
// whose backing array siblings share.
func (c *refChecker) walkPath(n *yaml.Node, path []string) {
	if c.fatal != nil {
		return
	}
	switch n.Kind {
	case yaml.SequenceNode:
		for i, v := range n.Content {
			c.walkPath(v, append(path, strconv.Itoa(i)))
		}
	case yaml.MappingNode:
		if ref, ok := refValue(n); ok {
			c.ref(n, ref, pointer(path...))
			return
		}
		named := namedMapPath(path)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			if exampleDataPath(path, named, k, v) {
				continue // data, not spec (issue 19)
			}
			c.walkPath(v, append(path, k))
			if k == "content" && v.Kind == yaml.MappingNode && !named {
				c.dropNonMediaTypes(v, pointer(append(path, k)...))
			}
			if (k == "description" || k == "summary") && v.Kind != yaml.ScalarNode && !named {
				// kin-openapi reads text here: a mapping stops the load.
				file, at := c.d.file, pointer(append(path, k)...)
				c.d.warnIn(file, at, "%s must be text, got %s; ignored", k, describe(v))
				n.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Line: v.Line, Column: v.Column}
			}
		}
	}
}

// dropNonMediaTypes removes from a content map (at ptr) every key that is
// not a media type (RFC 6838 type/subtype, mime.ParseMediaType) — a spec
// typo such as a "description" written one level too deep — with a
// warning located at it, when the map has a media type besides: the client
// would otherwise send it in Accept. A map with none is left to the builder
// (the body is kept raw, with a warning).
func (c *refChecker) dropNonMediaTypes(content *yaml.Node, ptr string) {
	isMedia := func(k string) bool {
		mt, _, err := mime.ParseMediaType(k)
		return err == nil && strings.Contains(mt, "/")
	}
	valid := false
	for i := 0; i < len(content.Content); i += 2 {
		valid = valid || isMedia(content.Content[i].Value)
	}
	if !valid {
		return
	}
	deletePairs(content, func(k, _ *yaml.Node) bool {
		if isMedia(k.Value) {
			return false
		}
		c.d.warnf(child(ptr, k.Value), "%q is not a media type (type/subtype); dropped", k.Value)
		return true
	})
}

// namedMaps are the last tokens of the maps whose keys are names (a
// property, part, media type, header, component … may be called
// "description"), not
// fields of an object with a description.
var namedMaps = []string{"properties", "patternProperties", "content", "encoding", "headers", "schemas", "responses",
	"parameters", "examples", "requestBodies", "securitySchemes", "links", "callbacks", "variables", "$defs", "definitions"}

// namedMapPath is namedMap of the pointer of the tokens path (an
// unescaped token is a namedMaps entry exactly when its escaped form is:
// they hold no "~" or "/").
func namedMapPath(path []string) bool {
	return len(path) > 0 && slices.Contains(namedMaps, path[len(path)-1])
}

// namedMap reports whether ptr is one of namedMaps.
func namedMap(ptr string) bool {
	i := strings.LastIndexByte(ptr, '/')
	return slices.Contains(namedMaps, ptr[i+1:])
}

// at returns the file and pointer of the $ref of mapping n found at ptr,
// and the reference as written there.
func (c *refChecker) at(n *yaml.Node, ptr, ref string) (string, string, string) {
	if o, ok := c.origin[n]; ok {
		return c.names(o.file), child(o.ptr, "$ref"), o.ref
	}
	return c.d.file, child(ptr, "$ref"), ref
}

// ref checks the $ref of mapping n at ptr.
func (c *refChecker) ref(n *yaml.Node, ref, ptr string) {
	if !strings.HasPrefix(ref, "#/") && ref != "#" {
		return // a 3.1 anchor ("#node"), or an external $ref the bundler refused
	}
	file, at, written := c.at(n, ptr, ref)
	target, why := c.resolve(ref)
	if target == nil {
		degrade(n, ptr, file, at, fmt.Sprintf("$ref %q %s", written, why), c.d, c.skip)
		return
	}
	toks := splitPointer(ptr)
	tptr := strings.TrimPrefix(ref, "#")
	if u, ok := unescapeFragment(tptr); ok {
		tptr = u
	}
	want := expectedKind(toks)
	kind, _, isComp := componentPointer(tptr)
	switch {
	case inlinePosition(toks) && (tptr == "" || tptr == "/" || ptr == tptr || strings.HasPrefix(ptr, tptr+"/")):
		// Copying an ancestor into itself would never end.
		c.d.errorIn(file, at, "$ref %q names an ancestor of this %s (#%s): its text cannot contain itself", written, toks[len(toks)-1], fragment(tptr))
		*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Line: n.Line, Column: n.Column}
		return
	case inlinePosition(toks):
		// kin-openapi reads no $ref here: put the value in its place.
		c.inline(n, target, ptr)
		return
	case want != "" && isComp && kind != want:
		if !hasShape(target, want) {
			degrade(n, ptr, file, at, fmt.Sprintf("$ref %q names a %s where a %s belongs", written, singular(kind), singular(want)), c.d, c.skip)
			return
		}
		c.d.warnIn(file, at, "$ref %q names a %s where a %s belongs; it has the shape of a %s, so it is read as one", written, singular(kind), singular(want), singular(want))
		c.inline(n, target, ptr)
		return
	}
	if r := c.memo[ref]; r.final != "" && r.final != ref {
		// A chain of $refs: name its value directly, so kin-openapi
		// follows one $ref, not the chain (linear, not quadratic, in
		// the chain's length).
		setRef(n, r.final)
	}
}

// inline replaces the $ref mapping n with a copy of target, whose own $refs
// are then checked.
func (c *refChecker) inline(n, target *yaml.Node, ptr string) {
	cp := c.budget.copyNode(target, true)
	if cp == nil {
		file, at, _ := c.at(n, ptr, "")
		c.fatal = fmt.Errorf("%s#%s: copying what $refs name exceeds %s that aliases, referenced files and overlays may add", file, fragment(at), budgetText)
		return
	}
	delete(c.index, n)
	*n = *cp
	c.walk(n, ptr)
}

// resolve follows ref (and the $refs it leads to) to a node that is not a
// $ref. It returns nil and why when a pointer names nothing or the chain
// loops. Every $ref of a chain that reaches a value is memoised (c.memo),
// so each is followed once whatever the number of $refs naming it; a cycle
// is detected on the path being followed.
func (c *refChecker) resolve(ref string) (*yaml.Node, string) {
	r := c.follow(ref)
	return r.n, r.why
}

func (c *refChecker) follow(ref string) resolved {
	if r, ok := c.memo[ref]; ok {
		return r
	}
	seen := map[string]bool{}
	chain := []string{ref}
	var r resolved
	for {
		if m, ok := c.memo[ref]; ok && len(chain) > 1 {
			r = m
			break
		}
		p := strings.TrimPrefix(ref, "#")
		if seen[p] {
			r.why = fmt.Sprintf("is a chain of $refs that never reaches a value (%s)", strings.Join(chain, " → "))
			break
		}
		seen[p] = true
		n := c.lookup(p)
		if n == nil {
			if u, ok := unescapeFragment(p); ok {
				n = c.lookup(u)
			}
		}
		if n == nil {
			if len(chain) == 1 {
				r.why = "names nothing in the spec"
			} else {
				r.why = fmt.Sprintf("leads to %q, which names nothing in the spec", ref)
			}
			break
		}
		next, ok := refValue(n)
		if !ok || !strings.HasPrefix(next, "#/") {
			if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
				r.why = "names a null value (a component removed above?)"
			} else {
				r.n, r.final = n, ref
			}
			break
		}
		ref = next
		chain = append(chain, ref)
	}
	if r.n == nil {
		// Not memoised: degrading the $ref that failed changes what
		// the chain leads to.
		return r
	}
	for _, x := range chain {
		if _, ok := c.memo[x]; !ok {
			c.memo[x] = r
		}
	}
	return r
}

// unescapeFragment percent-decodes a URI fragment.
func unescapeFragment(p string) (string, bool) {
	if !strings.Contains(p, "%") {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '%' && i+2 < len(p) {
			if v, err := strconv.ParseUint(p[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(p[i])
	}
	return b.String(), true
}

// inlinePosition reports whether a $ref at these pointer tokens is one
// kin-openapi does not resolve: a path item, an operation, a description or
// a summary.
func inlinePosition(toks []string) bool {
	n := len(toks)
	switch {
	case n == 2 && toks[0] == "paths":
		return true
	case n == 3 && toks[0] == "paths" && slices.Contains(httpMethods, toks[2]):
		return true
	case n >= 1 && (toks[n-1] == "description" || toks[n-1] == "summary"):
		return !(n >= 2 && toks[n-2] == "properties")
	}
	return false
}

// expectedKind returns the component kind a $ref at these pointer tokens
// must name: responses, requestBodies or parameters; "" for any other
// place.
func expectedKind(toks []string) string {
	n := len(toks)
	switch {
	case n == 3 && toks[0] == "components" && (toks[1] == "responses" || toks[1] == "requestBodies" || toks[1] == "parameters"):
		return toks[1]
	case n >= 2 && toks[0] == "paths" && toks[n-2] == "responses":
		return "responses"
	case n >= 3 && toks[0] == "paths" && toks[n-1] == "requestBody":
		return "requestBodies"
	case n >= 3 && toks[0] == "paths" && toks[n-2] == "parameters":
		return "parameters"
	}
	return ""
}

// shapeKeys are the keys each kind of object may have (besides x-…).
var shapeKeys = map[string][]string{
	"responses":     {"description", "headers", "content", "links"},
	"requestBodies": {"description", "content", "required"},
	"parameters":    {"name", "in", "description", "required", "deprecated", "allowEmptyValue", "style", "explode", "allowReserved", "schema", "example", "examples", "content"},
}

// hasShape reports whether n is a mapping with only the keys of a want
// object (and, for a parameter, a name and an in).
func hasShape(n *yaml.Node, want string) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if !strings.HasPrefix(k, "x-") && !slices.Contains(shapeKeys[want], k) {
			return false
		}
	}
	if want == "parameters" {
		return mapValue(n, "name") != nil && mapValue(n, "in") != nil
	}
	return true
}

// singular names one object of a component kind ("requestBodies" → "request body").
func singular(kind string) string {
	switch kind {
	case "requestBodies":
		return "request body"
	case "pathItems":
		return "path item"
	case "securitySchemes":
		return "security scheme"
	}
	return strings.TrimSuffix(kind, "s")
}

// removeSkipped removes the skipped operations and path items and the
// components degrade nulled from root, and returns the locations of the
// operations left out ("GET /things", a path item whose operations are
// unknown counting as one).
func removeSkipped(root *yaml.Node, skip *skipSet) []string {
	var out []string
	if comps := mapValue(root, "components"); comps != nil && comps.Kind == yaml.MappingNode {
		for i := 1; i < len(comps.Content); i += 2 {
			deletePairs(comps.Content[i], func(_, v *yaml.Node) bool { return v.Kind == yaml.ScalarNode && v.Tag == "!!null" })
		}
	}
	paths := mapValue(root, "paths")
	if paths == nil || paths.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(paths.Content); {
		p, item := paths.Content[i].Value, paths.Content[i+1]
		if skip.paths[p] {
			n := 0
			for _, m := range httpMethods {
				if mapValue(item, m) != nil {
					out = append(out, strings.ToUpper(m)+" "+p)
					n++
				}
			}
			if n == 0 {
				out = append(out, "path "+p)
			}
			paths.Content = slices.Delete(paths.Content, i, i+2)
			continue
		}
		deletePairs(item, func(k, _ *yaml.Node) bool {
			if skip.ops[[2]string{p, k.Value}] {
				out = append(out, strings.ToUpper(k.Value)+" "+p)
				return true
			}
			return false
		})
		i += 2
	}
	return out
}

// deletePairs removes from mapping n, in place and in order, every key and
// value for which drop is true; n not a mapping is left alone.
func deletePairs(n *yaml.Node, drop func(k, v *yaml.Node) bool) {
	if n.Kind != yaml.MappingNode {
		return
	}
	for j := 0; j+1 < len(n.Content); {
		if drop(n.Content[j], n.Content[j+1]) {
			n.Content = slices.Delete(n.Content, j, j+2)
			continue
		}
		j += 2
	}
}
