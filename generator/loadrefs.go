package generator

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Split specs. A spec may be split across files under its own directory
// (the layout `redocly split` writes): relative $refs name a file and,
// after "#", a JSON pointer into it. bundle reads them into the spec's tree
// before anything else looks at it, so that x-retry, the 3.1 conversion,
// kin-openapi and the builder see one document:
//
//   - a $ref to a component of another file ("common.yaml#/components/
//     schemas/Error") copies that component into the spec's own components
//     (renamed Error2 … when the name is taken) and becomes a local $ref;
//   - a root component that is a $ref to a file ("Thing: {$ref:
//     schemas/Thing.yaml}") is replaced by the file's content, and every
//     other $ref to that file becomes a $ref to the component;
//   - a $ref to a file or a fragment ("schemas/Pet.yaml", "enums.yaml#/
//     Status") where a schema, a parameter, a request body, a response or a
//     response header goes makes what it names one component of that kind,
//     named after the fragment's last token or the file's name ("Status",
//     "Pet"; "Pet2" … when taken), and becomes a $ref to it: a file
//     referenced from 400 places is bundled once, one Go type, as in the
//     same spec written in one file;
//   - any other $ref is replaced by a copy of what it names: a path item
//     ("/x: {$ref: paths/x.yaml}"), an operation ("get: {$ref: …}", not
//     standard OpenAPI but common in split specs) or a description
//     ("description: {$ref: description.yml#/intro}"; a file that is not
//     YAML or JSON, such as intro.md, is read as text);
//   - a discriminator's mapping value that names another file's schema
//     ("Dog.yaml", "pets.yaml#/components/schemas/Dog") is bundled as a
//     $ref there would be, and becomes the component's local reference;
//   - $refs inside a referenced file are read relative to that file.
//
// A $ref that is a URL or leaves the spec's directory is refused with an
// error located at the $ref; the directory is opened as an os.Root, so a
// symbolic link that leaves it is refused too (as is any file that exists
// but cannot be read). A $ref to a file or pointer that
// does not exist is degraded (see degrade): its operation is skipped.

// refTarget is a node of one of the spec's files: the file's slash path
// relative to the spec's directory and a JSON pointer into it.
type refTarget struct {
	file, ptr string
}

// refOrigin is where a $ref was written: the file (slash path relative to
// the spec's directory), the JSON pointer of the mapping holding it and
// the reference as written.
type refOrigin struct {
	file, ptr, ref string
}

// bundler reads the files a spec's $refs name into its tree.
type bundler struct {
	fsys     fs.FS  // the spec's directory; nil when the spec has no directory (no file can be read)
	dir      string // the spec's directory as the user gave it, for messages
	rootName string // the spec's file name
	root     *yaml.Node
	d        *diags
	budget   *nodeBudget
	files    map[string]*yaml.Node // parsed files by name; nil: the file is missing
	fileErr  map[string]string     // why a file could not be read
	refused  map[string]bool       // files that exist but cannot be read (an error, not a dangling $ref)
	hoisted  map[refTarget]string  // target → pointer of its component in the spec
	copied   map[refTarget]bool    // targets copied once (later copies are charged to the budget)
	stack    []refTarget           // targets being inlined, outermost first
	origin   map[*yaml.Node]refOrigin
	skip     *skipSet
	fatal    error // a refusal that stops the load (budget, syntax error)
	// bundled holds the components put into the spec, walked when copied:
	// the walk of the spec's own components passes them by.
	bundled map[*yaml.Node]bool
}

// bundle reads every file the $refs of root (the spec's root mapping) name
// into root. Refusals are error diagnostics in d; a fatal error (the node
// budget, a referenced file that is not valid YAML) is returned.
func bundle(root *yaml.Node, rootName, dir string, fsys fs.FS, d *diags, budget *nodeBudget, skip *skipSet) (map[*yaml.Node]refOrigin, error) {
	b := &bundler{fsys: fsys, dir: dir, rootName: rootName, root: root, d: d, budget: budget,
		files: map[string]*yaml.Node{rootName: root}, fileErr: map[string]string{}, refused: map[string]bool{},
		hoisted: map[refTarget]string{}, copied: map[refTarget]bool{}, origin: map[*yaml.Node]refOrigin{}, skip: skip,
		bundled: map[*yaml.Node]bool{}}
	b.registerRootComponents()
	if namesOtherFiles(root) {
		b.walk(root, rootName, "", "")
	}
	return b.origin, b.fatal
}

