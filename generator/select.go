package generator

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Selection chooses the operations to generate and overrides Go names. The
// zero Selection generates every operation under the names retrygen
// decides. It is what a `retrygen generate -config FILE` file's include,
// exclude and rename keys say.
type Selection struct {
	// Include keeps only the operations matching one of its entries; an
	// empty Include keeps every operation. Exclude drops the operations
	// matching one of its entries, and wins over Include.
	Include, Exclude Selector
	// Rename overrides Go names.
	Rename Renames
	// File names the config file in diagnostics about the selection
	// ("retrygen.yaml"); "" means the spec.
	File string
	// LinkPagination turns on the Link heuristic (opt-in): a GET operation
	// whose 2xx response declares a Link header, and that has no
	// pagination declaration, pages by the Link header's rel="next" URL
	// (RFC 8288), as GitHub's list endpoints do.
	LinkPagination bool
}

// Selector matches operations by operationId or Go method name, tag or
// path.
type Selector struct {
	// Operations are operationIds or Go method names (the name retrygen
	// would give the method before any rename: "GetTodo" for operationId
	// "getTodo"), each matched exactly.
	Operations []string
	// Tags are operation tags, matched exactly.
	Tags []string
	// Paths are path templates as the spec writes them ("/pets/{petId}");
	// "*" matches one path segment ("/pets/*"), as in path.Match.
	Paths []string
}

// Renames override Go names. Keys are the names retrygen would generate
// without the override (the method name, the type name before any numeric
// suffix a collision adds); values must be exported Go identifiers.
type Renames struct {
	// Operations renames client methods; a key is the Go method name or the
	// operation's operationId (the Go name wins when both match). The Input
	// and Output types retrygen synthesises for an operation follow the new
	// name.
	Operations map[string]string
	// Types renames named types: structs, enums, unions and error shapes.
	Types map[string]string
	// Fields renames struct fields; keys are "Type.Field" with the type's
	// name in the output (after Types).
	Fields map[string]string
}

// empty reports whether s matches nothing.
func (s Selector) empty() bool {
	return len(s.Operations) == 0 && len(s.Tags) == 0 && len(s.Paths) == 0
}

// matches reports whether the operation op, under method and pathKey,
// matches s.
func (s Selector) matches(pathKey, method string, op *openapi3.Operation) bool {
	if op.OperationID != "" && slices.Contains(s.Operations, op.OperationID) {
		return true
	}
	if slices.Contains(s.Operations, operationGoName(pathKey, method, op)) {
		return true
	}
	for _, t := range op.Tags {
		if slices.Contains(s.Tags, t) {
			return true
		}
	}
	p, _, _ := splitPathKey(pathKey)
	for _, pat := range s.Paths {
		if pat == pathKey || pat == p {
			return true
		}
		if ok, err := path.Match(pat, p); err == nil && ok {
			return true
		}
	}
	return false
}

// apply removes from api the operations sel does not keep and, when it
// removed any, the component schemas no kept operation reaches. Entries of
// sel that match no operation of the spec are warnings located at the
// selection's key.
func (sel *Selection) apply(api *openapi3.T, d *diags) {
	if sel == nil || (sel.Include.empty() && sel.Exclude.empty()) || api.Paths == nil {
		return
	}
	var all []selectedOp
	removed := 0
	for _, pathKey := range sortedKeys(api.Paths.Map()) {
		item := api.Paths.Value(pathKey)
		for method, op := range item.Operations() {
			all = append(all, selectedOp{op: op, goName: operationGoName(pathKey, method, op)})
			keep := (sel.Include.empty() || sel.Include.matches(pathKey, method, op)) && !sel.Exclude.matches(pathKey, method, op)
			if !keep {
				item.SetOperation(method, nil)
				removed++
			}
		}
		if len(item.Operations()) == 0 {
			api.Paths.Delete(pathKey)
		}
	}
	sel.warnUnmatched(all, d)
	if removed > 0 && api.Components != nil {
		pruneComponents(api)
	}
}

// selectedOp is an operation of the spec with the Go method name retrygen
// would give it before any rename.
type selectedOp struct {
	op     *openapi3.Operation
	goName string
}

