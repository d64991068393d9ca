package generator

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	yaml4 "go.yaml.in/yaml/v4"
	"gopkg.in/yaml.v3"
)

// This file decodes the spec tree straight into kin-openapi's document
// (openapi3.T) for the shapes real specs use, instead of copying the tree
// into go.yaml.in/yaml/v4 nodes (kinTree) and letting kin-openapi v0.153.0
// decode it by reflection (openapi3/native_yaml*.go, refs.go). Issue 24:
// that step was 16 % of generating S3 and 14 % of SQS.
//
// Correct or fall back: every branch below does what kin-openapi's
// UnmarshalYAML for the type does on the input it accepts, and anything
// it is not certain to reproduce (a null where an object belongs, a number
// spelled in a way other than plain decimal, a $ref with siblings, a key
// kin-openapi declares but this file does not decode itself...) is handed
// to kin-openapi's own decoder: for one subtree (kinSub: the subtree is
// copied with kinTree and decoded into the same Go type, which is exactly
// what kin-openapi's decoder does for that field, as every UnmarshalYAML
// decodes its node alone) or, if kin-openapi's decoder refuses it, for the
// whole document, so its error is reported in its own words.
//
// Origins are not set: kin-openapi sets them only during a load that asks
// for them (openapi3/origin.go originsApply), and loadOpenAPI does not.
//
// Where the comments below name kin-openapi's rules, they are in
// github.com/getkin/kin-openapi v0.153.0, package openapi3:
//   - native_yaml.go: decodeMapping, decodeStructWithExtensions,
//     collectExtensions, checkDeclaredFields (requireStringScalar,
//     stringList), decodeAny, normalizeDecoded, normalizeAnyFields,
//     prepareScalars (nameKeys, stripLocalTag, stripTimestamp, checkFinite);
//   - native_yaml_shadow.go: the types decoded by decodeMapping alone
//     (Components, Info, Parameter, PathItem, MediaType, Response, ...);
//   - native_yaml_special.go: unmarshalMaplikeYAML (Paths, Responses,
//     Callback), (*Header), (*Types), (*BoolSchema), (*Schema),
//     (*ExclusiveBound), (*Operation), (*T), (*SecurityRequirement)
//     UnmarshalYAML;
//   - native_yaml_refs.go: unmarshalRefYAML, used by every (*XRef)
//     UnmarshalYAML in refs.go;
//
// and what they leave to go.yaml.in/yaml/v4 v4.0.0 is in its
// internal/libyaml: constructor.go (Construct, prepare, null, scalar,
// constructStr/Int/Bool/Float, sequence, mapping, mappingStruct) and
// resolver.go (resolve, resolveMapList).

// kinDecodeOff turns decodeKinDoc off, so that tests can compare it with
// kin-openapi's own decoding.
var kinDecodeOff = false

// kinSubBudget is how many nodes kinSub may copy beyond twice the number
// decodeKinDoc read itself.
const kinSubBudget = 100_000

// kinSubTrace, when set (by tests), is given each subtree kinSub hands to
// kin-openapi's decoder.
var kinSubTrace func(key string, n *yaml.Node)

// kinMaxDepth bounds the nesting decodeKinDoc follows; a deeper tree goes
// to kin-openapi's decoder (checkDuplicateKeys has already refused trees
// deeper than maxNestingDepth when the spec comes through Load).
const kinMaxDepth = 2000

// kinDecoder holds the state of one decodeKinDoc.
type kinDecoder struct {
	depth int
	// hard is set when kin-openapi's own decoder refused a subtree: the
	// whole document must then go through it, for its error.
	hard bool
	// subs counts the subtrees handed to kin-openapi's decoder (kinSub).
	subs int
	// at is the last declared key read (for kinSubTrace).
	at string
	// own counts the children of the collections this file read, and
	// copied the nodes handed to kinSub: a subtree read here, then left
	// to kin, and its parent too, and so on, could take time quadratic in
	// the depth, so past kinSubBudget the whole document goes to kin.
	own, copied int
}

// decodeKinDoc returns the document kin-openapi's decoder makes of doc
// (a DocumentNode holding no alias or merge key: hasAliases), before
// ResolveRefsIn, or false when it leaves doc to that decoder. It does not
// change doc.
func decodeKinDoc(doc *yaml.Node) (*openapi3.T, bool) {
	api, ok, _ := decodeKinDocCount(doc)
	return api, ok
}

// decodeKinDocCount is decodeKinDoc, also returning how many subtrees it
// handed to kin-openapi's decoder.
func decodeKinDocCount(doc *yaml.Node) (*openapi3.T, bool, int) {
	if kinDecodeOff || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, false, 0
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, false, 0
	}
	var d kinDecoder
	api, ok := d.doc(root)
	if !ok || d.hard {
		return nil, false, d.subs
	}
	return api, true, d.subs
}

// kinFieldIndex maps the keys a type declares (its yaml tags, as
// openapi3/native_yaml.go yamlFields reads them: the tag's name, else the
// field's name in lower case; "-" skipped; exported fields only) to its
// field's index. A key not declared is an extension (collectExtensions).
type kinFieldIndex map[string]int

func kinFields[T any]() kinFieldIndex {
	t := reflect.TypeFor[T]()
	m := kinFieldIndex{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		if name != "-" {
			m[name] = i
		}
	}
	return m
}