// namesOtherFiles reports whether a $ref or a discriminator mapping value
// below n may name another file (see mappingRef): only then has walk
// anything to do in a spec's own file, whose "#…" references checkRefs
// reads. It builds no pointers: on a one-file spec the walk that did was
// 3 % of generating Stripe's client (issue 24). Example data is not passed
// by, so it may answer true where walk finds nothing.
func namesOtherFiles(n *yaml.Node) bool {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
	case yaml.MappingNode:
		if ref, ok := refValue(n); ok && !strings.HasPrefix(ref, "#") {
			return true
		}
		if d := mapValue(n, "discriminator"); d != nil {
			if m := mapValue(d, "mapping"); m != nil && m.Kind == yaml.MappingNode {
				for i := 1; i < len(m.Content); i += 2 {
					if v := m.Content[i]; v.Kind == yaml.ScalarNode && mappingRef(v.Value) && !strings.HasPrefix(v.Value, "#") {
						return true
					}
				}
			}
		}
	default:
		return false
	}
	for _, c := range n.Content {
		if namesOtherFiles(c) {
			return true
		}
	}
	return false
}

// registerRootComponents records the root components that are a $ref to
// another file, so every $ref to that file becomes a $ref to the component.
func (b *bundler) registerRootComponents() {
	comps := mapValue(b.root, "components")
	if comps == nil || comps.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(comps.Content); i += 2 {
		kind, m := comps.Content[i].Value, comps.Content[i+1]
		if m.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(m.Content); j += 2 {
			ref, ok := refValue(m.Content[j+1])
			if !ok || strings.HasPrefix(ref, "#") {
				continue
			}
			if t, err := b.target(b.rootName, ref); err == nil {
				if _, taken := b.hoisted[t]; !taken {
					b.hoisted[t] = pointer("components", kind, m.Content[j].Value)
				}
			}
		}
	}
}

// mappingRef reports whether a discriminator's mapping value is a
// reference (it holds a "/" or "#", or names a YAML or JSON file), not a
// schema name.
func mappingRef(v string) bool {
	switch strings.ToLower(path.Ext(v)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return strings.ContainsAny(v, "/#")
}

// refValue returns the reference of a {$ref: "…"} mapping.
func refValue(n *yaml.Node) (string, bool) {
	v := mapValue(n, "$ref")
	if v == nil || v.Kind != yaml.ScalarNode {
		return "", false
	}
	return v.Value, true
}

// setRef makes the $ref of mapping n say ref.
func setRef(n *yaml.Node, ref string) {
	v := mapValue(n, "$ref")
	*v = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: ref, Line: v.Line, Column: v.Column}
}

// walk reads the $refs below n, a node of file at pointer src, which is at
// pointer out in the bundled spec.
func (b *bundler) walk(n *yaml.Node, file, src, out string) {
	if b.fatal != nil || b.bundled[n] {
		return
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			b.walk(c, file, src, out)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			b.walk(c, file, child(src, strconv.Itoa(i)), child(out, strconv.Itoa(i)))
		}
	case yaml.MappingNode:
		if ref, ok := refValue(n); ok {
			b.ref(n, ref, file, src, out)
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if exampleData(src, k, n.Content[i+1]) {
				continue // data, not spec (issue 19)
			}
			if k == "discriminator" && !strings.HasSuffix(src, "/properties") {
				b.mapping(n.Content[i+1], file, child(src, k), child(out, k))
				continue
			}
			b.walk(n.Content[i+1], file, child(src, k), child(out, k))
		}
	}
}

