package generator

import (
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/retrygen/retrygen/runtime"
)

// builder turns a loaded spec into the model. All Go names are decided here.
type builder struct {
	api *openapi3.T
	// headerDecls are the response-header declarations already given a
	// field, by output type and canonical header name
	// (responseHeaders: equal declarations share a field).
	headerDecls map[string][]headerDecl
	root        *yaml.Node // what the builder reads of the spec's root mapping (kept.root)
	kept        *kept      // what it reads of the spec's YAML tree (keepForBuild)
	// aws: the spec was converted by aws2openapi from a REST protocol
	// (build_payload.go).
	aws bool
	// awsQuery: the spec was converted by aws2openapi from the AWS query
	// protocol (awsQueryWarnings).
	awsQuery bool
	// outputHeaderMaps are the prefix-header maps of aws2openapi outputs,
	// by output type name (build_payload.go).
	outputHeaderMaps map[string][]Param
	protocol         Protocol
	retry            runtime.Service
	d                *diags
	names            namespace             // package-level Go names
	comps            map[string]*component // by component schema name
	types            []*Type
	errors           map[string]*ErrorShape // by component schema name
	// inlineErrors are the error shapes of inline error schemas, by schema:
	// a shared response is one shape.
	inlineErrors map[*openapi3.Schema]*ErrorShape
	memo         map[*openapi3.Schema]*component // inline schemas typed so far
	// flatDepth counts the flattened allOf schemas being typed inside one
	// another (unnamed): each is a new schema, which the memo cannot see
	// again, so a cycle through them is cut by depth (maxFlatDepth).
	flatDepth int
	broken    map[*openapi3.Schema]bool      // schemas on an allOf cycle
	merged    map[string]*openapi3.SchemaRef // properties defined by several allOf members, by their schemas
	// mergedPtrs locates the members of each merged object property's allOf.
	mergedPtrs map[*openapi3.Schema][]string
	// uses counts each component schema's references other than as a
	// whole 2xx response (componentUses).
	uses map[string]int
	// sel holds the name overrides (Selection.Rename), never nil;
	// renamed records the keys used, "types/Name", "fields/Type.Field",
	// "operations/Name".
	sel     *Selection
	renamed map[string]bool
	// responseUses counts the operations whose 2xx response with content is
	// each components/responses reference (sharedResponse).
	responseUses map[string]int
	// typesByName indexes types[:typesIndexed] by name, the last of a name
	// winning (markXML; types only grows while building).
	typesByName  map[string]*Type
	typesIndexed int
}

// reservedNames are the exported package-level names the generator itself
// declares (emit_client.go, emit_auth.go), reserved before any spec name
// is assigned, so a schema called ServerURL becomes ServerURL2 instead of
// redeclaring the generated function. (The With… authentication options
// are claimed in the same namespace, after the spec's types.)
var reservedNames = []string{"Client", "Options", "New", "DefaultServerURL", "ServerURL"}

// build makes the model of api. Names are claimed in a fixed order (reserved
// names, error shapes, component schemas, then inline types in path order),
// so the same spec always gets the same names.
func build(api *openapi3.T, keep *kept, retry runtime.Service, protocol Protocol, sel *Selection, d *diags) *Service {
	if sel == nil {
		sel = &Selection{}
	}
	b := &builder{api: api, root: keep.root, kept: keep, retry: retry, protocol: protocol, d: d,
		names: namespace{}, comps: map[string]*component{}, errors: map[string]*ErrorShape{}, uses: componentUses(api),
		sel: sel, renamed: map[string]bool{}, aws: awsRESTXML(api), awsQuery: awsQuery(api)}
	for _, n := range reservedNames {
		b.names[n] = true
	}
	if api.Components == nil {
		api.Components = &openapi3.Components{}
	}
	b.declareComponents()
	for _, name := range sortedKeys(api.Components.Schemas) {
		b.d.building(pointer("components", "schemas", name))
		b.component(name)
	}
	svc := &Service{Retry: retry, Protocol: protocol, Operations: b.operations(), Auth: b.authOptions(), Servers: b.servers()}
	if api.Info != nil {
		svc.Title, svc.Doc = api.Info.Title, api.Info.Description
	}
	svc.Retry.Name = svc.Title
	b.warnUnrequiredSchemes(svc)
	for _, name := range sortedKeys(b.errors) {
		e := b.errors[name]
		e.Class = svc.Retry.CodeClass(e.Code)
		svc.Errors = append(svc.Errors, e)
	}
	b.markOutputs(svc.Operations)
	breakValueCycles(b.types, svc.Errors)
	b.breakUnionCycles()
	b.warnUnionTies()
	slices.SortFunc(b.types, func(x, y *Type) int { return strings.Compare(x.Name, y.Name) })
	slices.SortFunc(svc.Errors, func(x, y *ErrorShape) int { return strings.Compare(x.Name, y.Name) })
	svc.Types = b.types
	b.warnUnusedRenames()
	return svc
}