var (
	kinFieldsT            = kinFields[openapi3.T]()
	kinFieldsComponents   = kinFields[openapi3.Components]()
	kinFieldsPathItem     = kinFields[openapi3.PathItem]()
	kinFieldsOperation    = kinFields[openapi3.Operation]()
	kinFieldsParameter    = kinFields[openapi3.Parameter]()
	kinFieldsRequest      = kinFields[openapi3.RequestBody]()
	kinFieldsResponse     = kinFields[openapi3.Response]()
	kinFieldsMediaType    = kinFields[openapi3.MediaType]()
	kinFieldsSchema       = kinFields[openapi3.Schema]()
	kinFieldsXML          = kinFields[openapi3.XML]()
	kinFieldsExternalDocs = kinFields[openapi3.ExternalDocs]()
	kinFieldsInfo         = kinFields[openapi3.Info]()
	kinFieldsContact      = kinFields[openapi3.Contact]()
	kinFieldsLicense      = kinFields[openapi3.License]()
	kinFieldsServer       = kinFields[openapi3.Server]()
	kinFieldsExample      = kinFields[openapi3.Example]()
	kinFieldsEncoding     = kinFields[openapi3.Encoding]()
)

// kinTag is the tag kin-openapi's decoder sees on scalar n after its
// prepareScalars (openapi3/native_yaml.go stripLocalTag, stripTimestamp):
// an application's own tag and a timestamp read as strings.
func kinTag(n *yaml.Node) string {
	t := n.Tag
	if t == "!!timestamp" || strings.HasPrefix(t, "!") && !strings.HasPrefix(t, "!!") {
		return "!!str"
	}
	return t
}

// key returns the name a mapping key is read under (openapi3 nameKeys: a
// scalar key's text), or false for a key kin-openapi refuses or treats
// apart: not a scalar, null, a merge key (isMergeKey), untagged.
func (d *kinDecoder) key(k *yaml.Node) (string, bool) {
	if k.Kind != yaml.ScalarNode || k.Tag == "" || k.Tag == "!!null" || k.Tag == "!!merge" || k.Value == "<<" {
		return "", false
	}
	return k.Value, true
}

// str reads a string field: only a scalar kin-openapi resolves to a
// string (checkDeclaredFields refuses the others; a null leaves the field
// empty, go.yaml.in/yaml/v4 constructor.go null, which is left to kin).
func (d *kinDecoder) str(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode || kinTag(n) != "!!str" {
		return "", false
	}
	return n.Value, true
}

// strPtr is str for a *string field (yaml v4 prepare allocates it).
func (d *kinDecoder) strPtr(n *yaml.Node) (*string, bool) {
	s, ok := d.str(n)
	if !ok {
		return nil, false
	}
	return &s, true
}