// ref reads the $ref of mapping n (see bundle).
func (b *bundler) ref(n *yaml.Node, ref, file, src, out string) {
	if strings.HasPrefix(ref, "#") && file == b.rootName {
		return // a $ref inside the spec: checked by checkRefs
	}
	b.origin[n] = refOrigin{file, src, ref}
	at := child(src, "$ref")
	t, err := b.target(file, ref)
	if err != nil {
		b.d.errorIn(b.path(file), at, "$ref %q: %v", ref, err)
		return
	}
	if t.file == b.rootName {
		setRef(n, "#"+t.ptr)
		return
	}
	if p, ok := b.hoisted[t]; ok && p != out {
		setRef(n, "#"+p)
		return
	}
	if slices.Contains(b.stack, t) {
		// A schema that refers to itself through files: it becomes a
		// component, and the copy being made is put there when done.
		p := b.claimComponent("schemas", t, file, at, ref)
		b.hoisted[t] = p
		setRef(n, "#"+p)
		return
	}
	tn, why := b.node(t)
	if b.fatal != nil {
		return
	}
	if tn == nil && b.refused[t.file] {
		b.d.errorIn(b.path(file), at, "$ref %q: %s", ref, why)
		return
	}
	if tn == nil {
		b.dangling(n, file, at, out, fmt.Sprintf("$ref %q cannot be resolved: %s", ref, why))
		return
	}
	if _, done := b.hoisted[t]; !done {
		if kind := b.componentKind(t, tn, out); kind != "" {
			b.hoisted[t] = b.claimComponent(kind, t, file, at, ref)
		}
	}
	c := b.budget.copyNode(tn, b.copied[t])
	b.copied[t] = true
	if c == nil {
		b.fatal = fmt.Errorf("%s#%s: $ref %q: copying what $refs name exceeds %s that aliases, referenced files and overlays may add", b.path(file), fragment(at), ref, budgetText)
		return
	}
	b.stack = append(b.stack, t)
	p, hoist := b.hoisted[t]
	if hoist && p != out {
		b.walk(c, t.file, t.ptr, p)
	} else {
		b.walk(c, t.file, t.ptr, out)
	}
	b.stack = b.stack[:len(b.stack)-1]
	if p, ok := b.hoisted[t]; ok && p != out {
		if err := b.setComponent(p, c); err != nil {
			b.d.errorIn(b.path(file), at, "$ref %q: %v", ref, err)
			return
		}
		b.bundled[nodeAt(b.root, p)] = true
		setRef(n, "#"+p)
		return
	}
	*n = *c
}

// componentKind returns the component kind (schemas, parameters, …) the
// target t (its node tn), referenced from pointer out of the bundled spec,
// is bundled as, or "" when it is copied in place. A component of another
// file stays a component of its kind; a file or a fragment referenced
// where a schema, a parameter, a request body, a response or a header
// goes becomes one component of that kind, so a file referenced from 400
// places is one component (one Go type named after the file or fragment),
// as in the same spec written in one file.
func (b *bundler) componentKind(t refTarget, tn *yaml.Node, out string) string {
	if kind, _, ok := componentPointer(t.ptr); ok {
		return kind
	}
	if tn.Kind != yaml.MappingNode {
		return "" // text (a description) or a value that is no object
	}
	toks := splitPointer(out)
	if n := len(toks); isSchemaPosition(toks) || n >= 3 && toks[n-3] == "discriminator" && toks[n-2] == "mapping" {
		return "schemas" // a discriminator's mapping names a schema (see mapping)
	}
	if kind := expectedKind(toks); kind != "" {
		return kind
	}
	if n := len(toks); n >= 3 && toks[n-2] == "headers" && toks[n-3] != "properties" {
		return "headers" // of a response or an encoding
	}
	return ""
}

// mapping bundles the values of a discriminator's mapping (disc, at
// pointer src of file, out of the bundled spec) that name a schema of
// another file ("pets/Dog.yaml", "common.yaml#/components/schemas/Dog",
// or "#/components/schemas/Dog" written in another file) as a $ref there
// would be: the schema becomes one component and the value its local
// reference ("#/components/schemas/Dog"). A bare schema name ("Dog") is
// left as written. A value that names nothing is a warning located at it,
// and the entry is removed (the variant keeps the name of its schema); a
// URL or a path that leaves the spec's directory is an error.
func (b *bundler) mapping(disc *yaml.Node, file, src, out string) {
	m := mapValue(disc, "mapping")
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	src, out = child(src, "mapping"), child(out, "mapping")
	deletePairs(m, func(k, v *yaml.Node) bool {
		if b.fatal != nil || v.Kind != yaml.ScalarNode {
			return false
		}
		ref, at := v.Value, child(src, k.Value)
		if !mappingRef(ref) || strings.HasPrefix(ref, "#") && file == b.rootName {
			return false // a schema name, or a $ref checked with the spec's own
		}
		t, err := b.target(file, ref)
		if err != nil {
			b.d.errorIn(b.path(file), at, "discriminator mapping %q: %v", ref, err)
			return false
		}
		if t.file != b.rootName {
			if tn, why := b.node(t); tn == nil {
				if b.fatal != nil {
					return false
				}
				if b.refused[t.file] {
					b.d.errorIn(b.path(file), at, "discriminator mapping %q: %s", ref, why)
					return false
				}
				b.d.warnIn(b.path(file), at, "discriminator mapping %q cannot be resolved: %s; the entry is ignored", ref, why)
				return true
			}
		}
		// Bundled as a $ref at a schema's place would be: a component.
		r := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: "$ref"},
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: ref, Line: v.Line, Column: v.Column}}}
		b.ref(r, ref, file, at, child(out, k.Value))
		delete(b.origin, r)
		if local, ok := refValue(r); ok && strings.HasPrefix(local, "#") {
			v.Value, v.Tag, v.Style = local, "!!str", 0
		}
		return false
	})
}