// declareComponents names every component schema before any is built, so
// references (recursive ones included) resolve to their final names. Error
// shapes become ErrorShapes; objects with properties and string enums become
// named types; the rest is written inline where referenced.
func (b *builder) declareComponents() {
	b.checkAllOfCycles()
	errorNames := b.errorShapeNames()
	for _, name := range sortedKeys(b.api.Components.Schemas) {
		ptr := pointer("components", "schemas", name)
		s := b.api.Components.Schemas[name].Value
		if errorNames[name] && s != nil {
			goName := b.claim(goName(name, false), ptr)
			b.comps[name] = &component{ref: TypeRef{Kind: RefNamed, Name: goName, Struct: true}, named: true, built: true}
			b.errors[name] = &ErrorShape{Name: goName, Code: name, Doc: s.Description, Source: ptr}
			continue
		}
		if kind, ok := namedKind(s, true); ok {
			b.comps[name] = &component{ref: TypeRef{Kind: RefNamed, Name: b.claim(goName(name, false), ptr), Struct: kind != KindEnum}, named: true}
			continue
		}
		b.comps[name] = &component{ref: TypeRef{Name: goName(name, false)}}
	}
	for _, name := range sortedKeys(b.errors) {
		e := b.errors[name]
		e.Fields = b.memberFields(e.Name, b.api.Components.Schemas[name].Value, pointer("components", "schemas", name), reservedErrorFields)
	}
}

// breakValueCycles marks Indirect the required struct fields (and the
// openapi.Nullable fields, which hold a value too) that close a
// cycle of struct values (T holds a U that holds a T): those stay pointers,
// every other required struct field is a plain value. Types are visited in
// name order and fields in order, and the field whose edge returns to a type
// still being visited is the one marked, so the choice is deterministic.
func breakValueCycles(types []*Type, errs []*ErrorShape) {
	fields := map[string][]Field{}
	structs := map[string]bool{}
	for _, t := range types {
		if t.Kind == KindStruct {
			fields[t.Name], structs[t.Name] = t.Fields, true
		}
	}
	for _, e := range errs {
		fields[e.Name], structs[e.Name] = e.Fields, true
	}
	const (
		visiting = 1
		done     = 2
	)
	state := map[string]int{}
	var visit func(name string)
	visit = func(name string) {
		state[name] = visiting
		fs := fields[name]
		for i := range fs {
			f := &fs[i]
			value := f.Required && !f.Nullable || f.ThreeState() // openapi.Nullable[T] holds a T
			if !value || f.In != "" || f.Type.Kind != RefNamed || !structs[f.Type.Name] {
				continue
			}
			switch state[f.Type.Name] {
			case visiting:
				f.Indirect = true
			case 0:
				visit(f.Type.Name)
			}
		}
		state[name] = done
	}
	for _, name := range sortedKeys(fields) {
		if state[name] == 0 {
			visit(name)
		}
	}
}

// markOutputs flags the output types of operations, which carry
// ResultMetadata.
func (b *builder) markOutputs(ops []*Operation) {
	outputs := map[string]bool{}
	for _, op := range ops {
		outputs[op.Output] = true
	}
	for _, t := range b.types {
		t.Output = outputs[t.Name]
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