// boolean reads a bool field: only a scalar tagged !!bool written true or
// false (yaml v4 constructBool also takes "yes", "on"... from a string,
// which is left to kin).
func (d *kinDecoder) boolean(n *yaml.Node) (bool, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		return false, false
	}
	switch n.Value {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// isDecimal reports whether s is an integer in plain decimal without a
// leading zero or sign "+", which yaml v4's resolve reads the same with
// strconv.ParseInt(s, 0, 64) as with base 10 (resolver.go resolve: a
// leading 0 is octal there, "_" is dropped).
func isDecimal(s string) bool {
	if strings.HasPrefix(s, "-") {
		s = s[1:]
	}
	if s == "" || s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isDecimalFloat reports whether s is a decimal number with a fraction
// or exponent that yaml v4's resolve reads with strconv.ParseFloat as is:
// digits without a leading zero, then "." and digits, then an exponent.
func isDecimalFloat(s string) bool {
	if strings.HasPrefix(s, "-") {
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || s[0] == '0' && i > 1 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j {
			return false
		}
		i = k
	}
	return i == len(s)
}

// number reads a scalar as yaml v4 resolves it into a float64 (resolve,
// then constructFloat): !!int in plain decimal, !!float in plain decimal
// notation. Anything else is left to kin.
func (d *kinDecoder) number(n *yaml.Node) (float64, bool) {
	if n.Kind != yaml.ScalarNode || n.Value == "-0" || n.Value == "-0.0" {
		// yaml v4 resolves -0 and -0.0 to the float negative zero from its
		// table (resolver.go resolveMapList) whatever the node's tag, and
		// refuses it under !!int, where yaml.v3 puts it.
		return 0, false
	}
	switch n.Tag {
	case "!!int":
		if !isDecimal(n.Value) {
			return 0, false
		}
		i, err := strconv.ParseInt(n.Value, 10, 64)
		if err != nil {
			return 0, false
		}
		return float64(i), true
	case "!!float":
		if !isDecimalFloat(n.Value) {
			return 0, false
		}
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil {
			return 0, false
		}
		return f, true
	}
	return 0, false
}

// float reads a *float64 field.
func (d *kinDecoder) float(n *yaml.Node) (*float64, bool) {
	f, ok := d.number(n)
	if !ok {
		return nil, false
	}
	return &f, true
}

// uint reads a uint64 field: !!int in plain decimal, not negative (yaml
// v4 constructInt). A float is left to kin.
func (d *kinDecoder) uint(n *yaml.Node) (uint64, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || !isDecimal(n.Value) || strings.HasPrefix(n.Value, "-") {
		return 0, false
	}
	u, err := strconv.ParseUint(n.Value, 10, 64)
	if err != nil {
		return 0, false
	}
	return u, true
}

// uintPtr reads a *uint64 field.
func (d *kinDecoder) uintPtr(n *yaml.Node) (*uint64, bool) {
	u, ok := d.uint(n)
	if !ok {
		return nil, false
	}
	return &u, true
}

// strings reads a []string field: a sequence of strings (a null element,
// which checkDeclaredFields' stringList keeps as "", is left to kin; so is
// a scalar, which yaml v4 refuses).
func (d *kinDecoder) strings(n *yaml.Node) ([]string, bool) {
	if n.Kind != yaml.SequenceNode {
		return nil, false
	}
	list := make([]string, len(n.Content))
	for i, e := range n.Content {
		s, ok := d.str(e)
		if !ok {
			return nil, false
		}
		list[i] = s
	}
	return list, true
}

// value reads a value kin-openapi decodes into an any (decodeAny, and
// normalizeAnyFields for a struct's any fields): yaml v4's resolve, then
// normalizeDecoded (an integer becomes a float64). A mapping becomes a
// map[string]any (its keys are retagged as strings by nameKeys) and a
// sequence a []any, a null element kept as nil (yaml v4 sequence).
func (d *kinDecoder) value(n *yaml.Node) (any, bool) {
	switch n.Kind {
	case yaml.ScalarNode:
		switch kinTag(n) {
		case "!!str":
			return n.Value, true
		case "!!null":
			return nil, true
		case "!!bool":
			return d.boolean(n)
		case "!!int", "!!float":
			return d.number(n)
		}
		return nil, false
	case yaml.SequenceNode:
		if !d.enter(n) {
			return nil, false
		}
		defer d.leave()
		list := make([]any, len(n.Content))
		for i, e := range n.Content {
			v, ok := d.value(e)
			if !ok {
				return nil, false
			}
			list[i] = v
		}
		return list, true
	case yaml.MappingNode:
		if !d.enter(n) {
			return nil, false
		}
		defer d.leave()
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, ok := d.key(n.Content[i])
			if !ok {
				return nil, false
			}
			if _, dup := m[k]; dup {
				return nil, false
			}
			v, ok := d.value(n.Content[i+1])
			if !ok {
				return nil, false
			}
			m[k] = v
		}
		return m, true
	}
	return nil, false
}

// values reads a []any field (enum, examples): a sequence, each element as
// value reads it.
func (d *kinDecoder) values(n *yaml.Node) ([]any, bool) {
	if n.Kind != yaml.SequenceNode {
		return nil, false
	}
	v, ok := d.value(n)
	if !ok {
		return nil, false
	}
	return v.([]any), true
}

// enter goes one level down into collection n, false when that is deeper
// than kinMaxDepth.
func (d *kinDecoder) enter(n *yaml.Node) bool {
	d.own += len(n.Content)
	if d.depth >= kinMaxDepth {
		return false
	}
	d.depth++
	return true
}

// leave comes back up from enter.
func (d *kinDecoder) leave() { d.depth-- }

// kinSub decodes n into out (a pointer to the field or value) with
// kin-openapi's own decoder, as its decoder does for that field. A refusal
// marks the whole document for that decoder (hard).
func (d *kinDecoder) kinSub(n *yaml.Node, out any) bool {
	if d.hard {
		return false
	}
	d.subs++
	if kinSubTrace != nil {
		kinSubTrace(d.at, n)
	}
	// The copy's blocks sized to the subtree: kinTree's blocks of 256
	// nodes are for the whole spec (a url under externalDocs would cost
	// 48 KiB).
	var slab kinSlab
	nodes, ptrs := kinCount(n)
	d.copied += nodes
	if d.copied > 2*d.own+kinSubBudget {
		d.hard = true
		return false
	}
	slab.free = make([]yaml4.Node, nodes)
	if ptrs > 0 {
		slab.ptrs = make([]*yaml4.Node, ptrs)
	}
	tree, err := slab.copy(n, false)
	if err == nil {
		err = tree.Decode(out)
	}
	if err != nil {
		d.hard = true
		return false
	}
	return true
}

// kinCount returns how many nodes the tree n holds, and how many of their
// children fit kinSlab's shared lists (kinSlab.content).
func kinCount(n *yaml.Node) (nodes, ptrs int) {
	nodes = 1
	if len(n.Content) <= kinSlabPtrs/4 {
		ptrs = len(n.Content)
	}
	for _, c := range n.Content {
		a, b := kinCount(c)
		nodes += a
		ptrs += b
	}
	return nodes, ptrs
}

// field decodes a declared field this file has no branch for, through the
// struct's reflection: a string or bool field as str and boolean do, an
// any as value does, anything else with kinSub. A list of strings and a
// map of texts are left to kin (checkDeclaredFields holds them to strings
// after the decode).
func (d *kinDecoder) field(st reflect.Value, index int, n *yaml.Node) bool {
	f := st.Field(index)
	switch f.Kind() {
	case reflect.String:
		s, ok := d.str(n)
		f.SetString(s)
		return ok
	case reflect.Bool:
		b, ok := d.boolean(n)
		f.SetBool(b)
		return ok
	case reflect.Interface:
		v, ok := d.value(n)
		if ok && v != nil {
			f.Set(reflect.ValueOf(v))
		}
		return ok
	}
	if !notNull(n) {
		return false
	}
	var ok bool
	switch p := f.Addr().Interface().(type) {
	case **bool:
		var b bool
		b, ok = d.boolean(n)
		*p = &b
		return ok
	case **string:
		*p, ok = d.strPtr(n)
		return ok
	case **openapi3.ExternalDocs:
		*p, ok = kinStruct[openapi3.ExternalDocs](d, n, kinFieldsExternalDocs)
		return ok
	case **openapi3.Info:
		*p, ok = kinStruct[openapi3.Info](d, n, kinFieldsInfo)
		return ok
	case **openapi3.Contact:
		*p, ok = kinStruct[openapi3.Contact](d, n, kinFieldsContact)
		return ok
	case **openapi3.License:
		*p, ok = kinStruct[openapi3.License](d, n, kinFieldsLicense)
		return ok
	case *openapi3.Servers:
		*p, ok = d.servers(n)
		return ok
	case **openapi3.Servers:
		var v openapi3.Servers
		v, ok = d.servers(n)
		*p = &v
		return ok
	case *openapi3.SecurityRequirements:
		*p, ok = d.security(n)
		return ok
	case **openapi3.SecurityRequirements:
		var v openapi3.SecurityRequirements
		v, ok = d.security(n)
		*p = &v
		return ok
	case *openapi3.Examples:
		*p, ok = kinMap[openapi3.Examples](d, n, d.exampleRef)
		return ok
	case *openapi3.Encodings:
		*p, ok = kinMap[openapi3.Encodings](d, n, func(n *yaml.Node) (*openapi3.Encoding, bool) {
			return kinStruct[openapi3.Encoding](d, n, kinFieldsEncoding)
		})
		return ok
	}
	t := f.Type()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.String:
		return false
	case t.Kind() == reflect.Slice && (t.Elem().Kind() == reflect.String || t.Elem().Kind() == reflect.Interface):
		return false
	case t.Kind() == reflect.Map && (t.Elem().Kind() == reflect.String || t.Elem().Kind() == reflect.Interface):
		return false
	case t.Kind() == reflect.Map && reflect.PointerTo(t.Elem()).Implements(reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()):
		return false
	}
	return d.kinSub(n, f.Addr().Interface())
}