// dangling degrades the $ref mapping n (at pointer out of the bundled
// spec; at locates the $ref) that names nothing.
func (b *bundler) dangling(n *yaml.Node, file, at, out, msg string) {
	degrade(n, out, b.path(file), at, msg, b.d, b.skip)
}

// target resolves ref, written in file, to a file and a pointer; it refuses
// URLs and paths that leave the spec's directory.
func (b *bundler) target(file, ref string) (refTarget, error) {
	p, frag, _ := strings.Cut(ref, "#")
	if urlScheme.MatchString(p) || strings.HasPrefix(p, "//") {
		if at, ok := findID(b.root, p, nil); ok {
			return refTarget{}, fmt.Errorf("names the schema at #%s by its $id, which is not resolved; write $ref: '#%s'", fragment(at), fragment(at+frag))
		}
		return refTarget{}, fmt.Errorf("is a URL; only files under the spec's directory %s are read", b.dirName())
	}
	if p == "" {
		p = file
	} else {
		u, err := url.PathUnescape(p)
		if err != nil {
			return refTarget{}, fmt.Errorf("bad percent-encoding: %v", err)
		}
		if path.IsAbs(u) || filepath.IsAbs(u) || strings.Contains(u, "\\") {
			return refTarget{}, fmt.Errorf("is an absolute path; only relative paths under the spec's directory %s are read", b.dirName())
		}
		p = path.Join(path.Dir(file), u)
		if !fs.ValidPath(p) || p == "." {
			return refTarget{}, fmt.Errorf("leaves the spec's directory %s; only files under it are read", b.dirName())
		}
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		return refTarget{}, fmt.Errorf("fragment %q is not a JSON pointer (anchors are not supported across files)", frag)
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	return refTarget{file: p, ptr: frag}, nil
}

// urlScheme matches a URI scheme ("https:", "file:").
var urlScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// node returns the node t names, reading its file once; nil and why when
// there is none.
func (b *bundler) node(t refTarget) (*yaml.Node, string) {
	doc, ok := b.files[t.file]
	if !ok {
		doc = b.read(t.file)
		b.files[t.file] = doc
	}
	if doc == nil {
		return nil, b.fileErr[t.file]
	}
	n := nodeAt(doc, t.ptr)
	if n == nil {
		return nil, fmt.Sprintf("%s has nothing at #%s", t.file, fragment(t.ptr))
	}
	return n, ""
}

// read parses a referenced file: YAML or JSON by its extension, else text
// (a description in Markdown). A missing file is recorded in fileErr; a
// syntax error or an alias bomb is fatal.
func (b *bundler) read(name string) *yaml.Node {
	if b.fsys == nil {
		b.fileErr[name] = "the spec was not read from a directory, so no file can be referenced"
		return nil
	}
	raw, err := readFSFile(b.fsys, name, b.path(name))
	if err == nil {
		if err = b.budget.chargeBytes(b.path(name), len(raw)); err != nil {
			b.fatal = err
			return nil
		}
	}
	if err != nil {
		var ie *inputFileError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			b.fileErr[name] = fmt.Sprintf("file %s does not exist", b.path(name))
		case errors.As(err, &ie):
			b.fileErr[name] = "file " + ie.msg
			b.refused[name] = true
		default:
			// It exists but cannot be read: a symbolic link that leaves
			// the directory (os.Root refuses it), no permission.
			b.fileErr[name] = fmt.Sprintf("file %s cannot be read: %v", b.path(name), err)
			b.refused[name] = true
		}
		return nil
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".yaml", ".yml", ".json":
	default:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: string(raw)}
	}
	doc, err := parseYAML(b.path(name), raw)
	if err == nil {
		err = b.budget.chargeAliases(b.path(name), doc)
	}
	if err != nil {
		b.fatal = err
		return nil
	}
	return doc
}