// warnUnmatched warns about include and exclude entries that match no
// operation of the spec, and path entries that are not path.Match
// patterns: a typo would otherwise silently select nothing.
func (sel *Selection) warnUnmatched(all []selectedOp, d *diags) {
	ids, goNames, tags := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, o := range all {
		ids[o.op.OperationID] = true
		goNames[o.goName] = true
		for _, t := range o.op.Tags {
			tags[t] = true
		}
	}
	for _, s := range []struct {
		key string
		sel Selector
	}{{"include", sel.Include}, {"exclude", sel.Exclude}} {
		for i, id := range s.sel.Operations {
			if !ids[id] && !goNames[id] {
				sel.warn(d, pointer(s.key, "operations", strconv.Itoa(i)), "no operation has operationId or Go method name %q", id)
			}
		}
		for i, t := range s.sel.Tags {
			if !tags[t] {
				sel.warn(d, pointer(s.key, "tags", strconv.Itoa(i)), "no operation has tag %q", t)
			}
		}
		for i, pat := range s.sel.Paths {
			if _, err := path.Match(pat, ""); err != nil {
				sel.warn(d, pointer(s.key, "paths", strconv.Itoa(i)), "%q is not a path pattern (%v); it matches nothing", pat, err)
			}
		}
	}
}

// warn reports a warning about the selection, located in its file.
func (sel *Selection) warn(d *diags, ptr, format string, args ...any) {
	file := d.file
	if sel.File != "" {
		file = sel.File
	}
	d.warnIn(file, ptr, format, args...)
}

// pruneComponents deletes the component schemas that no operation left in
// api references, directly or through other schemas.
func pruneComponents(api *openapi3.T) {
	r := reach{api: api, names: map[string]bool{}, seen: map[*openapi3.Schema]bool{}}
	for _, item := range api.Paths.Map() {
		r.params(item.Parameters)
		for _, op := range item.Operations() {
			r.params(op.Parameters)
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				r.content(op.RequestBody.Value.Content)
			}
			if op.Responses == nil {
				continue
			}
			for _, resp := range op.Responses.Map() {
				if resp == nil || resp.Value == nil {
					continue
				}
				r.content(resp.Value.Content)
				for _, h := range resp.Value.Headers {
					if h != nil && h.Value != nil {
						r.ref(h.Value.Schema)
						r.content(h.Value.Content)
					}
				}
			}
		}
	}
	for name := range api.Components.Schemas {
		if !r.names[name] {
			delete(api.Components.Schemas, name)
		}
	}
}

// reach collects the component schemas reachable from what it is shown.
type reach struct {
	api   *openapi3.T
	names map[string]bool
	seen  map[*openapi3.Schema]bool
}

func (r *reach) params(ps openapi3.Parameters) {
	for _, p := range ps {
		if p != nil && p.Value != nil {
			r.ref(p.Value.Schema)
			r.content(p.Value.Content)
		}
	}
}

func (r *reach) content(c openapi3.Content) {
	for _, mt := range c {
		if mt != nil {
			r.ref(mt.Schema)
		}
	}
}

func (r *reach) ref(sr *openapi3.SchemaRef) {
	if sr == nil {
		return
	}
	if name, ok := strings.CutPrefix(sr.Ref, componentPrefix); ok {
		r.names[name] = true
	}
	r.schema(sr.Value)
}

func (r *reach) schema(s *openapi3.Schema) {
	if s == nil || r.seen[s] {
		return
	}
	r.seen[s] = true
	subschemas(s, r.ref)
}

// renameField returns the Go name of field want of type typeName after
// Selection.Rename.Fields.
func (b *builder) renameField(typeName, want string) string {
	key := typeName + "." + want
	if n, ok := b.sel.Rename.Fields[key]; ok {
		b.renamed["fields/"+key] = true
		return n
	}
	return want
}

// warnUnusedRenames warns, at the rename entry, about every override whose
// key names nothing retrygen generated.
func (b *builder) warnUnusedRenames() {
	for _, k := range []struct {
		kind string
		m    map[string]string
		what string
	}{{"operations", b.sel.Rename.Operations, "operation (Go method name or operationId)"}, {"types", b.sel.Rename.Types, "type"}, {"fields", b.sel.Rename.Fields, "field"}} {
		for _, key := range sortedKeys(k.m) {
			if !b.renamed[k.kind+"/"+key] {
				b.sel.warn(b.d, pointer("rename", k.kind, key), "no generated %s is named %s; nothing renamed", k.what, key)
			}
		}
	}
}