// servers reads openapi3.Servers (yaml v4 sequence of *Server; a null
// element is left to kin).
func (d *kinDecoder) servers(n *yaml.Node) (openapi3.Servers, bool) {
	if n.Kind != yaml.SequenceNode {
		return nil, false
	}
	list := make(openapi3.Servers, len(n.Content))
	for i, e := range n.Content {
		if !notNull(e) {
			return nil, false
		}
		var ok bool
		if list[i], ok = kinStruct[openapi3.Server](d, e, kinFieldsServer); !ok {
			return nil, false
		}
	}
	return list, true
}

// security reads openapi3.SecurityRequirements: a sequence of
// SecurityRequirement ((*SecurityRequirement).UnmarshalYAML: a map, made
// even when empty, of scheme names to lists of scopes, each list as
// stringList keeps it). A null, or scopes other than a list of strings,
// are left to kin.
func (d *kinDecoder) security(n *yaml.Node) (openapi3.SecurityRequirements, bool) {
	if n.Kind != yaml.SequenceNode || !d.enter(n) {
		return nil, false
	}
	defer d.leave()
	list := make(openapi3.SecurityRequirements, len(n.Content))
	for i, e := range n.Content {
		if e.Kind != yaml.MappingNode {
			return nil, false
		}
		r := make(openapi3.SecurityRequirement, len(e.Content)/2)
		for j := 0; j+1 < len(e.Content); j += 2 {
			k, ok := d.key(e.Content[j])
			if !ok {
				return nil, false
			}
			if _, dup := r[k]; dup {
				return nil, false
			}
			scopes, ok := d.strings(e.Content[j+1])
			if !ok {
				return nil, false
			}
			r[k] = scopes
		}
		list[i] = r
	}
	return list, true
}

// exampleRef decodes an openapi3.ExampleRef ((*ExampleRef).UnmarshalYAML),
// or has kin decode it.
func (d *kinDecoder) exampleRef(n *yaml.Node) (*openapi3.ExampleRef, bool) {
	ref, summary, description, isRef, ok := d.refOnly(n, true)
	if ok && isRef {
		return &openapi3.ExampleRef{Ref: ref, Summary: summary, Description: description}, true
	}
	if ok {
		if e, ok := kinStruct[openapi3.Example](d, n, kinFieldsExample); ok {
			return &openapi3.ExampleRef{Value: e}, true
		}
	}
	var r openapi3.ExampleRef
	return &r, d.kinSub(n, &r)
}

// kinStruct decodes a T (one of the types whose UnmarshalYAML is
// decodeMapping) field by field with field, or has kin decode it.
func kinStruct[T any](d *kinDecoder, n *yaml.Node, fields kinFieldIndex) (*T, bool) {
	v := new(T)
	st := reflect.ValueOf(v).Elem()
	ext, ok := d.mapping(n, fields, func(k string, index int, f *yaml.Node) bool {
		return d.field(st, index, f)
	})
	if ok {
		if ext != nil {
			st.FieldByName("Extensions").Set(reflect.ValueOf(ext))
		}
		return v, true
	}
	var w T
	return &w, d.kinSub(n, &w)
}

// mapping walks the pairs of a mapping decoded into a struct
// (openapi3 decodeStructWithExtensions): each declared key (in fields) is
// passed to set, once (yaml v4 mappingStruct refuses a field set twice);
// every other key is an extension, its value read as value reads it
// (collectExtensions: all undeclared keys, x- or not). It returns the
// extensions, nil when there are none.
func (d *kinDecoder) mapping(n *yaml.Node, fields kinFieldIndex, set func(key string, index int, v *yaml.Node) bool) (map[string]any, bool) {
	if n.Kind != yaml.MappingNode || !d.enter(n) {
		return nil, false
	}
	defer d.leave()
	var seen [2]uint64
	var ext map[string]any
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, ok := d.key(n.Content[i])
		if !ok {
			return nil, false
		}
		v := n.Content[i+1]
		if index, declared := fields[k]; declared {
			if index >= 128 || seen[index/64]&(1<<(index%64)) != 0 {
				return nil, false
			}
			seen[index/64] |= 1 << (index % 64)
			d.at = k
			if !set(k, index, v) {
				return nil, false
			}
			continue
		}
		if _, dup := ext[k]; dup {
			return nil, false
		}
		x, ok := d.value(v)
		if !ok {
			return nil, false
		}
		if ext == nil {
			ext = map[string]any{}
		}
		ext[k] = x
	}
	return ext, true
}