// path names a file of the spec as the user would: under the spec's
// directory as given.
func (b *bundler) path(name string) string {
	if name == b.rootName {
		return b.d.file
	}
	return filepath.Join(b.dir, filepath.FromSlash(name))
}

func (b *bundler) dirName() string {
	if b.dir == "" {
		return "."
	}
	return b.dir
}

// claimComponent returns a free pointer /components/KIND/NAME for t, NAME
// being the last token of its pointer or its file's name without
// extension, with a number appended when taken: then with a warning
// located at the $ref ref (pointer at of file) that brought t in, as a Go
// name that is taken gets one.
func (b *bundler) claimComponent(kind string, t refTarget, file, at, ref string) string {
	name := path.Base(t.file)
	name = strings.TrimSuffix(name, path.Ext(name))
	if toks := splitPointer(t.ptr); len(toks) > 0 && toks[len(toks)-1] != "" {
		name = toks[len(toks)-1]
	}
	taken := func(p string) bool {
		if nodeAt(b.root, p) != nil {
			return true
		}
		for _, q := range b.hoisted {
			if q == p {
				return true
			}
		}
		return false
	}
	p := pointer("components", kind, name)
	if !taken(p) {
		return p
	}
	got := name
	for i := 2; taken(p); i++ {
		got = name + strconv.Itoa(i)
		p = pointer("components", kind, got)
	}
	b.d.warnIn(b.path(file), at, "$ref %q: component name %s is taken; using %s (#%s)", ref, name, got, p)
	return p
}

// setComponent puts c at pointer p (/components/KIND/NAME) of the spec,
// making the mappings on the way.
func (b *bundler) setComponent(p string, c *yaml.Node) error {
	n := b.root
	toks := splitPointer(p)
	for i, tok := range toks {
		if n.Kind != yaml.MappingNode {
			return fmt.Errorf("#%s is not a mapping, so the referenced component cannot be added to it", fragment(pointer(toks[:i]...)))
		}
		v := mapValue(n, tok)
		if i == len(toks)-1 {
			if v != nil {
				*v = *c
				return nil
			}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: tok}, c)
			return nil
		}
		if v == nil {
			v = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: tok}, v)
		}
		n = v
	}
	return nil
}

// componentKinds are the maps of an OpenAPI components object.
var componentKinds = []string{"schemas", "responses", "parameters", "examples", "requestBodies", "headers",
	"securitySchemes", "links", "callbacks", "pathItems"}

// componentPointer reports whether ptr is /components/KIND/NAME, and
// returns KIND and NAME.
func componentPointer(ptr string) (kind, name string, ok bool) {
	toks := splitPointer(ptr)
	if len(toks) != 3 || toks[0] != "components" || !slices.Contains(componentKinds, toks[1]) {
		return "", "", false
	}
	return toks[1], toks[2], true
}

// splitPointer returns the unescaped reference tokens of a JSON pointer
// ("" → none).
func splitPointer(ptr string) []string {
	if ptr == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, t := range toks {
		if strings.Contains(t, "~") {
			toks[i] = pointerUnescaper.Replace(t)
		}
	}
	return toks
}

// nodeAt returns the node at JSON pointer ptr below n (a document or its
// root), following aliases, or nil.
func nodeAt(n *yaml.Node, ptr string) *yaml.Node {
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) != 1 {
			return nil
		}
		n = n.Content[0]
	}
	for _, tok := range splitPointer(ptr) {
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		switch n.Kind {
		case yaml.MappingNode:
			n = mapValue(n, tok)
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Content) || strconv.Itoa(i) != tok {
				return nil
			}
			n = n.Content[i]
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

// findID returns the JSON pointer of the mapping below n whose $id is id
// (a 3.1 schema identifier), walked only for a $ref that is a URL, so the
// refusal can name the schema meant (trial F13). toks are n's pointer
// tokens.
func findID(n *yaml.Node, id string, toks []string) (string, bool) {
	switch n.Kind {
	case yaml.MappingNode:
		if v := mapValue(n, "$id"); v != nil && v.Value == id {
			return pointer(toks...), true
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if p, ok := findID(n.Content[i+1], id, append(toks[:len(toks):len(toks)], n.Content[i].Value)); ok {
				return p, true
			}
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			if p, ok := findID(v, id, append(toks[:len(toks):len(toks)], strconv.Itoa(i))); ok {
				return p, true
			}
		}
	}
	return "", false
}