// notNull reports whether n is not a null, which yaml v4 decodes into a
// pointer, map or slice as nil (constructor.go null) and which is left to
// kin.
func notNull(n *yaml.Node) bool {
	return !(n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// doc decodes the root (openapi3 (*T).UnmarshalYAML: decodeMapping).
func (d *kinDecoder) doc(n *yaml.Node) (*openapi3.T, bool) {
	api := &openapi3.T{}
	st := reflect.ValueOf(api).Elem()
	ext, ok := d.mapping(n, kinFieldsT, func(k string, index int, v *yaml.Node) bool {
		var ok bool
		switch k {
		case "openapi":
			api.OpenAPI, ok = d.str(v)
		case "paths":
			api.Paths, ok = d.paths(v)
		case "components":
			api.Components, ok = d.components(v)
		default:
			ok = d.field(st, index, v)
		}
		return ok
	})
	if !ok {
		return nil, false
	}
	api.Extensions = ext
	return api, true
}

// maplike reads a mapping of components (openapi3/native_yaml_special.go
// unmarshalMaplikeYAML, for Paths and Responses): x- keys are extensions,
// every other key an entry; the extensions' map is made even when empty.
func maplike[V any](d *kinDecoder, n *yaml.Node, entry func(*yaml.Node) (*V, bool), set func(string, *V)) (map[string]any, bool) {
	if n.Kind != yaml.MappingNode || !d.enter(n) {
		return nil, false
	}
	defer d.leave()
	ext := map[string]any{}
	keys := make(map[string]struct{}, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, ok := d.key(n.Content[i])
		if !ok {
			return nil, false
		}
		if _, dup := keys[k]; dup {
			return nil, false
		}
		keys[k] = struct{}{}
		v := n.Content[i+1]
		if strings.HasPrefix(k, "x-") {
			x, ok := d.value(v)
			if !ok {
				return nil, false
			}
			ext[k] = x
			continue
		}
		if !notNull(v) {
			return nil, false
		}
		e, ok := entry(v)
		if !ok {
			return nil, false
		}
		set(k, e)
	}
	return ext, true
}

// paths decodes openapi3.Paths (unmarshalMaplikeYAML).
func (d *kinDecoder) paths(n *yaml.Node) (*openapi3.Paths, bool) {
	if !notNull(n) {
		return nil, false
	}
	p := openapi3.NewPathsWithCapacity(len(n.Content) / 2)
	ext, ok := maplike(d, n, d.pathItem, p.Set)
	if !ok {
		return nil, false
	}
	p.Extensions = ext
	return p, true
}

// responses decodes openapi3.Responses (unmarshalMaplikeYAML; a null,
// which (*Operation).UnmarshalYAML marks explicitlyNull, is left to kin).
func (d *kinDecoder) responses(n *yaml.Node) (*openapi3.Responses, bool) {
	if !notNull(n) {
		return nil, false
	}
	r := openapi3.NewResponsesWithCapacity(len(n.Content) / 2)
	ext, ok := maplike(d, n, d.responseRef, r.Set)
	if !ok {
		return nil, false
	}
	r.Extensions = ext
	return r, true
}

// components decodes openapi3.Components (decodeMapping; its fields are
// plain maps, which yaml v4 fills entry by entry).
func (d *kinDecoder) components(n *yaml.Node) (*openapi3.Components, bool) {
	if !notNull(n) {
		return nil, false
	}
	c := &openapi3.Components{}
	st := reflect.ValueOf(c).Elem()
	ext, ok := d.mapping(n, kinFieldsComponents, func(k string, index int, v *yaml.Node) bool {
		var ok bool
		switch k {
		case "schemas":
			c.Schemas, ok = kinMap[openapi3.Schemas](d, v, d.schemaRef)
		case "parameters":
			c.Parameters, ok = kinMap[openapi3.ParametersMap](d, v, d.parameterRef)
		case "headers":
			c.Headers, ok = kinMap[openapi3.Headers](d, v, d.headerRef)
		case "requestBodies":
			c.RequestBodies, ok = kinMap[openapi3.RequestBodies](d, v, d.requestBodyRef)
		case "responses":
			c.Responses, ok = kinMap[openapi3.ResponseBodies](d, v, d.responseRef)
		default:
			ok = d.field(st, index, v)
		}
		return ok
	})
	if !ok {
		return nil, false
	}
	c.Extensions = ext
	return c, true
}

// kinMap reads a map field of components (yaml v4 constructor.go mapping:
// a new map, even when empty; a null entry, which it keeps as nil, is left
// to kin).
func kinMap[M ~map[string]*V, V any](d *kinDecoder, n *yaml.Node, entry func(*yaml.Node) (*V, bool)) (M, bool) {
	if n.Kind != yaml.MappingNode || !d.enter(n) {
		return nil, false
	}
	defer d.leave()
	m := make(M, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, ok := d.key(n.Content[i])
		if !ok {
			return nil, false
		}
		if _, dup := m[k]; dup {
			return nil, false
		}
		v := n.Content[i+1]
		if !notNull(v) {
			return nil, false
		}
		e, ok := entry(v)
		if !ok {
			return nil, false
		}
		m[k] = e
	}
	return m, true
}

// kinOr returns own's value for n, or kin-openapi's decoding of n into a
// new V when own leaves it (the same as its decoder does for a pointer
// field or a maplike entry: a new V, then its UnmarshalYAML).
func kinOr[V any](d *kinDecoder, n *yaml.Node, own func(*yaml.Node) (*V, bool)) (*V, bool) {
	if v, ok := own(n); ok {
		return v, true
	}
	var v V
	return &v, d.kinSub(n, &v)
}

// pathItem decodes openapi3.PathItem, or has kin decode it.
func (d *kinDecoder) pathItem(n *yaml.Node) (*openapi3.PathItem, bool) {
	return kinOr(d, n, d.pathItemOwn)
}

// pathItemOwn decodes openapi3.PathItem (decodeMapping). A path item with
// a $ref is left to kin.
func (d *kinDecoder) pathItemOwn(n *yaml.Node) (*openapi3.PathItem, bool) {
	p := &openapi3.PathItem{}
	st := reflect.ValueOf(p).Elem()
	ext, ok := d.mapping(n, kinFieldsPathItem, func(k string, index int, v *yaml.Node) bool {
		var ok bool
		var op **openapi3.Operation
		switch k {
		case "summary":
			p.Summary, ok = d.str(v)
			return ok
		case "description":
			p.Description, ok = d.str(v)
			return ok
		case "parameters":
			p.Parameters, ok = d.parameters(v)
			return ok
		case "get":
			op = &p.Get
		case "put":
			op = &p.Put
		case "post":
			op = &p.Post
		case "delete":
			op = &p.Delete
		case "patch":
			op = &p.Patch
		case "head":
			op = &p.Head
		case "options":
			op = &p.Options
		case "trace":
			op = &p.Trace
		case "$ref":
			return false
		default:
			return d.field(st, index, v)
		}
		if !notNull(v) {
			return false
		}
		*op, ok = d.operation(v)
		return ok
	})
	if !ok {
		return nil, false
	}
	p.Extensions = ext
	return p, true
}

// operation decodes openapi3.Operation, or has kin decode it.
func (d *kinDecoder) operation(n *yaml.Node) (*openapi3.Operation, bool) {
	return kinOr(d, n, d.operationOwn)
}

// operationOwn decodes openapi3.Operation ((*Operation).UnmarshalYAML).
func (d *kinDecoder) operationOwn(n *yaml.Node) (*openapi3.Operation, bool) {
	op := &openapi3.Operation{}
	st := reflect.ValueOf(op).Elem()
	ext, ok := d.mapping(n, kinFieldsOperation, func(k string, index int, v *yaml.Node) bool {
		var ok bool
		switch k {
		case "tags":
			op.Tags, ok = d.strings(v)
		case "summary":
			op.Summary, ok = d.str(v)
		case "description":
			op.Description, ok = d.str(v)
		case "operationId":
			op.OperationID, ok = d.str(v)
		case "parameters":
			op.Parameters, ok = d.parameters(v)
		case "requestBody":
			if notNull(v) {
				op.RequestBody, ok = d.requestBodyRef(v)
			}
		case "responses":
			op.Responses, ok = d.responses(v)
		case "deprecated":
			op.Deprecated, ok = d.boolean(v)
		default:
			ok = d.field(st, index, v)
		}
		return ok
	})
	if !ok {
		return nil, false
	}
	op.Extensions = ext
	return op, true
}

// parameters reads openapi3.Parameters (yaml v4 sequence; a null element,
// which it drops, is left to kin).
func (d *kinDecoder) parameters(n *yaml.Node) (openapi3.Parameters, bool) {
	if n.Kind != yaml.SequenceNode {
		return nil, false
	}
	list := make(openapi3.Parameters, len(n.Content))
	for i, e := range n.Content {
		if !notNull(e) {
			return nil, false
		}
		p, ok := d.parameterRef(e)
		if !ok {
			return nil, false
		}
		list[i] = p
	}
	return list, true
}

// refOnly reads a reference written alone (openapi3/native_yaml_refs.go
// unmarshalRefYAML): a mapping whose "$ref" is a non-empty string, beside
// at most a summary and description when the wrapper declares them
// (withText). isRef is false for a mapping without "$ref", which the
// wrapper decodes as a value; ok is false for any other sibling (kept by
// kin-openapi in fields this package cannot set) or a "$ref" that is not a
// non-empty string.
func (d *kinDecoder) refOnly(n *yaml.Node, withText bool) (ref string, summary, description *string, isRef, ok bool) {
	if n.Kind != yaml.MappingNode {
		return "", nil, nil, false, true
	}
	has := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "$ref" {
			has = true
			break
		}
	}
	if !has {
		return "", nil, nil, false, true
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, okk := d.key(n.Content[i])
		if !okk {
			return "", nil, nil, true, false
		}
		v := n.Content[i+1]
		switch {
		case k == "$ref" && ref == "":
			s, oks := d.str(v)
			if !oks || s == "" || v.Tag != "!!str" {
				return "", nil, nil, true, false
			}
			ref = s
		case k == "summary" && withText && summary == nil:
			if summary, okk = d.strPtr(v); !okk {
				return "", nil, nil, true, false
			}
		case k == "description" && withText && description == nil:
			if description, okk = d.strPtr(v); !okk {
				return "", nil, nil, true, false
			}
		default:
			return "", nil, nil, true, false
		}
	}
	return ref, summary, description, true, true
}

// schemaRef decodes an openapi3.SchemaRef ((*SchemaRef).UnmarshalYAML),
// or has kin decode it.
func (d *kinDecoder) schemaRef(n *yaml.Node) (*openapi3.SchemaRef, bool) {
	if r, ok := d.schemaRefOwn(n); ok {
		return r, true
	}
	var r openapi3.SchemaRef
	return &r, d.kinSub(n, &r)
}

func (d *kinDecoder) schemaRefOwn(n *yaml.Node) (*openapi3.SchemaRef, bool) {
	ref, _, _, isRef, ok := d.refOnly(n, false)
	if !ok {
		return nil, false
	}
	if isRef {
		return &openapi3.SchemaRef{Ref: ref}, true
	}
	s, ok := d.schema(n)
	if !ok {
		return nil, false
	}
	return &openapi3.SchemaRef{Value: s}, true
}

// schemaRefs reads openapi3.SchemaRefs (a sequence; a null element is left
// to kin).
func (d *kinDecoder) schemaRefs(n *yaml.Node) (openapi3.SchemaRefs, bool) {
	if n.Kind != yaml.SequenceNode {
		return nil, false
	}
	list := make(openapi3.SchemaRefs, len(n.Content))
	for i, e := range n.Content {
		if !notNull(e) {
			return nil, false
		}
		r, ok := d.schemaRef(e)
		if !ok {
			return nil, false
		}
		list[i] = r
	}
	return list, true
}

// schemaRefPtr reads a *SchemaRef field (a null is left to kin).
func (d *kinDecoder) schemaRefPtr(n *yaml.Node) (*openapi3.SchemaRef, bool) {
	if !notNull(n) {
		return nil, false
	}
	return d.schemaRef(n)
}

// schema decodes openapi3.Schema ((*Schema).UnmarshalYAML: true or false
// as Always, else decodeMapping).
func (d *kinDecoder) schema(n *yaml.Node) (*openapi3.Schema, bool) {
	if n.Kind == yaml.ScalarNode {
		b, ok := d.boolean(n)
		if !ok {
			return nil, false
		}
		return &openapi3.Schema{Always: &b}, true
	}
	s := &openapi3.Schema{}
	st := reflect.ValueOf(s).Elem()
	ext, ok := d.mapping(n, kinFieldsSchema, func(k string, index int, v *yaml.Node) bool {
		var ok bool
		switch k {
		case "type":
			var t openapi3.Types
			t, ok = d.types(v)
			s.Type = &t
		case "properties":
			s.Properties, ok = kinMap[openapi3.Schemas](d, v, d.schemaRef)
		case "items":
			s.Items, ok = d.schemaRefPtr(v)
		case "description":
			s.Description, ok = d.str(v)
		case "format":
			s.Format, ok = d.str(v)
		case "title":
			s.Title, ok = d.str(v)
		case "pattern":
			s.Pattern, ok = d.str(v)
		case "required":
			s.Required, ok = d.strings(v)
		case "enum":
			s.Enum, ok = d.values(v)
		case "examples":
			s.Examples, ok = d.values(v)
		case "default":
			s.Default, ok = d.value(v)
		case "example":
			s.Example, ok = d.value(v)
		case "const":
			s.Const, ok = d.value(v)
		case "oneOf":
			s.OneOf, ok = d.schemaRefs(v)
		case "anyOf":
			s.AnyOf, ok = d.schemaRefs(v)
		case "allOf":
			s.AllOf, ok = d.schemaRefs(v)
		case "not":
			s.Not, ok = d.schemaRefPtr(v)
		case "additionalProperties":
			s.AdditionalProperties, ok = d.boolSchema(v)
		case "nullable":
			s.Nullable, ok = d.boolean(v)
		case "readOnly":
			s.ReadOnly, ok = d.boolean(v)
		case "writeOnly":
			s.WriteOnly, ok = d.boolean(v)
		case "deprecated":
			s.Deprecated, ok = d.boolean(v)
		case "uniqueItems":
			s.UniqueItems, ok = d.boolean(v)
		case "minimum":
			s.Min, ok = d.float(v)
		case "maximum":
			s.Max, ok = d.float(v)
		case "multipleOf":
			s.MultipleOf, ok = d.float(v)
		case "exclusiveMinimum":
			s.ExclusiveMin, ok = d.exclusiveBound(v)
		case "exclusiveMaximum":
			s.ExclusiveMax, ok = d.exclusiveBound(v)
		case "minLength":
			s.MinLength, ok = d.uint(v)
		case "maxLength":
			s.MaxLength, ok = d.uintPtr(v)
		case "minItems":
			s.MinItems, ok = d.uint(v)
		case "maxItems":
			s.MaxItems, ok = d.uintPtr(v)
		case "minProperties":
			s.MinProps, ok = d.uint(v)
		case "maxProperties":
			s.MaxProps, ok = d.uintPtr(v)
		case "xml":
			if notNull(v) {
				s.XML, ok = d.xml(v)
			}
		default:
			ok = d.field(st, index, v)
		}
		return ok
	})
	if !ok {
		return nil, false
	}
	s.Extensions = ext
	return s, true
}

// types reads openapi3.Types ((*Types).UnmarshalYAML: one string, or a
// list of strings; a null is left to kin).
func (d *kinDecoder) types(n *yaml.Node) (openapi3.Types, bool) {
	if n.Kind == yaml.ScalarNode {
		s, ok := d.str(n)
		if !ok {
			return nil, false
		}
		return openapi3.Types{s}, true
	}
	list, ok := d.strings(n)
	return openapi3.Types(list), ok
}

// boolSchema reads openapi3.BoolSchema ((*BoolSchema).UnmarshalYAML: true
// or false as Has, a mapping as a SchemaRef; a null or another scalar is
// left to kin).
func (d *kinDecoder) boolSchema(n *yaml.Node) (openapi3.BoolSchema, bool) {
	if n.Kind == yaml.ScalarNode {
		b, ok := d.boolean(n)
		if !ok {
			return openapi3.BoolSchema{}, false
		}
		return openapi3.BoolSchema{Has: &b}, true
	}
	if n.Kind != yaml.MappingNode {
		return openapi3.BoolSchema{}, false
	}
	r, ok := d.schemaRef(n)
	return openapi3.BoolSchema{Schema: r}, ok
}

// exclusiveBound reads openapi3.ExclusiveBound ((*ExclusiveBound).
// UnmarshalYAML: a bool, else a number; anything else is left to kin).
func (d *kinDecoder) exclusiveBound(n *yaml.Node) (openapi3.ExclusiveBound, bool) {
	if b, ok := d.boolean(n); ok {
		return openapi3.ExclusiveBound{Bool: &b}, true
	}
	f, ok := d.float(n)
	return openapi3.ExclusiveBound{Value: f}, ok
}

// xml decodes openapi3.XML (decodeMapping).
func (d *kinDecoder) xml(n *yaml.Node) (*openapi3.XML, bool) {
	return kinStruct[openapi3.XML](d, n, kinFieldsXML)
}

// parameterRef decodes an openapi3.ParameterRef ((*ParameterRef).
// UnmarshalYAML), or has kin decode it.
func (d *kinDecoder) parameterRef(n *yaml.Node) (*openapi3.ParameterRef, bool) {
	ref, summary, description, isRef, ok := d.refOnly(n, true)
	if ok && isRef {
		return &openapi3.ParameterRef{Ref: ref, Summary: summary, Description: description}, true
	}
	if ok {
		if p, ok := d.parameter(n); ok {
			return &openapi3.ParameterRef{Value: p}, true
		}
	}
	var r openapi3.ParameterRef
	return &r, d.kinSub(n, &r)
}

// headerRef decodes an openapi3.HeaderRef; a Header decodes as the
// Parameter it embeds ((*Header).UnmarshalYAML).
func (d *kinDecoder) headerRef(n *yaml.Node) (*openapi3.HeaderRef, bool) {
	ref, summary, description, isRef, ok := d.refOnly(n, true)
	if ok && isRef {
		return &openapi3.HeaderRef{Ref: ref, Summary: summary, Description: description}, true
	}
	if ok {
		if p, ok := d.parameter(n); ok {
			return &openapi3.HeaderRef{Value: &openapi3.Header{Parameter: *p}}, true
		}
	}
	var r openapi3.HeaderRef
	return &r, d.kinSub(n, &r)
}

// parameter decodes openapi3.Parameter (decodeMapping).
func (d *kinDecoder) parameter(n *yaml.Node) (*openapi3.Parameter, bool) {
	p := &openapi3.Parameter{}
	st := reflect.ValueOf(p).Elem()
	ext, ok := d.mapping(n, kinFieldsParameter, func(k string, index int, v *yaml.Node) bool {
		var ok bool
		switch k {
		case "name":
			p.Name, ok = d.str(v)
		case "in":
			p.In, ok = d.str(v)
		case "description":
			p.Description, ok = d.str(v)
		case "required":
			p.Required, ok = d.boolean(v)
		case "schema":
			p.Schema, ok = d.schemaRefPtr(v)
		case "content":
			p.Content, ok = kinMap[openapi3.Content](d, v, d.mediaType)
		case "explode":
			var b bool
			b, ok = d.boolean(v)
			p.Explode = &b
		case "example":
			p.Example, ok = d.value(v)
		default:
			ok = d.field(st, index, v)
		}
		return ok
	})
	if !ok {
		return nil, false
	}
	p.Extensions = ext
	return p, true
}

// requestBodyRef decodes an openapi3.RequestBodyRef, or has kin decode it.
func (d *kinDecoder) requestBodyRef(n *yaml.Node) (*openapi3.RequestBodyRef, bool) {
	ref, summary, description, isRef, ok := d.refOnly(n, true)
	if ok && isRef {
		return &openapi3.RequestBodyRef{Ref: ref, Summary: summary, Description: description}, true
	}
	if ok {
		if b, ok := d.requestBody(n); ok {
			return &openapi3.RequestBodyRef{Value: b}, true
		}
	}
	var r openapi3.RequestBodyRef
	return &r, d.kinSub(n, &r)
}

// requestBody decodes openapi3.RequestBody (decodeMapping).
func (d *kinDecoder) requestBody(n *yaml.Node) (*openapi3.RequestBody, bool) {
	b := &openapi3.RequestBody{}
	st := reflect.ValueOf(b).Elem()
	ext, ok := d.mapping(n, kinFieldsRequest, func(k string, index int, v *yaml.Node) bool {
		var ok bool
		switch k {
		case "description":
			b.Description, ok = d.str(v)
		case "required":
			b.Required, ok = d.boolean(v)
		case "content":
			b.Content, ok = kinMap[openapi3.Content](d, v, d.mediaType)
		default:
			ok = d.field(st, index, v)
		}
		return ok
	})
	if !ok {
		return nil, false
	}
	b.Extensions = ext
	return b, true
}

// responseRef decodes an openapi3.ResponseRef, or has kin decode it.
func (d *kinDecoder) responseRef(n *yaml.Node) (*openapi3.ResponseRef, bool) {
	ref, summary, description, isRef, ok := d.refOnly(n, true)
	if ok && isRef {
		return &openapi3.ResponseRef{Ref: ref, Summary: summary, Description: description}, true
	}
	if ok {
		if r, ok := d.response(n); ok {
			return &openapi3.ResponseRef{Value: r}, true
		}
	}
	var r openapi3.ResponseRef
	return &r, d.kinSub(n, &r)
}

// response decodes openapi3.Response (decodeMapping).
func (d *kinDecoder) response(n *yaml.Node) (*openapi3.Response, bool) {
	r := &openapi3.Response{}
	st := reflect.ValueOf(r).Elem()
	ext, ok := d.mapping(n, kinFieldsResponse, func(k string, index int, v *yaml.Node) bool {
		var ok bool
		switch k {
		case "description":
			r.Description, ok = d.strPtr(v)
		case "content":
			r.Content, ok = kinMap[openapi3.Content](d, v, d.mediaType)
		case "headers":
			r.Headers, ok = kinMap[openapi3.Headers](d, v, d.headerRef)
		default:
			ok = d.field(st, index, v)
		}
		return ok
	})
	if !ok {
		return nil, false
	}
	r.Extensions = ext
	return r, true
}

// mediaType decodes openapi3.MediaType, or has kin decode it.
func (d *kinDecoder) mediaType(n *yaml.Node) (*openapi3.MediaType, bool) {
	return kinOr(d, n, d.mediaTypeOwn)
}

// mediaTypeOwn decodes openapi3.MediaType (decodeMapping).
func (d *kinDecoder) mediaTypeOwn(n *yaml.Node) (*openapi3.MediaType, bool) {
	m := &openapi3.MediaType{}
	st := reflect.ValueOf(m).Elem()
	ext, ok := d.mapping(n, kinFieldsMediaType, func(k string, index int, v *yaml.Node) bool {
		var ok bool
		switch k {
		case "schema":
			m.Schema, ok = d.schemaRefPtr(v)
		case "example":
			m.Example, ok = d.value(v)
		default:
			ok = d.field(st, index, v)
		}
		return ok
	})
	if !ok {
		return nil, false
	}
	m.Extensions = ext
	return m, true
}
